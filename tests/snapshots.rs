//! Snapshots of every scenario file the project ships (`assets/scenarios/*.toml`, and
//! `assets/cases/*.toml` when that folder exists), read at test time in name order.
//!
//! Each file is parsed (a parse error fails the test with its message), run with its own seed
//! and checked. The snapshot, `tests/snapshots/<file stem>.snap` (YAML), is a summary a person
//! can review: the scenario's name and seed, the event count, the timeline without network
//! plumbing and without the retry chatter (grants, expiries, extensions, removals, leader
//! changes, replica resyncs, faults, acquisitions and let-gos, accepted and rejected writes —
//! one `describe` line each, with its time and node), and the verdict with every violation.
//!
//! The same test asserts that the verdict meets the file's `[expect]` (safe, live, kinds that
//! must be reported, kinds that must not), and every file must have one: a snapshot accepted
//! by mistake cannot make a wrong outcome pass. With `CI=true` a changed or missing snapshot
//! fails without writing anything; review changes with `INSTA_UPDATE=always` or cargo-insta.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use locksim::checker::Verdict;
use locksim::scenario;
use locksim::text::fmt_ms;
use locksim::trace::{EventKind, Trace};
use locksim::view::wording::{describe, node_label};
use serde::Serialize;

/// The folders whose `.toml` files are snapshot, relative to the crate root.
const FOLDERS: [&str; 3] = ["assets/scenarios", "assets/cases", "assets/cases/incidents"];

#[derive(Serialize)]
struct Summary {
    scenario: String,
    seed: u64,
    events: usize,
    timeline: Vec<String>,
    verdict: VerdictSummary,
}

#[derive(Serialize)]
struct VerdictSummary {
    safe: bool,
    live: bool,
    violations: Vec<ViolationSummary>,
}

#[derive(Serialize)]
struct ViolationSummary {
    kind: String,
    at_ms: u64,
    explanation: String,
}

/// Whether an event belongs in the summary: what the store decided, what workers believed,
/// what the resource accepted, and the faults that explain them. Left out: messages, and
/// the per-attempt chatter (attempts, refusals, queueing, renewal replies, replication copies,
/// reads), which repeats by the hundred in a retry loop.
fn matters(kind: &EventKind) -> bool {
    use EventKind as K;
    match kind {
        K::Granted { .. }
        | K::Expired { .. }
        | K::ExpiredByClient { .. }
        | K::ExpiredUnchanged { .. }
        | K::LeaseExtended { .. }
        | K::Removed { .. }
        | K::ReleaseIgnored { .. }
        | K::Forgot
        | K::Resynced { .. }
        | K::BecameLeader { .. }
        | K::SteppedDown { .. }
        | K::Acquired { .. }
        | K::Reentered { .. }
        | K::LeftNested { .. }
        | K::WriteTimedOut { .. }
        | K::Unflushed { .. }
        | K::Reloaded { .. }
        | K::TtlSet { .. }
        | K::ForceReleased { .. }
        | K::SessionEnded { .. }
        | K::ConnectionReset { .. }
        | K::Claimed { .. }
        | K::Unclaimed { .. }
        | K::LetGo { .. }
        | K::WriteAccepted { .. }
        | K::WriteRejected { .. }
        | K::ReadRejected { .. }
        | K::Paused { .. }
        | K::Resumed
        | K::Stalled { .. }
        | K::Unstalled
        | K::Crashed
        | K::Restarted
        | K::FaultIgnored { .. }
        | K::ClockJumped { .. }
        | K::PartitionStarted { .. }
        | K::PartitionEnded { .. }
        | K::Healed
        | K::DelayStarted { .. }
        // Rare (only across a cut link) and they explain a late write or a late release.
        | K::Held { .. }
        | K::Retransmitted { .. }
        // One per follower per acquire a consensus leader proposes: they show the majority
        // that logged a grant before it was decided.
        | K::Logged { .. } => true,
        K::Send { .. }
        | K::Deliver { .. }
        | K::Drop { .. }
        | K::AcquireStarted { .. }
        | K::AcquireFailed { .. }
        | K::Queued { .. }
        | K::Refused { .. }
        | K::Renewed { .. }
        | K::RenewFailed { .. }
        | K::Replicated { .. }
        | K::Read { .. } => false,
    }
}

fn summarize(trace: &Trace, verdict: &Verdict) -> Summary {
    let timeline = trace
        .events
        .iter()
        .filter(|e| matters(&e.kind))
        .map(|e| {
            format!(
                "{} {}: {}",
                fmt_ms(e.at_ms),
                node_label(trace, e),
                describe(trace, e)
            )
        })
        .collect();
    Summary {
        scenario: trace.scenario.clone(),
        seed: trace.seed,
        events: trace.events.len(),
        timeline,
        verdict: VerdictSummary {
            safe: verdict.safe,
            live: verdict.live,
            violations: verdict
                .violations
                .iter()
                .map(|v| ViolationSummary {
                    kind: v.kind.to_string(),
                    at_ms: v.at_ms,
                    explanation: v.explanation.clone(),
                })
                .collect(),
        },
    }
}

/// The crate root, which scenario paths are shown relative to.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Parses, runs and checks one file; asserts its `[expect]`, then its snapshot.
fn check_file(file: &Path, stem: &str) {
    let path = file.strip_prefix(root()).unwrap_or(file);
    let src = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
    let sc = scenario::parse(&src).unwrap_or_else(|e| {
        let at = e.line.map(|l| format!(" (line {l})")).unwrap_or_default();
        panic!("{}: {}{at}: {e}", path.display(), e.field)
    });
    let locksim::Run { trace, verdict, .. } = locksim::run(&sc, sc.seed);
    let summary = summarize(&trace, &verdict);
    let expect = sc.expect.as_ref().unwrap_or_else(|| {
        panic!(
            "{}: no [expect]: every scenario file must say what it shows",
            path.display()
        )
    });
    let missed = verdict.unmet(expect);
    let listing: String = summary
        .verdict
        .violations
        .iter()
        .map(|v| format!("\n  {} at {} ms: {}", v.kind, v.at_ms, v.explanation))
        .collect();
    assert!(
        missed.is_empty(),
        "{} (seed {}) does not show what its [expect] says:\n  {}\nverdict: safe = {}, live = {}{listing}",
        path.display(),
        sc.seed,
        missed.join("\n  "),
        verdict.safe,
        verdict.live,
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_input_file(path);
    settings.bind(|| insta::assert_yaml_snapshot!(stem.to_string(), summary));
}

/// Every `.toml` file of the folders that exist, sorted by path.
fn scenario_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for folder in FOLDERS {
        let dir = root().join(folder);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path();
            if path.extension().is_some_and(|x| x == "toml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_scenario_file_meets_its_expectations_and_matches_its_snapshot() {
    let files = scenario_files();
    assert!(
        !files.is_empty(),
        "no scenario files found under {FOLDERS:?}"
    );
    let mut stems: Vec<String> = Vec::new();
    let mut failed = Vec::new();
    for path in &files {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("scenario file names are UTF-8")
            .to_string();
        assert!(
            !stems.contains(&stem),
            "two scenario files are named {stem}.toml: their snapshots would collide"
        );
        stems.push(stem.clone());
        // Go on after a failure so one run reports every file that fails.
        if catch_unwind(AssertUnwindSafe(|| check_file(path, &stem))).is_err() {
            failed.push(
                path.strip_prefix(root())
                    .unwrap_or(path)
                    .display()
                    .to_string(),
            );
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} scenario files failed (messages above):\n  {}",
        failed.len(),
        files.len(),
        failed.join("\n  ")
    );
}
