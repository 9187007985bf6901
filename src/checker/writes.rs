//! The safety properties, judged at the resource: `stale_write` and `interleaved_writes`.
//!
//! A lock only protects data if the resource itself refuses what a late holder sends: a
//! fencing token checked at the resource turns a stale write into a rejected one
//! (Kleppmann 2016). Both checks are made in plain mode only. In idempotent mode repeated or
//! overlapping writes leave the same state. In cas mode the resource accepts a write only
//! while the record's version is the one its writer last saw (etcd's version-number
//! validation), so no accepted write can overwrite an update its writer did not see: a late
//! holder's write either fails or follows a fresh read, and grant order says nothing more.

use std::collections::BTreeSet;

use super::explain;
use super::facts::Facts;
use super::grants::Grants;
use super::{Found, Violation, ViolationKind, for_overlapping};
use crate::order;
use crate::text::fmt_ms;
use crate::trace::{KeyId, NodeId, Role, Token, Trace};

/// `stale_write`: per key, the resource accepted a write from a grant older than the newest
/// grant it had already accepted a write from. One violation per (older, newer) pair, at the
/// first such write.
pub(super) fn stale_write(trace: &Trace, facts: &Facts, grants: &Grants, out: &mut Found) {
    // Per key: the newest grant with an accepted write so far, and when it first wrote.
    let mut newest: Vec<(KeyId, u32, u64)> = Vec::new();
    let mut seen = BTreeSet::new();
    for w in &facts.writes {
        let Some(slot) = newest.iter_mut().find(|(k, ..)| *k == w.key) else {
            newest.push((w.key, w.token, w.at_ms));
            continue;
        };
        let (_, top, top_ms) = *slot;
        if w.token == top {
            continue;
        }
        if grants.newer(facts, w.token, top) {
            *slot = (w.key, w.token, w.at_ms);
        } else if seen.insert((w.token, top)) {
            out.push(report_stale(
                trace, facts, w.token, top, top_ms, w.at_ms, w.node,
            ));
        }
    }
}

fn report_stale(
    trace: &Trace,
    facts: &Facts,
    old: u32,
    new: u32,
    new_ms: u64,
    at_ms: u64,
    resource: NodeId,
) -> Violation {
    let (fo, fnew) = (&facts.tokens[old as usize], &facts.tokens[new as usize]);
    Violation {
        kind: ViolationKind::StaleWrite,
        at_ms,
        nodes: explain::nodes(vec![fo.token.worker, fnew.token.worker, resource]),
        grants: vec![fo.token, fnew.token],
        explanation: format!(
            "{} wrote with grant {} at {} after {}, a newer grant, had written at {}.",
            explain::node(trace, fo.token.worker),
            explain::grant(trace, fo.token, fo.fence),
            fmt_ms(at_ms),
            explain::grant(trace, fnew.token, fnew.fence),
            fmt_ms(new_ms),
        ),
    }
}

/// The part of one grant's critical section the resource saw: from its read (or its first
/// accepted write when it did not read) to its last accepted write, true ms.
#[derive(Clone, Copy, Debug)]
struct Span {
    token: u32,
    key: KeyId,
    start_ms: u64,
    end_ms: u64,
    /// Whether `start_ms` is a read (for the wording).
    read: bool,
}

/// `interleaved_writes`: per key, two grants with accepted writes whose spans overlap
/// (`a.start < b.end && b.start < a.end`): one read-modify-write can overwrite the other's
/// update. Serial spans (B read after A's last accepted write) are fine. One violation per
/// pair, at the write that breaks the rule (see [`breaking_write_ms`]).
pub(super) fn interleaved_writes(trace: &Trace, facts: &Facts, out: &mut Found) {
    let mut spans: Vec<Span> = facts
        .tokens
        .iter()
        .enumerate()
        .filter_map(|(t, f)| {
            let first = f.first_write?.at_ms;
            let end_ms = f.last_write_ms.unwrap_or(first);
            let start_ms = f.read_ms.map_or(first, |r| r.min(first));
            Some(Span {
                token: t as u32,
                key: f.key,
                start_ms,
                end_ms,
                read: f.read_ms.is_some_and(|r| r <= first),
            })
        })
        .collect();
    order::sort_by_key(&mut spans, |s| (s.key, s.start_ms, s.token));
    let resource = trace.first_with_role(Role::Resource);
    let by_token = writes_by_token(facts);
    for_overlapping(
        &spans,
        |s| (s.key, s.start_ms, s.end_ms),
        |a, b| {
            let at_ms = breaking_write_ms(facts, &by_token, a, b);
            out.push(report_interleaved(trace, facts, resource, a, b, at_ms));
        },
    );
}

