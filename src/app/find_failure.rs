//! "Find a failure": search random fault schedules for a run the checker calls unsafe (or not
//! live), shrink the first one found and tell it as numbered steps, then show it on the
//! timeline with its faults drawn.
//!
//! The search, its shrinking and its words are [`crate::search`]'s, the same as
//! `locksim search`; this module draws the controls and the story. It runs on the UI thread
//! for [`SLICE`] of each frame, in small shares ([`Searcher::advance`]), so the page keeps
//! painting however long a run of the scenario is. Where the slices fall changes nothing
//! the search finds: that depends on the scenario and the search's seed alone.

use eframe::egui::{self, RichText, Ui};

use super::{style, theme};
use crate::scenario::Scenario;
use crate::search::{Goal, Options, Searcher, Space, headline, narrate};
use crate::sweep::EVENTS_PER_BATCH;
use crate::text::{fmt_count, fmt_ms};

/// The budgets offered, in schedules.
const TRIES: [u64; 2] = [1_000, 10_000];

/// How long the search may run in one frame: most of a 60 Hz frame, the rest left to paint.
const SLICE: web_time::Duration = web_time::Duration::from_millis(10);

/// The search's share between two looks at the clock, in engine events: a small part of a
/// slice, however fast the machine.
const SHARE_EVENTS: u64 = EVENTS_PER_BATCH / 20;

/// The most faults a schedule may have here; the CLI allows more.
const MAX_FAULTS: usize = 5;

/// What the panel asks the page to do.
pub enum FoundAsk {
    /// Run this scenario and show it.
    Show(Scenario),
    /// Put this scenario in the sandbox's form.
    Edit(Scenario),
}

/// The panel's settings and the search in progress or done.
pub struct FindFailure {
    options: Options,
    /// Search the scenario without its own `[[fault]]` tables, so the search finds the
    /// faults rather than replaying the author's.
    without_its_faults: bool,
    search: Option<Searcher>,
    running: bool,
    /// The scenario the search was started for, as it was on screen.
    of: Option<Scenario>,
    /// The story of what was found, told once when the search ends.
    story: Vec<String>,
}

impl Default for FindFailure {
    fn default() -> Self {
        FindFailure {
            options: Options {
                tries: TRIES[1],
                ..Options::default()
            },
            without_its_faults: true,
            search: None,
            running: false,
            of: None,
            story: Vec::new(),
        }
    }
}

impl FindFailure {
    /// Starts a search of `scenario` with the panel's settings.
    pub fn start(&mut self, scenario: &Scenario) {
        let mut searched = scenario.clone();
        if self.without_its_faults {
            searched.faults.clear();
        }
        self.search = Some(Searcher::new(&searched, self.options));
        self.of = Some(scenario.clone());
        self.running = true;
        self.story.clear();
    }

    /// Draws the panel for `current`, running the next share of a search in progress.
    /// Returns what the learner (or a search that just found a failure) asked to see.
    pub fn show(&mut self, ui: &mut Ui, current: &Scenario) -> Option<FoundAsk> {
        let mut ask = self.step();
        if self.running {
            // Come back next frame for the next share, even if the mouse does not move.
            ui.ctx().request_repaint();
        }
        ui.heading("Find a failure");
        ui.label(
            "Draw random fault schedules — pauses, stalls, crashes, restarts, partitions, \
             clock jumps, slow links, kills — add each to this scenario and run it on its \
             seed, until the checker calls a run unsafe (or not live). Then shrink that schedule until \
             removing any one fault makes the run pass, and tell it step by step.",
        );
        ui.add_space(4.0);
        self.controls(ui, current);
        if let Some(result) = self.result(ui, current) {
            ask = Some(result);
        }
        ask
    }

