//! The store side: when each token was granted, when the store side held a key for it, and
//! the two store-level anomalies, `double_grant` and `foreign_release`.
//!
//! Validity is ground truth in true time: a node whose clock jumped, or that forgot its locks
//! on restart, still made its promise (Kleppmann 2016; Sanfilippo 2016 on Redlock and clocks).

use std::collections::BTreeSet;

use super::explain;
use super::facts::{Facts, Lease, Remover, Stamp};
use super::{Found, Violation, ViolationKind, for_overlapping};
use crate::order;
use crate::scenario::{self, DeletedBy};
use crate::text::fmt_ms;
use crate::trace::{KeyId, NodeId, Trace};

/// A stretch `[start_ms, end_ms)` of true time in which the store side held `key` for `token`:
/// a majority of nodes under Redlock, any node otherwise (they act as one authority).
#[derive(Clone, Copy, Debug)]
pub(super) struct Held {
    pub token: u32,
    pub key: KeyId,
    pub start_ms: u64,
    pub end_ms: u64,
    /// The event that made it held (Redlock: the grant that completed the majority).
    pub event: usize,
}

/// Store-held periods and the grant order of every token.
#[derive(Debug)]
pub(super) struct Grants {
    /// Redlock's majority of store nodes; `None` for the other topologies.
    pub majority: Option<usize>,
    /// Sorted by key, start, token.
    pub held: Vec<Held>,
    /// Per token: where it stands in grant order (see [`Grants::newer`]).
    order: Vec<Stamp>,
}

impl Grants {
    /// Works out held periods and grant order from the node-level leases.
    pub fn compute(trace: &Trace, facts: &Facts) -> Grants {
        let majority = trace
            .topology
            .fans_out()
            .then(|| scenario::majority(trace.store_nodes()));
        let mut leases: Vec<&Lease> = facts.leases.iter().collect();
        order::sort_by_key(&mut leases, |l| (l.token, l.key, l.start_ms, l.node));
        let mut held = Vec::new();
        let mut points = Vec::new();
        let mut capped = Vec::new();
        for group in leases.chunk_by(|a, b| a.token == b.token && a.key == b.key) {
            match majority {
                Some(m) => {
                    let until = group
                        .first()
                        .and_then(|l| facts.tokens.get(l.token as usize))
                        .and_then(|f| f.valid_until_ms);
                    capped.clear();
                    capped.extend(group.iter().map(|l| within_validity(l, until)));
                    majority_periods(&capped, m, &mut points, &mut held);
                }
                None => union_periods(group, &mut held),
            }
        }

        // Grant time: the first `Granted` (one authority) or the first majority instant
        // (Redlock). A token that wrote without a grant falls back to when its worker believed
        // it acquired, then to its first write.
        let mut first_majority: Vec<Option<Stamp>> = vec![None; facts.tokens.len()];
        for h in &held {
            let s = Stamp {
                at_ms: h.start_ms,
                event: h.event,
            };
            if let Some(slot) = first_majority.get_mut(h.token as usize)
                && slot.is_none_or(|f| s < f)
            {
                *slot = Some(s);
            }
        }
        let order = facts
            .tokens
            .iter()
            .zip(first_majority)
            .map(|(f, first)| {
                let granted = if majority.is_some() { first } else { f.granted };
                granted
                    .or(f.acquired)
                    .or(f.first_write)
                    .unwrap_or(Stamp::NEVER)
            })
            .collect();
        order::sort_by_key(&mut held, |h| (h.key, h.start_ms, h.event, h.token));
        Grants {
            majority,
            held,
            order,
        }
    }

    /// Whether token `a` comes after token `b` in grant order (ties: the token itself, so the
    /// order is total and deterministic).
    pub fn newer(&self, facts: &Facts, a: u32, b: u32) -> bool {
        let key = |t: u32| {
            (
                self.order.get(t as usize).copied().unwrap_or(Stamp::NEVER),
                facts.tokens.get(t as usize).map(|f| f.token),
            )
        };
        key(a) > key(b)
    }
}

/// Store nodes whose promise to `token` covers true instant `x`, sorted.
fn nodes_at(facts: &Facts, token: u32, x: u64) -> Vec<NodeId> {
    let nodes = facts
        .leases
        .iter()
        .filter(|l| l.token == token && l.covers(x))
        .map(|l| l.node)
        .collect();
    explain::nodes(nodes)
}

