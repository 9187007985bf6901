//! The "Break it" panel: one-click faults and design changes applied to the scenario on
//! screen, which the shell then re-runs with the same seed so the verdict changes in front of
//! the learner.
//!
//! The changes themselves are pure ([`crate::breakage`]); the panel only picks their
//! parameters, keeps an undo stack, and hands the changed scenario back.

use eframe::egui::{self, RichText, Ui};

use super::style;
use crate::breakage::{Breakage, DEFAULT_DRIFT_PPM, DEFAULT_JUMP_MS, Defaults, apply};
use crate::checker::Verdict;
use crate::scenario::names::store_name;
use crate::scenario::{Scenario, StoreClock};
use crate::trace::Trace;

/// What the panel asks of the sandbox.
#[derive(Debug, PartialEq)]
pub enum Asked {
    /// Run this scenario, the one on screen changed or a change undone.
    Run(Box<Scenario>),
    /// Run the form's scenario, whose edits the run on screen does not have yet.
    RunForm,
}

/// The "Break it" panel.
///
/// The shell calls [`BreakIt::show`] every frame with the scenario on screen and its run; when
/// it asks to run a scenario, the shell runs that one (with the seed it used for the current
/// run) and shows it. A scenario the panel did not hand out starts a new history (undo is cleared).
#[derive(Default)]
pub struct BreakIt {
    /// The scenario the panel last saw or handed out; a different one means a new history.
    current: Option<Scenario>,
    /// Earlier scenarios of this history with the change made after each (in words),
    /// oldest first.
    undo: Vec<(Scenario, String)>,
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
            jump_node: store_name(1),
            jump_ms: DEFAULT_JUMP_MS,
            drift_ppm: DEFAULT_DRIFT_PPM,
        }
    }
}

impl BreakIt {
    /// Draws the panel for `current`, whose run gave `trace` and `verdict`; `held`: the form
    /// has edits this run does not have yet, so the panel waits until they are run. Returns
    /// the scenario to run next when the learner made a change or undid one.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        current: &Scenario,
        trace: &Trace,
        verdict: &Verdict,
        held: bool,
    ) -> Option<Asked> {
        if self.current.as_ref() != Some(current) {
            self.start_history(current, trace, verdict);
        }
        ui.heading("Break it");
        if intro_or_held(ui, held) {
            return Some(Asked::RunForm);
        }
        if held {
            ui.disable();
        }
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
            return self.make(current, change).map(|s| Asked::Run(Box::new(s)));
        }
        undone.map(|s| Asked::Run(Box::new(s)))
    }

    /// The changes made so far in this history, oldest first, as sentences.
    pub fn changes(&self) -> Vec<String> {
        self.undo.iter().map(|(_, c)| c.clone()).collect()
    }

    /// Notes a change made on the timeline (faults placed, moved or deleted by hand):
    /// `before`, the scenario on screen, became `after`. Undo goes back to `before`.
    pub fn edited(&mut self, before: &Scenario, after: &Scenario, what: String) {
        self.refused = None;
        self.undo.push((before.clone(), what));
        self.current = Some(after.clone());
    }

    /// Takes `run`, the scenario the panel last handed out as the sandbox marked it (its
    /// title, description and `[expect]` say it is an edit), as the one on screen: the
    /// history goes on.
    pub fn adopt(&mut self, run: &Scenario) {
        self.current = Some(run.clone());
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
                let what = change.describe(current);
                self.undo.push((current.clone(), what));
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
        // Each field is named for screen readers by the words around it ("Pause for"), or,
        // where none say what it is, by a name of its own; a field would otherwise be named by
        // its unit alone.
        ui.horizontal(|ui| {
            let at = ui.label("At").id;
            let field = ui.add(ms_value(&mut f.at_ms, last_ms));
            let when = ui.label(RichText::new("(when each fault below starts)").weak());
            field.labelled_by(at).labelled_by(when.id);
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
            )
            .accessible_name("restart the store after");
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
            let pause = ui.button("Pause");
            if pause.clicked() {
                *chosen = Some(Breakage::PauseWorker {
                    worker: f.worker.clone(),
                    at_ms: f.at_ms,
                    for_ms: f.pause_ms,
                });
            }
            worker_choice(ui, "break_it_worker", current, &mut f.worker);
            let word = ui.label("for").id;
            ui.add(ms_value(&mut f.pause_ms, u64::MAX))
                .labelled_by(pause.id)
                .labelled_by(word);
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
            ui.add_enabled(f.partition_heals, ms_value(&mut f.partition_ms, u64::MAX))
                .accessible_name("heal the cut after");
        });

        ui.horizontal_wrapped(|ui| {
            let jump = ui.button("Jump a store clock");
            if jump.clicked() {
                *chosen = Some(Breakage::JumpClock {
                    node: f.jump_node.clone(),
                    at_ms: f.at_ms,
                    delta_ms: f.jump_ms,
                });
            }
            egui::ComboBox::from_id_salt("break_it_store")
                .selected_text(&f.jump_node)
                .show_ui(ui, |ui| {
                    for node in current.store_names() {
                        ui.selectable_value(&mut f.jump_node, node.clone(), node);
                    }
                })
                .response
                .accessible_name("store node to jump or drift");
            let word = ui.label("by").id;
            ui.add(
                egui::DragValue::new(&mut f.jump_ms)
                    .suffix(" ms")
                    .speed(100),
            )
            .labelled_by(jump.id)
            .labelled_by(word);
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
            )
            .accessible_name("Drift a store clock by");
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
            ui.label(format!("{}. {change}", i + 1));
        }
        undone
    }
}

