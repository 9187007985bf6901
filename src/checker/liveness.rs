//! The liveness properties: `stuck` (a lock nobody can free) and `starved` (a live worker that
//! waited too long).

use super::explain::{self, fmt_ms};
use super::facts::{Facts, TokenFacts};
use super::grants::{Grants, nodes_at};
use super::{Kind, Violation};
use crate::trace::{KeyId, NodeId, Token, Trace};

/// Why a holder can make no progress, in the order preferred when two began at once (a crash
/// also lets go; the crash is the reason).
#[derive(Clone, Copy, Debug)]
enum Cause {
    Crashed,
    Paused,
    Stalled,
    LetGo,
    WaitsOnItself,
}

/// When the holder of `f` stopped being able to make progress, and why; `None` if it can
/// still release the lock itself.
fn no_progress(facts: &Facts, f: &TokenFacts) -> Option<(u64, Cause)> {
    let node = facts.nodes.get(f.token.worker as usize);
    [
        (node.and_then(|n| n.crashed_since), Cause::Crashed),
        (node.and_then(|n| n.paused_since), Cause::Paused),
        (node.and_then(|n| n.stalled_since), Cause::Stalled),
        (f.let_go_ms, Cause::LetGo),
        // Once it let go, the let-go is what keeps the lock held, not the nested wait.
        (
            f.self_wait_ms.filter(|_| f.let_go_ms.is_none()),
            Cause::WaitsOnItself,
        ),
    ]
    .into_iter()
    .filter_map(|(since, cause)| since.map(|s| (s, cause)))
    // The earliest condition; on ties `min_by_key` keeps the first, i.e. the preferred cause.
    .min_by_key(|&(since, _)| since)
}

/// `stuck`: a token the store side still held at the last instant before the horizon, whose
/// holder is crashed, paused, stalled (a watchdog may keep renewing for it), already let go
/// (its release was lost or never reached the store), or waiting on itself. One per token, at
/// the moment the condition began.
pub(super) fn stuck(trace: &Trace, facts: &Facts, grants: &Grants, out: &mut Vec<Violation>) {
    let last = trace.until_ms.saturating_sub(1);
    let mut reported = vec![false; facts.tokens.len()];
    for h in &grants.held {
        if !(h.start_ms <= last && last < h.end_ms) {
            continue;
        }
        let (Some(f), Some(done)) = (
            facts.tokens.get(h.token as usize),
            reported.get_mut(h.token as usize),
        ) else {
            continue;
        };
        // A lock only blocks anyone where a live store node still holds it: a promise left on
        // a node that crashed for good (after a failover) keeps nobody out.
        let mut nodes: Vec<NodeId> = nodes_at(facts, h.token, last)
            .into_iter()
            .filter(|n| {
                facts
                    .nodes
                    .get(*n as usize)
                    .is_some_and(|n| n.crashed_since.is_none())
            })
            .collect();
        if nodes.len() < grants.majority.unwrap_or(1) {
            continue;
        }
        let Some((since, cause)) = no_progress(facts, f) else {
            continue;
        };
        if std::mem::replace(done, true) {
            continue;
        }
        let worker = explain::node(trace, f.token.worker);
        let reason = match cause {
            Cause::Crashed => format!("{worker} crashed at {} and never restarted", fmt_ms(since)),
            Cause::Paused => format!("{worker} has been paused since {}", fmt_ms(since)),
            Cause::Stalled => format!("{worker} has been stalled since {}", fmt_ms(since)),
            Cause::LetGo => format!(
                "{worker} let go of it at {} and its release never took effect",
                fmt_ms(since)
            ),
            Cause::WaitsOnItself => format!(
                "{worker} has been waiting since {} to acquire it again, which it cannot \
                 while holding it (the lock is not reentrant)",
                fmt_ms(since)
            ),
        };
        nodes.push(f.token.worker);
        out.push(Violation {
            kind: Kind::Stuck,
            at_ms: since,
            nodes: explain::nodes(nodes),
            grants: vec![f.token],
            explanation: format!(
                "{} still held {} at the horizon ({}), but {reason}.",
                explain::token(trace, f.token),
                explain::key(trace, h.key),
                fmt_ms(trace.until_ms),
            ),
        });
    }
}

