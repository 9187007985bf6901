//! The finite menu a proof draws its faults from: kinds × target nodes × a few durations
//! (or clock steps), every entry a fault without its start time.
//!
//! The durations are the scenario's lease scaled: a tenth of it (a short outage that a lease
//! rides out, but that can still lose a store's unflushed write), half of it, and one and a
//! half leases (longer than any lease a holder counts, yet over before a horizon of two
//! leases). A clock steps by one and a half leases either way: forward across every lease
//! end, or back past it. A partition cuts one node off from every other node. Nothing
//! outside this list is explored, and the certificate prints it in full ([`Menu::describe`]).

use std::fmt::Write as _;

use serde::Serialize;

use crate::scenario::{Fault, FaultKind, Scenario};
use crate::search::Space;
use crate::text::fmt_ms;

/// A kind of fault the menu can produce, as `--kinds` names it (the scenario file's `kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum MenuKind {
    /// A worker or store node freezes.
    Pause,
    /// A worker's work stops advancing while its process lives.
    Stall,
    /// A node crashes, for good.
    Crash,
    /// A crashed node comes back (meaningful after a crash).
    Restart,
    /// Every store node crashes, and comes back after the duration.
    KillStore,
    /// One node is cut off from every other node for the duration.
    Partition,
    /// A node's wall clock steps forward or back.
    ClockJump,
}

impl MenuKind {
    /// Every kind, in the menu's order.
    pub const ALL: [MenuKind; 7] = [
        MenuKind::Pause,
        MenuKind::Stall,
        MenuKind::Crash,
        MenuKind::Restart,
        MenuKind::KillStore,
        MenuKind::Partition,
        MenuKind::ClockJump,
    ];

    /// The kinds explored unless `--kinds` says otherwise: the ones that break locks on
    /// their own (a restart needs a crash before it, a stall needs a renewing holder).
    pub const DEFAULT: [MenuKind; 5] = [
        MenuKind::Pause,
        MenuKind::Crash,
        MenuKind::KillStore,
        MenuKind::Partition,
        MenuKind::ClockJump,
    ];

    /// The scenario file's name of the kind.
    pub fn name(self) -> &'static str {
        match self {
            MenuKind::Pause => "pause",
            MenuKind::Stall => "stall",
            MenuKind::Crash => "crash",
            MenuKind::Restart => "restart",
            MenuKind::KillStore => "kill_store",
            MenuKind::Partition => "partition",
            MenuKind::ClockJump => "clock_jump",
        }
    }
}

/// The menu for one scenario: every fault it may add, without a start time.
#[derive(Clone, Debug)]
pub struct Menu {
    /// The kinds on it, in [`MenuKind::ALL`] order.
    pub kinds: Vec<MenuKind>,
    /// The workers' names, then the store nodes'.
    pub nodes: Vec<String>,
    /// The workers' names.
    pub workers: Vec<String>,
    /// The durations of pauses, stalls, partitions and store outages, ms.
    pub durations_ms: Vec<u64>,
    /// The clock steps, ms.
    pub jumps_ms: Vec<i64>,
    /// Every entry, in order: kinds, then nodes, then durations.
    pub entries: Vec<FaultKind>,
}

impl Menu {
    /// The menu of `kinds` for `scenario`, its durations scaled from the lease.
    pub fn of(scenario: &Scenario, kinds: &[MenuKind]) -> Menu {
        let space = Space::of(scenario);
        let lease = scenario.lock.ttl_ms.max(10);
        let durations_ms = vec![lease / 10, lease / 2, lease + lease / 2];
        let step = i64::try_from(lease + lease / 2).unwrap_or(i64::MAX);
        let jumps_ms = vec![step, -step];
        let nodes = space.nodes();
        let mut kinds = kinds.to_vec();
        kinds.sort();
        kinds.dedup();
        let mut entries = Vec::new();
        for &kind in &kinds {
            match kind {
                MenuKind::Pause => {
                    for node in &nodes {
                        for &for_ms in &durations_ms {
                            entries.push(FaultKind::Pause {
                                node: node.clone(),
                                for_ms,
                            });
                        }
                    }
                }
                MenuKind::Stall => {
                    for node in &space.workers {
                        for &for_ms in &durations_ms {
                            entries.push(FaultKind::Stall {
                                node: node.clone(),
                                for_ms,
                            });
                        }
                    }
                }
                MenuKind::Crash => entries.extend(
                    nodes
                        .iter()
                        .map(|node| FaultKind::Crash { node: node.clone() }),
                ),
                MenuKind::Restart => entries.extend(
                    nodes
                        .iter()
                        .map(|node| FaultKind::Restart { node: node.clone() }),
                ),
                MenuKind::KillStore => entries.extend(
                    durations_ms
                        .iter()
                        .map(|&ms| FaultKind::KillStore { for_ms: Some(ms) }),
                ),
                MenuKind::Partition => {
                    for node in &nodes {
                        let rest: Vec<String> =
                            nodes.iter().filter(|n| *n != node).cloned().collect();
                        for &for_ms in &durations_ms {
                            entries.push(FaultKind::Partition {
                                groups: vec![vec![node.clone()], rest.clone()],
                                for_ms: Some(for_ms),
                            });
                        }
                    }
                }
                MenuKind::ClockJump => {
                    for node in &nodes {
                        for &delta_ms in &jumps_ms {
                            entries.push(FaultKind::ClockJump {
                                node: node.clone(),
                                delta_ms,
                            });
                        }
                    }
                }
            }
        }
        Menu {
            kinds,
            nodes,
            workers: space.workers,
            durations_ms,
            jumps_ms,
            entries,
        }
    }

