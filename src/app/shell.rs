//! The frame around every page: the top bar (course navigation, the tools, theme,
//! presenter mode, help) and the help window.

use eframe::egui::{self, Id, RichText, Ui};

use super::keys;
use super::progress::{Place, Progress};
use super::style;
use crate::course::STEPS;

/// The bar along the top. `help` opens the help window.
pub fn top_bar(ui: &mut Ui, progress: &mut Progress, help: &mut bool) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("locksim").strong().size(18.0));
        ui.separator();
        for place in Place::course() {
            let (text, hover) = match place {
                Place::Intro => ("Intro".to_string(), "What this course is".to_string()),
                Place::Step(n) => (
                    (n + 1).to_string(),
                    format!(
                        "Step {}: {}{}",
                        n + 1,
                        STEPS[n].title,
                        call_note(progress, n)
                    ),
                ),
                _ => (
                    "Recap".to_string(),
                    "The ladder of fixes and your calls".to_string(),
                ),
            };
            let mut text = RichText::new(text);
            if let Place::Step(n) = place
                && let Some((_, right)) = progress.first_call(n)
            {
                // Steps already answered show how: green right first time, amber not.
                text = text.color(if right { style::SAFE } else { style::ANOMALY });
            }
            let selected = progress.place == place;
            if ui
                .selectable_label(selected, text)
                .on_hover_text(hover)
                .clicked()
            {
                progress.place = place;
            }
        }
        ui.separator();
        for (place, text, hover) in [
            (Place::Sandbox, "Sandbox", "Edit any scenario and run it"),
            (
                Place::Library,
                "Library",
                "Every scenario that ships with locksim",
            ),
        ] {
            if ui
                .selectable_label(progress.place == place, text)
                .on_hover_text(hover)
                .clicked()
            {
                progress.place = place;
            }
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .button(" ? ")
                .on_hover_text("Keyboard shortcuts (F1)")
                .clicked()
            {
                *help = true;
            }
            ui.toggle_value(&mut progress.presenter, "Presenter")
                .on_hover_text(
                    "Large type for a projector; answers stay hidden until you reveal them",
                );
            ui.toggle_value(&mut progress.dark, "Dark")
                .on_hover_text("Dark or light theme");
        });
    });
}

/// ": right first time" and the like, for a step's hover text.
fn call_note(progress: &Progress, n: usize) -> &'static str {
    match progress.first_call(n) {
        Some((_, true)) => " (right first time)",
        Some((_, false)) => " (first call was wrong)",
        None => "",
    }
}

/// The help window, while `open`; Escape, a click outside or Close shuts it.
pub fn help_window(ctx: &egui::Context, open: &mut bool) {
    if !*open {
        return;
    }
    let modal = egui::Modal::new(Id::unique("help")).show(ctx, |ui| {
        ui.set_width(440.0);
        ui.heading("Keyboard shortcuts");
        ui.add_space(6.0);
        egui::Grid::new("shortcuts")
            .num_columns(2)
            .spacing([24.0, 6.0])
            .show(ui, |ui| {
                for (key, what) in keys::HELP {
                    ui.label(RichText::new(*key).monospace().strong());
                    ui.label(*what);
                    ui.end_row();
                }
            });
        ui.add_space(10.0);
        ui.label(RichText::new("On the timeline").strong());
        ui.label(
            "Scroll to zoom, drag to pan, double-click to see the whole run. Click or drag \
             on the time axis to move the playhead; click a red triangle or a violation in \
             the verdict to jump to it.",
        );
        ui.add_space(10.0);
        ui.label(
            RichText::new("Shortcuts do nothing while you are typing in a text field.")
                .small()
                .weak(),
        );
        ui.add_space(6.0);
        ui.button("Close").clicked()
    });
    if modal.inner || modal.should_close() {
        *open = false;
    }
}
