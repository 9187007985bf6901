//! The hostile inputs of `tests/hostile/`: small files that once froze, flooded or fooled
//! locksim. Each is pinned to what bounds it now: a bounded run, a bounded verdict, or a refusal
//! naming the right field, line and column. (Their wall time and memory on a release build are
//! measured with `/usr/bin/time -v target/release/locksim run FILE --json`.)

use std::path::{Path, PathBuf};

use locksim::checker::{Kind, MAX_KEPT_PER_KIND};
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
    for kind in Kind::ALL {
        let kept = verdict.violations.iter().filter(|v| v.kind == kind).count();
        assert!(kept <= MAX_KEPT_PER_KIND, "{kind}: {kept}");
    }
    let overlaps = verdict.count(Kind::Overlap);
    assert!(overlaps > 100_000, "{overlaps}");
    assert!(verdict.more.iter().any(|&(k, _)| k == Kind::Overlap));

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
