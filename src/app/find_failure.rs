//! "Find a failure": search random fault schedules for a run the checker calls unsafe (or not
//! live), shrink the first one found and tell it as numbered steps, then show it on the
//! timeline with its faults drawn.
//!
//! The search, its shrinking and its words are [`crate::search`]'s, the same as
//! `locksim search`; this module draws the controls and the story. The search runs off the
//! UI thread ([`Job`]), so the page keeps painting however long a run of the scenario is;
//! what it finds depends on the scenario and the search's seed alone, and the page makes
//! the found run again from its faults.

use eframe::egui::{self, RichText, Ui};

use super::background::{self, Job, News, Work};
use super::{style, theme};
use crate::scenario::Scenario;
use crate::search::{Finding, Goal, Options, Space, headline, narrate};
use crate::text::{fmt_count, fmt_ms};

/// The budgets offered, in schedules.
const TRIES: [u64; 2] = [1_000, 10_000];

/// The most faults a schedule may have here; the CLI allows more.
const MAX_FAULTS: usize = 5;

/// What the panel asks the page to do.
pub enum FoundAsk {
    /// Run this scenario and show it.
    Show(Scenario),
    /// Put this scenario in the sandbox's form.
    Edit(Scenario),
}

/// A search started from the panel: what it searches, within what, how far it got and
/// what it found.
struct Search {
    /// The scenario searched (without its own faults if the learner left them out).
    scenario: Scenario,
    options: Options,
    /// Schedules run so far.
    tries: u64,
    outcome: Option<Finding>,
}

impl Search {
    /// Schedules run as a share of the budget, 0 to 1 (1 once the search is over).
    fn progress(&self) -> f32 {
        if self.outcome.is_some() || self.options.tries == 0 {
            1.0
        } else {
            (self.tries as f64 / self.options.tries as f64) as f32
        }
    }
}

/// The panel's settings and the search in progress or done.
pub struct FindFailure {
    options: Options,
    /// Search the scenario without its own `[[fault]]` tables, so the search finds the
    /// faults rather than replaying the author's.
    without_its_faults: bool,
    /// A search asked for before the panel was next drawn (from a course step).
    asked: Option<Scenario>,
    search: Option<Search>,
    /// The search running, until it ends or is cancelled.
    job: Option<Job>,
    /// Why the last search stopped before its end, other than Cancel.
    failed: Option<String>,
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
            asked: None,
            search: None,
            job: None,
            failed: None,
            of: None,
            story: Vec::new(),
        }
    }
}

impl FindFailure {
    /// Starts a search of `scenario` with the panel's settings when the panel is next drawn.
    pub fn start(&mut self, scenario: &Scenario) {
        self.asked = Some(scenario.clone());
        self.search = None;
        self.job = None;
    }

    /// Starts the search of `scenario` off the UI thread.
    fn launch(&mut self, ctx: &egui::Context, scenario: &Scenario) {
        let mut searched = scenario.clone();
        if self.without_its_faults {
            searched.faults.clear();
        }
        self.failed = None;
        self.story.clear();
        self.of = Some(scenario.clone());
        let options = self.options;
        match background::start(ctx, &searched, |s| Work::search(s, options)) {
            Ok((searched, job)) => {
                self.search = Some(Search {
                    scenario: searched,
                    options: self.options,
                    tries: 0,
                    outcome: None,
                });
                self.job = Some(job);
            }
            Err(reason) => {
                self.search = None;
                self.failed = Some(reason);
            }
        }
    }

