//! "Break it": one-click faults and design changes applied to the scenario on screen, which
//! the shell then re-runs with the same seed so the verdict changes in front of the learner.
//!
//! The changes themselves are pure ([`apply`]); the panel only picks their parameters, keeps
//! an undo stack, and hands the changed scenario back.

use eframe::egui::{self, RichText, Ui};

use super::style;
use crate::checker::Verdict;
use crate::scenario::{Design, Fault, FaultKind, NodeClock, Scenario, StoreClock};
use crate::text::fmt_ms;
use crate::trace::{EventKind, Trace};

/// How far the "jump a store clock" control steps a clock by default, ms: far past any lease
/// in the lessons, so a wall-clock store drops its leases at once.
const DEFAULT_JUMP_MS: i64 = 30_000;

/// How fast the "drift a store clock" control makes a clock run by default, ppm: 10 %, ten
/// times Redlock's 1 % allowance for drift.
const DEFAULT_DRIFT_PPM: i64 = 100_000;

/// One change the learner can make to the current scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum Breakage {
    /// Crash every store node at `at_ms`; bring them back `for_ms` later, or never.
    KillStore { at_ms: u64, for_ms: Option<u64> },
    /// The resource stops checking fencing tokens (`resource.fencing = false`). A `fencing`
    /// design keeps issuing them: the point is that issuing alone protects nothing.
    RemoveFencing,
    /// The resource checks fencing tokens again; the lock moves to the `fencing` design if it
    /// was on another rung, since only that one issues them.
    AddFencing,
    /// Freeze worker `worker` at `at_ms` for `for_ms` (a GC pause, a VM stall).
    PauseWorker {
        worker: String,
        at_ms: u64,
        for_ms: u64,
    },
    /// Cut worker `worker` off from every store node (not from the resource) at `at_ms`, for
    /// `for_ms` or until the horizon.
    PartitionWorker {
        worker: String,
        at_ms: u64,
        for_ms: Option<u64>,
    },
    /// Step store node `node`'s wall clock by `delta_ms` at `at_ms`.
    JumpClock {
        node: String,
        at_ms: u64,
        delta_ms: i64,
    },
    /// The store times leases on its wall clock, so a clock jump moves their expiry.
    WallClock,
    /// An operator deletes the lock at `at_ms`, whoever holds it (on every store node).
    ForceRelease { at_ms: u64 },
    /// Store node `node`'s clock runs `drift_ppm` parts per million fast (negative: slow).
    DriftClock { node: String, drift_ppm: i64 },
}