/// One authority: the token is held whenever any node's promise covers the instant.
fn union_periods(group: &[&Lease], held: &mut Vec<Held>) {
    let mut cur: Option<Held> = None;
    for l in group {
        match &mut cur {
            Some(c) if l.start_ms <= c.end_ms => c.end_ms = c.end_ms.max(l.end_ms),
            _ => {
                held.extend(cur.take());
                cur = Some(Held {
                    token: l.token,
                    key: l.key,
                    start_ms: l.start_ms,
                    end_ms: l.end_ms,
                    event: l.event,
                });
            }
        }
    }
    held.extend(cur);
}

/// Redlock: a node's promise lasts while the client's validity does, no longer. The Redlock
/// safety argument (Redis docs, "Distributed locks with Redis") promises that the keys exist
/// together for MIN_VALIDITY = TTL − (T2 − T1) − CLOCK_DRIFT, the validity the client counts,
/// not for each node's TTL: a node whose clock runs fast within the drift allowance drops its
/// key early but never inside that window. `until`: where the worker's own count ended (true
/// ms); an attempt its worker never counted as won keeps the nodes' TTLs.
fn within_validity(lease: &Lease, until: Option<u64>) -> Lease {
    let end_ms = until.map_or(lease.end_ms, |u| lease.end_ms.min(u).max(lease.start_ms));
    Lease { end_ms, ..*lease }
}

/// Redlock: the token is held while at least `majority` distinct nodes' promises cover the
/// instant (per node, promises to one token never overlap, so counting them counts nodes).
/// `points` is scratch space reused across tokens.
fn majority_periods(
    group: &[Lease],
    majority: usize,
    points: &mut Vec<(u64, i8, usize)>,
    held: &mut Vec<Held>,
) {
    let Some(first) = group.first() else {
        return;
    };
    points.clear();
    for l in group {
        points.push((l.start_ms, 1, l.event));
        points.push((l.end_ms, -1, l.event));
    }
    // Ends before starts at one instant: intervals are half-open.
    order::sort(points);
    let mut count = 0usize;
    let mut open: Option<(u64, usize)> = None;
    for &(at, delta, event) in points.iter() {
        if delta > 0 {
            count += 1;
            if count == majority {
                open = Some((at, event));
            }
        } else {
            count = count.saturating_sub(1);
            if count + 1 == majority
                && let Some((start_ms, event)) = open.take()
                && start_ms < at
            {
                held.push(Held {
                    token: first.token,
                    key: first.key,
                    start_ms,
                    end_ms: at,
                    event,
                });
            }
        }
    }
}

/// `double_grant`: the store side promised one key to two tokens for overlapping true time.
/// One authority: any two node-level promises overlap; Redlock: two majorities at once.
/// One violation per token pair, at the first instant both were valid.
pub(super) fn double_grant(trace: &Trace, facts: &Facts, grants: &Grants, out: &mut Found) {
    let mut seen = BTreeSet::new();
    match grants.majority {
        None => {
            let mut leases: Vec<&Lease> = facts.leases.iter().collect();
            // At one instant, in the order the trace granted them: the earlier is the promise.
            order::sort_by_key(&mut leases, |l| (l.key, l.start_ms, l.event, l.node));
            for_overlapping(
                &leases,
                |l| (l.key, l.start_ms, l.end_ms),
                |a, b| {
                    if a.token != b.token && seen.insert(pair(a.token, b.token)) {
                        out.push(one_authority(trace, facts, a, b));
                    }
                },
            );
        }
        Some(_) => {
            let held: Vec<&Held> = grants.held.iter().collect();
            for_overlapping(
                &held,
                |h| (h.key, h.start_ms, h.end_ms),
                |a, b| {
                    if a.token != b.token && seen.insert(pair(a.token, b.token)) {
                        out.push(two_majorities(trace, facts, a, b));
                    }
                },
            );
        }
    }
}

