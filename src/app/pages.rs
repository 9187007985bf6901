//! The course's two text pages: the introduction before the first question, and the recap
//! after step 8.

use eframe::egui::{self, CornerRadius, RichText, Ui};

use super::{glossary_text, style, theme};
use crate::course::progress::{Place, Progress, StepProgress};
use crate::course::{Grading, INTRO, PURPOSE_RECAP, RECAP, STEPS};

/// Widest a column of running text gets, px: longer lines are hard to read.
pub(super) const TEXT_WIDTH: f32 = 760.0;
/// Widest the recap's two columns get together, px.
const WIDE_WIDTH: f32 = 1160.0;

/// The introduction. Returns the page to go to when the learner clicks on.
pub fn intro(ui: &mut Ui, progress: &Progress) -> Option<Place> {
    let mut go = None;
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
            column(ui, TEXT_WIDTH, |ui| {
                ui.add_space(36.0);
                ui.label(
                    RichText::new("A SIMULATOR OF DISTRIBUTED LOCKS")
                        .small()
                        .strong()
                        .weak(),
                );
                ui.label(
                    RichText::new("Locks across machines, one decision at a time")
                        .heading()
                        .size(32.0)
                        .strong(),
                );
                ui.add_space(12.0);
                glossary_text::label(ui, RichText::new(INTRO).size(17.0));
                ui.add_space(16.0);
                ui.label(RichText::new("Reading a run").strong().size(17.0));
                for line in [
                    "Time runs left to right; every worker, lock-store node and the protected \
                     resource has its own lane.",
                    "A worker's outlined bar is when it believes it holds the lock; the store's \
                     solid bar is when the store says it does. Where they disagree, trouble \
                     starts.",
                    "A#3 names A's third attempt to take the lock; it is not a fencing token. \
                     A fencing token is written \"fence 3\".",
                    "Marks on the resource lane are writes: accepted, refused, or the one that \
                     corrupted the data. The verdict names everything that went wrong.",
                ] {
                    bullet(ui, line);
                }
                ui.add_space(24.0);
                ui.horizontal(|ui| {
                    let begin = theme::prominent(RichText::new("Begin").size(20.0), ui)
                        .min_size(egui::vec2(140.0, 44.0));
                    if ui.add(begin).clicked() {
                        go = Some(Place::Step(0));
                    }
                    if let Some(n) = resume_at(progress) {
                        ui.add_space(12.0);
                        if ui
                            .button(
                                RichText::new(format!("Continue at step {}", STEPS[n].number))
                                    .size(16.0),
                            )
                            .clicked()
                        {
                            go = Some(Place::Step(n));
                        }
                    }
                });
                ui.add_space(8.0);
                ui.label(
                    RichText::new("Page Down moves to the next page; press F1 for every shortcut.")
                        .small()
                        .weak(),
                );
            });
        });
    });
    go
}

/// A line of text after a bullet, wrapped under itself rather than under the bullet.
fn bullet(ui: &mut Ui, text: &str) {
    ui.horizontal(|ui| {
        ui.label("•");
        ui.vertical(|ui| {
            ui.label(text);
        });
    });
}

/// The first step not yet answered, if the learner has answered any.
fn resume_at(progress: &Progress) -> Option<usize> {
    if progress.steps.iter().all(|s| s.chosen.is_empty()) {
        return None;
    }
    progress.steps.iter().position(|s| !s.answered())
}

/// The design the course ends with, which the recap's "Break it" opens: a consensus store,
/// fencing, renewal tied to progress, a fair queue.
pub const THE_LOCK_YOU_BUILT: &str = crate::scenario::library::text(
    crate::scenario::library::COURSE,
    "recap-the-lock-you-built.toml",
);

/// Where the recap sends the learner.
pub enum Go {
    /// A page of the app.
    Page(Place),
    /// The sandbox's Break it panel, on the design the course built.
    BreakIt,
}

/// The recap: the ladder of fixes, what each buys, and the learner's calls. Returns where the
/// learner asked to go, if anywhere.
pub fn recap(ui: &mut Ui, progress: &mut Progress) -> Option<Go> {
    let mut go = None;
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink(false)
            .show(ui, |ui| {
                column(ui, WIDE_WIDTH, |ui| {
                    ui.add_space(24.0);
                    ui.label(
                        RichText::new("The lock you built")
                            .heading()
                            .size(32.0)
                            .strong(),
                    );
                    ui.label(
                        RichText::new(
                            "The lesson's eight steps, each fixing what the one before left open.",
                        )
                        .size(16.0),
                    );
                    ui.add_space(10.0);
                    ui.horizontal_wrapped(|ui| {
                        ui.label(
                            "Now take it apart: kill the store and watch everyone stall; \
                             remove the fencing, pause a worker, and watch a stale write land.",
                        );
                        if ui.add(theme::prominent("Break it →", ui)).clicked() {
                            go = Some(Go::BreakIt);
                        }
                    });
                    ui.add_space(14.0);
                    // Side by side where there is room: the ladder, and how the learner climbed it.
                    if ui.available_width() >= 900.0 {
                        ui.columns(2, |columns| {
                            ladder(&mut columns[0]);
                            if let Some(place) = calls(&mut columns[1], progress) {
                                go = Some(Go::Page(place));
                            }
                        });
                    } else {
                        ladder(ui);
                        ui.add_space(18.0);
                        if let Some(place) = calls(ui, progress) {
                            go = Some(Go::Page(place));
                        }
                    }
                    ui.add_space(18.0);
                    if ui
                        .button("Start the course over")
                        .on_hover_text("Forget every choice made so far (the theme stays)")
                        .clicked()
                    {
                        progress.steps = vec![StepProgress::default(); STEPS.len()];
                        go = Some(Go::Page(Place::Intro));
                    }
                    ui.add_space(24.0);
                });
            });
    });
    go
}

