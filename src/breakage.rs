//! "Break it": one-click faults and design changes to a scenario ([`Breakage`], [`apply`]),
//! which a front end re-runs with the same seed so the verdict changes in front of the
//! learner; and where the controls for them start on a given run ([`Defaults`]).
//!
//! Pure: every change gives a new scenario or says why it cannot be made.

use crate::scenario::{DeletedBy, Design, Fault, FaultKind, Lock, NodeClock, Scenario, StoreClock};
use crate::text::fmt_ms;
use crate::trace::{EventKind, Trace};

/// How far the "jump a store clock" control steps a clock by default, ms: far past any lease
/// in the lessons, so a wall-clock store drops its leases at once.
pub const DEFAULT_JUMP_MS: i64 = 30_000;

/// How fast the "drift a store clock" control makes a clock run by default, ppm: 10 %, ten
/// times Redlock's 1 % allowance for drift.
pub const DEFAULT_DRIFT_PPM: i64 = 100_000;

/// One change the learner can make to the current scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum Breakage {
    /// Crash every store node at `at_ms`; bring them back `for_ms` later, or never.
    KillStore {
        /// When the store nodes crash, true ms.
        at_ms: u64,
        /// How long they stay down, ms; `None`: for good.
        for_ms: Option<u64>,
    },
    /// The resource stops checking fencing tokens, on reads and writes
    /// (`resource.fencing = false`, `fence_reads = false`). A `fencing`
    /// design keeps issuing them: the point is that issuing alone protects nothing.
    RemoveFencing,
    /// The resource checks fencing tokens again, on every request (`fence_reads` too); the lock
    /// moves to the `fencing` design if it was on another rung, since only that one issues them.
    AddFencing,
    /// Freeze worker `worker` at `at_ms` for `for_ms` (a GC pause, a VM stall).
    PauseWorker {
        /// The worker to freeze.
        worker: String,
        /// When it freezes, true ms.
        at_ms: u64,
        /// How long it stays frozen, ms.
        for_ms: u64,
    },
    /// Cut worker `worker` off from every store node (not from the resource) at `at_ms`, for
    /// `for_ms` or until the horizon.
    PartitionWorker {
        /// The worker to cut off.
        worker: String,
        /// When the cut starts, true ms.
        at_ms: u64,
        /// How long it lasts, ms; `None`: to the horizon.
        for_ms: Option<u64>,
    },
    /// Step store node `node`'s wall clock by `delta_ms` at `at_ms`.
    JumpClock {
        /// The store node whose clock steps, e.g. `store3`.
        node: String,
        /// When it steps, true ms.
        at_ms: u64,
        /// The step, ms (negative: back).
        delta_ms: i64,
    },
    /// The store times leases on its wall clock, so a clock jump moves their expiry.
    WallClock,
    /// An operator deletes the lock at `at_ms`, whoever holds it (on every store node).
    ForceRelease {
        /// When the key is deleted, true ms.
        at_ms: u64,
    },
    /// Store node `node`'s clock runs `drift_ppm` parts per million fast (negative: slow).
    DriftClock {
        /// The store node whose clock drifts.
        node: String,
        /// Its drift in parts per million (negative: slow).
        drift_ppm: i64,
    },
}