    /// Entry `index` of the menu struck at true time `at_ms`.
    pub fn fault(&self, index: usize, at_ms: u64) -> Fault {
        Fault {
            at_ms,
            kind: self.entries[index].clone(),
        }
    }

    /// The menu in words, one clause per kind: "pause of A, B or store1 for 1 000, 5 000 or
    /// 15 000 ms; crash of A, B or store1; …".
    pub fn describe(&self) -> String {
        let nodes = or_list(&self.nodes);
        let workers = or_list(&self.workers);
        let durations = or_list(
            &self
                .durations_ms
                .iter()
                .map(|&ms| fmt_ms(ms))
                .collect::<Vec<_>>(),
        );
        let jump = self.jumps_ms.first().map_or(0, |j| j.unsigned_abs());
        let mut text = String::new();
        for kind in &self.kinds {
            if !text.is_empty() {
                text.push_str("; ");
            }
            let _ = match kind {
                MenuKind::Pause => write!(text, "pause of {nodes} for {durations}"),
                MenuKind::Stall => write!(text, "stall of {workers} for {durations}"),
                MenuKind::Crash => write!(text, "crash of {nodes}"),
                MenuKind::Restart => write!(text, "restart of {nodes}"),
                MenuKind::KillStore => write!(text, "kill_store for {durations}"),
                MenuKind::Partition => {
                    write!(
                        text,
                        "partition of {nodes} from every other node for {durations}"
                    )
                }
                MenuKind::ClockJump => {
                    write!(
                        text,
                        "clock_jump of {nodes} by +{} or −{}",
                        fmt_ms(jump),
                        fmt_ms(jump)
                    )
                }
            };
        }
        text
    }
}

/// "A", "A or B", "A, B or C".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::library::COURSE;

    #[test]
    fn every_entry_of_every_course_scenario_validates_at_any_time() {
        for (file, src) in COURSE {
            let scenario = crate::scenario::parse(src).expect("a shipped scenario");
            let menu = Menu::of(&scenario, &MenuKind::ALL);
            for (i, _) in menu.entries.iter().enumerate() {
                for at_ms in [0, scenario.until_ms / 2, scenario.until_ms - 1] {
                    let mut with = scenario.clone();
                    with.faults.push(menu.fault(i, at_ms));
                    crate::order::sort_by_key(&mut with.faults, |f| f.at_ms);
                    assert!(with.validate().is_ok(), "{file}: {:?}", menu.entries[i]);
                }
            }
        }
    }

    #[test]
    fn the_menu_names_every_kind_it_holds_and_only_those() {
        let (_, src) = COURSE
            .iter()
            .find(|(f, _)| *f == "step5-fencing-token.toml")
            .unwrap();
        let scenario = crate::scenario::parse(src).unwrap();
        let menu = Menu::of(&scenario, &[MenuKind::Crash, MenuKind::Pause]);
        assert_eq!(menu.entries.len(), 3 * 3 + 3);
        assert_eq!(
            menu.describe(),
            "pause of A, B or store1 for 1 000 ms, 5 000 ms or 15 000 ms; crash of A, B or store1"
        );
        for kind in MenuKind::ALL {
            let menu = Menu::of(&scenario, &[kind]);
            assert!(!menu.entries.is_empty(), "{kind:?}");
            assert!(menu.entries.iter().all(|e| e.name() == kind.name()));
        }
    }
}
