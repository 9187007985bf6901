//! Whether a run exercised the dangers a lock must survive: a pass in which none of them
//! happened says nothing about them. Counted from the facts the checks read and the trace's
//! fault events, kept beside the verdict, never in it. Only the command line asks (`locksim
//! check`, `verify`, `prove`), so it is not in the web build's reachable code.

use std::ops::AddAssign;

use serde::Serialize;

use super::facts::{Facts, TokenFacts};
use crate::trace::{EventKind, NodeId, RejectReason, Trace};
use crate::violation::Danger;

/// The dangerous moments one run (or, added up, many) went through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Exercised {
    /// Holders whose own count of their lease ran out while they still believed they held
    /// the lock (inside the critical section, or to the horizon).
    pub lease_outlived: u64,
    /// Grants made by a store node while another grant of the same key was still believed
    /// held by its worker.
    pub granted_while_held: u64,
    /// Reads and writes the resource refused for a stale fencing token.
    pub fence_rejected: u64,
    /// Clock steps (of a store node or a worker) across the end of a lease that node
    /// promised or counted: by at least the time left to it.
    pub clock_jump_across_lease: u64,
    /// Grants lost while their lease still ran: a crash before the log was flushed, or a
    /// replica promoted or a leader elected that did not hold a grant another store node
    /// still promised.
    pub grant_lost: u64,
}

impl Exercised {
    /// How many times `danger` happened.
    pub fn count(&self, danger: Danger) -> u64 {
        match danger {
            Danger::LeaseOutlived => self.lease_outlived,
            Danger::GrantedWhileHeld => self.granted_while_held,
            Danger::FenceRejected => self.fence_rejected,
            Danger::ClockJumpAcrossLease => self.clock_jump_across_lease,
            Danger::GrantLost => self.grant_lost,
        }
    }

    /// Whether nothing dangerous happened.
    pub fn none(&self) -> bool {
        *self == Exercised::default()
    }