impl Breakage {
    /// What the change does to `before`, as a line in the list of changes made.
    pub fn describe(&self, before: &Scenario) -> String {
        match self {
            Breakage::KillStore { at_ms, for_ms } => match for_ms {
                Some(ms) => format!("killed the store at {} for {}", fmt_ms(*at_ms), fmt_ms(*ms)),
                None => format!(
                    "killed the store for good at {} (the run goes on until a waiter would starve)",
                    fmt_ms(*at_ms)
                ),
            },
            Breakage::RemoveFencing => "the resource stopped checking fencing tokens".to_string(),
            // Only the fencing design issues tokens: a learner must see the lock change too,
            // or fencing reads as the fix for whatever the old design got wrong.
            Breakage::AddFencing if before.lock.design != Design::Fencing => format!(
                "the lock moved from the {} design to fencing (an atomic acquire with a lease, \
                 its grants numbered), and the resource checks fencing tokens on reads and writes",
                before.lock.design.as_str()
            ),
            Breakage::AddFencing => {
                "the resource checks fencing tokens on reads and writes".to_string()
            }
            Breakage::PauseWorker {
                worker,
                at_ms,
                for_ms,
            } => format!(
                "paused {worker} at {} for {}",
                fmt_ms(*at_ms),
                fmt_ms(*for_ms)
            ),
            Breakage::PartitionWorker {
                worker,
                at_ms,
                for_ms,
            } => match for_ms {
                Some(ms) => format!(
                    "cut {worker} off from the store at {} for {}",
                    fmt_ms(*at_ms),
                    fmt_ms(*ms)
                ),
                None => format!("cut {worker} off from the store at {}", fmt_ms(*at_ms)),
            },
            Breakage::JumpClock {
                node,
                at_ms,
                delta_ms,
            } => format!(
                "{node}'s clock jumped {}{} at {}",
                if *delta_ms < 0 { "-" } else { "+" },
                fmt_ms(delta_ms.unsigned_abs()),
                fmt_ms(*at_ms)
            ),
            Breakage::WallClock => "the store times leases on its wall clock".to_string(),
            Breakage::ForceRelease { at_ms } => {
                format!("an operator deleted the lock at {}", fmt_ms(*at_ms))
            }
            Breakage::DriftClock { node, drift_ppm } => format!(
                "{node}'s clock runs {}{:.1} % {}",
                if *drift_ppm < 0 { "-" } else { "+" },
                drift_ppm.unsigned_abs() as f64 / 10_000.0,
                if *drift_ppm < 0 { "slow" } else { "fast" }
            ),
        }
    }
}

/// Applies `change` to a copy of `scenario`. The seed is never touched, so the changed scenario
/// replays the same network delays where the change does not interfere.
///
/// Returns why not, in a sentence, when the change would do nothing or would make a scenario
/// that [`Scenario::validate`] rejects.
pub fn apply(scenario: &Scenario, change: &Breakage) -> Result<Scenario, String> {
    let mut s = scenario.clone();
    match change {
        Breakage::KillStore { at_ms, for_ms } => {
            add_fault(
                &mut s,
                *at_ms,
                FaultKind::KillStore {
                    for_ms: for_ms.map(|ms| ms.max(1)),
                },
            );
            if for_ms.is_none() && *at_ms < s.until_ms {
                // A dead store shows as waiters that never get the lock: run long enough for
                // the last one to wait past the starvation limit, or the run ends first.
                let last_start = s.workers.iter().map(|w| w.start_ms).max().unwrap_or(0);
                let enough = (*at_ms).max(last_start) + s.check.starve_after_ms + 1_000;
                s.until_ms = s.until_ms.max(enough.min(10_000_000));
            }
        }
        Breakage::RemoveFencing => {
            if !s.resource.fencing {
                return Err(
                    "The resource already accepts every write: it checks no fencing tokens."
                        .to_string(),
                );
            }
            s.resource.fencing = false;
            s.resource.fence_reads = false;
        }
        Breakage::AddFencing => {
            if s.resource.fencing {
                return Err("The resource already checks fencing tokens.".to_string());
            }
            s.resource.fencing = true;
            // On every request, so that no read-modify-write spans two grants.
            s.resource.fence_reads = true;
            if s.lock.design == Design::Timestamp {
                // Only a timestamp lock settles before it reads the claims.
                s.lock.settle_ms = Lock::default().settle_ms;
            }
            s.lock.design = Design::Fencing;
        }
        Breakage::PauseWorker {
            worker,
            at_ms,
            for_ms,
        } => {
            require_worker(&s, worker)?;
            add_fault(
                &mut s,
                *at_ms,
                FaultKind::Pause {
                    node: worker.clone(),
                    for_ms: *for_ms,
                },
            );
        }
        Breakage::PartitionWorker {
            worker,
            at_ms,
            for_ms,
        } => {
            require_worker(&s, worker)?;
            let groups = vec![vec![worker.clone()], s.store_names()];
            add_fault(
                &mut s,
                *at_ms,
                FaultKind::Partition {
                    groups,
                    for_ms: *for_ms,
                },
            );
        }
        Breakage::JumpClock {
            node,
            at_ms,
            delta_ms,
        } => {
            if !s.store_names().contains(node) {
                return Err(format!(
                    "{node:?} is not a store node; the store nodes are {}.",
                    s.store_names().join(", ")
                ));
            }
            add_fault(
                &mut s,
                *at_ms,
                FaultKind::ClockJump {
                    node: node.clone(),
                    delta_ms: *delta_ms,
                },
            );
        }
        Breakage::WallClock => {
            if s.store.lease_clock() == StoreClock::Wall {
                return Err("The store already times leases on its wall clock.".to_string());
            }
            s.store.clock = Some(StoreClock::Wall);
        }
        Breakage::ForceRelease { at_ms } => {
            let key = s.workers.first().map(|w| w.key.clone()).unwrap_or_default();
            add_fault(
                &mut s,
                *at_ms,
                FaultKind::ForceRelease {
                    key,
                    node: None,
                    by: DeletedBy::Operator,
                },
            );
        }
        Breakage::DriftClock { node, drift_ppm } => {
            if !s.store_names().contains(node) {
                return Err(format!(
                    "{node:?} is not a store node; the store nodes are {}.",
                    s.store_names().join(", ")
                ));
            }
            match s.store_clocks.iter_mut().find(|c| c.name == *node) {
                Some(c) => c.clock_drift_ppm = *drift_ppm,
                None => s.store_clocks.push(NodeClock {
                    name: node.clone(),
                    clock_offset_ms: 0,
                    clock_drift_ppm: *drift_ppm,
                }),
            }
        }
    }
    s.validate()
        .map_err(|e| format!("That would not make a runnable scenario: {e}"))?;
    Ok(s)
}

