//! The Challenges page: a list of challenges on the left, the one chosen with its goal, its
//! budget and where the attempt stands, and the attempt's run on the timeline, where the
//! learner places faults. Every change of the faults runs the attempt again at once.

use super::menu;
use eframe::egui::{self, RichText, Ui};

use super::fault_edit::Editing;
use super::keys::PlaybackKey;
use super::layout::Arrangement;
use super::run_view::{self, RunView};
use super::style;
use super::transcript_panel;
use crate::challenge::{self, Attempt, Challenge};
use crate::course::Demonstration;
use crate::course::progress::Progress;
use crate::scenario::{Fault, FaultTag};
use crate::view::fault_edit::describe;
use strum::VariantArray;

/// The attempt on screen.
struct Shown {
    /// The challenge's id.
    id: String,
    judged: Attempt,
    run: RunView,
}

/// The page's state besides what [`Progress`] keeps.
#[derive(Default)]
pub struct ChallengesPage {
    shown: Option<Shown>,
}

/// What the left panel asked for.
enum Asked {
    /// Show this challenge.
    Open(String),
    /// Try these faults.
    Try(Vec<Fault>),
    /// Tell whether and how it can be done.
    GiveUp,
}

impl ChallengesPage {
    /// Sends a playback key to the attempt on screen.
    pub fn key(&mut self, key: PlaybackKey) {
        if let Some(shown) = &mut self.shown {
            shown.run.key(key);
        }
    }

    /// Lets the attempt on screen take its fault-editing keys.
    pub fn edit_keys(&mut self, ctx: &egui::Context) {
        if let Some(shown) = &mut self.shown {
            shown.run.edit_keys(ctx);
        }
    }

    /// The challenge and attempt on screen (a shared link carries them): its id and the
    /// design with the faults placed.
    pub fn shown(&self) -> Option<(&str, &crate::scenario::Scenario)> {
        self.shown
            .as_ref()
            .map(|s| (s.id.as_str(), &s.judged.scenario))
    }

    /// Opens challenge `id` on `faults` (a shared link's attempt), keeping it as the latest
    /// attempt. An id no challenge has is ignored.
    pub fn open(&mut self, progress: &mut Progress, id: &str, faults: &[Fault]) {
        if let Some(c) = challenge::find(id) {
            progress.challenge = Some(c.id.clone());
            self.attempt(progress, c, faults);
        }
    }

    /// Draws the page.
    pub fn show(&mut self, ui: &mut Ui, progress: &mut Progress) {
        let chosen = progress
            .challenge
            .as_deref()
            .and_then(challenge::find)
            .or_else(|| first_unwon(progress));
        let Some(chosen) = chosen else {
            ui.label("No challenges are listed.");
            return;
        };
        if self.shown.as_ref().is_none_or(|s| s.id != chosen.id) {
            let faults = progress
                .challenges
                .get(&chosen.id)
                .map(crate::course::Record::faults)
                .unwrap_or_default();
            progress.challenge = Some(chosen.id.clone());
            self.attempt(progress, chosen, &faults);
        }
        let Some(shown) = &mut self.shown else {
            return;
        };
        shown.run.advance(ui);
        let mut asked = None;
        let judged = &shown.judged;
        let left = |ui: &mut Ui, _: Option<&RunView>| {
            asked = panel(ui, progress, chosen, judged);
        };
        // On a phone the card is a strip above the run: where the attempt stands is said
        // again under the verdict, in view.
        let stacked = Arrangement::for_width(ui.available_width()) == Arrangement::Stacked;
        let note = |ui: &mut Ui| {
            if stacked {
                ui.add_space(4.0);
                status_line(ui, chosen, judged, told_impossible(progress, chosen));
            }
        };
        run_view::show_run(ui, "challenges", Some(&mut shown.run), left, "", note);
        let status = format!(
            "Challenge: {}",
            status_text(chosen, &shown.judged, told_impossible(progress, chosen))
        );
        transcript_panel::announce_also(ui.ctx(), &status);
        if let Some(change) = shown.run.take_change() {
            asked = Some(Asked::Try(change.scenario.faults));
        }
        match asked {
            Some(Asked::Open(id)) => progress.challenge = Some(id),
            Some(Asked::Try(faults)) => self.attempt(progress, chosen, &faults),
            Some(Asked::GiveUp) => {
                progress
                    .challenges
                    .entry(chosen.id.clone())
                    .or_default()
                    .gave_up = true;
            }
            None => {}
        }
    }