impl Breakage {
    /// What the change does, as a line in the list of changes made.
    pub fn describe(&self) -> String {
        match self {
            Breakage::KillStore { at_ms, for_ms } => match for_ms {
                Some(ms) => format!("killed the store at {} for {}", fmt_ms(*at_ms), fmt_ms(*ms)),
                None => format!(
                    "killed the store for good at {} (the run goes on until a waiter would starve)",
                    fmt_ms(*at_ms)
                ),
            },
            Breakage::RemoveFencing => "the resource stopped checking fencing tokens".to_string(),
            Breakage::AddFencing => "the resource checks fencing tokens".to_string(),
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
        }
        Breakage::AddFencing => {
            if s.resource.fencing {
                return Err("The resource already checks fencing tokens.".to_string());
            }
            s.resource.fencing = true;
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
            let groups = vec![vec![worker.clone()], store_nodes(&s)];
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
            if !store_nodes(&s).contains(node) {
                return Err(format!(
                    "{node:?} is not a store node; the store nodes are {}.",
                    store_nodes(&s).join(", ")
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
            add_fault(&mut s, *at_ms, FaultKind::ForceRelease { key, node: None });
        }
        Breakage::DriftClock { node, drift_ppm } => {
            if !store_nodes(&s).contains(node) {
                return Err(format!(
                    "{node:?} is not a store node; the store nodes are {}.",
                    store_nodes(&s).join(", ")
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

/// `store1` .. `storeN`, the names the engine gives the store nodes.
fn store_nodes(scenario: &Scenario) -> Vec<String> {
    (1..=scenario.store.nodes)
        .map(|n| format!("store{n}"))
        .collect()
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
            EventKind::Acquired { token, .. } => Some((e.at_ms, token.worker as usize)),
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

/// The "Break it" panel.
///
/// The shell calls [`BreakIt::show`] every frame with the scenario on screen and its run; when
/// it returns a scenario, the shell runs that one (with the seed it used for the current run)
/// and shows it. A scenario the panel did not hand out starts a new history (undo is cleared).
#[derive(Default)]
pub struct BreakIt {
    /// The scenario the panel last saw or handed out; a different one means a new history.
    current: Option<Scenario>,
    /// Earlier scenarios of this history with the change made after each, oldest first.
    undo: Vec<(Scenario, Breakage)>,
    /// The verdict before the first change of this history: safe, live.
    before: Option<(bool, bool)>,
    form: Form,
    /// Why the last change was refused.
    refused: Option<String>,
}

/// The controls' parameters, as the learner set them.
#[derive(Default)]
struct Form {
    at_ms: u64,
    worker: String,
    pause_ms: u64,
    partition_ms: u64,
    partition_heals: bool,
    restart_store: bool,
    restart_after_ms: u64,
    jump_node: String,
    jump_ms: i64,
    drift_ppm: i64,
}

impl Form {
    fn new(defaults: Defaults) -> Form {
        Form {
            at_ms: defaults.at_ms,
            worker: defaults.worker,
            pause_ms: defaults.outlast_lease_ms,
            partition_ms: defaults.outlast_lease_ms,
            partition_heals: true,
            restart_store: false,
            restart_after_ms: 5_000,
            jump_node: "store1".to_string(),
            jump_ms: DEFAULT_JUMP_MS,
            drift_ppm: DEFAULT_DRIFT_PPM,
        }
    }
}

impl BreakIt {
    /// Draws the panel for `current`, whose run gave `trace` and `verdict`. Returns the scenario
    /// to run next when the learner made a change or undid one.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        current: &Scenario,
        trace: &Trace,
        verdict: &Verdict,
    ) -> Option<Scenario> {
        if self.current.as_ref() != Some(current) {
            self.start_history(current, trace, verdict);
        }
        ui.heading("Break it");
        ui.label(
            "Each change is made to this scenario and run again with the same seed, so what \
             changes in the run is what the change did.",
        );
        ui.add_space(4.0);
        verdict_line(ui, self.before, verdict);
        ui.separator();

        let mut chosen = None;
        self.controls(ui, current, &mut chosen);
        if let Some(message) = &self.refused {
            ui.label(RichText::new(message).color(style::VIOLATING));
        }
        ui.separator();
        let undone = self.history(ui);

        if let Some(change) = chosen {
            return self.make(current, change);
        }
        undone
    }

    /// The changes made so far in this history, oldest first, as sentences.
    pub fn changes(&self) -> Vec<String> {
        self.undo.iter().map(|(_, c)| c.describe()).collect()
    }

    /// Undoes the last change: returns the scenario before it, exactly as it was.
    pub fn undo(&mut self) -> Option<Scenario> {
        let (previous, _) = self.undo.pop()?;
        self.refused = None;
        self.current = Some(previous.clone());
        Some(previous)
    }

    /// Applies `change` to `current`, remembering `current` for undo.
    fn make(&mut self, current: &Scenario, change: Breakage) -> Option<Scenario> {
        match apply(current, &change) {
            Ok(changed) => {
                self.refused = None;
                self.undo.push((current.clone(), change));
                self.current = Some(changed.clone());
                Some(changed)
            }
            Err(reason) => {
                self.refused = Some(reason);
                None
            }
        }
    }

    fn start_history(&mut self, current: &Scenario, trace: &Trace, verdict: &Verdict) {
        self.current = Some(current.clone());
        self.undo.clear();
        self.refused = None;
        self.before = Some((verdict.safe, verdict.live));
        self.form = Form::new(Defaults::read(current, trace));
    }

    fn controls(&mut self, ui: &mut Ui, current: &Scenario, chosen: &mut Option<Breakage>) {
        let f = &mut self.form;
        let last_ms = current.until_ms.saturating_sub(1);
        ui.horizontal(|ui| {
            ui.label("At");
            ui.add(ms_value(&mut f.at_ms, last_ms));
            ui.label(RichText::new("(when each fault below starts)").weak());
        });
        ui.add_space(4.0);

        ui.horizontal_wrapped(|ui| {
            if ui.button("Kill the store").clicked() {
                *chosen = Some(Breakage::KillStore {
                    at_ms: f.at_ms,
                    for_ms: f.restart_store.then_some(f.restart_after_ms),
                });
            }
            ui.checkbox(&mut f.restart_store, "restart it after");
            ui.add_enabled(
                f.restart_store,
                ms_value(&mut f.restart_after_ms, current.until_ms),
            );
        });

        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(
                    current.resource.fencing,
                    egui::Button::new("Remove fencing"),
                )
                .on_hover_text("The resource stops checking fencing tokens.")
                .clicked()
            {
                *chosen = Some(Breakage::RemoveFencing);
            }
            if ui
                .add_enabled(!current.resource.fencing, egui::Button::new("Add fencing"))
                .on_hover_text(
                    "The lock hands out fencing tokens and the resource refuses a token lower \
                     than one it has seen.",
                )
                .clicked()
            {
                *chosen = Some(Breakage::AddFencing);
            }
        });

        ui.horizontal_wrapped(|ui| {
            if ui.button("Pause").clicked() {
                *chosen = Some(Breakage::PauseWorker {
                    worker: f.worker.clone(),
                    at_ms: f.at_ms,
                    for_ms: f.pause_ms,
                });
            }
            worker_choice(ui, "break_it_worker", current, &mut f.worker);
            ui.label("for");
            ui.add(ms_value(&mut f.pause_ms, u64::MAX));
        });

        ui.horizontal_wrapped(|ui| {
            if ui.button("Cut off from the store").clicked() {
                *chosen = Some(Breakage::PartitionWorker {
                    worker: f.worker.clone(),
                    at_ms: f.at_ms,
                    for_ms: f.partition_heals.then_some(f.partition_ms),
                });
            }
            ui.label(RichText::new(&f.worker).strong());
            ui.checkbox(&mut f.partition_heals, "heal after");
            ui.add_enabled(f.partition_heals, ms_value(&mut f.partition_ms, u64::MAX));
        });

        ui.horizontal_wrapped(|ui| {
            if ui.button("Jump a store clock").clicked() {
                *chosen = Some(Breakage::JumpClock {
                    node: f.jump_node.clone(),
                    at_ms: f.at_ms,
                    delta_ms: f.jump_ms,
                });
            }
            egui::ComboBox::from_id_salt("break_it_store")
                .selected_text(&f.jump_node)
                .show_ui(ui, |ui| {
                    for node in store_nodes(current) {
                        ui.selectable_value(&mut f.jump_node, node.clone(), node);
                    }
                });
            ui.label("by");
            ui.add(
                egui::DragValue::new(&mut f.jump_ms)
                    .suffix(" ms")
                    .speed(100),
            );
        });
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Drift a store clock")
                .on_hover_text(
                    "The node's clock runs fast (or slow): its leases end early (or late) in \
                     true time. Redlock allows for 1 %.",
                )
                .clicked()
            {
                *chosen = Some(Breakage::DriftClock {
                    node: f.jump_node.clone(),
                    drift_ppm: f.drift_ppm,
                });
            }
            ui.label(RichText::new(&f.jump_node).strong());
            ui.add(
                egui::DragValue::new(&mut f.drift_ppm)
                    .range(-500_000..=500_000)
                    .suffix(" ppm")
                    .speed(1_000),
            );
        });

        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Force-release the lock")
                .on_hover_text(
                    "An operator deletes the lock key by hand (a force-unlock, a DEL from a \
                     console), whoever holds it.",
                )
                .clicked()
            {
                *chosen = Some(Breakage::ForceRelease { at_ms: f.at_ms });
            }
        });

        if current.store.lease_clock() == StoreClock::Monotonic {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new(
                        "The store times leases on a monotonic clock, which a jump does not move.",
                    )
                    .weak(),
                );
                if ui.button("Use its wall clock").clicked() {
                    *chosen = Some(Breakage::WallClock);
                }
            });
        }
    }

