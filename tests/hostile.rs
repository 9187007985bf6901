//! The hostile inputs of `tests/hostile/`: small files that once froze, flooded or fooled
//! locksim. Each is pinned to what bounds it now: a bounded run, a bounded verdict, or a refusal
//! naming the right field, line and column. (Their wall time and memory on a release build are
//! measured with `/usr/bin/time -v target/release/locksim run FILE --json`.)
#![allow(
    clippy::disallowed_methods,
    reason = "the tests time a run of the engine, which reads no clock"
)]

use std::path::{Path, PathBuf};

use locksim::checker::{MAX_KEPT_PER_KIND, ViolationKind};
use locksim::engine;
use locksim::scenario::{self, MAX_BYTES};

#[path = "support/command.rs"]
mod command;
use command::locksim;

fn hostile(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile")
        .join(name)
}

/// Runs a hostile file that should be refused: exit status 2, nothing on stdout, and the one
/// line on stderr.
fn refusal(path: &Path) -> String {
    let out = locksim(&["run", path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).expect("UTF-8 on stderr");
    let file = path.display().to_string();
    err.strip_prefix(&file)
        .unwrap_or_else(|| panic!("the message names the file first: {err}"))
        .trim_end()
        .to_string()
}

fn load(name: &str) -> scenario::Scenario {
    let bytes = std::fs::read(hostile(name)).expect("hostile file");
    scenario::parse_bytes(&bytes).expect("a valid scenario")
}

#[test]
fn a_long_run_printed_with_every_event_labels_each_one() {
    let path = hostile("01-run-all-long.toml");
    let out = locksim(&["run", path.to_str().unwrap(), "--all"]);
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let trace = engine::run(&load("01-run-all-long.toml"), 0);
    let deliveries = trace
        .events
        .iter()
        .filter(|e| matches!(e.kind, locksim::trace::EventKind::Deliver { .. }))
        .count();
    assert!(deliveries > 10_000, "{deliveries}");
    assert_eq!(text.matches("  receive ").count(), deliveries);
    assert!(
        !text.contains("message #"),
        "every delivery names its message"
    );
}

#[test]
fn a_paused_consensus_follower_costs_a_bounded_run() {
    let sc = load("02-consensus-paused-follower.toml");
    let trace = engine::run(&sc, sc.seed);
    assert!(trace.steps <= engine::MAX_STEPS);
    let largest = trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            locksim::trace::EventKind::Send {
                what: locksim::trace::Label::Append { count },
                ..
            } => Some(*count as usize),
            _ => None,
        })
        .max();
    assert!(
        largest.is_some_and(|n| n <= engine::MAX_APPEND_ENTRIES),
        "{largest:?}"
    );
}

#[test]
fn sixty_four_workers_on_a_flag_give_a_bounded_verdict_that_counts_the_rest() {
    let sc = load("03-violations-flag64.toml");
    let locksim::Run { trace, verdict, .. } = locksim::run(&sc, sc.seed);
    assert!(trace.cut_short_at_ms.is_some(), "the event budget ends it");
    for kind in ViolationKind::ALL {
        let kept = verdict.violations.iter().filter(|v| v.kind == kind).count();
        assert!(kept <= MAX_KEPT_PER_KIND, "{kind}: {kept}");
    }
    let overlaps = verdict.count(ViolationKind::Overlap);
    assert!(overlaps > 100_000, "{overlaps}");
    assert!(
        verdict
            .more
            .iter()
            .any(|&(k, _)| k == ViolationKind::Overlap)
    );

    let path = hostile("03-violations-flag64.toml");
    let out = locksim(&["run", path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stdout.len() < 500_000,
        "{} bytes of JSON",
        out.stdout.len()
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        json["more"]["overlap"].as_u64(),
        Some(overlaps - MAX_KEPT_PER_KIND as u64)
    );
}

#[test]
fn a_file_over_the_limit_is_refused_before_it_is_read() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile-big.toml");
    let mut big = String::from("version = 1\nname = \"m\"\n");
    let mut i = 0;
    while big.len() <= MAX_BYTES {
        big += &format!("[[worker]]\nname = \"w{i}\"\n");
        i += 1;
    }
    std::fs::write(&path, &big).unwrap();
    assert_eq!(
        refusal(&path),
        format!(
            ": too large: {} bytes; a scenario may be at most 1 000 000 bytes (1 MB)",
            locksim::text::fmt_count(big.len() as u64)
        )
    );
    // The same text handed over directly (a paste, a link) is refused the same way.
    assert!(
        scenario::parse(&big)
            .unwrap_err()
            .message
            .starts_with("too large")
    );
}