    /// Runs `faults` on `challenge`, keeps them as its latest attempt (and a win as won), and
    /// shows the run, at the moment the one before it was showing.
    fn attempt(&mut self, progress: &mut Progress, challenge: &Challenge, faults: &[Fault]) {
        let judged = challenge::play(challenge, faults);
        let record = progress.challenges.entry(challenge.id.clone()).or_default();
        record.keep(&challenge.design, &judged.scenario.faults);
        record.won |= judged.won;
        let demo = Demonstration {
            scenario: judged.scenario.clone(),
            trace: judged.run.trace.clone(),
            verdict: judged.run.verdict.clone(),
            price: judged.run.price.clone(),
        };
        match &mut self.shown {
            Some(shown) if shown.id == challenge.id => {
                shown.run.replace_run(demo);
                shown.judged = judged;
            }
            _ => {
                let mut run = RunView::new(demo, challenge.title.clone(), None);
                run.set_editing(Some(Editing::only(&allowed(challenge))));
                // The whole design is on screen at once, to place faults anywhere in it.
                run.skip_to_end();
                self.shown = Some(Shown {
                    id: challenge.id.clone(),
                    judged,
                    run,
                });
            }
        }
    }
}

/// The kinds of fault `challenge`'s budget allows, for the palette.
fn allowed(challenge: &Challenge) -> Vec<FaultTag> {
    FaultTag::VARIANTS
        .iter()
        .copied()
        .filter(|&k| challenge.budget.allows(k) > 0)
        .collect()
}

/// The first challenge not yet won, else the first.
fn first_unwon(progress: &Progress) -> Option<&'static Challenge> {
    let all = challenge::all();
    all.iter()
        .find(|c| !progress.challenges.get(&c.id).is_some_and(|r| r.won))
        .or(all.first())
}

/// The left panel: the list, then the chosen challenge's card.
fn panel(ui: &mut Ui, progress: &Progress, chosen: &Challenge, judged: &Attempt) -> Option<Asked> {
    let mut asked = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.add_space(6.0);
            ui.heading("Challenges");
            let records = || {
                challenge::all()
                    .iter()
                    .filter_map(|c| progress.challenges.get(&c.id))
            };
            let won = records().filter(|r| r.won).count();
            let gave_up = records().filter(|r| r.gave_up && !r.won).count();
            let mut tally = format!(
                "Break a design with a budget of faults. Won {won} of {}",
                challenge::all().len()
            );
            if gave_up > 0 {
                tally.push_str(&format!(", gave up on {gave_up}"));
            }
            ui.label(format!("{tally}."));
            ui.add_space(4.0);
            if let Some(id) = chooser(ui, progress, chosen) {
                asked = Some(Asked::Open(id));
            }
            ui.separator();
            if let Some(card) = card(ui, progress, chosen, judged) {
                asked = Some(card);
            }
        });
    asked
}

/// Which challenge is on screen: a menu of them all, each marked won or given up, with the
/// one before and the one after a click away. Returns the id chosen, if another.
fn chooser(ui: &mut Ui, progress: &Progress, chosen: &Challenge) -> Option<String> {
    let all = challenge::all();
    let at = all.iter().position(|c| c.id == chosen.id).unwrap_or(0);
    let title = |c: &Challenge| {
        let mark = match progress.challenges.get(&c.id) {
            Some(r) if r.won => " · won",
            Some(r) if r.gave_up => " · gave up",
            _ => "",
        };
        format!("{}{mark}", c.title)
    };
    let mut picked = None;
    // The arrows are named in words for screen readers: an arrow alone says not where it goes.
    ui.horizontal(|ui| {
        if ui
            .add_enabled(at > 0, egui::Button::new("←"))
            .accessible_name("previous challenge")
            .on_hover_text("The challenge before")
            .clicked()
        {
            picked = Some(at - 1);
        }
        let heading = format!("{} of {}: {} ↓", at + 1, all.len(), title(chosen));
        menu::button(ui, heading, &mut |ui| {
            for (i, c) in all.iter().enumerate() {
                if ui.selectable_label(i == at, title(c)).clicked() {
                    picked = Some(i);
                    ui.close();
                }
            }
        })
        .on_hover_text("Every challenge");
        if ui
            .add_enabled(at + 1 < all.len(), egui::Button::new("→"))
            .accessible_name("next challenge")
            .on_hover_text("The challenge after")
            .clicked()
        {
            picked = Some(at + 1);
        }
    });
    picked
        .filter(|&i| i != at)
        .and_then(|i| all.get(i))
        .map(|c| c.id.clone())
}