fn pair(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

fn one_authority(trace: &Trace, facts: &Facts, a: &Lease, b: &Lease) -> Violation {
    let (fa, fb) = (
        &facts.tokens[a.token as usize],
        &facts.tokens[b.token as usize],
    );
    let until = if a.end_ms >= trace.simulated_until_ms() {
        "for the rest of the run".to_string()
    } else if fa.expires {
        format!("until {}", fmt_ms(a.end_ms))
    } else {
        // No expiry: the promise lasted until the grant was let go.
        format!("until its release at {}", fmt_ms(a.end_ms))
    };
    let granter = if a.node == b.node {
        String::new()
    } else {
        format!("{} ", explain::node(trace, b.node))
    };
    let explanation = format!(
        "{} had promised {} to {} {until}, yet {granter}granted it to {} at {}.",
        explain::node(trace, a.node),
        explain::key(trace, a.key),
        explain::grant(trace, fa.token, fa.fence),
        explain::grant(trace, fb.token, fb.fence),
        fmt_ms(b.start_ms),
    );
    Violation {
        kind: ViolationKind::DoubleGrant,
        at_ms: b.start_ms,
        nodes: explain::nodes(vec![fa.token.worker, fb.token.worker, a.node, b.node]),
        grants: vec![fa.token, fb.token],
        explanation,
    }
}

fn two_majorities(trace: &Trace, facts: &Facts, a: &Held, b: &Held) -> Violation {
    let (fa, fb) = (
        &facts.tokens[a.token as usize],
        &facts.tokens[b.token as usize],
    );
    let at = b.start_ms;
    let (na, nb) = (nodes_at(facts, a.token, at), nodes_at(facts, b.token, at));
    let explanation = format!(
        "{} (on {}) and {} (on {}) each held a majority of the lock nodes for {} at {}.",
        explain::grant(trace, fa.token, fa.fence),
        explain::node_list(trace, &na),
        explain::grant(trace, fb.token, fb.fence),
        explain::node_list(trace, &nb),
        explain::key(trace, a.key),
        fmt_ms(at),
    );
    let mut nodes = vec![fa.token.worker, fb.token.worker];
    nodes.extend(na);
    nodes.extend(nb);
    Violation {
        kind: ViolationKind::DoubleGrant,
        at_ms: at,
        nodes: explain::nodes(nodes),
        grants: vec![fa.token, fb.token],
        explanation,
    }
}

/// `foreign_release`: a release removed the lock of another grant (a blind delete after the
/// releaser's own lease ran out). One violation per (releaser, holder) pair, the first time.
pub(super) fn foreign_release(trace: &Trace, facts: &Facts, out: &mut Found) {
    let mut seen = BTreeSet::new();
    for r in &facts.removals {
        if !seen.insert((r.by, r.holder)) {
            continue;
        }
        let holder = facts.tokens[r.holder as usize].token;
        let by = match r.by {
            Remover::Grant(b) => facts.tokens[b as usize].token,
            Remover::Fault(deleter) => {
                let key = trace.key_name(facts.tokens[r.holder as usize].key);
                let node = explain::node(trace, r.node);
                let (at, holder_name) = (fmt_ms(r.at_ms), explain::token(trace, holder));
                out.push(Violation {
                    kind: ViolationKind::ForeignRelease,
                    at_ms: r.at_ms,
                    nodes: explain::nodes(vec![holder.worker, r.node]),
                    grants: vec![holder],
                    explanation: match deleter {
                        DeletedBy::Operator => format!(
                            "An operator deleted '{key}' on {node} at {at} while {holder_name} held it."
                        ),
                        DeletedBy::Eviction => format!(
                            "{node} evicted '{key}' to free memory at {at} while {holder_name} held it."
                        ),
                        DeletedBy::Flush => format!(
                            "A flush emptied {node} at {at}, deleting '{key}' while {holder_name} held it."
                        ),
                    },
                });
                continue;
            }
        };
        out.push(Violation {
            kind: ViolationKind::ForeignRelease,
            at_ms: r.at_ms,
            nodes: explain::nodes(vec![by.worker, holder.worker, r.node]),
            grants: vec![by, holder],
            explanation: format!(
                "{}'s release at {} deleted the lock of {} on {}.",
                explain::token(trace, by),
                fmt_ms(r.at_ms),
                explain::token(trace, holder),
                explain::node(trace, r.node),
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ViolationKind, facts::Facts};
    use super::Grants;
    use crate::scenario::Topology;
    use crate::testkit::{TraceBuilder, only};
    use crate::trace::{EventKind, KeyId};

    #[test]
    fn clock_jump_expiry_still_counts_as_a_double_grant() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.granted(0, 1, a, Some(10_000))
            .on(2_000, "store1", EventKind::ClockJumped { delta_ms: 9_000 })
            .expired(2_000, 1, a)
            .granted(3_000, 1, b, Some(10_000));
        let v = t.check();
        let d = only(&v, ViolationKind::DoubleGrant);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].at_ms, 3_000);
        assert_eq!(d[0].grants, vec![a, b]);
        assert_eq!(d[0].nodes, vec![t.node("A"), t.node("B"), t.store(1)]);
        assert_eq!(
            d[0].explanation,
            "store1 had promised 'lock' to A#1 until 10 000 ms, yet granted it to B#1 at 3 000 ms."
        );
        // A store-level anomaly alone does not make the data unsafe.
        assert!(v.safe);
    }

    #[test]
    fn two_grants_at_one_instant_are_told_in_the_traces_order() {
        // B's grant comes first in the trace though A's token was made first.
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.granted(6, 1, b, None).granted(6, 1, a, None);
        let v = t.check();
        let d = only(&v, ViolationKind::DoubleGrant);
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].explanation,
            "store1 had promised 'lock' to B#1 for the rest of the run, yet granted it to A#1 \
             at 6 ms."
        );
    }

    #[test]
    fn a_released_or_run_out_lease_is_no_double_grant() {
        let mut t = TraceBuilder::single(&["A", "B", "C"]);
        let (a, b, c) = (t.tok("A", 1), t.tok("B", 1), t.tok("C", 1));
        t.granted(0, 1, a, Some(10_000))
            .removed(2_000, 1, a, a)
            .granted(2_500, 1, b, Some(1_000))
            // B's lease ran out at 3 500 in true time: C's grant at that instant is fine.
            .granted(3_500, 1, c, Some(1_000));
        assert!(!t.check().has(ViolationKind::DoubleGrant));
    }

    #[test]
    fn a_release_on_the_new_leader_ends_the_old_leaders_grant() {
        // Consensus: store1 granted A, crashed; store2, now leader, took A's release and
        // granted B. One logical store: A's grant ended with its release, wherever it ran.
        let mut t = TraceBuilder::new(&["A", "B"], 3, Topology::Consensus);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.granted(0, 1, a, Some(30_000))
            .granted(1_500, 2, a, Some(30_000))
            .removed(10_000, 2, a, a)
            .granted(10_200, 2, b, Some(30_000));
        assert!(!t.check().has(ViolationKind::DoubleGrant));
    }

    #[test]
    fn a_release_on_one_redlock_node_leaves_the_others() {
        // Redlock's nodes are independent: a delete on one leaves A's keys on the rest.
        let mut t = TraceBuilder::new(&["A", "B"], 3, Topology::Redlock);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.granted(0, 1, a, Some(30_000))
            .granted(0, 2, a, Some(30_000))
            .granted(0, 3, a, Some(30_000))
            .removed(1_000, 3, a, a)
            .granted(2_000, 3, b, Some(30_000))
            .granted(2_000, 2, b, Some(30_000));
        assert!(t.check().has(ViolationKind::DoubleGrant));
    }

    #[test]
    fn an_extension_keeps_the_promise_alive() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.granted(0, 1, a, Some(1_000))
            .extended(900, 1, a, 1_000)
            .granted(1_500, 1, b, Some(1_000));
        let v = t.check();
        let d = only(&v, ViolationKind::DoubleGrant);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].at_ms, 1_500);
        assert!(
            d[0].explanation.contains("until 1 900 ms"),
            "{}",
            d[0].explanation
        );
    }

    #[test]
    fn a_failed_over_replica_granting_again_is_a_double_grant() {
        let mut t = TraceBuilder::new(&["A", "B"], 2, Topology::Replicated);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.granted_fenced(0, 1, a, None, Some(1))
            .on(100, "store1", EventKind::Crashed)
            .on(1_200, "store2", EventKind::BecameLeader { term: 2 })
            .granted_fenced(1_300, 2, b, None, Some(1));
        let v = t.check();
        let d = only(&v, ViolationKind::DoubleGrant);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].at_ms, 1_300);
        assert_eq!(
            d[0].nodes,
            vec![t.node("A"), t.node("B"), t.store(1), t.store(2)]
        );
        assert_eq!(
            d[0].explanation,
            "store1 had promised 'lock' to A#1 (fence 1) for the rest of the run, yet store2 \
             granted it to B#1 (fence 1) at 1 300 ms."
        );
    }

    /// Redlock with five nodes: A holds store1..3 from 12 ms.
    fn redlock_a(t: &mut TraceBuilder) {
        let a = t.tok("A", 1);
        t.granted(10, 1, a, Some(10_000))
            .granted(11, 2, a, Some(10_000))
            .granted(12, 3, a, Some(10_000));
    }

    #[test]
    fn redlock_minority_is_no_double_grant() {
        let mut t = TraceBuilder::new(&["A", "B"], 5, Topology::Redlock);
        redlock_a(&mut t);
        let b = t.tok("B", 1);
        t.granted(20, 4, b, Some(10_000))
            .granted(21, 5, b, Some(10_000));
        assert!(!t.check().has(ViolationKind::DoubleGrant));
    }

    #[test]
    fn redlock_two_majorities_sharing_a_jumped_node() {
        let mut t = TraceBuilder::new(&["A", "B"], 5, Topology::Redlock);
        redlock_a(&mut t);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.on(25, "store3", EventKind::ClockJumped { delta_ms: 20_000 })
            .expired(25, 3, a)
            .granted(30, 3, b, Some(10_000))
            .granted(31, 4, b, Some(10_000))
            .granted(40, 5, b, Some(10_000));
        let v = t.check();
        let d = only(&v, ViolationKind::DoubleGrant);
        assert_eq!(d.len(), 1);
        // B reached its majority (store3, store4, store5) at 40 ms.
        assert_eq!(d[0].at_ms, 40);
        assert_eq!(d[0].grants, vec![a, b]);
        assert_eq!(d[0].nodes.len(), 7);
        assert_eq!(
            d[0].explanation,
            "A#1 (on store1, store2, store3) and B#1 (on store3, store4, store5) each held a \
             majority of the lock nodes for 'lock' at 40 ms."
        );
    }

    #[test]
    fn redlock_promises_the_clients_validity_not_each_nodes_ttl() {
        // A counts its validity to 9 812 ms. store3 runs fast and drops A's key at 9 700 ms;
        // B then takes store3..5. Only a majority inside A's validity is a double grant.
        struct Row {
            b_majority_ms: u64,
            a_counts_ms: Option<u64>,
            double_grant: bool,
        }
        let rows = [
            Row {
                b_majority_ms: 9_800,
                a_counts_ms: Some(9_800),
                double_grant: true,
            },
            Row {
                b_majority_ms: 9_812,
                a_counts_ms: Some(9_800),
                double_grant: false,
            },
            Row {
                b_majority_ms: 9_900,
                a_counts_ms: Some(9_800),
                double_grant: false,
            },
            // An attempt its worker never counted as won keeps the nodes' TTLs.
            Row {
                b_majority_ms: 9_900,
                a_counts_ms: None,
                double_grant: true,
            },
        ];
        for row in rows {
            let mut t = TraceBuilder::new(&["A", "B"], 5, Topology::Redlock);
            redlock_a(&mut t);
            let (a, b) = (t.tok("A", 1), t.tok("B", 1));
            if let Some(lease_ms) = row.a_counts_ms {
                t.on(
                    12,
                    "A",
                    EventKind::Acquired {
                        key: KeyId::new(0),
                        token: a,
                        fence: None,
                        lease_ms: Some(lease_ms),
                    },
                );
            }
            t.expired(9_700, 3, a)
                .granted(9_750, 3, b, Some(10_000))
                .granted(9_760, 4, b, Some(10_000))
                .granted(row.b_majority_ms, 5, b, Some(10_000));
            assert_eq!(
                t.check().has(ViolationKind::DoubleGrant),
                row.double_grant,
                "B's majority at {} ms, A counting {:?}",
                row.b_majority_ms,
                row.a_counts_ms
            );
        }
    }

    #[test]
    fn redlock_grant_time_is_the_majority_instant() {
        let mut t = TraceBuilder::new(&["A", "B"], 5, Topology::Redlock);
        redlock_a(&mut t);
        let a = t.tok("A", 1);
        t.removed(500, 2, a, a);
        let trace = t.build();
        let facts = Facts::gather(&trace);
        let g = Grants::compute(&trace, &facts);
        assert_eq!(g.held.len(), 1);
        assert_eq!((g.held[0].start_ms, g.held[0].end_ms), (12, 500));
    }

    #[test]
    fn a_late_release_deleting_the_next_lock_is_foreign() {
        let mut t = TraceBuilder::single(&["A", "B", "C"]);
        let (a, b, c) = (t.tok("A", 1), t.tok("B", 1), t.tok("C", 1));
        t.granted(0, 1, a, Some(1_000))
            .expired(1_000, 1, a)
            .granted(1_500, 1, b, Some(10_000))
            .removed(2_000, 1, b, a)
            .removed(2_100, 1, b, a)
            .granted(2_500, 1, c, Some(10_000));
        let v = t.check();
        let f = only(&v, ViolationKind::ForeignRelease);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].at_ms, 2_000);
        assert_eq!(f[0].grants, vec![a, b]);
        assert_eq!(f[0].nodes, vec![t.node("A"), t.node("B"), t.store(1)]);
        assert_eq!(
            f[0].explanation,
            "A#1's release at 2 000 ms deleted the lock of B#1 on store1."
        );
        // The removal ended B's validity, so C's grant is not a double grant.
        assert!(!v.has(ViolationKind::DoubleGrant));
    }

    #[test]
    fn releasing_ones_own_lock_is_not_foreign() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.granted(0, 1, a, Some(1_000)).removed(500, 1, a, a);
        assert!(t.check().violations.is_empty());
    }
}