    /// The changes made so far and the undo button; returns the scenario to go back to.
    fn history(&mut self, ui: &mut Ui) -> Option<Scenario> {
        let mut undone = None;
        ui.horizontal(|ui| {
            ui.label(RichText::new("Changes made").strong());
            if ui
                .add_enabled(!self.undo.is_empty(), egui::Button::new("Undo"))
                .clicked()
            {
                undone = self.undo();
            }
        });
        if self.undo.is_empty() {
            ui.label(RichText::new("None yet: this is the scenario as written.").weak());
        }
        for (i, (_, change)) in self.undo.iter().enumerate() {
            ui.label(format!("{}. {}", i + 1, change.describe()));
        }
        undone
    }
}

/// "As written: safe · live. Now: UNSAFE · live", so the effect of the changes reads at a
/// glance.
fn verdict_line(ui: &mut Ui, before: Option<(bool, bool)>, now: &Verdict) {
    let words = |safe: bool, live: bool| {
        format!(
            "{} · {}",
            if safe { "safe" } else { "UNSAFE" },
            if live { "live" } else { "NOT LIVE" }
        )
    };
    let colour = |safe: bool, live: bool| match (safe, live) {
        (false, _) => style::VIOLATING,
        (true, false) => style::LIVENESS,
        (true, true) => style::SAFE,
    };
    ui.horizontal_wrapped(|ui| {
        if let Some((safe, live)) = before {
            ui.label("As written:");
            ui.label(RichText::new(words(safe, live)).color(colour(safe, live)));
            ui.add_space(12.0);
        }
        ui.label("Now:");
        ui.label(
            RichText::new(words(now.safe, now.live))
                .strong()
                .color(colour(now.safe, now.live)),
        );
    });
}

