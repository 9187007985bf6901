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

// A new kind of fault must be decided on in every match here, never passed over by `_`.
#![deny(clippy::wildcard_enum_match_arm)]

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use proptest::strategy::Union;
use std::collections::BTreeMap;

use super::Budget;
use super::budget::paused_ms;
use crate::scenario::{DeletedBy, Design, Fault, FaultKind, FaultTag, MAX_UNTIL_MS, Scenario};
use strum::VariantArray;

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
    /// Whether a `connection_reset` can matter: only a `session` lock ends with its
    /// connection (elsewhere a reset loses what is in flight, as a crash or a partition does).
    pub resets: bool,
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
            resets: scenario.lock.design == Design::Session,
            until_ms: scenario.until_ms.max(1),
            max_ms: scenario
                .lock
                .ttl_ms
                .saturating_mul(2)
                .clamp(1, MAX_UNTIL_MS),
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
        let kinds: Vec<BoxedStrategy<FaultKind>> = FaultTag::VARIANTS
            .iter()
            .filter(|&&tag| self.offers(tag))
            .map(|&tag| self.kind(tag))
            .collect();
        let kinds = Union::new(kinds);
        self.at_some_time(kinds.boxed())
    }

    /// Schedules within a challenge's `budget`: 0 to `budget.faults` faults of the kinds it
    /// allows, at most as many of each as it allows, with pauses and stalls shortened in
    /// proportion when together they would last longer than it allows.
    pub fn within(&self, budget: &Budget) -> BoxedStrategy<Vec<Fault>> {
        let allowed: Vec<BoxedStrategy<FaultKind>> = budget
            .kinds
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(&tag, _)| tag)
            .filter(|&tag| self.offers(tag))
            .map(|tag| self.kind(tag))
            .collect();
        if allowed.is_empty() || budget.faults == 0 {
            return Just(Vec::new()).boxed();
        }
        let budget = budget.clone();
        vec(
            self.at_some_time(Union::new(allowed).boxed()),
            0..=budget.faults,
        )
        .prop_map(move |drawn| fit(drawn, &budget))
        .boxed()
    }

    /// Whether schedules here draw faults of `tag`.
    fn offers(&self, tag: FaultTag) -> bool {
        self.resets || tag != FaultTag::ConnectionReset
    }

    fn at_some_time(&self, kinds: BoxedStrategy<FaultKind>) -> BoxedStrategy<Fault> {
        (0..self.until_ms, kinds)
            .prop_map(|(at_ms, kind)| Fault { at_ms, kind })
            .boxed()
    }

    /// Faults of `kind` aimed at this space's nodes.
    fn kind(&self, kind: FaultTag) -> BoxedStrategy<FaultKind> {
        let nodes = self.nodes();
        let node = select(nodes.clone());
        let duration = 1..=self.max_ms;
        match kind {
            FaultTag::Pause => (node, duration)
                .prop_map(|(node, for_ms)| FaultKind::Pause { node, for_ms })
                .boxed(),
            FaultTag::Stall => (select(self.workers.clone()), duration)
                .prop_map(|(node, for_ms)| FaultKind::Stall { node, for_ms })
                .boxed(),
            FaultTag::Crash => node.prop_map(|node| FaultKind::Crash { node }).boxed(),
            FaultTag::Restart => node.prop_map(|node| FaultKind::Restart { node }).boxed(),
            FaultTag::KillStore => duration
                .prop_map(|ms| FaultKind::KillStore { for_ms: Some(ms) })
                .boxed(),
            FaultTag::Partition => (node, subsequence(nodes.clone(), 1..=nodes.len()), duration)
                .prop_map(move |(cut, side, for_ms)| FaultKind::Partition {
                    groups: split(&nodes, cut, side),
                    for_ms: Some(for_ms),
                })
                .boxed(),
            FaultTag::Heal => Just(FaultKind::Heal).boxed(),
            FaultTag::ClockJump => {
                let swing = i64::try_from(self.max_ms).unwrap_or(i64::MAX);
                (node, -swing..=swing)
                    .prop_map(|(node, delta_ms)| FaultKind::ClockJump { node, delta_ms })
                    .boxed()
            }
            FaultTag::Delay => (node.clone(), node, duration.clone(), duration)
                .prop_map(move |(from, to, extra_ms, for_ms)| {
                    let to = if to == from { next(&nodes, &from) } else { to };
                    FaultKind::Delay {
                        from,
                        to,
                        extra_ms,
                        for_ms,
                    }
                })
                .boxed(),
            FaultTag::ForceRelease => (
                select(self.keys.clone()),
                proptest::option::of(select(self.stores.clone())),
            )
                .prop_map(|(key, node)| FaultKind::ForceRelease {
                    key,
                    node,
                    by: DeletedBy::Operator,
                })
                .boxed(),
            FaultTag::ConnectionReset => {
                (select(self.workers.clone()), select(self.stores.clone()))
                    .prop_map(|(from, to)| FaultKind::ConnectionReset { from, to })
                    .boxed()
            }
        }
    }
}

/// `drawn` cut to `budget`: at most as many of each kind as it allows, in time order, with
/// pauses and stalls scaled down together to its total.
fn fit(mut drawn: Vec<Fault>, budget: &Budget) -> Vec<Fault> {
    crate::order::sort_by_key(&mut drawn, |f| f.at_ms);
    let mut placed: BTreeMap<FaultTag, usize> = BTreeMap::new();
    drawn.retain(|f| {
        let tag = FaultTag::from(&f.kind);
        let n = placed.entry(tag).or_default();
        *n += 1;
        *n <= budget.allows(tag)
    });
    if let Some(limit) = budget.pause_ms {
        let total = paused_ms(&drawn);
        if total > limit {
            for fault in &mut drawn {
                if let FaultKind::Pause { for_ms, .. } | FaultKind::Stall { for_ms, .. } =
                    &mut fault.kind
                {
                    // Rounded down, so the total stays within the limit.
                    *for_ms =
                        (u128::from(*for_ms) * u128::from(limit) / u128::from(total)).max(1) as u64;
                }
            }
        }
    }
    drawn
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
