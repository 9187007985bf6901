//! `overlap`: two workers believed they held the same lock at the same true instant.
//!
//! This is the worker's view, not the store's: a paused holder keeps believing after its lease
//! ran out and another worker was granted the lock (Kleppmann 2016). Harmless only if the
//! resource fences the late holder off.

use super::explain;
use super::facts::Facts;
use super::{Found, Violation, ViolationKind, for_overlapping};
use crate::order;
use crate::text::fmt_ms;
use crate::trace::{KeyId, NodeId, Trace};

/// A worker's belief: from `Acquired` to `LetGo` (or the horizon), true ms, half-open.
/// `Reentered` raises a hold count inside the same belief, so it does not start one.
#[derive(Clone, Copy, Debug)]
struct Belief {
    token: u32,
    worker: NodeId,
    key: KeyId,
    start_ms: u64,
    end_ms: u64,
}

/// Reports one `overlap` per pair of tokens of different workers whose beliefs on one key
/// overlap, at the later of the two starts.
pub(super) fn overlap(trace: &Trace, facts: &Facts, out: &mut Found) {
    let mut beliefs: Vec<Belief> = facts
        .tokens
        .iter()
        .enumerate()
        .filter_map(|(t, f)| {
            let start_ms = f.acquired?.at_ms;
            let end_ms = f
                .let_go_ms
                .filter(|&g| g >= start_ms)
                .unwrap_or(trace.simulated_until_ms());
            // A belief let go the instant it began covers no instant.
            (start_ms < end_ms).then_some(Belief {
                token: t as u32,
                worker: f.token.worker,
                key: f.key,
                start_ms,
                end_ms,
            })
        })
        .collect();
    order::sort_by_key(&mut beliefs, |b| (b.key, b.start_ms, b.token));
    for_overlapping(
        &beliefs,
        |b| (b.key, b.start_ms, b.end_ms),
        |a, b| {
            if a.worker != b.worker {
                out.push(report(trace, facts, a, b));
            }
        },
    );
}

fn report(trace: &Trace, facts: &Facts, a: Belief, b: Belief) -> Violation {
    let (ta, tb) = (
        facts.tokens[a.token as usize].token,
        facts.tokens[b.token as usize].token,
    );
    Violation {
        kind: ViolationKind::Overlap,
        at_ms: b.start_ms,
        nodes: explain::nodes(vec![a.worker, b.worker]),
        grants: vec![ta, tb],
        explanation: format!(
            "{} ({}) and {} ({}) both believed they held {} from {}.",
            explain::node(trace, a.worker),
            explain::token(trace, ta),
            explain::node(trace, b.worker),
            explain::token(trace, tb),
            explain::key(trace, a.key),
            fmt_ms(b.start_ms),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::ViolationKind;
    use crate::testkit::{TraceBuilder, only};
    use crate::trace::EventKind;

    #[test]
    fn a_paused_holder_overlaps_the_next_holder() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.acquired(100, a)
            .on(1_000, "A", EventKind::Paused { for_ms: 15_000 })
            .acquired(10_102, b)
            .on(16_000, "A", EventKind::Resumed)
            .let_go(16_500, a)
            .let_go(12_000, b);
        let v = t.check();
        let o = only(&v, ViolationKind::Overlap);
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].at_ms, 10_102);
        assert_eq!(o[0].grants, vec![a, b]);
        assert_eq!(o[0].nodes, vec![t.node("A"), t.node("B")]);
        assert_eq!(
            o[0].explanation,
            "A (A#1) and B (B#1) both believed they held 'lock' from 10 102 ms."
        );
    }

    #[test]
    fn a_belief_never_let_go_lasts_until_the_horizon() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.acquired(0, a).acquired(19_000, b);
        let v = t.check();
        assert_eq!(only(&v, ViolationKind::Overlap)[0].at_ms, 19_000);
    }

    #[test]
    fn same_worker_tokens_are_no_overlap() {
        let mut t = TraceBuilder::single(&["A"]);
        let (a1, a2) = (t.tok("A", 1), t.tok("A", 2));
        t.acquired(0, a1).acquired(100, a2);
        assert!(!t.check().has(ViolationKind::Overlap));
    }

    #[test]
    fn hand_over_at_one_instant_and_reentry_are_no_overlap() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.acquired(0, a)
            .reentered(500, a)
            .let_go(1_000, a)
            .acquired(1_000, b)
            .let_go(2_000, b);
        assert!(!t.check().has(ViolationKind::Overlap));
    }
}
