//! What a run concludes: the verdict in words or as JSON (`locksim run`, `--json`, and the
//! app's export), and counts of the run.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use serde::Serialize;

use crate::checker::{Verdict, ViolationKind};
use crate::text::{fmt_count, fmt_counted, fmt_ms};
use crate::trace::{EventKind, Trace};
use crate::view::wording;

/// Counts that say how much happened in one run.
#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Every recorded event.
    pub events: usize,
    /// Messages sent (delivered or not).
    pub messages: usize,
    /// Owner tokens granted the lock by at least one store node. Counted per token, not per
    /// node, so a Redlock majority is one grant and a double grant is two.
    pub grants: usize,
    /// Writes the resource applied.
    pub writes_accepted: usize,
    /// Writes the resource refused (fenced off).
    pub writes_rejected: usize,
}

impl Stats {
    /// Counts `trace`.
    pub fn of(trace: &Trace) -> Self {
        let mut stats = Stats {
            events: trace.events.len(),
            ..Stats::default()
        };
        let mut granted = BTreeSet::new();
        for e in &trace.events {
            match e.kind {
                EventKind::Send { .. } => stats.messages += 1,
                EventKind::Granted { token, .. } => {
                    granted.insert(token);
                }
                EventKind::WriteAccepted { .. } => stats.writes_accepted += 1,
                EventKind::WriteRejected { .. } => stats.writes_rejected += 1,
                _ => {}
            }
        }
        stats.grants = granted.len();
        stats
    }
}

/// The `--json` document of `locksim run`.
#[derive(Debug, Serialize)]
pub struct RunJson<'a> {
    safe: bool,
    live: bool,
    /// Where the engine's event budget cut the run, true ms; `null` when it reached its horizon.
    cut_short_at_ms: Option<u64>,
    violations: Vec<ViolationJson<'a>>,
    /// Violations found beyond the first [`crate::checker::MAX_KEPT_PER_KIND`] of their kind,
    /// counted by kind: `{"foreign_release": 277305}`; `{}` when every one is listed.
    more: BTreeMap<ViolationKind, u64>,
    stats: Stats,
    /// Every event of the run (`locksim run --json --trace`, the app's trace export); left
    /// out of the document unless asked for, so the plain `--json` stays as it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<&'a Trace>,
}

/// One violation with node names instead of ids, so the JSON reads without the trace.
#[derive(Debug, Serialize)]
struct ViolationJson<'a> {
    kind: ViolationKind,
    at_ms: u64,
    nodes: Vec<&'a str>,
    explanation: &'a str,
}

impl<'a> RunJson<'a> {
    /// The document for one run.
    pub fn new(trace: &'a Trace, verdict: &'a Verdict) -> Self {
        RunJson {
            safe: verdict.safe,
            live: verdict.live,
            cut_short_at_ms: verdict.cut_short_at_ms,
            violations: verdict
                .violations
                .iter()
                .map(|v| ViolationJson {
                    kind: v.kind,
                    at_ms: v.at_ms,
                    nodes: v.nodes.iter().map(|&n| trace.node_name(n)).collect(),
                    explanation: &v.explanation,
                })
                .collect(),
            more: verdict.more.iter().copied().collect(),
            stats: Stats::of(trace),
            trace: None,
        }
    }

    /// The document for one run with its whole trace.
    pub fn with_trace(trace: &'a Trace, verdict: &'a Verdict) -> Self {
        RunJson {
            trace: Some(trace),
            ..RunJson::new(trace, verdict)
        }
    }

    /// The document as pretty JSON, ending in a newline as `locksim run --json` prints it.
    pub fn to_pretty(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("the document serialises");
        text.push('\n');
        text
    }
}