    /// Runs this frame's share; when the search has just found a failure, asks to show it.
    // On the desktop web_time's clock is std's, which the crate forbids outside the app.
    #[cfg_attr(
        not(target_arch = "wasm32"),
        expect(
            clippy::disallowed_methods,
            reason = "the wall clock bounds how long a frame works, never what the search finds"
        )
    )]
    fn step(&mut self) -> Option<FoundAsk> {
        let search = self.search.as_mut().filter(|_| self.running)?;
        let started = web_time::Instant::now();
        while search.outcome().is_none() && started.elapsed() < SLICE {
            search.advance(SHARE_EVENTS);
        }
        let outcome = search.outcome()?;
        self.running = false;
        let found = outcome.found.as_ref()?;
        self.story = narrate(&found.scenario, &found.run);
        Some(FoundAsk::Show(found.scenario.clone()))
    }

    fn controls(&mut self, ui: &mut Ui, current: &Scenario) {
        ui.add_enabled_ui(!self.running, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label("Look for a run that is");
                ui.radio_value(&mut self.options.goal, Goal::Unsafe, "unsafe");
                ui.radio_value(&mut self.options.goal, Goal::NotLive, "not live");
            });
            ui.horizontal_wrapped(|ui| {
                ui.label("Faults per schedule: up to");
                ui.add(
                    egui::DragValue::new(&mut self.options.faults)
                        .range(1..=MAX_FAULTS)
                        .speed(0.05),
                );
            });
            ui.horizontal_wrapped(|ui| {
                ui.label("Budget:");
                for tries in TRIES {
                    ui.radio_value(
                        &mut self.options.tries,
                        tries,
                        format!("{} schedules", fmt_count(tries)),
                    );
                }
            });
            ui.checkbox(
                &mut self.without_its_faults,
                "Leave out the scenario's own faults",
            )
            .on_hover_text(
                "Search from a run with no faults, so the schedule found is the search's \
                 own; untick to add faults on top of the scenario's.",
            );
        });
        ui.horizontal(|ui| {
            if self.running {
                if ui.button("Cancel").clicked() {
                    self.running = false;
                }
            } else if ui.add(theme::prominent("Search", ui)).clicked() {
                self.start(current);
            }
            if let Some(search) = &self.search {
                let total = fmt_count(search.options().tries);
                let text = if self.running {
                    format!("{} of {total} schedules", fmt_count(search.tries()))
                } else {
                    format!("{} schedules run", fmt_count(search.tries()))
                };
                ui.add(egui::ProgressBar::new(search.progress()).text(text));
            }
        });
    }

    /// The outcome, once there is one: the headline, the story and what to do with it.
    fn result(&mut self, ui: &mut Ui, current: &Scenario) -> Option<FoundAsk> {
        let search = self.search.as_ref()?;
        if self.running {
            return None;
        }
        ui.add_space(6.0);
        if self.of.as_ref() != Some(current) && search.outcome().is_none_or(|o| o.found.is_none()) {
            ui.label(
                RichText::new("The scenario has changed since this search; search again.")
                    .color(style::ANOMALY),
            );
        }
        let options = *search.options();
        let Some(outcome) = search.outcome() else {
            let stopped = format!(
                "Stopped after {} schedules: none found so far.",
                fmt_count(search.tries())
            );
            ui.label(RichText::new(stopped).strong());
            return None;
        };
        ui.label(RichText::new(headline(options.goal, outcome, "")).strong());
        let Some(found) = &outcome.found else {
            let space = Space::of(search.scenario());
            ui.label(format!(
                "Each schedule had 1 to {} faults on the workers and store nodes, at times \
                 before {}, each lasting up to {} (twice the lease); every run used the \
                 scenario's seed {}.",
                options.faults,
                fmt_ms(space.until_ms),
                fmt_ms(space.max_ms),
                search.scenario().seed
            ));
            return None;
        };
        let mut ask = None;
        ui.horizontal_wrapped(|ui| {
            if ui.button("Show it on the timeline").clicked() {
                ask = Some(FoundAsk::Show(found.scenario.clone()));
            }
            if ui.button("Edit it in the sandbox").clicked() {
                ask = Some(FoundAsk::Edit(found.scenario.clone()));
            }
        });
        ui.add_space(4.0);
        for line in &self.story {
            ui.label(line);
        }
        ask
    }
}