/// A millisecond value from 0 to `max`.
fn ms_value(value: &mut u64, max: u64) -> egui::DragValue<'_> {
    egui::DragValue::new(value)
        .range(0..=max)
        .speed(50)
        .suffix(" ms")
}

/// Picks one of the scenario's workers by name.
fn worker_choice(ui: &mut Ui, id: &str, scenario: &Scenario, name: &mut String) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(name.as_str())
        .show_ui(ui, |ui| {
            for w in &scenario.workers {
                ui.selectable_value(name, w.name.clone(), &w.name);
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::headless;
    use crate::checker::check;
    use crate::engine::run;
    use crate::scenario::parse;

    fn load(file: &str) -> Scenario {
        let path = format!("{}/assets/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("scenario file");
        parse(&text).expect("valid scenario")
    }

    fn verdict(s: &Scenario) -> Verdict {
        crate::run(s, s.seed).verdict
    }

    #[test]
    fn removing_fencing_makes_the_fenced_scenario_unsafe() {
        let fenced = load("scenarios/step5-fencing-token.toml");
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
        assert_eq!(again, fenced);
    }

    #[test]
    fn killing_the_store_makes_a_live_scenario_not_live() {
        for file in [
            "scenarios/step3-ttl-lease-expires.toml",
            // B only starts waiting 10 s in: the run must go on long enough to show it.
            "scenarios/step5-fencing-token.toml",
        ] {
            killed_store_is_not_live(load(file));
        }
    }

    #[test]
    fn force_releasing_the_lock_is_a_foreign_release_the_fence_still_catches() {
        let fenced = load("scenarios/step5-fencing-token.toml");
        let forced = apply(&fenced, &Breakage::ForceRelease { at_ms: 1_000 }).unwrap();
        let v = verdict(&forced);
        assert!(v.has(crate::checker::Kind::ForeignRelease));
        assert!(v.safe, "fencing holds whoever deletes the lock");
        let unfenced = apply(&forced, &Breakage::RemoveFencing).unwrap();
        assert!(!verdict(&unfenced).safe);
    }

    #[test]
    fn drifting_a_redlock_node_past_the_allowance_grants_twice() {
        let case = load("cases/redlock-store-clock-drift.toml");
        let mut steady = case.clone();
        steady.store_clocks.clear();
        assert!(!verdict(&steady).has(crate::checker::Kind::DoubleGrant));
        let drifted = apply(
            &steady,
            &Breakage::DriftClock {
                node: "store3".to_string(),
                drift_ppm: DEFAULT_DRIFT_PPM,
            },
        )
        .unwrap();
        assert!(verdict(&drifted).has(crate::checker::Kind::DoubleGrant));
        // Within Redlock's 1 % allowance the same run is safe.
        let slight = apply(
            &steady,
            &Breakage::DriftClock {
                node: "store3".to_string(),
                drift_ppm: 5_000,
            },
        )
        .unwrap();
        assert!(!verdict(&slight).has(crate::checker::Kind::DoubleGrant));
        let wrong = Breakage::DriftClock {
            node: "store9".to_string(),
            drift_ppm: 1,
        };
        assert!(apply(&steady, &wrong).is_err());
    }

    fn killed_store_is_not_live(s: Scenario) {
        assert!(verdict(&s).live);
        let defaults = Defaults::read(&s, &run(&s, s.seed));
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
        let s = load("scenarios/step8-store-expiry.toml");
        let trace = run(&s, s.seed);
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
        let s = load("scenarios/step5-fencing-token.toml");
        let d = Defaults::read(&s, &run(&s, s.seed));
        // A acquires a few ms in and works 2 000 ms: half-way, capped at 1 s after the grant.
        assert!((1_000..1_100).contains(&d.at_ms), "{}", d.at_ms);
        assert_eq!(d.worker, "A");
        assert_eq!(d.outlast_lease_ms, 15_000);
    }

    #[test]
    fn faults_go_in_time_order() {
        let s = load("scenarios/step6-redlock-clock-jump.toml");
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
        let s = load("scenarios/step5-pause-unfenced.toml");
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
        let redlock = load("scenarios/step6-redlock-clock-jump.toml");
        let reason = apply(&redlock, &Breakage::AddFencing).unwrap_err();
        assert!(reason.contains("lock.design"), "{reason}");
    }

    #[test]
    fn a_partition_cuts_the_worker_from_every_store_node() {
        let s = load("cases/consensus-survives-leader-crash.toml");
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

    #[test]
    fn undo_restores_the_exact_scenario() {
        let s = load("scenarios/step5-fencing-token.toml");
        let trace = run(&s, s.seed);
        let v = check(&s, &trace);
        let mut panel = BreakIt::default();
        panel.start_history(&s, &trace, &v);
        let once = panel.make(&s, Breakage::RemoveFencing).unwrap();
        let twice = panel
            .make(
                &once,
                Breakage::KillStore {
                    at_ms: 3_000,
                    for_ms: Some(1_000),
                },
            )
            .unwrap();
        assert_ne!(twice, once);
        assert_eq!(panel.undo(), Some(once));
        assert_eq!(panel.undo(), Some(s));
        assert_eq!(panel.undo(), None);
    }

    #[test]
    fn a_refused_change_keeps_the_scenario_and_the_history() {
        let s = load("scenarios/step5-pause-unfenced.toml");
        let trace = run(&s, s.seed);
        let mut panel = BreakIt::default();
        panel.start_history(&s, &trace, &check(&s, &trace));
        assert_eq!(panel.make(&s, Breakage::RemoveFencing), None);
        assert!(panel.refused.is_some());
        assert!(panel.undo.is_empty());
        assert_eq!(panel.current.as_ref(), Some(&s));
    }

    #[test]
    fn the_panel_draws_without_a_window() {
        let s = load("scenarios/step5-fencing-token.toml");
        let trace = run(&s, s.seed);
        let v = check(&s, &trace);
        let mut panel = BreakIt::default();
        let ctx = egui::Context::default();
        for _ in 0..2 {
            headless::frame(&ctx, |ui| {
                assert_eq!(panel.show(ui, &s, &trace, &v), None);
            });
        }
        assert_eq!(panel.form.worker, "A");
    }
}
