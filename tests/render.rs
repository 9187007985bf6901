//! `locksim render` and `locksim run --json --trace`, run as a user would: the files they
//! write, read back with an XML parser and a PNG decoder, and their errors. Like tests/cli.rs,
//! these assert no simulation outcome: the verdict words are checked against `run --json`.
#![allow(
    clippy::disallowed_methods,
    reason = "a test times the binary, which reads no clock for the picture"
)]

use std::io::Cursor;
use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

#[path = "support/command.rs"]
mod command;
use command::locksim;

const STEP5: &str = "assets/scenarios/step5-pause-unfenced.toml";
const MANY_LANES: &str = "assets/cases/redlock-monotonic-clock.toml";

/// A path in Cargo's scratch directory for tests.
fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

fn status(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

/// `locksim run FILE --json --trace`.
fn run_json(file: &str) -> Value {
    let out = locksim(&["run", file, "--json", "--trace"]);
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

/// The text of every `<text>` element of `svg`, trimmed.
fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

/// The width and height of a PNG, decoding it whole.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let mut reader = png::Decoder::new(Cursor::new(bytes))
        .read_info()
        .expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a sane size")];
    let frame = reader.next_frame(&mut pixels).expect("its pixels decode");
    (frame.width, frame.height)
}

#[test]
fn the_svg_names_every_lane_and_says_the_verdict_in_words() {
    for (file, name) in [(STEP5, "step5.svg"), (MANY_LANES, "many.svg")] {
        let svg_path = scratch(name);
        let out = locksim(&["render", file, "--svg", svg_path.to_str().unwrap()]);
        assert_eq!(status(&out), 0, "{}", text(&out.stderr));
        let texts = svg_texts(&std::fs::read_to_string(&svg_path).unwrap());

        let doc = run_json(file);
        for node in doc["trace"]["nodes"].as_array().unwrap() {
            let lane = node["name"].as_str().unwrap();
            assert!(texts.iter().any(|t| t == lane), "{file}: lane {lane}");
        }
        let safe = if doc["safe"] == true {
            "SAFE"
        } else {
            "UNSAFE"
        };
        let live = if doc["live"] == true {
            "LIVE"
        } else {
            "NOT LIVE"
        };
        assert!(texts.iter().any(|t| t == safe), "{file}: {safe}");
        assert!(texts.iter().any(|t| t == live), "{file}: {live}");
    }
}

#[test]
fn the_png_decodes_at_the_width_asked_for() {
    for (width, name) in [(None, "default.png"), (Some("800"), "narrow.png")] {
        let path = scratch(name);
        let mut args = vec!["render", STEP5, "--png", path.to_str().unwrap()];
        if let Some(w) = width {
            args.extend(["--width", w]);
        }
        let out = locksim(&args);
        assert_eq!(status(&out), 0, "{}", text(&out.stderr));
        let (w, h) = png_size(&std::fs::read(&path).unwrap());
        assert_eq!(w, width.map_or(1600, |w| w.parse().unwrap()));
        assert!(h > 200 && h < w, "{w} × {h}");
    }
}

#[test]
fn the_transcript_is_what_run_prints() {
    let path = scratch("step5.txt");
    let out = locksim(&["render", STEP5, "--transcript", path.to_str().unwrap()]);
    assert_eq!(status(&out), 0, "{}", text(&out.stderr));
    let transcript = std::fs::read_to_string(&path).unwrap();
    let run = text(&locksim(&["run", STEP5]).stdout);
    // From the timeline to the verdict's last line, word for word: one wording of events. Only
    // the count of hidden network events differs: a transcript, read away from the command
    // line, names no flag.
    let from = run.find("timeline\n").unwrap();
    let to = run.find("reproduce: ").unwrap();
    let said = run[from..to].replace("; --all shows them)", ")");
    assert!(run[from..to].contains("; --all shows them)"), "{run}");
    assert!(transcript.ends_with(&said), "{transcript}\n---\n{run}");
    assert!(transcript.starts_with("Step 5"), "{transcript}");
}

/// The times of a transcript's timeline, in order: each line under "timeline" up to the first
/// that is not an event (`   1 000 ms  A  …`).
fn timeline_times(transcript: &str) -> Vec<u64> {
    transcript
        .lines()
        .skip_while(|l| *l != "timeline")
        .skip(2)
        .map_while(|l| {
            let (time, _) = l.trim_start().split_once(" ms ")?;
            time.replace(' ', "").parse().ok()
        })
        .collect()
}

#[test]
fn a_cut_transcript_stops_where_the_picture_does_and_says_so() {
    let whole = scratch("whole.txt");
    let cut = scratch("cut.txt");
    let svg = scratch("cut-too.svg");
    for (path, until) in [(&whole, None), (&cut, Some("5000"))] {
        let mut args = vec!["render", STEP5, "--transcript", path.to_str().unwrap()];
        if let Some(ms) = until {
            args.extend(["--until", ms, "--svg", svg.to_str().unwrap()]);
        }
        let out = locksim(&args);
        assert_eq!(status(&out), 0, "{}", text(&out.stderr));
    }
    let whole = std::fs::read_to_string(&whole).unwrap();
    let cut = std::fs::read_to_string(&cut).unwrap();
    let all = timeline_times(&whole);
    let shown = timeline_times(&cut);
    assert!(
        !shown.is_empty() && shown.iter().all(|&t| t <= 5_000),
        "{cut}"
    );
    assert_eq!(
        shown,
        all.iter()
            .copied()
            .filter(|&t| t <= 5_000)
            .collect::<Vec<_>>(),
        "the cut transcript is the whole one up to 5 000 ms"
    );
    assert!(all.iter().any(|&t| t > 5_000), "{whole}");
    assert!(
        cut.contains("\nRun shown up to 5 000 ms of 20 000 ms: "),
        "{cut}"
    );
    assert!(cut.contains("The verdict is the whole run's:"), "{cut}");
    assert!(!whole.contains("shown up to"), "{whole}");
    // The verdict is the whole run's, word for word.
    let verdict = |t: &str| t[t.find("\nverdict: ").unwrap()..].to_string();
    assert_eq!(verdict(&cut), verdict(&whole));
    let svg = svg_texts(&std::fs::read_to_string(&svg).unwrap());
    assert!(
        svg.iter()
            .any(|t| t.starts_with("Run shown up to 5 000 ms of 20 000 ms: ")),
        "{svg:?}"
    );
}

#[test]
fn until_at_the_horizon_is_the_whole_run_and_past_it_is_refused() {
    let path = scratch("to-the-end.txt");
    let out = locksim(&[
        "render",
        STEP5,
        "--transcript",
        path.to_str().unwrap(),
        "--until",
        "20000",
    ]);
    assert_eq!(status(&out), 0, "{}", text(&out.stderr));
    let transcript = std::fs::read_to_string(&path).unwrap();
    assert!(!transcript.contains("shown up to"), "{transcript}");

    let _ = std::fs::remove_file(&path);
    let out = locksim(&[
        "render",
        STEP5,
        "--transcript",
        path.to_str().unwrap(),
        "--until",
        "20001",
    ]);
    let err = text(&out.stderr);
    assert_eq!(status(&out), 2, "{err}");
    assert_eq!(
        err,
        "locksim render: --until 20001: past the end of the run, at until_ms = 20 000 ms (the \
         scenario's horizon); give at most 20000\n"
    );
    assert!(!path.exists(), "nothing is written");
}

#[test]
fn a_cut_picture_and_another_seed_are_drawn() {
    let path = scratch("cut.svg");
    let out = locksim(&[
        "render",
        STEP5,
        "--svg",
        path.to_str().unwrap(),
        "--until",
        "5000",
        "--seed",
        "3",
    ]);
    assert_eq!(status(&out), 0, "{}", text(&out.stderr));
    let texts = svg_texts(&std::fs::read_to_string(&path).unwrap());
    assert!(texts.iter().any(|t| t.starts_with("seed 3 ")), "{texts:?}");
    assert!(
        texts.iter().any(|t| t.contains("shown up to 5 000 ms")),
        "{texts:?}"
    );
}

#[test]
fn bad_flags_are_invalid_input_naming_the_flag() {
    let svg = scratch("unused.svg");
    let svg = svg.to_str().unwrap();
    for (args, flag) in [
        (
            vec!["render", STEP5, "--svg", svg, "--width", "0"],
            "--width",
        ),
        (
            vec!["render", STEP5, "--svg", svg, "--width", "20001"],
            "--width",
        ),
        (
            vec!["render", STEP5, "--svg", svg, "--until", "0"],
            "--until",
        ),
        (vec!["render", STEP5], "--svg"),
        (
            vec!["render", STEP5, "--svg", "no/such/dir/out.svg"],
            "--svg no/such/dir/out.svg",
        ),
        (
            vec!["render", STEP5, "--png", "no/such/dir/out.png"],
            "--png no/such/dir/out.png",
        ),
        (vec!["run", STEP5, "--trace"], "--json"),
    ] {
        let out = locksim(&args);
        let stderr = text(&out.stderr);
        assert_eq!(status(&out), 2, "{args:?}: {stderr}");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn run_json_carries_the_trace_only_when_asked() {
    let with = run_json(STEP5);
    let events = with["trace"]["events"]
        .as_array()
        .expect("the trace's events");
    assert_eq!(
        events.len() as u64,
        with["stats"]["events"].as_u64().unwrap()
    );
    assert!(
        events
            .iter()
            .all(|e| e["at_ms"].is_u64() && e["node"].is_u64())
    );
    let without: Value =
        serde_json::from_slice(&locksim(&["run", STEP5, "--json"]).stdout).unwrap();
    assert!(without.get("trace").is_none());
    let mut stripped = with.clone();
    stripped.as_object_mut().unwrap().remove("trace");
    assert_eq!(stripped, without);
}

#[test]
fn two_outputs_to_one_file_are_refused_naming_both_before_any_work() {
    let path = scratch("same.out");
    let p = path.to_str().expect("UTF-8");
    // The same file spelt another way: through `.` in its folder.
    let dotted = path.parent().expect("a folder").join(".").join("same.out");
    let dotted = dotted.to_str().expect("UTF-8");
    for (file, outputs) in [
        (STEP5, vec![("--svg", p), ("--png", p)]),
        (STEP5, vec![("--svg", p), ("--png", dotted)]),
        (STEP5, vec![("--png", dotted), ("--transcript", p)]),
        (
            STEP5,
            vec![("--svg", p), ("--png", p), ("--transcript", dotted)],
        ),
        // Refused before the scenario is even read.
        (
            "no/such/scenario.toml",
            vec![("--svg", p), ("--transcript", p)],
        ),
    ] {
        let _ = std::fs::remove_file(&path);
        let mut args = vec!["render", file];
        for (flag, out) in &outputs {
            args.extend([*flag, *out]);
        }
        let out = locksim(&args);
        let err = text(&out.stderr);
        assert_eq!(status(&out), 2, "{args:?}: {err}");
        for (flag, path) in &outputs {
            assert!(err.contains(&format!("{flag} {path}")), "{args:?}: {err}");
        }
        assert!(err.contains("the same file"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!path.exists(), "{args:?}: nothing is written");
    }
}

/// Every `<text>` of `svg` with its `textLength`, px.
fn text_lengths(svg: &str) -> Vec<f32> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.attribute("textLength")?.parse().ok())
        .collect()
}

#[test]
fn a_title_of_one_long_word_or_many_words_is_cut_to_the_picture() {
    for (file, title) in [
        ("long-word.toml", "W".repeat(200_000)),
        ("many-words.toml", "word ".repeat(100_000)),
    ] {
        let path = scratch(file);
        let toml = format!("version = 1\nname = \"{title}\"\n[[worker]]\nname = \"A\"\n");
        std::fs::write(&path, toml).unwrap();
        let (svg, png) = (
            scratch(&format!("{file}.svg")),
            scratch(&format!("{file}.png")),
        );
        let started = std::time::Instant::now();
        let out = locksim(&[
            "render",
            path.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
            "--png",
            png.to_str().unwrap(),
            "--width",
            "800",
        ]);
        assert_eq!(status(&out), 0, "{}", text(&out.stderr));
        // 81 s for the long word on a release build while it was laid out whole.
        assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
        let svg = std::fs::read_to_string(&svg).unwrap();
        let widest = text_lengths(&svg).into_iter().fold(0.0, f32::max);
        assert!(widest <= 800.0, "{file}: a line {widest} px long");
        let (_, height) = png_size(&std::fs::read(&png).unwrap());
        assert!(height < 2_000, "{file}: {height} px tall");
    }
}