/// Inserts a fault after every fault that starts no later, so the file stays in time order and
/// faults already there keep their order relative to each other.
fn add_fault(scenario: &mut Scenario, at_ms: u64, kind: FaultKind) {
    let i = scenario.faults.partition_point(|f| f.at_ms <= at_ms);
    scenario.faults.insert(i, Fault { at_ms, kind });
}

fn require_worker(scenario: &Scenario, name: &str) -> Result<(), String> {
    if scenario.workers.iter().any(|w| w.name == name) {
        Ok(())
    } else {
        Err(format!("There is no worker named {name:?}."))
    }
}

/// Where the controls start: a moment when the first holder is inside its critical section,
/// that holder, and durations long enough to outlast a lease.
#[derive(Clone, Debug, PartialEq)]
pub struct Defaults {
    /// Half-way through the first holder's work, at most a second after it got the lock (≈ a
    /// second into most lessons); 1 s if nobody got the lock. Always before the horizon.
    pub at_ms: u64,
    /// The first worker that believed it held the lock, or the first worker.
    pub worker: String,
    /// Longer than the lease by half, so the lease runs out while the worker is frozen or cut
    /// off; 5 s for designs without a lease.
    pub outlast_lease_ms: u64,
}

impl Defaults {
    /// Reads the defaults off `scenario` and the `trace` of its run.
    pub fn read(scenario: &Scenario, trace: &Trace) -> Defaults {
        let first_hold = trace.events.iter().find_map(|e| match e.kind {
            EventKind::Acquired { token, .. } => Some((e.at_ms, token.worker.index())),
            _ => None,
        });
        let (at_ms, worker) =
            match first_hold.and_then(|(at, i)| Some((at, scenario.workers.get(i)?))) {
                Some((at, w)) => (at.saturating_add((w.work_ms / 2).min(1_000)), Some(w)),
                None => (1_000, None),
            };
        let worker = worker
            .or(scenario.workers.first())
            .map_or_else(String::new, |w| w.name.clone());
        let outlast_lease_ms = if scenario.lock.design.has_lease() {
            scenario
                .lock
                .ttl_ms
                .saturating_add(scenario.lock.ttl_ms / 2)
                .max(1)
        } else {
            5_000
        };
        Defaults {
            at_ms: at_ms.min(scenario.until_ms.saturating_sub(1)),
            worker,
            outlast_lease_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::{Verdict, ViolationKind};
    use crate::scenario::library::shipped;

    fn verdict(s: &Scenario) -> Verdict {
        crate::run(s, s.seed).verdict
    }

    #[test]
    fn adding_fencing_to_another_design_says_the_lock_changed_too() {
        let flag = shipped("scenarios/step1-flag-race.toml");
        let fenced = apply(&flag, &Breakage::AddFencing).unwrap();
        assert_eq!(fenced.lock.design, Design::Fencing);
        let said = Breakage::AddFencing.describe(&flag);
        assert!(
            said.starts_with("the lock moved from the flag design to fencing"),
            "{said}"
        );
    }

    #[test]
    fn removing_fencing_makes_the_fenced_scenario_unsafe() {
        let fenced = shipped("scenarios/step5-fencing-token.toml");
        assert!(verdict(&fenced).safe);
        let unfenced = apply(&fenced, &Breakage::RemoveFencing).unwrap();
        assert!(!unfenced.resource.fencing);
        assert_eq!(
            unfenced.lock.design,
            Design::Fencing,
            "tokens are still issued"
        );
        assert_eq!(unfenced.seed, fenced.seed);
        assert!(!verdict(&unfenced).safe);
        // And back: fencing restores safety.
        let again = apply(&unfenced, &Breakage::AddFencing).unwrap();
        assert_eq!(
            Breakage::AddFencing.describe(&unfenced),
            "the resource checks fencing tokens on reads and writes"
        );
        assert_eq!(again, fenced);
    }

    #[test]
    fn killing_the_store_makes_a_live_scenario_not_live() {
        for file in [
            "scenarios/step3-ttl-lease-expires.toml",
            // B only starts waiting 10 s in: the run must go on long enough to show it.
            "scenarios/step5-fencing-token.toml",
        ] {
            killed_store_is_not_live(shipped(file));
        }
    }

    #[test]
    fn force_releasing_the_lock_is_a_foreign_release_the_fence_still_catches() {
        let fenced = shipped("scenarios/step5-fencing-token.toml");
        let forced = apply(&fenced, &Breakage::ForceRelease { at_ms: 1_000 }).unwrap();
        let v = verdict(&forced);
        assert!(v.has(ViolationKind::ForeignRelease));
        assert!(v.safe, "fencing holds whoever deletes the lock");
        let unfenced = apply(&forced, &Breakage::RemoveFencing).unwrap();
        assert!(!verdict(&unfenced).safe);
    }

    #[test]
    fn drifting_a_redlock_node_past_the_allowance_grants_twice() {
        let case = shipped("cases/redlock-store-clock-drift.toml");
        let mut steady = case.clone();
        steady.store_clocks.clear();
        assert!(!verdict(&steady).has(ViolationKind::DoubleGrant));
        let drifted = apply(
            &steady,
            &Breakage::DriftClock {
                node: "store3".to_string(),
                drift_ppm: DEFAULT_DRIFT_PPM,
            },
        )
        .unwrap();
        assert!(verdict(&drifted).has(ViolationKind::DoubleGrant));
        // Within Redlock's 1 % allowance the same run is safe.
        let slight = apply(
            &steady,
            &Breakage::DriftClock {
                node: "store3".to_string(),
                drift_ppm: 5_000,
            },
        )
        .unwrap();
        assert!(!verdict(&slight).has(ViolationKind::DoubleGrant));
        let wrong = Breakage::DriftClock {
            node: "store9".to_string(),
            drift_ppm: 1,
        };
        assert!(apply(&steady, &wrong).is_err());
    }

    fn killed_store_is_not_live(s: Scenario) {
        assert!(verdict(&s).live);
        let defaults = Defaults::read(&s, &crate::run(&s, s.seed).trace);
        let killed = apply(
            &s,
            &Breakage::KillStore {
                at_ms: defaults.at_ms,
                for_ms: None,
            },
        )
        .unwrap();
        assert!(!verdict(&killed).live);
    }

    #[test]
    fn a_pause_past_the_lease_breaks_an_unfenced_lock() {
        let s = shipped("scenarios/step8-store-expiry.toml");
        let trace = crate::run(&s, s.seed).trace;
        let d = Defaults::read(&s, &trace);
        assert!(d.outlast_lease_ms > s.lock.ttl_ms);
        let paused = apply(
            &s,
            &Breakage::PauseWorker {
                worker: d.worker.clone(),
                at_ms: d.at_ms,
                for_ms: d.outlast_lease_ms,
            },
        )
        .unwrap();
        assert!(verdict(&s).safe);
        assert!(!verdict(&paused).safe);
    }

    #[test]
    fn defaults_fall_inside_the_first_critical_section() {
        let s = shipped("scenarios/step5-fencing-token.toml");
        let d = Defaults::read(&s, &crate::run(&s, s.seed).trace);
        // A acquires a few ms in and works 2 000 ms: half-way, capped at 1 s after the grant.
        assert!((1_000..1_100).contains(&d.at_ms), "{}", d.at_ms);
        assert_eq!(d.worker, "A");
        assert_eq!(d.outlast_lease_ms, 15_000);
    }

    #[test]
    fn faults_go_in_time_order() {
        let s = shipped("scenarios/step6-redlock-clock-jump.toml");
        let jumped = apply(
            &s,
            &Breakage::JumpClock {
                node: "store2".to_string(),
                at_ms: 500,
                delta_ms: DEFAULT_JUMP_MS,
            },
        )
        .unwrap();
        let times: Vec<u64> = jumped.faults.iter().map(|f| f.at_ms).collect();
        assert_eq!(times, vec![0, 500, 1_000, 1_100]);
    }

    #[test]
    fn invalid_or_pointless_changes_say_why() {
        let s = shipped("scenarios/step5-pause-unfenced.toml");
        let late = Breakage::KillStore {
            at_ms: s.until_ms,
            for_ms: None,
        };
        let reason = apply(&s, &late).unwrap_err();
        assert!(reason.contains("fault[1].at_ms"), "{reason}");
        assert!(apply(&s, &Breakage::RemoveFencing).is_err());
        let nobody = Breakage::PauseWorker {
            worker: "Z".to_string(),
            at_ms: 0,
            for_ms: 1,
        };
        assert!(apply(&s, &nobody).unwrap_err().contains("\"Z\""));
        let not_a_store = Breakage::JumpClock {
            node: "A".to_string(),
            at_ms: 0,
            delta_ms: 1,
        };
        assert!(apply(&s, &not_a_store).is_err());
        // Redlock's nodes cannot issue fencing tokens: the validator's reason comes back.
        let redlock = shipped("scenarios/step6-redlock-clock-jump.toml");
        let reason = apply(&redlock, &Breakage::AddFencing).unwrap_err();
        assert!(reason.contains("lock.design"), "{reason}");
    }

    #[test]
    fn a_partition_cuts_the_worker_from_every_store_node() {
        let s = shipped("cases/consensus-survives-leader-crash.toml");
        let cut = apply(
            &s,
            &Breakage::PartitionWorker {
                worker: "B".to_string(),
                at_ms: 10,
                for_ms: None,
            },
        )
        .unwrap();
        let added = cut.faults.iter().find(|f| f.at_ms == 10).unwrap();
        let FaultKind::Partition { groups, for_ms } = &added.kind else {
            panic!("not a partition: {added:?}");
        };
        assert_eq!(groups[0], vec!["B".to_string()]);
        assert_eq!(groups[1].len(), s.store.nodes as usize);
        assert_eq!(*for_ms, None);
    }
}
