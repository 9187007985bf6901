//! The command line's contract, run as a user would: exit statuses, error positions, the JSON
//! shapes. These tests assert no simulation outcome, so they hold whatever a scenario turns out
//! to show.
#![allow(
    clippy::disallowed_methods,
    reason = "the Ctrl-C tests time how soon the binary ends after the signal"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

#[path = "support/command.rs"]
mod command;
use command::locksim;

/// The smallest valid scenario: every field but these has a default.
const MINIMAL: &str = r#"
version = 1
name = "One worker"
seed = 5

[[worker]]
name = "A"
"#;

/// Writes `contents` to a file of this name in Cargo's scratch directory for tests.
fn scenario_file(name: &str, contents: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).expect("write the scenario file");
    path
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

fn status(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

#[test]
fn a_missing_file_is_invalid_input_naming_the_file() {
    let out = locksim(&["run", "no/such/scenario.toml"]);
    assert_eq!(status(&out), 2);
    assert!(text(&out.stderr).starts_with("no/such/scenario.toml: "));
    assert!(out.stdout.is_empty());
}

#[test]
fn malformed_toml_is_invalid_input_with_its_position() {
    let path = scenario_file("malformed.toml", "version = 1\nname = \"x\"\nseed = \n");
    let path = path.to_str().unwrap();
    for args in [vec!["run", path], vec!["check", path, "--seeds", "2"]] {
        let out = locksim(&args);
        assert_eq!(status(&out), 2, "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with(&format!("{path}:")), "{stderr}");
        assert!(stderr.starts_with(&format!("{path}:3:")), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn run_json_has_the_documented_keys() {
    let path = scenario_file("run-json.toml", MINIMAL);
    let out = locksim(&["run", path.to_str().unwrap(), "--json"]);
    let doc = json(&out);
    let safe = doc["safe"].as_bool().expect("safe is a bool");
    let live = doc["live"].as_bool().expect("live is a bool");
    assert_eq!(status(&out), if safe && live { 0 } else { 1 });
    for v in doc["violations"]
        .as_array()
        .expect("violations is an array")
    {
        assert!(v["kind"].is_string() && v["at_ms"].is_u64(), "{v}");
        assert!(
            v["nodes"].as_array().unwrap().iter().all(Value::is_string),
            "{v}"
        );
        assert!(v["explanation"].is_string(), "{v}");
    }
    assert!(
        doc["cut_short_at_ms"].is_null(),
        "a short run is not cut: {doc}"
    );
    let stats = &doc["stats"];
    for key in [
        "events",
        "messages",
        "grants",
        "writes_accepted",
        "writes_rejected",
    ] {
        assert!(stats[key].is_u64(), "stats.{key} in {stats}");
    }
}

#[test]
fn run_ends_with_the_command_that_reproduces_it() {
    let path = scenario_file("run-text.toml", MINIMAL);
    let path = path.to_str().unwrap();
    let out = locksim(&["run", path, "--seed", "42"]);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("One worker\n"), "{stdout}");
    assert!(stdout.contains("  seed      42\n"), "{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    assert_eq!(last, format!("reproduce: locksim run {path} --seed 42"));
    assert!(matches!(status(&out), 0 | 1));
}

#[test]
fn verify_fails_a_file_without_an_expect_table() {
    let path = scenario_file("no-expect.toml", MINIMAL);
    let path = path.to_str().unwrap();
    let out = locksim(&["verify", path]);
    assert_eq!(status(&out), 1);
    assert_eq!(
        text(&out.stdout),
        format!("FAIL  {path}  (One worker): no [expect] table\n")
    );
}

/// An empty `[expect]` table is met by any run: verify says it checks nothing and fails the
/// file, as it fails one without the table.
#[test]
fn verify_fails_a_file_whose_expect_table_is_empty() {
    let path = scenario_file("empty-expect.toml", &format!("{MINIMAL}\n[expect]\n"));
    let path = path.to_str().unwrap();
    let out = locksim(&["verify", path]);
    assert_eq!(status(&out), 1);
    assert_eq!(
        text(&out.stdout),
        format!(
            "FAIL  {path}  (One worker): its [expect] table is empty, so it checks nothing: \
             give safe, live, kinds or absent\n"
        )
    );
}

#[test]
fn verify_reports_an_unusable_file_as_invalid_input() {
    let good = scenario_file("verify-good.toml", MINIMAL);
    let out = locksim(&["verify", good.to_str().unwrap(), "no/such/scenario.toml"]);
    assert_eq!(status(&out), 2);
    assert!(text(&out.stderr).starts_with("no/such/scenario.toml: "));
    assert_eq!(
        text(&out.stdout).lines().count(),
        1,
        "one line for the good file"
    );
}

#[test]
fn verify_says_a_path_too_long_to_open_is_unreadable() {
    let long = "x".repeat(65_536);
    let out = locksim(&[
        "verify",
        "assets/scenarios/step5-pause-unfenced.toml",
        &long,
    ]);
    assert_eq!(status(&out), 2, "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!("{long}: cannot read the file")),
        "{}",
        &stderr[65_536..]
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("ok    assets/scenarios/step5-pause-unfenced.toml "),
        "{stdout}"
    );
    assert!(
        stdout.len() < 200,
        "the long name widens no column: {stdout}"
    );
}

#[test]
fn check_json_counts_every_run_and_kind() {
    let path = scenario_file("check-json.toml", MINIMAL);
    let out = locksim(&["check", path.to_str().unwrap(), "--seeds", "3", "--json"]);
    let doc = json(&out);
    assert_eq!(doc["runs"], 3);
    assert!(doc["events"].as_u64().is_some_and(|n| n > 0), "{doc}");
    assert_eq!(doc["cut_short"], 0);
    let safe = doc["safe"].as_u64().expect("safe is a count");
    let live = doc["live"].as_u64().expect("live is a count");
    assert!(safe <= 3 && live <= 3);
    assert_eq!(status(&out), if safe == 3 && live == 3 { 0 } else { 1 });
    let kinds = doc["kinds"].as_object().expect("kinds is an object");
    for kind in [
        "stale_write",
        "interleaved_writes",
        "overlap",
        "double_grant",
        "foreign_release",
        "stuck",
        "starved",
    ] {
        let count = &kinds[kind];
        assert!(
            count["runs"].as_u64().is_some_and(|n| n <= 3),
            "{kind}: {count}"
        );
        assert!(count["first_seed"].is_u64() || count["first_seed"].is_null());
    }
    // The price follows the counts: acquire latency, throughput, availability.
    let p50 = doc["latency_ms"]["p50"].as_u64().expect("p50 is ms");
    let p99 = doc["latency_ms"]["p99"].as_u64().expect("p99 is ms");
    assert!(p50 <= p99, "{doc}");
    assert!(doc["throughput_per_s"].as_f64().is_some_and(|x| x > 0.0));
    assert!(
        doc["availability"]
            .as_f64()
            .is_some_and(|x| (0.0..=1.0).contains(&x))
    );
    let raw = text(&out.stdout);
    let at = |field: &str| raw.find(&format!("\"{field}\"")).expect(field);
    assert!(at("kinds") < at("latency_ms"));
    assert!(at("latency_ms") < at("throughput_per_s"));
    assert!(at("throughput_per_s") < at("availability"));
    // stderr is a pipe here, so the progress bar must not draw.
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

/// Sixty-four workers that want one token lock for 50 simulated minutes: about ten million
/// events, more than the engine's budget allows, so the run is cut short.
fn sixty_four_workers() -> String {
    let mut s = String::from(
        "version = 1\nname = \"Sixty-four workers\"\nuntil_ms = 3000000\n\n\
         [lock]\ndesign = \"token\"\nttl_ms = 1000\n",
    );
    for i in 0..64 {
        s += &format!("\n[[worker]]\nname = \"W{i}\"\nrepeat = 0\nretry_ms = 50\nwork_ms = 100\n");
    }
    s
}

#[test]
fn a_run_cut_short_by_the_event_budget_says_so() {
    let path = scenario_file("sixty-four-workers.toml", &sixty_four_workers());
    let path = path.to_str().unwrap();
    let run = json(&locksim(&["run", path, "--json"]));
    let cut = run["cut_short_at_ms"]
        .as_u64()
        .expect("the run stopped at the event budget and says where");
    assert!(0 < cut && cut < 3_000_000, "cut at {cut} ms");
    // Nothing is judged for time never simulated.
    for v in run["violations"].as_array().expect("violations") {
        assert!(v["at_ms"].as_u64().is_some_and(|at| at < cut), "{v}");
    }
    let check = json(&locksim(&["check", path, "--seeds", "1", "--json"]));
    assert_eq!(check["runs"], 1);
    assert_eq!(check["cut_short"], 1);
    assert_eq!(check["events"], run["stats"]["events"]);
}

/// A PNG over the pixel cap is refused before any output is written: the SVG asked for beside
/// it is not left behind on its own.
#[test]
fn a_png_too_large_is_refused_before_anything_is_written() {
    let path = scenario_file("sixty-four-workers-wide.toml", &sixty_four_workers());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let (svg, png) = (dir.join("too-wide.svg"), dir.join("too-wide.png"));
    let _ = std::fs::remove_file(&svg);
    let out = locksim(&[
        "render",
        path.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
        "--width",
        "20000",
    ]);
    assert_eq!(status(&out), 2, "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("more than 10000000 pixels"),
        "{}",
        text(&out.stderr)
    );
    assert!(!svg.exists() && !png.exists());
}

/// Counts read as people write them: one run is singular, and digits come in groups of three.
#[test]
fn check_counts_its_runs_in_words() {
    let path = scenario_file("check-one.toml", MINIMAL);
    let out = locksim(&["check", path.to_str().unwrap(), "--seeds", "1"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("One worker: 1 run, seed 5\n"),
        "{stdout}"
    );
    let out = locksim(&[
        "check",
        path.to_str().unwrap(),
        "--seeds",
        "1000",
        "--from",
        "10000",
    ]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("One worker: 1 000 runs, seeds 10000 to 10999\n"),
        "{stdout}"
    );
}

#[test]
fn seeds_past_the_last_say_where_the_first_came_from() {
    let near_the_end = MINIMAL.replace("seed = 5", "seed = 18446744073709551610");
    let path = scenario_file("check-last-seeds.toml", &near_the_end);
    let file = path.to_str().unwrap();
    let out = locksim(&["check", file, "--seeds", "10"]);
    assert_eq!(status(&out), 2);
    let said = text(&out.stderr);
    assert!(
        said.starts_with("the file's seed 18446744073709551610 with --seeds 10 runs past"),
        "{said}"
    );
    let out = locksim(&[
        "check",
        file,
        "--seeds",
        "10",
        "--from",
        "18446744073709551615",
    ]);
    let said = text(&out.stderr);
    assert!(
        said.starts_with("--from 18446744073709551615 with --seeds 10 runs past"),
        "{said}"
    );
}

#[test]
fn a_usage_error_is_invalid_input() {
    assert_eq!(status(&locksim(&["run"])), 2);
    assert_eq!(
        status(&locksim(&["check", "x.toml"])),
        2,
        "--seeds is required"
    );
    assert_eq!(status(&locksim(&["check", "x.toml", "--seeds", "0"])), 2);
    assert_eq!(status(&locksim(&["--help"])), 0);
    // A count of 0 is refused in words, not with the largest 64-bit number as a bound.
    for args in [
        ["check", "x.toml", "--seeds", "0"],
        ["search", "x.toml", "--tries", "0"],
    ] {
        let err = text(&locksim(&args).stderr);
        assert!(err.contains("must be at least 1"), "{err}");
        assert!(!err.contains("18446744073709551615"), "{err}");
    }
}

/// Every numeric option out of its range is refused in words naming the option and the bound
/// it crossed, never with a type's largest value (`0 is not in 1..=65535`) as if it were a
/// limit; a value that is no number at all says so.
#[test]
fn numeric_options_are_refused_in_words_naming_the_bound() {
    let file = "assets/scenarios/step5-pause-unfenced.toml";
    for (args, said) in [
        (
            vec!["check", file, "--seeds", "0"],
            "'--seeds <N>': must be at least 1",
        ),
        (
            vec!["check", file, "--seeds", "2", "--threads", "0"],
            "'--threads <N>': must be at least 1",
        ),
        (
            vec!["check", file, "--seeds", "2", "--threads", "70000"],
            "'--threads <N>': must be at most 65 535",
        ),
        (
            vec!["check", file, "--seeds", "2", "--from", "x"],
            "'--from <S>': not a whole number",
        ),
        (
            vec!["search", file, "--tries", "0"],
            "'--tries <N>': must be at least 1",
        ),
        (
            vec!["search", file, "--tries", "99999999999999999999"],
            "'--tries <N>': too large",
        ),
        (
            vec!["search", file, "--faults", "0"],
            "'--faults <N>': must be at least 1",
        ),
        (
            vec!["search", file, "--faults", "21"],
            "'--faults <N>': must be at most 20",
        ),
        (
            vec!["search", file, "--seed", "1.5"],
            "'--seed <N>': not a whole number",
        ),
        (
            vec!["render", file, "--svg", "x.svg", "--width", "0"],
            "'--width <PX>': must be at least 276: a narrower picture has no room for the lane \
             names and a plot to read",
        ),
        (
            vec!["render", file, "--svg", "x.svg", "--width", "275"],
            "'--width <PX>': must be at least 276",
        ),
        // A negative number reaches the option's own check, not clap's advice to write `-- -1`.
        (
            vec!["render", file, "--svg", "x.svg", "--width", "-1"],
            "'--width <PX>': must be a whole number, at least 276",
        ),
        (
            vec!["check", file, "--seeds", "-1"],
            "'--seeds <N>': must be a whole number, at least 1",
        ),
        (
            vec!["check", file, "--seeds", "2", "--from", "-7"],
            "'--from <S>': must be a whole number, 0 or more",
        ),
        (
            vec!["check", file, "--seeds", "2", "--threads", "-2"],
            "'--threads <N>': must be a whole number, at least 1",
        ),
        (
            vec!["run", file, "--seed", "-3"],
            "'--seed <N>': must be a whole number, 0 or more",
        ),
        (
            vec![
                "run",
                file,
                "--seed",
                "-99999999999999999999999999999999999999999",
            ],
            "'--seed <N>': must be a whole number, 0 or more",
        ),
        (
            vec!["search", file, "--faults", "-1"],
            "'--faults <N>': must be a whole number, at least 1",
        ),
        (
            vec!["search", file, "--tries", "-10"],
            "'--tries <N>': must be a whole number, at least 1",
        ),
        (
            vec!["search", file, "--seed", "-1"],
            "'--seed <N>': must be a whole number, 0 or more",
        ),
        (
            vec!["render", file, "--svg", "x.svg", "--until", "-5"],
            "'--until <MS>': must be a whole number, at least 1",
        ),
        (
            vec!["render", file, "--svg", "x.svg", "--until", "0"],
            "'--until <MS>': the picture must show at least 1 ms",
        ),
        (
            vec!["render", file, "--svg", "x.svg", "--width", "20001"],
            "'--width <PX>': must be at most 20 000",
        ),
        (
            vec!["render", file, "--svg", "x.svg", "--until", "abc"],
            "'--until <MS>': not a whole number",
        ),
        (
            vec!["render", file, "--svg", "x.svg", "--seed", "abc"],
            "'--seed <N>': not a whole number",
        ),
        (
            vec!["run", file, "--seed", "abc"],
            "'--seed <N>': not a whole number",
        ),
    ] {
        let out = locksim(&args);
        let err = text(&out.stderr);
        assert_eq!(status(&out), 2, "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!err.contains(" is not in "), "{args:?}: {err}");
        assert!(!err.contains("in string"), "{args:?}: {err}");
        assert!(!err.contains("tip:"), "{args:?}: {err}");
    }
}

/// The help says how each command can end, so a script can tell its outcomes apart.
#[test]
fn the_help_names_every_exit_status() {
    let help = text(&locksim(&["--help"]).stdout);
    for status in [
        "0 safe and live",
        "1 otherwise",
        "2 invalid input",
        "130 stopped by Ctrl-C",
    ] {
        assert!(help.contains(status), "{status}: {help}");
    }
    let search = text(&locksim(&["search", "--help"]).stdout);
    assert!(search.contains("`locksim verify` keeps it"), "{search}");
    assert!(
        search.contains("Exit 1 when it found one, 0 when none"),
        "{search}"
    );
    let render = text(&locksim(&["render", "--help"]).stdout);
    assert!(
        render.contains("Exit 0 once the files are written"),
        "{render}"
    );
}

/// With the `gui` feature, no arguments opens a window, which a test cannot close.
#[cfg(not(feature = "gui"))]
#[test]
fn no_arguments_without_the_app_prints_help() {
    let out = locksim(&[]);
    assert_eq!(status(&out), 2);
    assert!(text(&out.stderr).contains("Usage: locksim"));
}

#[test]
fn course_plays_every_option_and_passes() {
    let output = locksim(&["course"]);
    assert_eq!(status(&output), 0, "{}", text(&output.stdout));
    let stdout = text(&output.stdout);
    assert_eq!(stdout.matches("Step ").count(), 12);
    assert!(stdout.contains("Step 0 · What is the lock for?") && stdout.contains("[answer]"));
    for number in ["7a", "7b", "7c", "7d"] {
        assert!(
            stdout.contains(&format!("Step {number} · ")),
            "step {number}"
        );
    }
    assert!(stdout.contains("[right]") && stdout.contains("[wrong]"));
    assert!(!stdout.contains("teaches the wrong lesson"));
}

/// The answer key as data: step 0 and the eleven graded decisions, each option with its
/// scenario file and verdict; no position and no length gives the right call away.
#[test]
fn course_json_is_the_answer_key() {
    let output = locksim(&["course", "--json"]);
    assert_eq!(status(&output), 0, "{}", text(&output.stderr));
    let key = json(&output);
    let decisions = key["decisions"].as_array().expect("a list of decisions");
    let ids: Vec<&str> = decisions
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "0", "1", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d", "8"
        ]
    );
    let mut at = [0usize; 8];
    let mut longest = 0;
    for d in decisions {
        for field in ["title", "topic", "question"] {
            assert!(d[field].as_str().is_some_and(|s| !s.is_empty()), "{field}");
        }
        let options = d["options"].as_array().unwrap();
        for o in options {
            let file = o["scenario"].as_str().unwrap();
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("assets")
                .join(file);
            assert!(path.is_file(), "{file} is a file under assets/");
            assert!(o["verdict"]["safe"].is_boolean() && o["verdict"]["live"].is_boolean());
            assert!(o["verdict"]["kinds"].is_array());
        }
        let rights: Vec<usize> = options
            .iter()
            .enumerate()
            .filter(|(_, o)| o["right"] == Value::Bool(true))
            .map(|(i, _)| i)
            .collect();
        if d["id"] == "0" {
            assert!(rights.is_empty(), "the first question has no right call");
            continue;
        }
        assert_eq!(rights.len(), 1, "decision {}", d["id"]);
        let right = rights[0];
        at[right] += 1;
        let len = |o: &Value| o["label"].as_str().unwrap().chars().count();
        let right_len = len(&options[right]);
        if options
            .iter()
            .enumerate()
            .all(|(i, o)| i == right || len(o) < right_len)
        {
            longest += 1;
        }
        // Step 1 diagnoses a broken design: its right call names both flaws its run shows.
        let v = &options[right]["verdict"];
        let shipped = d["id"] != "1";
        assert_eq!(v["safe"], Value::Bool(shipped), "decision {}", d["id"]);
        assert_eq!(v["live"], Value::Bool(shipped), "decision {}", d["id"]);
    }
    assert!(
        at.iter().all(|&n| n <= 3),
        "right calls by position: {at:?}"
    );
    assert!(longest <= 3, "the right label is the longest in {longest}");
}

#[test]
fn every_library_scenario_meets_its_expectations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut files: Vec<String> = ["scenarios", "cases"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(dir.join(sub)).expect("scenario folder"))
        .map(|e| e.expect("dir entry").path().display().to_string())
        .filter(|p| p.ends_with(".toml"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 16 + 12,
        "found only {} scenario files",
        files.len()
    );
    let mut args = vec!["verify"];
    args.extend(files.iter().map(String::as_str));
    let output = locksim(&args);
    assert_eq!(status(&output), 0, "{}", text(&output.stdout));
}

/// `check` splits the seeds across threads but counts them in seed order: one thread and four
/// print the same bytes, as a table and as JSON, down to the first seed of each kind.
#[test]
fn check_prints_the_same_whatever_the_number_of_threads() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/scenarios/step1-flag-race.toml"
    );
    for json_flag in [false, true] {
        let outputs: Vec<Output> = ["1", "4"]
            .map(|threads| {
                let mut args = vec!["check", path, "--seeds", "300", "--threads", threads];
                if json_flag {
                    args.push("--json");
                }
                locksim(&args)
            })
            .into();
        assert_eq!(status(&outputs[0]), status(&outputs[1]));
        assert!(!outputs[0].stdout.is_empty());
        assert_eq!(
            text(&outputs[0].stdout),
            text(&outputs[1].stdout),
            "--json: {json_flag}"
        );
    }
    assert_eq!(
        status(&locksim(&["check", path, "--seeds", "1", "--threads", "0"])),
        2
    );
}

/// Ctrl-C during a long `check` prints the tally of the runs done, then exits 130.
#[cfg(unix)]
#[test]
fn an_interrupted_check_prints_the_tally_so_far() {
    use std::process::Stdio;
    let path = scenario_file("interrupted.toml", MINIMAL);
    for json_flag in [false, true] {
        let mut args = vec!["check", path.to_str().unwrap(), "--seeds", "100000000"];
        if json_flag {
            args.push("--json");
        }
        let child = Command::new(env!("CARGO_BIN_EXE_locksim"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start locksim");
        std::thread::sleep(std::time::Duration::from_millis(1_500));
        let sent = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success());
        let out = child.wait_with_output().expect("locksim ends");
        assert_eq!(status(&out), 130, "{}", text(&out.stderr));
        if json_flag {
            let doc = json(&out);
            assert_eq!(doc["interrupted"], true);
            assert!(doc["runs"].as_u64().is_some_and(|n| n > 0), "{doc}");
        } else {
            let stdout = text(&out.stdout);
            assert!(stdout.contains("(stopped by Ctrl-C after "), "{stdout}");
            assert!(
                stdout.contains("of 100 000 000 seeds: the tally so far)"),
                "{stdout}"
            );
            assert!(stdout.contains("  safe runs "), "{stdout}");
        }
    }
}

/// Runs `locksim` with `args`, sends it SIGINT after `after_ms`, and returns what it printed
/// and how long it took to end after the signal.
#[cfg(unix)]
fn interrupted(args: &[&str], after_ms: u64) -> (Output, std::time::Duration) {
    use std::process::Stdio;
    let child = Command::new(env!("CARGO_BIN_EXE_locksim"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start locksim");
    std::thread::sleep(std::time::Duration::from_millis(after_ms));
    let sent_at = std::time::Instant::now();
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success());
    let out = child.wait_with_output().expect("locksim ends");
    (out, sent_at.elapsed())
}

/// Ctrl-C during a long `search` prints how far it got, then exits 130, within a second.
#[cfg(unix)]
#[test]
fn an_interrupted_search_says_how_far_it_got() {
    let path = scenario_file("interrupted-search.toml", MINIMAL);
    let (out, took) = interrupted(
        &["search", path.to_str().unwrap(), "--tries", "100000000"],
        1_500,
    );
    assert_eq!(status(&out), 130, "{}", text(&out.stderr));
    assert!(took.as_secs_f64() < 1.0, "{took:?}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Stopped by Ctrl-C after "), "{stdout}");
}

/// Ctrl-C while `render` runs or draws ends it at once with exit 130, naming what it wrote.
#[cfg(unix)]
#[test]
fn an_interrupted_render_says_what_it_wrote() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/11-events-per-step.toml");
    let png = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("interrupted.png");
    let (out, took) = interrupted(
        &[
            "render",
            path.to_str().unwrap(),
            "--png",
            png.to_str().unwrap(),
        ],
        500,
    );
    assert_eq!(status(&out), 130, "{}", text(&out.stderr));
    assert!(took.as_secs_f64() < 1.0, "{took:?}");
    assert_eq!(
        text(&out.stderr),
        "locksim render: stopped by Ctrl-C; nothing written\n"
    );
}

#[test]
fn glossary_lists_every_term_alphabetically() {
    let output = locksim(&["glossary"]);
    assert_eq!(status(&output), 0);
    let stdout = text(&output.stdout);
    // Each entry starts at the left margin; what follows it is indented.
    let terms: Vec<&str> = stdout
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with(' '))
        .collect();
    assert_eq!(terms.len(), locksim::course::glossary::ENTRIES.len());
    let key = |t: &&str| t.to_lowercase();
    assert!(terms.is_sorted_by_key(key), "{terms:?}");
    let fencing = stdout
        .split("\n\n")
        .find(|entry| entry.starts_with("fencing token\n"))
        .expect("fencing token is listed");
    // Wrapped at word boundaries: read it as one line.
    let fencing = fencing.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        fencing.contains("refuses any write carrying a lower one"),
        "{fencing}"
    );
}

/// The browser tests (web/test/) cannot read the course out of the wasm module, so
/// web/test/course.json lists each decision's number, title, option count and right call (its
/// index, or null for the ungraded first question). It must say what the course says.
#[test]
fn the_browser_tests_know_the_course_as_it_is() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/test/course.json");
    let table: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read web/test/course.json"))
            .expect("web/test/course.json is JSON");
    let course: Vec<Value> = locksim::course::STEPS
        .iter()
        .map(|step| {
            serde_json::json!({
                "number": step.number,
                "title": step.title,
                "options": step.options.len(),
                "right": step.options.iter().position(|c| c.right),
            })
        })
        .collect();
    assert_eq!(
        table["steps"],
        Value::Array(course.clone()),
        "web/test/course.json's \"steps\" should be, as src/course/steps.rs has them:\n{}",
        serde_json::to_string_pretty(&course).expect("JSON")
    );
}

/// A shipped course scenario with its `[[fault]]` tables cut out, written to a scratch file.
fn without_faults(file: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/scenarios")
        .join(file);
    let src = std::fs::read_to_string(&path).expect("read the shipped scenario");
    let mut kept = Vec::new();
    let mut in_fault = false;
    for line in src.lines() {
        if line.starts_with('[') {
            in_fault = line.trim() == "[[fault]]";
        }
        if !in_fault {
            kept.push(line);
        }
    }
    scenario_file(&format!("bare-{file}"), &(kept.join("\n") + "\n"))
}

#[test]
fn search_prints_a_minimal_scenario_that_runs_unsafe() {
    let bare = without_faults("step6-redlock-clock-jump.toml");
    let bare = bare.to_str().expect("a UTF-8 path");
    let output = locksim(&["search", bare, "--faults", "3"]);
    assert_eq!(status(&output), 1, "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("\n1. at "), "{stdout}");
    let heading = "(save it and `locksim run` it):\n";
    let at = stdout.find(heading).expect("the scenario's heading") + heading.len();
    let minimal = locksim::scenario::parse(&stdout[at..]).expect("the printed TOML parses");
    assert!(!minimal.faults.is_empty() && minimal.faults.len() <= 3);
    // A default left unset is not written out as a sentinel value.
    assert!(!stdout[at..].contains("renew_every_ms"), "{stdout}");
    let saved = scenario_file("search-minimal.toml", &stdout[at..]);
    let run = locksim(&["run", saved.to_str().expect("UTF-8"), "--json"]);
    assert_eq!(status(&run), 1);
    assert_eq!(json(&run)["safe"], false);
    // It expects the failure it shows, so `verify` keeps it as a regression test.
    assert_eq!(minimal.expect.as_ref().and_then(|e| e.safe), Some(false));
    let verify = locksim(&["verify", saved.to_str().expect("UTF-8")]);
    assert_eq!(status(&verify), 0, "{}", text(&verify.stdout));

    let output = locksim(&["search", bare, "--json"]);
    assert_eq!(status(&output), 1);
    let doc = json(&output);
    assert_eq!(doc["found"], true);
    assert!(doc["tries"].as_u64().is_some_and(|n| n >= 1));
    assert!(doc["faults"][0]["kind"].is_string() && doc["faults"][0]["at_ms"].is_u64());
    assert!(doc["kinds"].as_array().is_some_and(|k| !k.is_empty()));
    assert!(
        doc["narration"][0]
            .as_str()
            .is_some_and(|l| l.starts_with("1. "))
    );
    let toml = doc["toml"].as_str().expect("the TOML");
    assert_eq!(
        locksim::scenario::parse(toml).expect("parses"),
        minimal,
        "the same search gives the same scenario"
    );
}

/// The round trip that keeps a found failure as a regression test: `locksim search` on a
/// shipped scenario, the scenario it prints saved as a file, then `locksim verify` on that
/// file. Its `[expect]` states the verdict `run` gives it, whatever that verdict is: with
/// `--live` the failure found is not live, and the table says too whether it stayed safe.
#[test]
fn a_scenario_search_prints_passes_verify_and_expects_its_own_verdict() {
    for (file, goal) in [
        ("step4-compare-and-delete.toml", None),
        ("step6-consensus-failover.toml", Some("--live")),
    ] {
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets/scenarios")
            .join(file);
        let mut args = vec!["search", shipped.to_str().expect("UTF-8"), "--seed", "0"];
        args.extend(goal);
        let output = locksim(&args);
        assert_eq!(status(&output), 1, "{file}: a failure is found");
        let stdout = text(&output.stdout);
        let heading = "(save it and `locksim run` it):\n";
        let at = stdout.find(heading).expect("the scenario's heading") + heading.len();
        let found = scenario_file(&format!("found-{file}"), &stdout[at..]);
        let found = found.to_str().expect("UTF-8");

        let verify = locksim(&["verify", found]);
        assert_eq!(status(&verify), 0, "{}", text(&verify.stdout));
        assert!(
            text(&verify.stdout).starts_with("ok "),
            "{}",
            text(&verify.stdout)
        );

        let run = json(&locksim(&["run", found, "--json"]));
        let mut reported: Vec<String> = run["violations"]
            .as_array()
            .expect("violations")
            .iter()
            .map(|v| v["kind"].as_str().expect("a kind").to_string())
            .collect();
        reported.sort();
        reported.dedup();
        let saved = locksim::scenario::parse(&stdout[at..]).expect("the printed TOML parses");
        let expect = saved.expect.expect("an [expect] table");
        assert_eq!(expect.safe, run["safe"].as_bool(), "{file}");
        assert_eq!(expect.live, run["live"].as_bool(), "{file}");
        let mut expected: Vec<String> = expect.kinds.iter().map(ToString::to_string).collect();
        expected.sort();
        assert_eq!(expected, reported, "{file}");
        assert!(expect.absent.is_empty(), "{file}");
    }
}

#[test]
fn search_says_when_ten_thousand_schedules_found_nothing() {
    let bare = without_faults("step5-fencing-token.toml");
    let output = locksim(&["search", bare.to_str().expect("UTF-8")]);
    assert_eq!(status(&output), 0, "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("None found in 10 000 schedules — evidence, not proof."),
        "{}",
        text(&output.stdout)
    );
    let output = locksim(&[
        "search",
        bare.to_str().expect("UTF-8"),
        "--tries",
        "5",
        "--json",
    ]);
    assert_eq!(status(&output), 0);
    let doc = json(&output);
    assert_eq!(doc["found"], false);
    assert_eq!(doc["tries"], 5);
    assert_eq!(doc["toml"], Value::Null);
}

#[test]
fn search_reports_an_unusable_file_as_invalid_input() {
    let output = locksim(&["search", "no/such/file.toml"]);
    assert_eq!(status(&output), 2);
    assert!(text(&output.stderr).starts_with("no/such/file.toml: cannot read the file"));
}

#[test]
fn search_refuses_a_budget_it_cannot_keep() {
    for args in [["--faults", "0"], ["--faults", "21"], ["--tries", "0"]] {
        let mut all = vec!["search", "assets/scenarios/step8-cas-instead.toml"];
        all.extend(args);
        let output = locksim(&all);
        assert_eq!(status(&output), 2, "{args:?}");
        assert!(text(&output.stderr).contains(args[0]), "{args:?}");
    }
}

/// A shipped scenario's path.
fn shipped(file: &str) -> String {
    format!("{}/assets/scenarios/{file}", env!("CARGO_MANIFEST_DIR"))
}

/// The fenced lock holds for every schedule of two faults of the menu (pause and crash here,
/// to keep the test short; `benches/prove.rs` runs the whole default menu), and says so.
#[test]
fn prove_certifies_the_fenced_lock() {
    let output = locksim(&[
        "prove",
        &shipped("step5-fencing-token.toml"),
        "--faults",
        "2",
        "--kinds",
        "pause,crash",
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(status(&output), 0, "{stdout}");
    assert!(
        stdout.contains("\nholds: ")
            && stdout.contains(" schedules of ≤ 2 faults (pause, crash) on seed 1, "),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nmenu: pause of A, B or store1 for "),
        "{stdout}"
    );
    assert!(stdout.contains("\nnot explored: other kinds (stall, restart, kill_store, partition, clock_jump, delay, force_release)"), "{stdout}");
}

/// The unfenced lock is unsafe as shipped; without its own pause, one added pause breaks it,
/// and the counterexample is a scenario `verify` keeps.
#[test]
fn prove_breaks_the_unfenced_lock_with_one_fault() {
    let output = locksim(&[
        "prove",
        &shipped("step5-pause-unfenced.toml"),
        "--faults",
        "2",
    ]);
    assert_eq!(status(&output), 1);
    assert!(text(&output.stdout).contains("unsafe: the scenario is unsafe as it is on seed 1"));
    let bare = without_faults("step5-pause-unfenced.toml");
    let output = locksim(&["prove", bare.to_str().unwrap(), "--faults", "2", "--json"]);
    assert_eq!(status(&output), 1);
    let doc = json(&output);
    assert_eq!(doc["found"], true);
    assert_eq!(
        doc["counterexample"].as_array().map(Vec::len),
        Some(1),
        "{doc}"
    );
    let toml = doc["toml"].as_str().expect("the counterexample as a file");
    let saved = scenario_file("prove-counterexample.toml", toml);
    assert_eq!(status(&locksim(&["verify", saved.to_str().unwrap()])), 0);
}

/// Redlock without its faults: the first unsafe schedule is a store outage of a second just
/// after A's grant, which loses it (AOF `everysec`), so B gets a majority too.
#[test]
fn prove_finds_a_double_grant_in_redlock_without_its_faults() {
    let bare = without_faults("step6-redlock-clock-jump.toml");
    let output = locksim(&["prove", bare.to_str().unwrap(), "--json"]);
    assert_eq!(status(&output), 1);
    let doc = json(&output);
    let violations = doc["violations"].as_array().expect("its violations");
    assert!(violations.iter().any(|v| v == "double_grant"), "{doc}");
    assert!(violations.iter().any(|v| v == "stale_write"), "{doc}");
}

/// `prove` runs its schedules on every thread asked, and reads them in one order: one thread
/// and three print the same bytes.
#[test]
fn prove_prints_the_same_whatever_the_number_of_threads() {
    for file in ["step5-fencing-token.toml", "step5-pause-unfenced.toml"] {
        let bare = without_faults(file);
        let outputs: Vec<Output> = ["1", "3"]
            .map(|threads| {
                locksim(&[
                    "prove",
                    bare.to_str().unwrap(),
                    "--faults",
                    "1",
                    "--seeds",
                    "0..4",
                    "--threads",
                    threads,
                ])
            })
            .into();
        assert_eq!(status(&outputs[0]), status(&outputs[1]));
        assert!(!outputs[0].stdout.is_empty());
        assert_eq!(text(&outputs[0].stdout), text(&outputs[1].stdout), "{file}");
    }
}

/// A budget smaller than the schedules stops with a partial claim, exit 0; bad bounds are
/// usage errors naming the option.
#[test]
fn prove_says_how_far_a_budget_let_it_get() {
    let output = locksim(&[
        "prove",
        &shipped("step5-fencing-token.toml"),
        "--budget",
        "30",
    ]);
    assert_eq!(status(&output), 0);
    let stdout = text(&output.stdout);
    assert!(stdout.contains("\npartial: explored 30 of "), "{stdout}");
    assert!(
        stdout.contains("the budget of 30 schedules ran out: nothing is claimed"),
        "{stdout}"
    );
    for (flag, value, says) in [
        ("--seeds", "4..2", "holds no seed"),
        ("--kinds", "delay", "delay"),
        ("--faults", "4", "must be at most 3"),
    ] {
        let output = locksim(&["prove", &shipped("step5-fencing-token.toml"), flag, value]);
        assert_eq!(status(&output), 2, "{flag} {value}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(flag) && stderr.contains(says), "{stderr}");
    }
}

/// Ctrl-C during a long `prove` says how far it got, then exits 130.
#[cfg(unix)]
#[test]
fn an_interrupted_prove_says_how_far_it_got() {
    let (out, took) = interrupted(
        &[
            "prove",
            &shipped("step5-fencing-token.toml"),
            "--faults",
            "3",
            "--seeds",
            "0..64",
        ],
        1_500,
    );
    assert_eq!(status(&out), 130, "{}", text(&out.stderr));
    assert!(took.as_secs_f64() < 1.0, "{took:?}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\npartial: explored "), "{stdout}");
    assert!(
        stdout.contains("stopped by Ctrl-C: nothing is claimed"),
        "{stdout}"
    );
}

/// `check` says which dangers its runs went through: the fenced lock's shipped pause makes
/// the fence reject a stale request in every run; without it nothing dangerous happens, and
/// the pass says it tested nothing.
#[test]
fn check_says_whether_the_dangers_were_exercised() {
    let fenced = shipped("step5-fencing-token.toml");
    let doc = json(&locksim(&["check", &fenced, "--seeds", "5", "--json"]));
    let exercised = &doc["exercised"];
    assert_eq!(exercised["fence_rejected"].as_u64(), Some(5), "{doc}");
    assert_eq!(exercised["lease_outlived"].as_u64(), Some(5), "{doc}");
    let bare = without_faults("step5-fencing-token.toml");
    let output = locksim(&["check", bare.to_str().unwrap(), "--seeds", "5", "--json"]);
    let exercised = json(&output)["exercised"].clone();
    for (danger, count) in exercised.as_object().expect("the dangers") {
        assert_eq!(count.as_u64(), Some(0), "{danger}");
    }
    let output = locksim(&["check", bare.to_str().unwrap(), "--seeds", "5"]);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("  exercised: nothing dangerous occurred in 5 runs: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("  fencing was never tested: the fence rejected no read or write"),
        "{stdout}"
    );
}

/// `[expect] exercised` and `proven_within` are checked by `verify`, and a bad value names
/// its field and line.
#[test]
fn verify_checks_what_was_exercised_and_what_was_proven() {
    let fenced = std::fs::read_to_string(shipped("step5-fencing-token.toml")).unwrap();
    let with = |extra: &str| format!("{fenced}{extra}");
    let good = scenario_file(
        "expect-exercised.toml",
        &with(
            "exercised = [\"fence_rejected\", \"lease_outlived\"]\nproven_within = { faults = 1 }\n",
        ),
    );
    let output = locksim(&["verify", good.to_str().unwrap()]);
    assert_eq!(status(&output), 0, "{}", text(&output.stdout));
    let unexercised = scenario_file(
        "expect-unexercised.toml",
        &with("exercised = [\"grant_lost\"]\n"),
    );
    let output = locksim(&["verify", unexercised.to_str().unwrap()]);
    assert_eq!(status(&output), 1);
    assert!(
        text(&output.stdout).contains(": never exercised grant_lost"),
        "{}",
        text(&output.stdout)
    );
    let unfenced = std::fs::read_to_string(shipped("step5-pause-unfenced.toml")).unwrap();
    let unproven = scenario_file(
        "expect-unproven.toml",
        &format!("{unfenced}proven_within = {{ faults = 1 }}\n"),
    );
    let output = locksim(&["verify", unproven.to_str().unwrap()]);
    assert_eq!(status(&output), 1);
    assert!(
        text(&output.stdout).contains("not proven within 1 fault: unsafe as it is"),
        "{}",
        text(&output.stdout)
    );
    let lines = fenced.lines().count();
    for (extra, says) in [
        (
            "proven_within = { faults = 7 }\n",
            "expect.proven_within.faults: must be 1 to 3",
        ),
        (
            "exercised = [\"fence\"]\n",
            "expect.exercised[0]: must be one of lease_outlived,",
        ),
    ] {
        let bad = scenario_file("expect-bad.toml", &with(extra));
        let output = locksim(&["verify", bad.to_str().unwrap()]);
        assert_eq!(status(&output), 2);
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains(&format!(":{}:", lines + 1)) && stderr.contains(says),
            "{stderr}"
        );
    }
}

#[test]
// Without the app (`--no-default-features`) there is no window to fail to open.
#[cfg(all(target_os = "linux", feature = "gui"))]
fn locksim_alone_without_a_display_says_to_use_a_command() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_locksim"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("no display to open the app on"), "{stderr}");
    assert!(stderr.contains("locksim course"), "{stderr}");
    assert!(!stderr.contains("winit"), "{stderr}");
}
