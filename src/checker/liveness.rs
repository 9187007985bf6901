//! The liveness properties: `stuck` (a lock nobody can free) and `starved` (a live worker that
//! waited too long). Both are judged up to the end of simulated time: the horizon, or where
//! the engine's event budget cut the run; nothing is judged for time never simulated.

use super::explain;
use super::facts::{Facts, TokenFacts};
use super::{Found, Violation, ViolationKind};
use crate::scenario::Topology;
use crate::text::fmt_ms;
use crate::trace::{KeyId, LetGoReason, NodeId, Role, Trace};

/// Why a holder can make no progress, in the order preferred when two began at once (a crash
/// also lets go; the crash is the reason). A pause is not one: a paused holder resumes and
/// goes on.
#[derive(Clone, Copy, Debug)]
enum Cause {
    Crashed,
    Stalled,
    LetGo,
    /// It gave up the attempt before the grant came, and sent the grant back.
    HandedBack,
    WaitsOnItself,
}

/// When the holder of `f` stopped being able to make progress, and why; `None` if it can
/// still release the lock itself.
fn no_progress(facts: &Facts, f: &TokenFacts) -> Option<(u64, Cause)> {
    let node = facts.nodes.get(f.token.worker.index());
    [
        (node.and_then(|n| n.crashed_since), Cause::Crashed),
        (node.and_then(|n| n.stalled_since), Cause::Stalled),
        (f.let_go_ms, Cause::LetGo),
        (
            f.release_sent_ms.filter(|_| f.acquired.is_none()),
            Cause::HandedBack,
        ),
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

/// A lock the store side still holds at the end of simulated time: dense token, key, and the
/// store nodes it is held on.
struct StillHeld {
    token: u32,
    key: KeyId,
    nodes: Vec<NodeId>,
}

/// What the store side holds at the end of simulated time, from its own state (see
/// [`super::facts::StoreEnd`]), leaving out locks whose release is still on its way:
/// - `single`: the node, if it is up;
/// - `redlock`: a majority of nodes that are up and have no release of it on the way;
/// - `multi_primary`: each member that is up, for the grant it made on its own;
/// - `replicated`: the most recently promoted primary that is up;
/// - `consensus`: the committed state the leaders recorded, while a majority of nodes is up
///   (fewer cannot serve anyone: the store is down, not the lock stuck).
///
/// A node that is down holds nothing for anyone: a store outage is not a stuck lock.
fn still_held(trace: &Trace, facts: &Facts) -> Vec<StillHeld> {
    let end = &facts.store_end;
    let up = |n: NodeId| {
        facts
            .nodes
            .get(n.index())
            .is_some_and(|n| n.crashed_since.is_none())
    };
    let on_the_way = |t: u32, to: Option<NodeId>| {
        end.releases_in_flight
            .iter()
            .any(|&(rt, n)| rt == t && to.is_none_or(|to| to == n))
    };
    let mut out: Vec<StillHeld> = Vec::new();
    match trace.topology {
        Topology::Single | Topology::Redlock | Topology::MultiPrimary => {
            let majority = trace.topology.holders_needed(trace.store_nodes());
            for &(node, key, t) in &end.holds {
                if !up(node) || on_the_way(t, Some(node)) {
                    continue;
                }
                match out.iter_mut().find(|h| h.token == t && h.key == key) {
                    Some(h) => h.nodes.push(node),
                    None => out.push(StillHeld {
                        token: t,
                        key,
                        nodes: vec![node],
                    }),
                }
            }
            out.retain(|h| h.nodes.len() >= majority);
        }
        Topology::Replicated => {
            if let Some(&primary) = end.primaries.iter().find(|&&n| up(n)) {
                out.extend(
                    end.holds
                        .iter()
                        .filter(|&&(node, _, t)| node == primary && !on_the_way(t, None))
                        .map(|&(node, key, token)| StillHeld {
                            token,
                            key,
                            nodes: vec![node],
                        }),
                );
            }
        }
        Topology::Consensus => {
            let stores = trace.store_nodes();
            let serving = NodeId::all(trace.nodes.len())
                .filter(|&n| trace.nodes[n.index()].role == Role::Store && up(n))
                .count();
            if serving >= crate::scenario::majority(stores) {
                out.extend(end.committed.iter().enumerate().filter_map(|(key, c)| {
                    let (token, node) = (*c)?;
                    (!on_the_way(token, None)).then(|| StillHeld {
                        token,
                        key: KeyId::from_index(key),
                        nodes: vec![node],
                    })
                }));
            }
        }
    }
    out
}

/// `stuck`: at the end of simulated time the store side still holds a lock (its own
/// state, not what it once promised — a lock it expired, forgot or had removed is not held,
/// and one whose release is still on its way is about to be free) for a holder that is
/// crashed, stalled, already let go or handed a late grant back (its release was lost or never
/// reached the store), or waiting on itself — and nothing will free it: it has no expiry, or
/// its lease was renewed after the holder stopped (a watchdog renewing for a stalled holder). One per
/// token, at the moment both were true: the condition began and the store had granted the
/// lock (a request can reach the store after its sender crashed).
pub(super) fn stuck(trace: &Trace, facts: &Facts, out: &mut Found) {
    let mut reported = vec![false; facts.tokens.len()];
    for h in still_held(trace, facts) {
        let (Some(f), Some(done)) = (
            facts.tokens.get(h.token as usize),
            reported.get_mut(h.token as usize),
        ) else {
            continue;
        };
        let Some((since, cause)) = no_progress(facts, f) else {
            continue;
        };
        // A lease nobody renewed since its holder stopped runs out and frees the lock by
        // itself (the Redis docs' auto-release; Chubby's lease): held at the end of the run,
        // but not stuck. One renewed after that (a watchdog renewing for a stalled holder)
        // is kept alive for good.
        if f.expires && f.renewed_ms.is_none_or(|r| r < since) {
            continue;
        }
        if std::mem::replace(done, true) {
            continue;
        }
        let worker = explain::node(trace, f.token.worker);
        let reason = match cause {
            Cause::Crashed => format!("{worker} crashed at {} and never restarted", fmt_ms(since)),
            Cause::Stalled => format!("{worker} has been stalled since {}", fmt_ms(since)),
            Cause::LetGo if f.let_go_reason == Some(LetGoReason::Crashed) => format!(
                "{worker} crashed at {} and came back without it, so nobody will release it",
                fmt_ms(since)
            ),
            Cause::LetGo => format!(
                "{worker} let go of it at {} and its release never took effect",
                fmt_ms(since)
            ),
            Cause::HandedBack => format!(
                "{worker} had given up that attempt and sent the grant back at {}, and that \
                 release never took effect",
                fmt_ms(since)
            ),
            Cause::WaitsOnItself => format!(
                "{worker} has been waiting since {} to acquire it again, which it cannot \
                 while holding it (the lock is not reentrant)",
                fmt_ms(since)
            ),
        };
        let mut nodes = h.nodes;
        nodes.push(f.token.worker);
        let granted_ms = f.granted.map_or(0, |g| g.at_ms);
        out.push(Violation {
            kind: ViolationKind::Stuck,
            at_ms: since.max(granted_ms),
            nodes: explain::nodes(nodes),
            grants: vec![f.token],
            explanation: format!(
                "{} still held {} {}, but {reason}.",
                explain::token(trace, f.token),
                explain::key(trace, h.key),
                explain::horizon(trace),
            ),
        });
    }
}

/// `starved`: a wait (first attempt after the previous acquisition, through failures, queueing
/// and retries, to the next acquisition or the end of simulated time) in which the worker
/// spent longer than `starve_after_ms` running and asking. Time it was itself paused, crashed
/// or stalled does not count: it was not kept out then. One per wait, reported at the moment
/// its running time reached the limit.
pub(super) fn starved(trace: &Trace, facts: &Facts, starve_after_ms: u64, out: &mut Found) {
    for w in &facts.waits {
        let off = facts
            .nodes
            .get(w.worker.index())
            .map_or(&[][..], |n| n.off.as_slice());
        let Some(at_ms) = limit_passed(w.start_ms, w.end_ms, off, starve_after_ms) else {
            continue;
        };
        let Some(f) = facts.tokens.get(w.token as usize) else {
            continue;
        };
        let worker = explain::node(trace, w.worker);
        let key = explain::key(trace, w.key);
        let mut explanation = match w.held.and_then(|h| facts.tokens.get(h as usize)) {
            // A nested acquire of a lock it holds: it is waiting on itself.
            Some(own) => format!(
                "{worker} waited from {} to take {key} again — it already held it as {} — and \
                 still did not have it after {}",
                fmt_ms(w.start_ms),
                explain::token(trace, own.token),
                fmt_ms(starve_after_ms),
            ),
            None => format!(
                "{worker} waited for {key} from {} and still did not have it after {}",
                fmt_ms(w.start_ms),
                fmt_ms(starve_after_ms),
            ),
        };
        let not_counted = at_ms - w.start_ms - starve_after_ms;
        if not_counted > 0 {
            explanation += &format!(
                " of asking (by {}; the {} it spent paused, stalled or crashed meanwhile are \
                 not counted)",
                fmt_ms(at_ms),
                fmt_ms(not_counted),
            );
        }
        explanation.push('.');
        out.push(Violation {
            kind: ViolationKind::Starved,
            at_ms,
            nodes: vec![w.worker],
            grants: vec![f.token],
            explanation,
        });
    }
}

/// For a wait over `[start_ms, end_ms)` with the worker off (paused, crashed, stalled) in the
/// disjoint, sorted stretches `off`: the instant its running time reached `limit_ms`, if it
/// ran for longer than that in all.
fn limit_passed(start_ms: u64, end_ms: u64, off: &[(u64, u64)], limit_ms: u64) -> Option<u64> {
    let mut left = limit_ms;
    let mut reached = None;
    let mut from = start_ms;
    // The running stretches: between the off ones, clipped to the wait.
    let ends = off.iter().copied().chain(std::iter::once((end_ms, end_ms)));
    for (a, b) in ends {
        let until = a.min(end_ms);
        if until > from {
            let ran = until - from;
            match reached {
                Some(_) => return reached,
                None if ran > left => return Some(from + left),
                None if ran == left => reached = Some(until),
                None => left -= ran,
            }
        }
        from = from.max(b);
        if from >= end_ms {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::ViolationKind;
    use crate::scenario::Topology;
    use crate::scenario::names::store_name;
    use crate::testkit::{TraceBuilder, only};
    use crate::trace::{EventKind, KeyId, Label, NodeId};

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
        let s = only(&v, ViolationKind::Stuck);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].at_ms, 500);
        assert_eq!(s[0].grants, vec![t.tok("A", 1)]);
        assert_eq!(s[0].nodes, vec![t.node("A"), t.store(1)]);
        assert_eq!(
            s[0].explanation,
            "A#1 still held 'lock' at the end of the run (20 000 ms), but A has been stalled since 500 ms."
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
        assert!(!v.has(ViolationKind::Stuck));
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
        let s = only(&v, ViolationKind::Stuck);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].at_ms, 1_000);
        assert!(
            s[0].explanation
                .ends_with("but A crashed at 1 000 ms and never restarted.")
        );
    }

    /// The acquire was on its way when A crashed; the store granted it afterwards. The lock
    /// is stuck from the grant, not from the crash before it.
    #[test]
    fn a_grant_made_after_its_holder_crashed_is_stuck_from_the_grant() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.on(1, "A", EventKind::Crashed).granted(4, 1, a, None);
        let v = t.check();
        let s = only(&v, ViolationKind::Stuck);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].at_ms, 4);
        assert!(
            s[0].explanation
                .ends_with("but A crashed at 1 ms and never restarted.")
        );
    }

    #[test]
    fn a_crashed_holder_whose_lease_expires_is_not_stuck() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.granted(0, 1, a, Some(10_000))
            .acquired(1, a)
            .on(1_000, "A", EventKind::Crashed)
            .expired(10_000, 1, a);
        assert!(!t.check().has(ViolationKind::Stuck));
    }

    /// The lease outlives the run: the lock is held at the horizon but frees itself later.
    #[test]
    fn a_crashed_holder_whose_lease_outlives_the_run_is_not_stuck() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.granted(0, 1, a, Some(30_000))
            .acquired(1, a)
            .on(1_000, "A", EventKind::Crashed)
            .let_go(1_000, a);
        assert!(!t.check().has(ViolationKind::Stuck));
    }

    /// SETNX then a crash before EXPIRE: no TTL, so nothing frees it. With the TTL set, the
    /// key would expire after the run and the lock is not stuck.
    #[test]
    fn a_lock_given_its_ttl_before_the_crash_is_not_stuck() {
        for ttl_set in [false, true] {
            let mut t = TraceBuilder::single(&["A"]);
            let a = t.tok("A", 1);
            t.granted(0, 1, a, None).acquired(1, a);
            if ttl_set {
                t.on(
                    2,
                    &store_name(1),
                    EventKind::TtlSet {
                        key: KeyId::from_index(0),
                        token: a,
                        lease_ms: 30_000,
                    },
                );
            }
            t.on(1_000, "A", EventKind::Crashed);
            assert_eq!(
                t.check().has(ViolationKind::Stuck),
                !ttl_set,
                "TTL set: {ttl_set}"
            );
        }
    }

    /// Renewed until it stalled (renewal on progress, say), then never: the lease runs out
    /// after the run. A watchdog that renews through the stall keeps it held for good.
    #[test]
    fn a_stalled_holder_is_stuck_only_if_renewed_while_stalled() {
        for renewed_while_stalled in [false, true] {
            let mut t = TraceBuilder::single(&["A"]);
            let a = t.tok("A", 1);
            t.started(0, a)
                .granted(1, 1, a, Some(30_000))
                .acquired(2, a);
            let last = if renewed_while_stalled { 19_000 } else { 5_000 };
            for at in (1_000..=last).step_by(1_000) {
                t.extended(at, 1, a, 30_000);
            }
            t.on(5_500, "A", EventKind::Stalled { for_ms: 30_000 });
            assert_eq!(
                t.check().has(ViolationKind::Stuck),
                renewed_while_stalled,
                "renewed while stalled: {renewed_while_stalled}"
            );
        }
    }

    /// What the store side holds at the horizon decides, not what it once promised: one
    /// holder, A#1, granted by store1 with no lease at 0 ms; each row adds events and says
    /// whether A#1 is stuck.
    #[test]
    fn stuck_is_judged_from_the_store_state_at_the_horizon() {
        type Row = (&'static str, fn(&mut TraceBuilder), bool);
        let rows: [Row; 11] = [
            (
                "a crashed holder",
                |t| {
                    t.on(1_000, "A", EventKind::Crashed);
                },
                true,
            ),
            (
                "a crashed holder whose store forgot the lock on restart",
                |t| {
                    t.on(1_000, "A", EventKind::Crashed)
                        .on(2_000, "store1", EventKind::Crashed)
                        .on(2_010, "store1", EventKind::Restarted)
                        .on(2_010, "store1", EventKind::Forgot);
                },
                false,
            ),
            (
                "a crashed holder whose store expired the lock",
                |t| {
                    let a = t.tok("A", 1);
                    t.on(1_000, "A", EventKind::Crashed).expired(3_000, 1, a);
                },
                false,
            ),
            (
                "a crashed holder on a store that is down at the horizon",
                |t| {
                    t.on(1_000, "A", EventKind::Crashed)
                        .on(2_000, "store1", EventKind::Crashed);
                },
                false,
            ),
            (
                "a holder paused past the horizon (it will resume and go on)",
                |t| {
                    t.on(1_000, "A", EventKind::Paused { for_ms: 60_000 });
                },
                false,
            ),
            (
                "a holder stalled to the horizon",
                |t| {
                    t.on(1_000, "A", EventKind::Stalled { for_ms: 60_000 });
                },
                true,
            ),
            (
                "a holder that let go and sent no release",
                |t| {
                    let a = t.tok("A", 1);
                    t.let_go(19_000, a);
                },
                true,
            ),
            (
                "a release still in flight at the horizon",
                |t| {
                    let a = t.tok("A", 1);
                    t.let_go(19_995, a)
                        .send(19_995, "A", "store1", 7, Label::Release { token: a });
                },
                false,
            ),
            (
                "a release lost on the way",
                |t| {
                    let a = t.tok("A", 1);
                    t.let_go(19_000, a)
                        .send(19_000, "A", "store1", 7, Label::Release { token: a })
                        .dropped(19_001, 7, "A", "store1");
                },
                true,
            ),
            (
                "a release delivered, the lock removed",
                |t| {
                    let a = t.tok("A", 1);
                    t.let_go(19_000, a)
                        .send(19_000, "A", "store1", 7, Label::Release { token: a })
                        .delivered(19_005, 7, "A", "store1")
                        .removed(19_005, 1, a, a);
                },
                false,
            ),
            (
                "another message in flight is not a release of A#1",
                |t| {
                    let (a, a11, a2) = (t.tok("A", 1), t.tok("A", 11), t.tok("A", 2));
                    t.let_go(19_000, a)
                        .send(19_990, "A", "store1", 8, Label::Release { token: a11 })
                        .send(
                            19_990,
                            "A",
                            "store1",
                            9,
                            Label::Acquire {
                                token: a2,
                                reenter: false,
                            },
                        );
                },
                true,
            ),
        ];
        for (what, add, stuck) in rows {
            let mut t = TraceBuilder::single(&["A"]);
            let a = t.tok("A", 1);
            t.granted(0, 1, a, None).acquired(1, a);
            add(&mut t);
            assert_eq!(t.check().has(ViolationKind::Stuck), stuck, "{what}");
        }
    }

    #[test]
    fn a_holder_that_crashed_and_restarted_without_its_lock_leaves_it_stuck() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.granted(0, 1, a, None)
            .acquired(1, a)
            .on(1_000, "A", EventKind::Crashed)
            .at(
                1_000,
                NodeId::new(0),
                EventKind::LetGo {
                    key: KeyId::new(0),
                    token: a,
                    reason: crate::trace::LetGoReason::Crashed,
                },
            )
            .on(1_500, "A", EventKind::Restarted);
        let v = t.check();
        let s = only(&v, ViolationKind::Stuck);
        assert_eq!(s.len(), 1);
        assert_eq!(
            s[0].explanation,
            "A#1 still held 'lock' at the end of the run (20 000 ms), but A crashed at 1 000 ms and \
             came back without it, so nobody will release it."
        );
    }

    /// A's attempt A#1 timed out; the grant came later and A sent it straight back.
    #[test]
    fn a_late_grant_handed_back_is_stuck_only_if_the_release_is_lost() {
        for (lost, stuck) in [(false, false), (true, true)] {
            let mut t = TraceBuilder::single(&["A"]);
            let (a1, a2) = (t.tok("A", 1), t.tok("A", 2));
            t.started(0, a1)
                .granted(300, 1, a1, None)
                .started(250, a2)
                .send(305, "A", "store1", 7, Label::Release { token: a1 });
            if lost {
                t.dropped(306, 7, "A", "store1");
            }
            let v = t.check();
            assert_eq!(v.has(ViolationKind::Stuck), stuck, "lost: {lost}");
            if stuck {
                assert_eq!(
                    only(&v, ViolationKind::Stuck)[0].explanation,
                    "A#1 still held 'lock' at the end of the run (20 000 ms), but A had given up that \
                     attempt and sent the grant back at 305 ms, and that release never took \
                     effect."
                );
            }
        }
    }

    /// Redlock: A#1 holds store1..3 (no lease); A let go at 19 000 ms and sent a release to
    /// each node. It is stuck only if a majority still holds it with no release on the way.
    #[test]
    fn a_redlock_lock_is_stuck_only_on_a_majority_with_no_release_on_the_way() {
        let cases: [(&str, bool, bool); 3] = [
            ("store2's release in flight, store3's lost", false, false),
            ("both lost", true, true),
            ("store2's release in flight, store3 crashed", false, true),
        ];
        for (what, store2_lost, store3_crashed) in cases {
            let mut t = TraceBuilder::new(&["A"], 3, Topology::Redlock);
            let a = t.tok("A", 1);
            for store in 1..=3 {
                t.granted(0, store, a, None);
            }
            t.acquired(1, a).let_go(19_000, a);
            for (msg, store) in [(1, "store1"), (2, "store2"), (3, "store3")] {
                t.send(19_000, "A", store, msg, Label::Release { token: a });
            }
            t.delivered(19_002, 1, "A", "store1")
                .removed(19_002, 1, a, a);
            t.dropped(19_003, 3, "A", "store3");
            if store2_lost {
                t.dropped(19_003, 2, "A", "store2");
            }
            if store3_crashed {
                t.on(19_500, "store3", EventKind::Crashed);
            }
            let v = t.check();
            let expect = store2_lost && !store3_crashed;
            assert_eq!(v.has(ViolationKind::Stuck), expect, "{what}");
            if expect {
                let s = only(&v, ViolationKind::Stuck);
                assert_eq!(s[0].nodes, vec![t.node("A"), t.store(2), t.store(3)]);
            }
        }
    }

    /// Replicated: store1 granted A#1 (no lease) and A crashed; store1 then crashed and store2
    /// was promoted. A#1 is stuck only if store2 had received the copy.
    #[test]
    fn a_replicated_lock_is_judged_on_the_current_primary() {
        for copied in [true, false] {
            let mut t = TraceBuilder::new(&["A"], 2, Topology::Replicated);
            let a = t.tok("A", 1);
            t.granted(0, 1, a, None).acquired(1, a);
            if copied {
                t.replicated(5, 2, Some(a));
            }
            t.on(1_000, "A", EventKind::Crashed)
                .on(2_000, "store1", EventKind::Crashed)
                .on(3_000, "store2", EventKind::BecameLeader { term: 2 });
            let v = t.check();
            assert_eq!(v.has(ViolationKind::Stuck), copied, "copied: {copied}");
            if copied {
                assert_eq!(
                    only(&v, ViolationKind::Stuck)[0].nodes,
                    vec![t.node("A"), t.store(2)]
                );
            }
        }
    }

    /// Consensus: the leader store1 committed A#1 (no lease) and A crashed. The committed
    /// state survives one node restarting empty, not a majority.
    #[test]
    fn a_consensus_lock_is_lost_only_when_a_majority_forgot_it() {
        for forgetting in [1, 2] {
            let mut t = TraceBuilder::new(&["A"], 3, Topology::Consensus);
            let a = t.tok("A", 1);
            t.granted(0, 1, a, None)
                .acquired(1, a)
                .on(1_000, "A", EventKind::Crashed);
            for store in 2..=forgetting + 1 {
                let node = store_name(store);
                t.on(2_000, &node, EventKind::Crashed)
                    .on(2_010, &node, EventKind::Restarted)
                    .on(2_010, &node, EventKind::Forgot);
            }
            assert_eq!(
                t.check().has(ViolationKind::Stuck),
                forgetting < 2,
                "{forgetting} forgot"
            );
        }
    }

    #[test]
    fn a_lost_release_leaves_the_lock_stuck() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.granted(0, 1, a, None).acquired(1, a).let_go(2_000, a);
        let v = t.check();
        let s = only(&v, ViolationKind::Stuck);
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
        let s = only(&v, ViolationKind::Stuck);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].at_ms, 1_000);
        assert_eq!(s[0].grants, vec![a1]);
        // It is starved by itself too: one wait from 1 000 ms, through both attempts.
        let w = only(&v, ViolationKind::Starved);
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
        let w = only(&v, ViolationKind::Starved);
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
            // C asked for 5 000 ms, then crashed for good: it was not kept out after that.
            .started(0, c)
            .on(5_000, "C", EventKind::Crashed);
        assert!(!t.check().has(ViolationKind::Starved));
    }

    /// Only time the waiter was running and asking counts. B waits for A's lock (held to the
    /// horizon, 20 000 ms) from 1 500 ms; each row takes B off for some stretches.
    #[test]
    fn starved_counts_only_running_asking_time() {
        // What, B's fault events and their times, when B is reported starved.
        type Row = (
            &'static str,
            &'static [EventKind],
            &'static [u64],
            Option<u64>,
        );
        let rows: [Row; 6] = [
            ("never off", &[], &[], Some(11_500)),
            (
                "paused 13 s: only 5 500 ms of asking",
                &[EventKind::Paused { for_ms: 13_000 }, EventKind::Resumed],
                &[2_000, 15_000],
                None,
            ),
            (
                "paused 3 s: the limit is reached 3 s later",
                &[EventKind::Paused { for_ms: 3_000 }, EventKind::Resumed],
                &[2_000, 5_000],
                Some(14_500),
            ),
            (
                "stalled 13 s",
                &[EventKind::Stalled { for_ms: 13_000 }, EventKind::Unstalled],
                &[2_000, 15_000],
                None,
            ),
            (
                "crashed and restarted 13 s later",
                &[EventKind::Crashed, EventKind::Restarted],
                &[2_000, 15_000],
                None,
            ),
            (
                "crashed after asking 12 s",
                &[EventKind::Crashed],
                &[13_500],
                Some(11_500),
            ),
        ];
        for (what, faults, times, starved_at) in rows {
            let mut t = TraceBuilder::single(&["A", "B"]);
            let (a, b) = (t.tok("A", 1), t.tok("B", 1));
            t.started(0, a)
                .granted(1, 1, a, None)
                .acquired(2, a)
                .started(1_500, b);
            for (kind, &at) in faults.iter().zip(times) {
                t.on(at, "B", kind.clone());
            }
            let v = t.check();
            let got: Vec<u64> = only(&v, ViolationKind::Starved)
                .iter()
                .map(|s| s.at_ms)
                .collect();
            assert_eq!(got, starved_at.into_iter().collect::<Vec<_>>(), "{what}");
        }
    }

    #[test]
    fn a_starved_wait_with_time_off_says_what_was_not_counted() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.started(0, a)
            .granted(1, 1, a, None)
            .acquired(2, a)
            .started(1_500, b)
            .on(2_000, "B", EventKind::Paused { for_ms: 3_000 })
            .on(5_000, "B", EventKind::Resumed);
        let v = t.check();
        assert_eq!(
            only(&v, ViolationKind::Starved)[0].explanation,
            "B waited for 'lock' from 1 500 ms and still did not have it after 10 000 ms of \
             asking (by 14 500 ms; the 3 000 ms it spent paused, stalled or crashed meanwhile \
             are not counted)."
        );
    }

    #[test]
    fn the_limit_is_reached_after_the_running_time_only() {
        use super::limit_passed;
        let off: &[(u64, u64)] = &[(100, 200), (300, 1_000)];
        // (start, end, limit) → instant the running time reached the limit, if it then ran on.
        let rows: [((u64, u64, u64), Option<u64>); 7] = [
            ((0, 2_000, 50), Some(50)),
            ((0, 2_000, 150), Some(250)),
            // Reached at 300 ms, the start of an off stretch; over it only once it runs again.
            ((0, 2_000, 200), Some(300)),
            ((0, 1_000, 200), None),
            ((0, 1_001, 200), Some(300)),
            ((150, 400, 50), Some(250)),
            ((150, 400, 100), None),
        ];
        for ((start, end, limit), want) in rows {
            assert_eq!(
                limit_passed(start, end, off, limit),
                want,
                "{start}..{end}, limit {limit}"
            );
        }
    }

    /// A run cut short by the event budget: nothing is judged for time never simulated.
    #[test]
    fn a_cut_run_is_judged_only_up_to_the_cut() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.started(0, a)
            .granted(1, 1, a, None)
            .acquired(2, a)
            .on(1_000, "A", EventKind::Crashed)
            .started(1_500, b)
            .cut_short(8_000);
        let v = t.check();
        assert_eq!(v.cut_short_at_ms, Some(8_000));
        // B asked for 6 500 ms of simulated time: not starved, whatever the horizon says.
        assert!(!v.has(ViolationKind::Starved));
        assert_eq!(
            only(&v, ViolationKind::Stuck)[0].explanation,
            "A#1 still held 'lock' when the run was cut short (8 000 ms), but A crashed at \
             1 000 ms and never restarted."
        );
        t.cut_short(20_000);
        assert!(t.check().has(ViolationKind::Starved));
    }
}