/// Whether the learner gave up on `chosen` and was told it cannot be done.
fn told_impossible(progress: &Progress, chosen: &Challenge) -> bool {
    chosen.impossible.is_some()
        && progress
            .challenges
            .get(&chosen.id)
            .is_some_and(|r| r.gave_up)
}

/// Where the attempt stands (won, over budget, not yet), in the colour of its outcome. Once
/// the learner has been told it `cannot_be_done`, "Not yet" would promise otherwise: the line
/// says only what the checker reports.
fn status_line(ui: &mut Ui, chosen: &Challenge, judged: &Attempt, cannot_be_done: bool) {
    let colour = if judged.won {
        style::SAFE
    } else if judged.overruns.is_empty() {
        ui.visuals().text_color()
    } else {
        style::ANOMALY
    };
    let status = status_text(chosen, judged, cannot_be_done);
    ui.label(RichText::new(status).strong().color(colour));
}

/// [`Attempt::status`], less its "Not yet" once the learner knows it `cannot_be_done`.
fn status_text(chosen: &Challenge, judged: &Attempt, cannot_be_done: bool) -> String {
    let status = judged.status(chosen);
    match status.strip_prefix("Not yet. ") {
        Some(rest) if cannot_be_done => rest.to_string(),
        _ => status,
    }
}

/// The chosen challenge: what to do, the budget, the faults placed, where the attempt
/// stands, and, once the learner gives up, whether and how it can be done.
fn card(ui: &mut Ui, progress: &Progress, chosen: &Challenge, judged: &Attempt) -> Option<Asked> {
    let mut asked = None;
    ui.label(RichText::new(&chosen.title).strong().size(17.0));
    ui.label(&chosen.brief);
    ui.add_space(4.0);
    ui.label(format!(
        "Goal: the checker reports {}.",
        chosen.goal_words()
    ));
    ui.label(format!("Budget: {}.", chosen.budget.words()));
    ui.add_space(6.0);
    // Once given up, the answer comes before where the attempt stands.
    let record = progress.challenges.get(&chosen.id);
    let gave_up = record.is_some_and(|r| r.gave_up);
    if gave_up {
        let (head, text) = match &chosen.impossible {
            Some(why) => ("It cannot be done", why.as_str()),
            None => ("How it can be done", chosen.hint.as_str()),
        };
        ui.label(RichText::new(head).strong());
        ui.label(text);
        ui.add_space(6.0);
    }
    status_line(ui, chosen, judged, told_impossible(progress, chosen));
    ui.add_space(6.0);
    let faults = &judged.scenario.faults;
    if faults.is_empty() {
        ui.label(
            RichText::new(
                "No faults placed yet. Drag one from the palette onto a lane of the timeline, \
                 or select a lane and press the fault's key.",
            )
            .weak(),
        );
    } else {
        ui.label(RichText::new("Faults placed").strong());
        for (i, fault) in faults.iter().enumerate() {
            ui.horizontal_wrapped(|ui| {
                // Named by the fault it removes: each fault placed has a Remove button.
                if ui
                    .small_button("Remove")
                    .accessible_name(format!("Remove the {}", describe(fault)))
                    .clicked()
                {
                    let mut rest = faults.clone();
                    rest.remove(i);
                    asked = Some(Asked::Try(rest));
                }
                ui.label(describe(fault));
            });
        }
        if ui.button("Remove them all").clicked() {
            asked = Some(Asked::Try(Vec::new()));
        }
    }
    ui.add_space(8.0);
    if !gave_up && !judged.won && ui.button("Give up: can it be done?").clicked() {
        asked = Some(Asked::GiveUp);
    }
    asked
}