#[cfg(unix)]
#[test]
fn an_endless_file_is_refused_after_the_limit() {
    assert_eq!(
        refusal(Path::new("/dev/zero")),
        ": too large: more than 1 000 000 bytes; a scenario may be at most 1 000 000 bytes (1 MB)"
    );
}

#[test]
fn a_bad_value_is_blamed_on_its_own_key() {
    assert_eq!(
        refusal(&hostile("05-wrong-field-by-value.toml")),
        ":10:10: fault[0].for_ms: must be a whole number, 0 or more; got \"A\""
    );
}

#[test]
fn a_byte_that_is_not_text_is_reported_where_it_is() {
    assert_eq!(
        refusal(&hostile("07-non-utf8.toml")),
        ":3:10: name: not UTF-8 text (byte 0xFF)"
    );
}

#[test]
fn terminal_escapes_are_refused() {
    assert_eq!(
        refusal(&hostile("09-terminal-escapes.toml")),
        ":3:1: name: must not contain control characters; found U+001B"
    );
}

/// A valid scenario with one worker named `name`.
fn one_worker_named(name: &str) -> String {
    format!("version = 1\nname = \"x\"\n[[worker]]\nname = \"{name}\"\n")
}

#[test]
fn a_name_longer_than_a_line_is_refused_and_every_command_survives_it() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile-long-name.toml");
    std::fs::write(&path, one_worker_named(&"W".repeat(65_536))).unwrap();
    assert_eq!(
        refusal(&path),
        ":4:1: worker[0].name: must be at most 64 characters; got 65536"
    );
    let file = path.to_str().unwrap();
    let transcript = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile-long-name.txt");
    for args in [
        vec!["run", file, "--all"],
        vec!["render", file, "--transcript", transcript.to_str().unwrap()],
    ] {
        assert_eq!(locksim(&args).status.code(), Some(2), "{args:?}");
    }
    // A mathematical letter passes for a plain one; 64 two-byte letters are printed in full.
    let longest = "𝐀".repeat(64);
    let sc = scenario::parse(&one_worker_named(&longest));
    assert!(sc.is_err());
    let longest = "Ж".repeat(64);
    let sc = scenario::parse(&one_worker_named(&longest)).expect("64 letters are fine");
    let run = locksim::run(&sc, 0);
    let text = locksim::render::transcript::transcript(&run.trace, &run.verdict, None);
    assert!(text.contains(&longest), "{text}");
}

#[test]
fn a_cut_tcp_link_with_a_long_backlog_costs_a_bounded_run() {
    let sc = load("10-tcp-backlog.toml");
    let started = std::time::Instant::now();
    let run = locksim::judged(&sc, sc.seed);
    // A debug build; the release binary takes a fraction of a second (the lookup of a message
    // in its connection was a scan of the backlog: 15 to 20 s on a release build).
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert!(run.steps <= engine::MAX_STEPS);
}

#[test]
fn many_events_a_step_stop_at_the_budget_of_recorded_events() {
    let sc = load("11-events-per-step.toml");
    let trace = engine::run(&sc, sc.seed);
    assert!(trace.cut_short_at_ms.is_some(), "the budget ends it");
    let events = trace.events.len() as u64;
    // One step records at most a few hundred events, so the cut comes right at the budget.
    assert!(
        (engine::MAX_EVENTS..engine::MAX_EVENTS + 1_000).contains(&events),
        "{events} events"
    );
    // A judged run (no trace kept) stops at the same point.
    let judged = locksim::judged(&sc, sc.seed);
    assert_eq!(judged.verdict.cut_short_at_ms, trace.cut_short_at_ms);
    assert_eq!(judged.steps, trace.steps);
}