/// `starved`: a wait (first attempt after the previous acquisition, through failures, queueing
/// and retries, to the next acquisition or the horizon) that lasted longer than
/// `starve_after_ms`, by a worker not crashed at its end. One per wait, reported at the moment
/// it went over the limit.
pub(super) fn starved(
    trace: &Trace,
    facts: &Facts,
    starve_after_ms: u64,
    out: &mut Vec<Violation>,
) {
    for w in &facts.waits {
        if w.crashed_at_end || w.end_ms.saturating_sub(w.start_ms) <= starve_after_ms {
            continue;
        }
        let Some(f) = facts.tokens.get(w.token as usize) else {
            continue;
        };
        out.push(Violation {
            kind: Kind::Starved,
            at_ms: w.start_ms.saturating_add(starve_after_ms),
            nodes: vec![w.worker],
            grants: vec![f.token],
            explanation: match held_meanwhile(facts, w.worker, w.key, w.start_ms) {
                // A nested acquire of a lock it holds: it is waiting on itself.
                Some(own) => format!(
                    "{} waited from {} to take {} again — it already held it as {} — and \
                     still did not have it after {}.",
                    explain::node(trace, w.worker),
                    fmt_ms(w.start_ms),
                    explain::key(trace, w.key),
                    explain::token(trace, own),
                    fmt_ms(starve_after_ms),
                ),
                None => format!(
                    "{} waited for {} from {} and still did not have it after {}.",
                    explain::node(trace, w.worker),
                    explain::key(trace, w.key),
                    fmt_ms(w.start_ms),
                    fmt_ms(starve_after_ms),
                ),
            },
        });
    }
}

/// A token of `worker` on `key` it believed it held at `at_ms`, if any.
fn held_meanwhile(facts: &Facts, worker: NodeId, key: KeyId, at_ms: u64) -> Option<Token> {
    facts
        .tokens
        .iter()
        .find(|f| {
            f.token.worker == worker
                && f.key == key
                && f.acquired.is_some_and(|a| a.at_ms <= at_ms)
                && f.let_go_ms.is_none_or(|l| l > at_ms)
        })
        .map(|f| f.token)
}

#[cfg(test)]
mod tests {
    use super::super::Kind;
    use super::super::testkit::{TraceBuilder, only};
    use crate::trace::EventKind;

    /// A holds store1 with a watchdog renewing every 1 000 ms until the horizon.
    fn watchdog_holder(t: &mut TraceBuilder) {
        let a = t.tok("A", 1);
        t.started(0, a).granted(1, 1, a, Some(3_000)).acquired(2, a);
        for at in (1_000..20_000).step_by(1_000) {
            t.extended(at, 1, a, 3_000);
        }
    }