    /// The dangers counted, in words ("2 holders outlived their lease, 1 stale write rejected
    /// by the fence"), or `None` when nothing dangerous happened.
    pub fn words(&self) -> Option<String> {
        let parts: Vec<String> = [
            (
                self.lease_outlived,
                "holder outlived its lease",
                "holders outlived their lease",
            ),
            (
                self.granted_while_held,
                "grant while another holder believed it held the lock",
                "grants while another holder believed it held the lock",
            ),
            (
                self.fence_rejected,
                "stale request rejected by the fence",
                "stale requests rejected by the fence",
            ),
            (
                self.clock_jump_across_lease,
                "clock jump across a lease end",
                "clock jumps across a lease end",
            ),
            (self.grant_lost, "live grant lost", "live grants lost"),
        ]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| {
            let noun = if n == 1 { one } else { many };
            format!("{} {noun}", crate::text::fmt_count(n))
        })
        .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

impl AddAssign for Exercised {
    fn add_assign(&mut self, other: Exercised) {
        self.lease_outlived += other.lease_outlived;
        self.granted_while_held += other.granted_while_held;
        self.fence_rejected += other.fence_rejected;
        self.clock_jump_across_lease += other.clock_jump_across_lease;
        self.grant_lost += other.grant_lost;
    }
}

/// An event a danger is read from, kept as a run streams by (the rest come from the facts).
#[derive(Clone, Copy, Debug)]
pub struct Moment {
    at_ms: u64,
    node: NodeId,
    what: What,
}

#[derive(Clone, Copy, Debug)]
enum What {
    FenceRejected,
    ClockJumped(u64),
    Unflushed,
    BecameLeader,
}

impl Moment {
    /// The moment `kind` at `node`, true time `at_ms`, is, if it is one a danger is read from.
    pub fn of(at_ms: u64, node: NodeId, kind: &EventKind) -> Option<Moment> {
        let what = match kind {
            EventKind::WriteRejected { reason, .. } | EventKind::ReadRejected { reason, .. }
                if *reason == RejectReason::StaleToken =>
            {
                What::FenceRejected
            }
            EventKind::ClockJumped { delta_ms } => What::ClockJumped(delta_ms.unsigned_abs()),
            EventKind::Unflushed { .. } => What::Unflushed,
            EventKind::BecameLeader { .. } => What::BecameLeader,
            _ => return None,
        };
        Some(Moment { at_ms, node, what })
    }
}

/// The dangers `trace` went through.
pub fn exercised(trace: &Trace) -> Exercised {
    let moments: Vec<Moment> = trace
        .events
        .iter()
        .filter_map(|e| Moment::of(e.at_ms, e.node, &e.kind))
        .collect();
    exercised_from(&Facts::gather(trace), trace.simulated_until_ms(), &moments)
}

/// The dangers a run went through, from its facts, the end of its simulated time and its
/// [`Moment`]s in order.
pub(super) fn exercised_from(facts: &Facts, end_ms: u64, moments: &[Moment]) -> Exercised {
    let held = |t: &TokenFacts| t.acquired.map(|a| (a.at_ms, t.let_go_ms.unwrap_or(end_ms)));
    let lease_outlived = facts
        .tokens
        .iter()
        .filter(|t| {
            held(t)
                .zip(t.valid_until_ms)
                .is_some_and(|((_, to), until)| until < to)
        })
        .count() as u64;
    let granted_while_held = facts
        .tokens
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            t.granted.is_some_and(|g| {
                facts.tokens.iter().enumerate().any(|(j, other)| {
                    j != *i
                        && other.key == t.key
                        && held(other).is_some_and(|(from, to)| from <= g.at_ms && g.at_ms < to)
                })
            })
        })
        .count() as u64;
    let mut found = Exercised {
        lease_outlived,
        granted_while_held,
        ..Exercised::default()
    };
    for moment in moments {
        let t = moment.at_ms;
        match moment.what {
            What::FenceRejected => found.fence_rejected += 1,
            What::ClockJumped(step) => {
                let crosses = |end: u64| t < end && end - t <= step;
                let store_side = facts
                    .leases
                    .iter()
                    .any(|l| l.node == moment.node && l.covers(t) && crosses(l.end_ms));
                let worker_side = facts.tokens.iter().any(|tok| {
                    tok.token.worker == moment.node
                        && held(tok).is_some_and(|(from, to)| from <= t && t < to)
                        && tok.valid_until_ms.is_some_and(crosses)
                });
                if store_side || worker_side {
                    found.clock_jump_across_lease += 1;
                }
            }
            What::Unflushed => found.grant_lost += 1,
            What::BecameLeader => {
                let lost = facts.leases.iter().any(|l| {
                    l.node != moment.node
                        && l.covers(t)
                        && !facts
                            .leases
                            .iter()
                            .any(|m| m.node == moment.node && m.token == l.token && m.covers(t))
                });
                if lost {
                    found.grant_lost += 1;
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::library::COURSE;

    fn exercised_by(file: &str, bare: bool) -> Exercised {
        let (_, src) = COURSE.iter().find(|(f, _)| *f == file).unwrap();
        let mut scenario = crate::scenario::parse(src).unwrap();
        if bare {
            scenario.faults.clear();
        }
        exercised(&crate::run(&scenario, scenario.seed).trace)
    }

    #[test]
    fn the_fenced_lock_turned_a_stale_write_away_after_the_holder_outlived_its_lease() {
        let found = exercised_by("step5-fencing-token.toml", false);
        assert!(found.fence_rejected > 0, "{found:?}");
        assert_eq!(found.lease_outlived, 1, "{found:?}");
        assert_eq!(found.granted_while_held, 1, "{found:?}");
        assert_eq!(
            found.words().as_deref(),
            Some(
                "1 holder outlived its lease, 1 grant while another holder believed it held \
                 the lock, 1 stale request rejected by the fence"
            )
        );
    }

    /// `[expect] exercised` names each count as `check --json` does.
    #[test]
    fn every_danger_is_named_as_its_count() {
        let counts = Exercised {
            lease_outlived: 1,
            granted_while_held: 2,
            fence_rejected: 3,
            clock_jump_across_lease: 4,
            grant_lost: 5,
        };
        let json = serde_json::to_value(counts).unwrap();
        let fields = json.as_object().unwrap();
        assert_eq!(fields.len(), 5);
        for danger in [
            Danger::LeaseOutlived,
            Danger::GrantedWhileHeld,
            Danger::FenceRejected,
            Danger::ClockJumpAcrossLease,
            Danger::GrantLost,
        ] {
            assert_eq!(fields[danger.as_str()].as_u64(), Some(counts.count(danger)));
        }
    }

    #[test]
    fn a_fault_free_run_exercised_nothing() {
        let found = exercised_by("step5-fencing-token.toml", true);
        assert!(found.none(), "{found:?}");
        assert_eq!(found.words(), None);
    }

    #[test]
    fn a_redlock_clock_jump_crosses_a_lease_end() {
        let found = exercised_by("step6-redlock-clock-jump.toml", false);
        assert_eq!(found.clock_jump_across_lease, 1, "{found:?}");
    }

    #[test]
    fn an_async_failover_loses_a_live_grant() {
        let found = exercised_by("step6-async-failover.toml", false);
        assert!(found.grant_lost > 0, "{found:?}");
    }
}