/// Per grant (index in `facts.tokens`), the indices in `facts.writes` of its accepted writes
/// on its own key, in trace order: each pair of overlapping sections then finds its breaking
/// write by binary search instead of a pass over every write of the key (64 workers on a
/// `flag` lock overlap in hundreds of thousands of pairs).
fn writes_by_token(facts: &Facts) -> Vec<Vec<usize>> {
    let mut by_token = vec![Vec::new(); facts.tokens.len()];
    for (i, w) in facts.writes.iter().enumerate() {
        let t = w.token as usize;
        if facts.tokens.get(t).is_some_and(|f| f.key == w.key) {
            by_token[t].push(i);
        }
    }
    by_token
}

/// Where two overlapping sections go wrong: the first accepted write of one grant that lands
/// after the other grant wrote inside its section, so it overwrites an update its read never
/// saw (the lost update). The earlier grant's own write before that is legitimate. Writes at one
/// instant count in trace order; if none qualifies (only same-instant ties), the later of the
/// two sections' last writes. `by_token` is [`writes_by_token`].
fn breaking_write_ms(facts: &Facts, by_token: &[Vec<usize>], a: Span, b: Span) -> u64 {
    let writes = &facts.writes;
    // The first write of `x` after a write of `y` that came inside `x`'s section.
    let breaks = |x: Span, y: Span| -> Option<usize> {
        let (xs, ys) = (&by_token[x.token as usize], &by_token[y.token as usize]);
        let first_inside = if x.read {
            // Writes are in time order.
            ys.partition_point(|&i| writes[i].at_ms < x.start_ms)
        } else {
            // Without a read, the section opens with `x`'s first write itself.
            let opened = *xs.first()?;
            ys.partition_point(|&i| i <= opened)
        };
        let y_write = *ys.get(first_inside)?;
        xs.get(xs.partition_point(|&i| i <= y_write)).copied()
    };
    [breaks(a, b), breaks(b, a)]
        .into_iter()
        .flatten()
        .min()
        .map_or(a.end_ms.max(b.end_ms), |i| writes[i].at_ms)
}

