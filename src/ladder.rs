//! The design ladder as a rewrite: the same scenario moved onto another rung (`flag` →
//! `setnx` → `ttl` → `token` → `fencing`), so a sweep can compare the rungs on one setup.

use crate::scenario::names::parse_store_name;
use crate::scenario::{
    Acquire, Design, Expiry, FaultKind, Lock, Renewal, Scenario, Store, Topology, Waiting,
};

/// The same scenario on rung `design` of the ladder, changed only as far as that rung needs to
/// be a valid scenario: fencing is checked at the resource, on reads and writes, on the
/// `fencing` rung only; designs without a lease get no renewal, store-side expiry and none of
/// the lease's settings; reentrancy needs owner tokens; only `timestamp` settles; `flag` and
/// `timestamp` have no key for a health check to delete. The store
/// topology stays unless the rung cannot run on it (flag needs one database, fencing cannot
/// use Redlock); then it is a single node, and faults and workers' lists that named the other
/// store nodes go.
/// `[expect]` goes too: it describes the original design.
///
/// Returns the validator's message when even that cannot make a valid scenario.
pub fn rung(scenario: &Scenario, design: Design) -> Result<Scenario, String> {
    let mut s = scenario.clone();
    s.expect = None;
    s.lock.design = design;
    s.resource.fencing = design == Design::Fencing;
    s.resource.fence_reads = s.resource.fencing;
    let defaults = Lock::default();
    if design.has_lease() {
        if s.lock.ttl_ms == 0 {
            s.lock.ttl_ms = defaults.ttl_ms;
        }
    } else {
        s.lock.renewal = Renewal::None;
        s.lock.expiry = Expiry::Store;
        s.lock.acquire = Acquire::OneStep;
        // What only a lease uses goes with it (a fair queue still times its turns by ttl_ms).
        if s.lock.waiting != Waiting::Fair {
            s.lock.ttl_ms = defaults.ttl_ms;
        }
        s.lock.lock_delay_ms = 0;
        s.store.ttl_multiplier = Store::default().ttl_multiplier;
    }
    if s.lock.renewal == Renewal::None {
        s.lock.renew_every_ms = None;
    }
    if design != Design::Timestamp {
        s.lock.settle_ms = defaults.settle_ms;
    }
    // A health check deletes the key a holder set; a flag row or a list of claims has none.
    if matches!(design, Design::Flag | Design::Timestamp) {
        s.lock.ping_timeout_ms = None;
    }
    s.lock.reentrant &= design.checks_owner();
    s.lock.hold_count |= !s.lock.reentrant;
    if s.validate().is_err() && s.store.topology != Topology::Single {
        to_single_store(&mut s);
    }
    s.validate().map_err(|e| e.to_string())?;
    Ok(s)
}

/// One store node; faults on nodes that no longer exist are dropped, and partitions lose them
/// from their groups (a partition left with fewer than two groups cuts nothing and goes).
fn to_single_store(s: &mut Scenario) {
    s.store.topology = Topology::Single;
    s.store.nodes = 1;
    // Election switches and a primary's replica quorum belong to the topologies left behind.
    let settled = Store::default();
    s.store.prevote = settled.prevote;
    s.store.check_quorum = settled.check_quorum;
    s.store.min_replicas_to_write = settled.min_replicas_to_write;
    s.store.min_replicas_max_lag_ms = settled.min_replicas_max_lag_ms;
    // A client's own list of nodes is Redlock's, its member a multi-primary cluster's; one
    // node is every client's view and every client's member.
    for worker in &mut s.workers {
        worker.stores = None;
        worker.store_node = None;
    }
    let gone = |node: &str| parse_store_name(node).is_some_and(|n| n > 1);
    s.faults.retain_mut(|fault| {
        // A partition keeps its cut between the nodes that are left; any other fault on a
        // node that is gone goes with it.
        if let FaultKind::Partition { groups, .. } = &mut fault.kind {
            for group in groups.iter_mut() {
                group.retain(|node| !gone(node));
            }
            groups.retain(|group| !group.is_empty());
            return groups.len() >= 2;
        }
        fault.kind.nodes().into_iter().all(|node| !gone(node))
    });
    s.store_clocks.retain(|c| !gone(&c.name));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::library::{COURSE, INCIDENTS, shipped};
    use crate::scenario::{Fault, parse};

    #[test]
    fn every_rung_of_every_scenario_is_valid() {
        for (file, text) in COURSE.iter().chain(INCIDENTS) {
            let scenario = parse(text).expect("valid scenario");
            for design in Design::ALL {
                let s =
                    rung(&scenario, design).unwrap_or_else(|e| panic!("{file} on {design:?}: {e}"));
                assert_eq!(s.lock.design, design);
                assert_eq!(s.resource.fencing, design == Design::Fencing);
                assert_eq!(s.seed, scenario.seed);
                // The workers stay, but for a client's own nodes or member off its topology.
                let mut workers = scenario.workers.clone();
                if s.store.topology != scenario.store.topology {
                    for w in &mut workers {
                        (w.stores, w.store_node) = (None, None);
                    }
                }
                assert_eq!(s.workers, workers, "{file}");
            }
        }
    }

    #[test]
    fn a_rung_keeps_the_topology_when_it_can() {
        let redlock = shipped("scenarios/step6-redlock-clock-jump.toml");
        let token = rung(&redlock, Design::Token).unwrap();
        assert_eq!(token.store, redlock.store);
        assert_eq!(token.faults, redlock.faults);
        // Fencing cannot run on Redlock: one node. A's partition from store4-5 and store3's
        // clock jump go; B's partition from store1-2 keeps store1.
        let fencing = rung(&redlock, Design::Fencing).unwrap();
        assert_eq!(fencing.store.topology, Topology::Single);
        let groups = vec![vec!["B".to_string()], vec!["store1".to_string()]];
        assert_eq!(
            fencing.faults,
            vec![Fault {
                at_ms: 1_100,
                kind: FaultKind::Partition {
                    groups,
                    for_ms: Some(18_000)
                }
            }]
        );
    }
}