    #[test]
    fn a_stalled_holder_kept_alive_by_its_watchdog_is_stuck() {
        let mut t = TraceBuilder::single(&["A"]);
        watchdog_holder(&mut t);
        t.on(500, "A", EventKind::Stalled { for_ms: 30_000 });
        let v = t.check();
        let s = only(&v, Kind::Stuck);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].at_ms, 500);
        assert_eq!(s[0].grants, vec![t.tok("A", 1)]);
        assert_eq!(s[0].nodes, vec![t.node("A"), t.store(1)]);
        assert_eq!(
            s[0].explanation,
            "A.1 still held 'lock' at the horizon (20 000 ms), but A has been stalled since 500 ms."
        );
        assert!(!v.live);
    }

    #[test]
    fn a_holder_that_got_going_again_is_not_stuck() {
        let mut t = TraceBuilder::single(&["A"]);
        watchdog_holder(&mut t);
        t.on(500, "A", EventKind::Stalled { for_ms: 1_000 })
            .on(1_500, "A", EventKind::Unstalled)
            .on(2_000, "A", EventKind::Paused { for_ms: 1_000 })
            .on(3_000, "A", EventKind::Resumed);
        let v = t.check();
        assert!(!v.has(Kind::Stuck));
        assert!(v.live);
    }

    #[test]
    fn a_crashed_holder_of_a_lock_without_expiry_is_stuck() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.granted(0, 1, a, None)
            .acquired(1, a)
            .on(1_000, "A", EventKind::Crashed)
            .let_go(1_000, a);
        let v = t.check();
        let s = only(&v, Kind::Stuck);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].at_ms, 1_000);
        assert!(
            s[0].explanation
                .ends_with("but A crashed at 1 000 ms and never restarted.")
        );
    }

    #[test]
    fn a_crashed_holder_whose_lease_expires_is_not_stuck() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.granted(0, 1, a, Some(10_000))
            .acquired(1, a)
            .on(1_000, "A", EventKind::Crashed);
        assert!(!t.check().has(Kind::Stuck));
    }

    #[test]
    fn a_lost_release_leaves_the_lock_stuck() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.granted(0, 1, a, None).acquired(1, a).let_go(2_000, a);
        let v = t.check();
        let s = only(&v, Kind::Stuck);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].at_ms, 2_000);
        assert!(s[0].explanation.contains("let go of it at 2 000 ms"));
    }

    #[test]
    fn a_non_reentrant_nested_acquire_waits_on_itself() {
        let mut t = TraceBuilder::single(&["A"]);
        let (a1, a2, a3) = (t.tok("A", 1), t.tok("A", 2), t.tok("A", 3));
        t.started(0, a1)
            .granted(1, 1, a1, None)
            .acquired(2, a1)
            .started(1_000, a2)
            .failed(1_010, a2)
            .started(1_060, a3)
            .failed(1_070, a3);
        let v = t.check();
        let s = only(&v, Kind::Stuck);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].at_ms, 1_000);
        assert_eq!(s[0].grants, vec![a1]);
        // It is starved by itself too: one wait from 1 000 ms, through both attempts.
        let w = only(&v, Kind::Starved);
        assert_eq!(w.len(), 1);
        assert_eq!((w[0].at_ms, w[0].grants.clone()), (11_000, vec![a2]));
    }

    #[test]
    fn a_reentrant_nested_acquire_does_not_wait_on_itself() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.started(0, a)
            .granted(1, 1, a, None)
            .acquired(2, a)
            .reentered(1_000, a);
        let v = t.check();
        assert!(v.violations.is_empty(), "{:?}", v.violations);
    }

    #[test]
    fn a_worker_refused_for_too_long_is_starved() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b1, b2) = (t.tok("A", 1), t.tok("B", 1), t.tok("B", 2));
        t.started(0, a)
            .granted(1, 1, a, Some(30_000))
            .acquired(2, a)
            .started(1_500, b1)
            .failed(1_510, b1)
            .started(1_560, b2)
            .failed(1_570, b2);
        let v = t.check();
        let w = only(&v, Kind::Starved);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].at_ms, 11_500);
        assert_eq!(w[0].nodes, vec![t.node("B")]);
        assert_eq!(
            w[0].explanation,
            "B waited for 'lock' from 1 500 ms and still did not have it after 10 000 ms."
        );
        assert!(!v.live);
    }

    #[test]
    fn a_wait_within_the_limit_or_ending_crashed_is_not_starved() {
        let mut t = TraceBuilder::single(&["A", "B", "C"]);
        let (a, b, c) = (t.tok("A", 1), t.tok("B", 1), t.tok("C", 1));
        t.started(0, a)
            .granted(1, 1, a, Some(11_500))
            .acquired(2, a)
            // Exactly the limit is not longer than it.
            .started(1_500, b)
            .acquired(11_500, b)
            .started(0, c)
            .on(15_000, "C", EventKind::Crashed);
        assert!(!t.check().has(Kind::Starved));
    }
}