fn report_interleaved(
    trace: &Trace,
    facts: &Facts,
    resource: Option<NodeId>,
    a: Span,
    b: Span,
    at_ms: u64,
) -> Violation {
    let (ta, tb) = (
        facts.tokens[a.token as usize].token,
        facts.tokens[b.token as usize].token,
    );
    let describe = |s: Span, t: Token| {
        let who = format!(
            "{} ({})",
            explain::node(trace, t.worker),
            explain::token(trace, t)
        );
        match (s.read, s.start_ms == s.end_ms) {
            (true, _) => format!(
                "{who} read at {} and last wrote at {}",
                fmt_ms(s.start_ms),
                fmt_ms(s.end_ms)
            ),
            (false, true) => format!("{who} wrote at {}", fmt_ms(s.end_ms)),
            (false, false) => format!(
                "{who} wrote from {} to {}",
                fmt_ms(s.start_ms),
                fmt_ms(s.end_ms)
            ),
        }
    };
    Violation {
        kind: ViolationKind::InterleavedWrites,
        at_ms,
        nodes: explain::nodes([ta.worker, tb.worker].into_iter().chain(resource).collect()),
        grants: vec![ta, tb],
        explanation: format!(
            "Writes to {}: {} while {}, so one update can overwrite the other.",
            trace.record_name(a.key),
            describe(a, ta),
            describe(b, tb),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ViolationKind, check};
    use crate::scenario::ResourceMode;
    use crate::testkit::{TraceBuilder, only, scenario};

    /// A#1 (fence 1) is granted first; B#1 (fence 2) after A's lease ran out.
    fn two_grants() -> TraceBuilder {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.granted_fenced(0, 1, a, Some(10_000), Some(1))
            .acquired(2, a)
            .granted_fenced(10_050, 1, b, Some(10_000), Some(2))
            .acquired(10_052, b);
        t
    }

    #[test]
    fn an_older_grant_writing_after_a_newer_one_is_stale() {
        let mut t = two_grants();
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.read(10_100, b)
            .write_fenced(11_104, b, Some(2))
            .write_fenced(17_004, a, Some(1))
            .write_fenced(17_500, a, Some(1));
        let v = t.check();
        let s = only(&v, ViolationKind::StaleWrite);
        assert_eq!(s.len(), 1, "one per pair");
        assert_eq!(s[0].at_ms, 17_004);
        assert_eq!(s[0].grants, vec![a, b]);
        assert_eq!(
            s[0].nodes,
            vec![t.node("A"), t.node("B"), t.node("resource")]
        );
        assert_eq!(
            s[0].explanation,
            "A wrote with grant A#1 (fence 1) at 17 004 ms after B#1 (fence 2), a newer grant, \
             had written at 11 104 ms."
        );
        assert!(!v.safe);
    }

    #[test]
    fn writes_in_grant_order_are_not_stale() {
        let mut t = two_grants();
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.read(100, a)
            .write(2_000, a)
            .read(10_100, b)
            .write(11_000, b);
        let v = t.check();
        assert!(!v.has(ViolationKind::StaleWrite));
        assert!(!v.has(ViolationKind::InterleavedWrites));
        assert!(v.safe);
    }

    #[test]
    fn idempotent_mode_reports_nothing_at_the_resource() {
        let mut t = two_grants();
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.read(100, a)
            .read(10_100, b)
            .write(11_104, b)
            .write(17_004, a);
        let v = check(&scenario(ResourceMode::Idempotent), &t.build());
        assert!(!v.has(ViolationKind::StaleWrite));
        assert!(!v.has(ViolationKind::InterleavedWrites));
        assert!(v.safe);
        // The same trace in plain mode is unsafe both ways.
        let plain = t.check();
        assert!(
            plain.has(ViolationKind::StaleWrite) && plain.has(ViolationKind::InterleavedWrites)
        );
    }

    /// A grant the store lost (and the older holder back after it, reading afresh) writes
    /// after the newer grant: a stale write by grant order in plain mode, none in cas mode,
    /// where the version check is what keeps the data right.
    #[test]
    fn cas_mode_judges_writes_by_the_version_check_not_grant_order() {
        let mut t = two_grants();
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.read(10_100, b)
            .write(11_104, b)
            .read(12_000, a)
            .write(17_004, a);
        let cas = check(&scenario(ResourceMode::Cas), &t.build());
        assert!(!cas.has(ViolationKind::StaleWrite) && !cas.has(ViolationKind::InterleavedWrites));
        assert!(cas.safe);
        let plain = t.check();
        assert!(plain.has(ViolationKind::StaleWrite));
        assert!(!plain.safe);
    }

    #[test]
    fn without_grants_the_acquire_time_orders_writers() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.acquired(0, a).acquired(50, b).write(100, b).write(200, a);
        let s = t.check();
        let s = only(&s, ViolationKind::StaleWrite);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].at_ms, s[0].grants.clone()), (200, vec![a, b]));
    }

    #[test]
    fn overlapping_read_modify_writes_interleave() {
        let mut t = two_grants();
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.read(9_000, a)
            .read(10_100, b)
            .write(11_000, a)
            .write(12_000, b);
        let v = t.check();
        let i = only(&v, ViolationKind::InterleavedWrites);
        assert_eq!(i.len(), 1);
        // A's write at 11 000 ms is a sound read-modify-write; B's, computed from a read that
        // A's write has since made stale, is the one that loses an update.
        assert_eq!(i[0].at_ms, 12_000);
        assert_eq!(i[0].grants, vec![a, b]);
        assert_eq!(
            i[0].explanation,
            "Writes to the record: A (A#1) read at 9 000 ms and last wrote at 11 000 ms while B (B#1) read \
             at 10 100 ms and last wrote at 12 000 ms, so one update can overwrite the other."
        );
        assert!(!v.safe);
    }

    #[test]
    fn a_lone_write_inside_another_span_interleaves() {
        let mut t = two_grants();
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.read(10_100, b).write(10_500, a).write(12_000, b);
        let v = t.check();
        let i = only(&v, ViolationKind::InterleavedWrites);
        assert_eq!(i.len(), 1);
        // B read before A's write and wrote after it: B's write overwrites A's.
        assert_eq!(i[0].at_ms, 12_000);
    }

    #[test]
    fn a_write_after_the_other_wrote_inside_its_section_breaks_the_rule() {
        // A read, B read and wrote, then A wrote from its old read: A's write loses B's update.
        let mut t = two_grants();
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.read(9_000, a)
            .read(10_100, b)
            .write(10_200, b)
            .write(11_000, a)
            .write(11_500, a);
        let v = t.check();
        let i = only(&v, ViolationKind::InterleavedWrites);
        assert_eq!(i.len(), 1);
        assert_eq!(i[0].at_ms, 11_000);
    }

    #[test]
    fn serial_writes_with_a_rejected_late_write_do_not_interleave() {
        // A wrote once; B then read A's value and wrote; A's second write was refused.
        let mut t = two_grants();
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.read(100, a)
            .write(5_000, a)
            .read(10_100, b)
            .write(11_000, b)
            .rejected(12_000, a);
        let v = t.check();
        assert!(!v.has(ViolationKind::InterleavedWrites));
        assert!(!v.has(ViolationKind::StaleWrite));
    }
}