/// The fixes in order, and what each buys.
fn ladder(ui: &mut Ui) {
    ui.label(RichText::new("The ladder of fixes").heading().strong());
    ui.add_space(6.0);
    for (fix, buys) in RECAP.iter() {
        rung(ui, fix, buys);
        ui.add_space(6.0);
    }
}

/// One rung of the ladder, with a bullet: numbers here would be read against the steps'
/// numbers beside it, and the rungs are not one per step.
fn rung(ui: &mut Ui, fix: &str, buys: &str) {
    egui::Frame::new()
        .fill(ui.visuals().faint_bg_color)
        .corner_radius(CornerRadius::same(6))
        .inner_margin(10)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new("•")
                        .size(22.0)
                        .strong()
                        .color(ui.visuals().hyperlink_color),
                );
                ui.add_space(8.0);
                ui.vertical(|ui| {
                    glossary_text::label(ui, RichText::new(fix).strong().size(16.0));
                    glossary_text::label(ui, buys);
                });
            });
        });
}

/// A card per step: its title, how the learner's first call went, and a way back.
fn calls(ui: &mut Ui, progress: &Progress) -> Option<Place> {
    let mut go = None;
    ui.label(RichText::new("Your calls").heading().strong());
    ui.add_space(6.0);
    for (n, step) in STEPS.iter().enumerate() {
        let asked = if step.grading == Grading::Framing {
            card(ui, step, |ui| {
                let said = progress
                    .purpose()
                    .and_then(|p| Some((step.options.get(p)?, PURPOSE_RECAP.get(p)?)));
                match said {
                    Some((option, means)) => {
                        ui.label(RichText::new(format!("You said: {}", option.label)).strong());
                        ui.label(*means);
                    }
                    None => not_answered(ui, progress, n),
                }
            })
        } else {
            let record = &progress.steps[n];
            let found = record.watched.iter().any(|&i| step.options[i].right);
            let verdict = match progress.first_call(n) {
                Some((_, true)) => Some(("Right first time", style::SAFE)),
                Some((_, false)) if found => Some((
                    "Wrong first time, then found the right call",
                    style::ANOMALY,
                )),
                Some((_, false)) => Some((
                    "Wrong first time; the right call is still to find",
                    style::VIOLATING,
                )),
                None => None,
            };
            card(ui, step, |ui| {
                let Some((verdict, color)) = verdict else {
                    not_answered(ui, progress, n);
                    return;
                };
                ui.label(RichText::new(verdict).color(color));
                if let Some((first, _)) = progress.first_call(n) {
                    ui.label(
                        RichText::new(format!("Your first call: {}", step.options[first].label))
                            .small()
                            .weak(),
                    );
                }
            })
        };
        if asked {
            go = Some(Place::Step(n));
        }
        ui.add_space(4.0);
    }
    go
}

/// A step not answered yet: said so, and the option chosen there if one was (a link's
/// choices, say) though its run has not been watched to its end.
fn not_answered(ui: &mut Ui, progress: &Progress, n: usize) {
    ui.label(RichText::new("Not answered yet").weak());
    if let Some(label) = unwatched_choice(progress, n) {
        ui.label(
            RichText::new(format!("Chosen, its run not watched to the end: {label}"))
                .small()
                .weak(),
        );
    }
}

/// The option chosen first on step `n` while no run of it has been watched to its end.
fn unwatched_choice(progress: &Progress, n: usize) -> Option<&'static str> {
    let record = progress.steps.get(n)?;
    if record.answered() {
        return None;
    }
    let &first = record.chosen.first()?;
    Some(STEPS.get(n)?.options.get(first)?.label)
}

/// One step's card in "Your calls": its number and title, a way back, and `body`. Returns
/// whether the learner asked to go to the step.
fn card(ui: &mut Ui, step: &crate::course::Step, body: impl FnOnce(&mut Ui)) -> bool {
    let mut go = false;
    theme::card(ui).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{}. {}", step.number, step.title)).strong());
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                go = ui
                    .small_button(format!("Go to step {}", step.number))
                    .clicked();
            });
        });
        body(ui);
    });
    go
}

/// Centres `add` in a column no wider than `max_width`.
pub(super) fn column(ui: &mut Ui, max_width: f32, add: impl FnOnce(&mut Ui)) {
    let width = ui.available_width().min(max_width);
    let margin = (ui.available_width() - width) / 2.0;
    ui.horizontal(|ui| {
        ui.add_space(margin);
        ui.vertical(|ui| {
            ui.set_width(width);
            add(ui);
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_not_yet_watched_is_named_on_the_recap() {
        let mut progress = Progress::default();
        let n = STEPS.iter().position(|s| s.number == "5").unwrap();
        assert_eq!(unwatched_choice(&progress, n), None);
        progress.steps[n].choose(1);
        assert_eq!(
            unwatched_choice(&progress, n),
            Some(STEPS[n].options[1].label)
        );
        progress.steps[n].watched_to_end(1);
        assert_eq!(
            unwatched_choice(&progress, n),
            None,
            "answered: the card says how"
        );
    }
}
