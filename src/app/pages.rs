//! The course's two text pages: the introduction before step 1, and the recap after step 8.

use eframe::egui::{self, CornerRadius, RichText, Ui};

use super::progress::{Place, Progress, StepProgress};
use super::style;
use crate::course::{INTRO, RECAP, STEPS};

/// Widest a column of running text gets, px: longer lines are hard to read.
const TEXT_WIDTH: f32 = 760.0;

/// The introduction. Returns the page to go to when the learner clicks on.
pub fn intro(ui: &mut Ui, progress: &Progress) -> Option<Place> {
    let mut go = None;
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            column(ui, |ui| {
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
                ui.label(RichText::new(INTRO).size(17.0));
                ui.add_space(16.0);
                ui.label(RichText::new("Reading a run").strong().size(17.0));
                for line in [
                    "Time runs left to right; every worker, lock-store node and the protected \
                     resource has its own lane.",
                    "A worker's outlined bar is when it believes it holds the lock; the store's \
                     solid bar is when the store says it does. Where they disagree, trouble \
                     starts.",
                    "Marks on the resource lane are writes: accepted, refused, or the one that \
                     corrupted the data. The verdict on the right names everything that went \
                     wrong.",
                ] {
                    ui.horizontal_wrapped(|ui| {
                        ui.label("•");
                        ui.label(line);
                    });
                }
                ui.add_space(24.0);
                ui.horizontal(|ui| {
                    let begin = egui::Button::new(RichText::new("Begin").size(20.0).strong())
                        .min_size(egui::vec2(140.0, 44.0));
                    if ui.add(begin).clicked() {
                        go = Some(Place::Step(0));
                    }
                    if let Some(n) = resume_at(progress) {
                        ui.add_space(12.0);
                        if ui
                            .button(RichText::new(format!("Continue at step {}", n + 1)).size(16.0))
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

/// The first step not yet answered, if the learner has answered any.
fn resume_at(progress: &Progress) -> Option<usize> {
    if progress.steps.iter().all(|s| s.chosen.is_empty()) {
        return None;
    }
    progress.steps.iter().position(|s| !s.answered())
}

/// The recap: the ladder of fixes, what each buys, and the learner's calls. Returns the page
/// to go to, if the learner asked for one.
pub fn recap(ui: &mut Ui, progress: &mut Progress) -> Option<Place> {
    let mut go = None;
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            column(ui, |ui| {
                ui.add_space(24.0);
                ui.label(
                    RichText::new("The lock you built")
                        .heading()
                        .size(32.0)
                        .strong(),
                );
                ui.label(
                    RichText::new(
                        "Each rung fixes what the one before left open. What each one buys:",
                    )
                    .size(16.0),
                );
                ui.add_space(10.0);
                for (i, (fix, buys)) in RECAP.iter().enumerate() {
                    rung(ui, i, fix, buys);
                    ui.add_space(6.0);
                }
                ui.add_space(18.0);
                ui.label(RichText::new("Your calls").heading().strong());
                ui.add_space(4.0);
                go = calls(ui, progress);
                ui.add_space(18.0);
                ui.horizontal_wrapped(|ui| {
                    ui.label(
                        "Now take it apart: edit the scenarios, remove fencing, kill the store.",
                    );
                    if ui
                        .button(RichText::new("Open the sandbox →").strong())
                        .clicked()
                    {
                        go = Some(Place::Sandbox);
                    }
                });
                ui.add_space(10.0);
                if ui
                    .button("Start the course over")
                    .on_hover_text("Forget every choice made so far (the theme stays)")
                    .clicked()
                {
                    progress.steps = vec![StepProgress::default(); STEPS.len()];
                    go = Some(Place::Intro);
                }
                ui.add_space(24.0);
            });
        });
    });
    go
}

/// One rung of the ladder, numbered.
fn rung(ui: &mut Ui, i: usize, fix: &str, buys: &str) {
    egui::Frame::new()
        .fill(ui.visuals().faint_bg_color)
        .corner_radius(CornerRadius::same(6))
        .inner_margin(10)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format!("{}", i + 1))
                        .size(22.0)
                        .strong()
                        .color(ui.visuals().hyperlink_color),
                );
                ui.add_space(8.0);
                ui.vertical(|ui| {
                    ui.label(RichText::new(fix).strong().size(16.0));
                    ui.label(buys);
                });
            });
        });
}

/// A row per step: its title, the learner's first call and how it went, and a way back.
fn calls(ui: &mut Ui, progress: &Progress) -> Option<Place> {
    let mut go = None;
    egui::Grid::new("calls")
        .num_columns(3)
        .spacing([16.0, 8.0])
        .striped(true)
        .show(ui, |ui| {
            for (n, step) in STEPS.iter().enumerate() {
                ui.label(RichText::new(format!("{}. {}", n + 1, step.title)).strong());
                let (text, color) = match progress.first_call(n) {
                    Some((_, true)) => ("right first time".to_string(), Some(style::SAFE)),
                    Some((first, false)) => {
                        let found = progress.steps[n]
                            .judged
                            .iter()
                            .any(|&i| step.options[i].right);
                        let then = if found {
                            ", then found the right one"
                        } else {
                            ""
                        };
                        (
                            format!("first call was option {}, a wrong one{then}", first + 1),
                            Some(style::ANOMALY),
                        )
                    }
                    None => ("not answered yet".to_string(), None),
                };
                let mut text = RichText::new(text);
                if let Some(color) = color {
                    text = text.color(color);
                }
                ui.label(text);
                if ui.button(format!("Go to step {}", n + 1)).clicked() {
                    go = Some(Place::Step(n));
                }
                ui.end_row();
            }
        });
    go
}

/// Centres `add` in a column no wider than [`TEXT_WIDTH`].
fn column(ui: &mut Ui, add: impl FnOnce(&mut Ui)) {
    let width = ui.available_width().min(TEXT_WIDTH);
    let margin = (ui.available_width() - width) / 2.0;
    ui.horizontal(|ui| {
        ui.add_space(margin);
        ui.vertical(|ui| {
            ui.set_width(width);
            add(ui);
        });
    });
}
