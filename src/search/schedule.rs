//! Fault schedules within a budget: what the search draws from, as proptest strategies.
//!
//! A schedule is a list of one to `max_faults` faults of every kind the scenario file takes
//! (README, "Fields"), aimed at the scenario's own workers and store nodes, each at a true
//! time before `until_ms`. Durations, clock jumps and delays go up to twice the lease
//! ([`Space::max_ms`]): long enough for a pause to outlast a lease, the story of Kleppmann
//! (2016), without wandering far past the horizon.
//!
//! Each field's strategy also says how it shrinks: proptest's integer ranges move towards
//! their low end (the earliest time, the shortest duration, a clock jump of 0), its lists
//! drop elements, and a choice of node or kind moves towards the first one listed.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

use crate::scenario::{Fault, FaultKind, Scenario};

/// The longest duration a validated scenario takes for a delay's `extra_ms`, ms.
const MAX_FIELD_MS: u64 = 10_000_000;

/// What faults a scenario can be given: its nodes, its lock keys and its times.
#[derive(Clone, Debug)]
pub struct Space {
    /// The workers' names, in scenario order.
    pub workers: Vec<String>,
    /// The store nodes' names, `store1` .. `storeN`.
    pub stores: Vec<String>,
    /// The lock keys the workers use, in order of first use.
    pub keys: Vec<String>,
    /// Faults happen at true times `0 .. until_ms`, ms.
    pub until_ms: u64,
    /// The longest pause, stall, partition, delay or clock jump drawn, ms: twice the lease.
    pub max_ms: u64,
}

impl Space {
    /// The space of faults for `scenario`.
    pub fn of(scenario: &Scenario) -> Self {
        let mut keys: Vec<String> = Vec::new();
        for worker in &scenario.workers {
            if !keys.contains(&worker.key) {
                keys.push(worker.key.clone());
            }
        }
        Space {
            workers: scenario.workers.iter().map(|w| w.name.clone()).collect(),
            stores: (1..=scenario.store.nodes)
                .map(|n| format!("store{n}"))
                .collect(),
            keys,
            until_ms: scenario.until_ms.max(1),
            max_ms: scenario
                .lock
                .ttl_ms
                .saturating_mul(2)
                .clamp(1, MAX_FIELD_MS),
        }
    }

    /// Every node a fault may hit: the workers, then the store nodes.
    pub fn nodes(&self) -> Vec<String> {
        self.workers.iter().chain(&self.stores).cloned().collect()
    }

    /// Schedules of 1 to `max_faults` faults (at least one).
    pub fn schedules(&self, max_faults: usize) -> BoxedStrategy<Vec<Fault>> {
        vec(self.fault(), 1..=max_faults.max(1)).boxed()
    }

    /// One fault of any kind, at any time before the horizon.
    pub fn fault(&self) -> BoxedStrategy<Fault> {
        let nodes = self.nodes();
        let node = select(nodes.clone());
        let worker = select(self.workers.clone());
        let store = select(self.stores.clone());
        let key = select(self.keys.clone());
        let duration = 1..=self.max_ms;
        let swing = i64::try_from(self.max_ms).unwrap_or(i64::MAX);
        let others = nodes.clone();
        let kinds = prop_oneof![
            (node.clone(), duration.clone())
                .prop_map(|(node, for_ms)| FaultKind::Pause { node, for_ms }),
            (worker, duration.clone()).prop_map(|(node, for_ms)| FaultKind::Stall { node, for_ms }),
            node.clone().prop_map(|node| FaultKind::Crash { node }),
            node.clone().prop_map(|node| FaultKind::Restart { node }),
            duration
                .clone()
                .prop_map(|ms| FaultKind::KillStore { for_ms: Some(ms) }),
            (
                node.clone(),
                subsequence(nodes.clone(), 1..=nodes.len()),
                duration.clone()
            )
                .prop_map(move |(cut, side, for_ms)| FaultKind::Partition {
                    groups: split(&others, cut, side),
                    for_ms: Some(for_ms),
                }),
            Just(FaultKind::Heal),
            (node.clone(), -swing..=swing)
                .prop_map(|(node, delta_ms)| FaultKind::ClockJump { node, delta_ms }),
            (node.clone(), node, duration.clone(), duration).prop_map(
                move |(from, to, extra_ms, for_ms)| {
                    let to = if to == from { next(&nodes, &from) } else { to };
                    FaultKind::Delay {
                        from,
                        to,
                        extra_ms,
                        for_ms,
                    }
                }
            ),
            (key, proptest::option::of(store))
                .prop_map(|(key, node)| FaultKind::ForceRelease { key, node }),
        ];
        (0..self.until_ms, kinds)
            .prop_map(|(at_ms, kind)| Fault { at_ms, kind })
            .boxed()
    }
}

/// A partition's two sides: `cut` alone, and the nodes of `side` other than `cut` (or, when
/// that leaves nothing, every other node).
fn split(nodes: &[String], cut: String, side: Vec<String>) -> Vec<Vec<String>> {
    let mut rest: Vec<String> = side.into_iter().filter(|n| *n != cut).collect();
    if rest.is_empty() {
        rest = nodes.iter().filter(|n| **n != cut).cloned().collect();
    }
    vec![vec![cut], rest]
}

/// The node listed after `node` (wrapping): a delay's other end when both draws agree.
fn next(nodes: &[String], node: &str) -> String {
    let at = nodes.iter().position(|n| n == node).unwrap_or(0);
    nodes[(at + 1) % nodes.len()].clone()
}