/// Writes the counts, then SAFE/UNSAFE and LIVE/NOT LIVE, then every violation in time order,
/// then, if the engine's event budget cut the run short, a sentence saying so.
pub fn write_verdict(out: &mut impl Write, trace: &Trace, verdict: &Verdict) -> io::Result<()> {
    let s = Stats::of(trace);
    writeln!(
        out,
        "\n{}, {}, {}, writes: {} accepted, {} rejected",
        fmt_counted(s.events as u64, "event"),
        fmt_counted(s.messages as u64, "message"),
        fmt_counted(s.grants as u64, "grant"),
        fmt_count(s.writes_accepted as u64),
        fmt_count(s.writes_rejected as u64)
    )?;
    writeln!(out, "\nverdict: {}", wording::verdict_line(trace, verdict))?;
    let kind_w = verdict
        .violations
        .iter()
        .map(|v| v.kind.as_str().len())
        .max()
        .unwrap_or(0);
    let time_w = verdict
        .violations
        .iter()
        .map(|v| fmt_ms(v.at_ms).len())
        .max()
        .unwrap_or(0);
    for v in &verdict.violations {
        writeln!(
            out,
            "  {:<kind_w$}  {:>time_w$}  {}",
            v.kind.as_str(),
            fmt_ms(v.at_ms),
            v.explanation
        )?;
    }
    for &(kind, count) in &verdict.more {
        writeln!(out, "  {}", wording::and_more(kind, count))?;
    }
    if verdict.safe && verdict.lock_misbehaved() {
        // A lock-level anomaly with SAFE is the lesson of fencing: the lock failed, the
        // resource still turned the stale writer away. Say so, or the two words look at odds.
        // A liveness failure alone is no misbehaviour of that kind: no such line then.
        writeln!(
            out,
            "  (the lock misbehaved, but no bad write reached the resource: still SAFE)"
        )?;
    }
    if let Some(at) = verdict.cut_short_at_ms {
        // Last, after what may be thousands of violations, where it cannot scroll away.
        writeln!(out, "\n{}", wording::cut_short(at))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Violation;
    use crate::testkit::{A, A1, STORE1, STORE2, event, trace};
    use crate::trace::{KeyId, Label, MsgId};

    /// A Redlock-style grant: one token granted by two store nodes.
    fn granted_twice() -> Trace {
        let granted = EventKind::Granted {
            key: KeyId::new(0),
            token: A1,
            fence: None,
            lease_ms: Some(1_000),
            took_over: false,
        };
        let send = EventKind::Send {
            msg: MsgId::new(0),
            to: STORE1,
            what: Label::Acquire {
                token: A1,
                reenter: false,
            },
        };
        trace(vec![
            event(0, A, 0, send),
            event(2, STORE1, 2, granted.clone()),
            event(3, STORE2, 3, granted),
        ])
    }

    fn verdict() -> Verdict {
        Verdict {
            safe: true,
            live: true,
            violations: vec![Violation {
                kind: ViolationKind::Overlap,
                at_ms: 10_100,
                nodes: vec![A, STORE2],
                grants: Vec::new(),
                explanation: "A and B both believed they held 'lock'.".to_string(),
            }],
            cut_short_at_ms: None,
            more: Vec::new(),
            work: Default::default(),
        }
    }

    #[test]
    fn a_token_granted_by_several_nodes_is_one_grant() {
        assert_eq!(
            Stats::of(&granted_twice()),
            Stats {
                events: 3,
                messages: 1,
                grants: 1,
                writes_accepted: 0,
                writes_rejected: 0,
            }
        );
    }

    #[test]
    fn json_names_the_nodes() {
        let (trace, verdict) = (granted_twice(), verdict());
        let json = serde_json::to_value(RunJson::new(&trace, &verdict)).unwrap();
        assert_eq!(json["violations"][0]["kind"], "overlap");
        assert_eq!(
            json["violations"][0]["nodes"],
            serde_json::json!(["A", "store2"])
        );
        assert_eq!(json["stats"]["grants"], 1);
    }

    #[test]
    fn still_safe_is_said_only_when_the_lock_itself_misbehaved() {
        use crate::testkit::verdict;
        let rows: [(bool, &[ViolationKind], bool); 6] = [
            (true, &[ViolationKind::Overlap], true),
            (
                true,
                &[ViolationKind::DoubleGrant, ViolationKind::Starved],
                true,
            ),
            (true, &[ViolationKind::ForeignRelease], true),
            (true, &[ViolationKind::Stuck], false),
            (true, &[ViolationKind::Starved, ViolationKind::Stuck], false),
            (
                false,
                &[ViolationKind::StaleWrite, ViolationKind::Overlap],
                false,
            ),
        ];
        for (safe, kinds, said) in rows {
            let mut v = verdict(safe, kinds);
            v.live = !kinds.iter().any(|k| k.breaks_liveness());
            let mut out = Vec::new();
            write_verdict(&mut out, &granted_twice(), &v).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert_eq!(text.contains("still SAFE"), said, "{kinds:?}\n{text}");
        }
    }

    #[test]
    fn a_cut_run_says_so_in_text_and_json() {
        let trace = granted_twice();
        let mut v = verdict();
        let mut out = Vec::new();
        write_verdict(&mut out, &trace, &v).unwrap();
        assert!(!String::from_utf8(out).unwrap().contains("CUT SHORT"));
        let json = serde_json::to_value(RunJson::new(&trace, &v)).unwrap();
        assert!(json["cut_short_at_ms"].is_null());

        v.cut_short_at_ms = Some(12_345);
        let mut out = Vec::new();
        write_verdict(&mut out, &trace, &v).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(
                "\nverdict: SAFE, LIVE, 1 lock violation, CUT SHORT at 12 345 ms of 20 000 ms\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with(
                "\n\nCut short: the engine's budget (500 000 steps, 1 000 000 recorded events \
                 or 200 000 waiting at once) ran out at 12 345 ms. Nothing after that was simulated, so liveness is judged only up to 12 345 ms.\n"
            ),
            "{text}"
        );
        let json = serde_json::to_value(RunJson::new(&trace, &v)).unwrap();
        assert_eq!(json["cut_short_at_ms"], 12_345);
    }

    #[test]
    fn violations_past_those_kept_are_counted_in_text_and_json() {
        let trace = granted_twice();
        let mut v = verdict();
        v.safe = false;
        v.more = vec![
            (ViolationKind::StaleWrite, 3),
            (ViolationKind::ForeignRelease, 277_305),
        ];
        let mut out = Vec::new();
        write_verdict(&mut out, &trace, &v).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(
                "verdict: UNSAFE, LIVE, 277 309 violations (the first 100 of each kind listed)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\n  and 3 more stale_write\n  and 277 305 more foreign_release\n"),
            "{text}"
        );
        let json = serde_json::to_value(RunJson::new(&trace, &v)).unwrap();
        assert_eq!(
            json["more"],
            serde_json::json!({"stale_write": 3, "foreign_release": 277_305})
        );
        let json = serde_json::to_value(RunJson::new(&trace, &verdict())).unwrap();
        assert_eq!(json["more"], serde_json::json!({}));
    }

    #[test]
    fn the_verdict_lists_each_violation_with_its_time() {
        let mut out = Vec::new();
        write_verdict(&mut out, &granted_twice(), &verdict()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("verdict: SAFE, LIVE, 1 lock violation\n"));
        assert!(text.contains("  overlap  10 100 ms  A and B both believed they held 'lock'.\n"));
    }
}