/// The panel's introduction or, while `held`, in its place, why the panel waits and a button
/// that runs the form. The slot is as tall as the taller of the two, so the buttons under it
/// never move under the pointer as the note comes and goes. Returns whether that button was
/// clicked.
fn intro_or_held(ui: &mut Ui, held: bool) -> bool {
    let top = ui.cursor().min;
    let width = ui.available_width();
    let slot = egui::Rect::from_min_size(top, egui::vec2(width, f32::INFINITY));
    let mut bottom = top.y;
    let mut clicked = false;
    for note in [false, true] {
        let mut child = ui.new_child(egui::UiBuilder::new().max_rect(slot));
        if note != held {
            child.set_invisible();
        }
        if note {
            child.label(
                RichText::new(
                    "Your form edits are not in this run yet. Run them before Break it \
                     changes the run, so that the form and the run stay one scenario.",
                )
                .color(style::ANOMALY),
            );
            clicked = child.button("Run the form's scenario").clicked();
        } else {
            child.label(
                "Each change is made to this scenario and run again with the same seed, so \
                 what changes in the run is what the change did.",
            );
        }
        bottom = bottom.max(child.min_rect().bottom());
    }
    ui.advance_cursor_after_rect(egui::Rect::from_x_y_ranges(
        top.x..=top.x + width,
        top.y..=bottom,
    ));
    clicked
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

/// Picks one of the scenario's workers by name: the one paused or cut off.
fn worker_choice(ui: &mut Ui, id: &str, scenario: &Scenario, name: &mut String) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(name.as_str())
        .show_ui(ui, |ui| {
            for w in &scenario.workers {
                ui.selectable_value(name, w.name.clone(), &w.name);
            }
        })
        .response
        .accessible_name("worker to pause or cut off");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::headless;
    use crate::scenario::library::shipped;

    #[test]
    fn undo_restores_the_exact_scenario() {
        let s = shipped("scenarios/step5-fencing-token.toml");
        let crate::Run {
            trace, verdict: v, ..
        } = crate::run(&s, s.seed);
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
        let s = shipped("scenarios/step5-pause-unfenced.toml");
        let run = crate::run(&s, s.seed);
        let mut panel = BreakIt::default();
        panel.start_history(&s, &run.trace, &run.verdict);
        assert_eq!(panel.make(&s, Breakage::RemoveFencing), None);
        assert!(panel.refused.is_some());
        assert!(panel.undo.is_empty());
        assert_eq!(panel.current.as_ref(), Some(&s));
    }

    #[test]
    fn the_panel_draws_without_a_window() {
        let s = shipped("scenarios/step5-fencing-token.toml");
        let crate::Run {
            trace, verdict: v, ..
        } = crate::run(&s, s.seed);
        let mut panel = BreakIt::default();
        let ctx = egui::Context::default();
        for _ in 0..2 {
            headless::frame(&ctx, |ui| {
                assert_eq!(panel.show(ui, &s, &trace, &v, false), None);
            });
        }
        assert_eq!(panel.form.worker, "A");
    }
}