    /// Draws the panel for `current`, taking in what the search in progress sent.
    /// Returns what the learner (or a search that just found a failure) asked to see.
    pub fn show(&mut self, ui: &mut Ui, current: &Scenario) -> Option<FoundAsk> {
        if let Some(scenario) = self.asked.take() {
            self.launch(ui.ctx(), &scenario);
        }
        let mut ask = self.step();
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

    /// What a screen reader hears of the search, after the run on screen: that it runs, then
    /// its headline once over. Without the count so far, so the page's live region speaks
    /// once, not every batch.
    pub fn spoken(&self) -> Option<String> {
        if let Some(reason) = &self.failed {
            return Some(format!("Find a failure: {reason}"));
        }
        let search = self.search.as_ref()?;
        let line = match &search.outcome {
            _ if self.job.is_some() => format!(
                "searching up to {} schedules.",
                fmt_count(search.options.tries)
            ),
            Some(outcome) => headline(search.options.goal, outcome, ""),
            None => format!(
                "stopped after {} schedules: none found so far.",
                fmt_count(search.tries)
            ),
        };
        Some(format!("Find a failure: {line}"))
    }

    /// Takes in the news since the last frame; when the search has just found a failure,
    /// makes its run again and asks to show it.
    fn step(&mut self) -> Option<FoundAsk> {
        let (job, search) = (self.job.as_mut()?, self.search.as_mut()?);
        let news = match job.take() {
            Ok(news) => news,
            Err(reason) => {
                self.failed = Some(reason);
                self.job = None;
                return None;
            }
        };
        for news in news {
            match news {
                News::Searched(tries) => search.tries = tries,
                News::SearchOver { tries, found } => {
                    search.tries = tries;
                    self.job = None;
                    let found = found.map(|f| f.remade(&search.scenario, &search.options));
                    match found.transpose() {
                        Ok(found) => {
                            search.outcome = Some(Finding {
                                tries,
                                found,
                                interrupted: false,
                            });
                        }
                        Err(reason) => self.failed = Some(reason),
                    }
                }
                News::Batch(_) => {
                    self.failed = Some("a search heard a sweep's batch".to_string());
                    self.job = None;
                }
            }
        }
        let found = search.outcome.as_ref()?.found.as_ref()?;
        self.story = narrate(&found.scenario, &found.run);
        Some(FoundAsk::Show(found.scenario.clone()))
    }

    fn controls(&mut self, ui: &mut Ui, current: &Scenario) {
        let running = self.job.is_some();
        // Each choice is named for screen readers by its line's words and its own ("Budget:
        // 1 000 schedules"): its own alone ("unsafe") does not say what is chosen.
        ui.add_enabled_ui(!running, |ui| {
            ui.horizontal_wrapped(|ui| {
                let line = "Look for a run that is";
                ui.label(line);
                for (goal, text) in [(Goal::Unsafe, "unsafe"), (Goal::NotLive, "not live")] {
                    ui.radio_value(&mut self.options.goal, goal, text)
                        .accessible_name(format!("{line} {text}"));
                }
            });
            ui.horizontal_wrapped(|ui| {
                let line = ui.label("Faults per schedule: up to").id;
                ui.add(
                    egui::DragValue::new(&mut self.options.faults)
                        .range(1..=MAX_FAULTS)
                        .speed(0.05),
                )
                .labelled_by(line);
            });
            ui.horizontal_wrapped(|ui| {
                let line = "Budget:";
                ui.label(line);
                for tries in TRIES {
                    let text = format!("{} schedules", fmt_count(tries));
                    let name = format!("{line} {text}");
                    ui.radio_value(&mut self.options.tries, tries, text)
                        .accessible_name(name);
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
            if running {
                if ui.button("Cancel").clicked() {
                    self.job = None;
                }
            } else if ui.add(theme::prominent("Search", ui)).clicked() {
                self.launch(ui.ctx(), current);
            }
            if let Some(search) = &self.search {
                let total = fmt_count(search.options.tries);
                let text = if running {
                    format!("{} of {total} schedules", fmt_count(search.tries))
                } else {
                    format!("{} schedules run", fmt_count(search.tries))
                };
                ui.add(egui::ProgressBar::new(search.progress()).text(text));
            }
        });
    }

    /// The outcome, once there is one: the headline, the story and what to do with it.
    fn result(&mut self, ui: &mut Ui, current: &Scenario) -> Option<FoundAsk> {
        if let Some(reason) = &self.failed {
            ui.colored_label(style::ANOMALY, reason);
        }
        let search = self.search.as_ref()?;
        if self.job.is_some() {
            return None;
        }
        ui.add_space(6.0);
        if self.of.as_ref() != Some(current)
            && search.outcome.as_ref().is_none_or(|o| o.found.is_none())
        {
            ui.label(
                RichText::new("The scenario has changed since this search; search again.")
                    .color(style::ANOMALY),
            );
        }
        let options = search.options;
        let Some(outcome) = &search.outcome else {
            let stopped = format!(
                "Stopped after {} schedules: none found so far.",
                fmt_count(search.tries)
            );
            ui.label(RichText::new(stopped).strong());
            return None;
        };
        ui.label(RichText::new(headline(options.goal, outcome, "")).strong());
        let Some(found) = &outcome.found else {
            let space = Space::of(&search.scenario);
            ui.label(format!(
                "Each schedule had 1 to {} faults on the workers and store nodes, at times \
                 before {}, each lasting up to {} (twice the lease); every run used the \
                 scenario's seed {}.",
                options.faults,
                fmt_ms(space.until_ms),
                fmt_ms(space.max_ms),
                search.scenario.seed
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