#[test]
fn messages_delayed_past_the_horizon_stop_at_the_budget_of_waiting_events() {
    // 500 links slowed by the longest delay a fault may add: every message sent on them
    // waits in the queue, and a run held only by its steps kept millions of them.
    let mut toml = String::from(
        "version = 1\nname = \"h\"\nuntil_ms = 10000000\n[store]\ntopology = \"redlock\"\nnodes = 9\n",
    );
    for w in 0..50 {
        toml += &format!("[[worker]]\nname = \"w{w}\"\nrepeat = 0\nwork_ms = 1\n");
    }
    for f in 0..500 {
        toml += &format!(
            "[[fault]]\nat_ms = {f}\nkind = \"delay\"\nfrom = \"w{}\"\nto = \"store{}\"\n\
             extra_ms = 10000000\nfor_ms = 10000000\n",
            f % 50,
            f % 9 + 1
        );
    }
    let sc = scenario::parse(&toml).expect("valid");
    let judged = locksim::judged(&sc, sc.seed);
    assert!(judged.verdict.cut_short_at_ms.is_some());
    assert!(
        judged.steps < engine::MAX_STEPS,
        "cut by what waits, not by steps: {}",
        judged.steps
    );
}

#[test]
fn a_key_with_an_invisible_character_is_refused_at_that_character() {
    assert_eq!(
        refusal(&hostile("12-invisible-key.toml")),
        ":14:1: worker[1].key: character 5 is U+200B, an invisible character: the name would \
         print like one without it"
    );
}

#[test]
fn a_worker_name_that_passes_for_a_store_is_refused() {
    for (name, why) in [
        (
            "\u{455}tore1",
            "character 2 is U+0074, a Latin letter after the Cyrillic letter",
        ),
        ("store\u{ff11}", "character 6 is U+FF11, a look-alike"),
        ("\u{3164}", "character 1 is U+3164, an invisible character"),
    ] {
        let err = scenario::parse(&one_worker_named(name)).unwrap_err();
        assert_eq!(err.field, "worker[0].name");
        assert!(err.message.starts_with(why), "{name:?}: {}", err.message);
    }
}

/// Names and keys that pass for others, each kind refused at its field, line and column,
/// naming the character at fault.
#[test]
fn names_and_keys_that_pass_for_others_are_refused_where_they_are() {
    for (name, key, at, why) in [
        // Mixed scripts: a Greek omicron in a Latin name, a Cyrillic dze in a Latin key.
        (
            "st\u{3bf}re",
            "lock",
            ":4:1: worker[0].name: character 3 is U+03BF, a Greek letter after the Latin",
            "",
        ),
        (
            "A",
            "\u{455}tore",
            ":5:1: worker[0].key: character 2 is U+0074, a Latin letter after the Cyrillic",
            "",
        ),
        // Wholly of Latin twins: a Cyrillic name "А" beside the Latin worker "A" would be two
        // workers printed alike.
        (
            "\u{410}",
            "lock",
            ":4:1: worker[0].name: character 1 is U+0410, a Cyrillic letter, and every letter",
            "pass for the Latin name \"A\"",
        ),
        (
            "A",
            "\u{3a4}\u{39f}\u{39a}",
            ":5:1: worker[0].key: character 1 is U+03A4, a Greek letter, and every letter",
            "pass for the Latin name \"TOK\"",
        ),
        // An accent apart from its letter.
        (
            "A",
            "Zoe\u{308}",
            ":5:1: worker[0].key: character 4 is U+0308, an accent written apart",
            "",
        ),
    ] {
        let file =
            format!("version = 1\nname = \"x\"\n[[worker]]\nname = \"{name}\"\nkey = \"{key}\"\n");
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile-look-alike.toml");
        std::fs::write(&path, file).unwrap();
        let got = refusal(&path);
        assert!(
            got.starts_with(at) && got.contains(why),
            "{name:?} {key:?}: {got}"
        );
    }
}

#[test]
fn an_unknown_key_is_printed_escaped() {
    let out = locksim(&[
        "run",
        hostile("13-escape-in-unknown-key.toml").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J"), "{err}");
}

#[test]
fn a_number_below_every_integer_is_too_small_not_too_large() {
    let err = scenario::parse(
        "version = 1\nname = \"m\"\nseed = -9223372036854775809\n[[worker]]\nname = \"A\"\n",
    )
    .unwrap_err();
    assert_eq!(err.field, "seed");
    assert_eq!(err.message, "-9223372036854775809 is too small a number");
}
