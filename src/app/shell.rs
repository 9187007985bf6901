//! The frame around every page: the top bar (course navigation, the tools, theme,
//! presenter mode, help) and the help window.

use eframe::egui::{self, Id, Rect, RichText, Ui};

use super::keys;
use super::style;
use crate::course::STEPS;
use crate::course::progress::{Place, Progress};

/// The bar along the top. `help` opens the help window. Returns each item's name and where
/// it was drawn (points), so that tests can check that none is drawn over another.
///
/// The items wrap onto more rows on a narrow window; the theme, presenter and help buttons
/// sit at the right end of the last row, or of a row of their own when they do not fit
/// there (on a window too narrow even for that, they wrap like the rest).
///
/// A step's number turns green or amber once the learner's first call on it is known, but in
/// presenter mode only after `revealed(n)`: the class must not read the answer off the bar.
pub fn top_bar(
    ui: &mut Ui,
    progress: &mut Progress,
    help: &mut bool,
    revealed: impl Fn(usize) -> bool,
) -> Vec<(String, Rect)> {
    let presenter = progress.presenter;
    let told = |n: usize| !presenter || revealed(n);
    let mut items = Vec::new();
    // On a phone, tighter spacing keeps the course's pages on one row, and separators would
    // only start rows.
    let narrow = ui.available_width() < NARROW;
    ui.horizontal_wrapped(|ui| {
        if narrow {
            ui.spacing_mut().item_spacing.x = 3.0;
        }
        let separator = |ui: &mut Ui| {
            if !narrow {
                ui.separator();
            }
        };
        let name = ui.label(RichText::new("locksim").strong().size(18.0));
        items.push(("locksim".to_string(), name.rect));
        separator(ui);
        for place in Place::course() {
            let (text, hover) = match place {
                Place::Intro => ("Intro".to_string(), "What this course is".to_string()),
                Place::Step(n) => (
                    STEPS[n].number.to_string(),
                    format!(
                        "Step {}: {}{}",
                        STEPS[n].number,
                        STEPS[n].title,
                        if told(n) { call_note(progress, n) } else { "" }
                    ),
                ),
                _ => (
                    "Recap".to_string(),
                    "The ladder of fixes and your calls".to_string(),
                ),
            };
            let mut rich = RichText::new(&text);
            if let Place::Step(n) = place
                && told(n)
                && let Some((_, right)) = progress.first_call(n)
            {
                // Steps already answered show how: green right first time, amber not.
                rich = rich.color(if right { style::SAFE } else { style::ANOMALY });
            }
            let selected = progress.place == place;
            let response = ui.selectable_label(selected, rich).on_hover_text(hover);
            if response.clicked() {
                progress.place = place;
            }
            items.push((text, response.rect));
        }
        separator(ui);
        for (place, text, hover) in [
            (Place::Sandbox, "Sandbox", "Edit any scenario and run it"),
            (
                Place::Library,
                "Library",
                "Every scenario that ships with locksim",
            ),
            (
                Place::Challenges,
                "Challenges",
                "Break a design with a budget of faults",
            ),
            (
                Place::Glossary,
                "Glossary",
                "Every term the course uses, defined",
            ),
        ] {
            let response = ui
                .selectable_label(progress.place == place, text)
                .on_hover_text(hover);
            if response.clicked() {
                progress.place = place;
            }
            items.push((text.to_string(), response.rect));
        }
        // Right to left: help, presenter, theme.
        let buttons = [" ? ", "Presenter", "Dark"];
        let spacing = ui.spacing().item_spacing.x;
        let needed: f32 = buttons
            .iter()
            .map(|text| button_width(ui, text) + spacing)
            .sum();
        if ui.available_size_before_wrap().x < needed + spacing && ui.max_rect().width() >= needed {
            ui.end_row();
        }
        if ui.available_size_before_wrap().x >= needed + spacing {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                settings(ui, progress, help, &mut items);
            });
        } else {
            // In reading order, as they wrap.
            dark_toggle(ui, progress, &mut items);
            presenter_toggle(ui, progress, &mut items);
            help_button(ui, help, &mut items);
        }
    });
    items
}

/// Below this width (points) the top bar packs its items tighter.
const NARROW: f32 = 600.0;

/// The theme, presenter and help buttons, laid out right to left.
fn settings(
    ui: &mut Ui,
    progress: &mut Progress,
    help: &mut bool,
    items: &mut Vec<(String, Rect)>,
) {
    help_button(ui, help, items);
    presenter_toggle(ui, progress, items);
    dark_toggle(ui, progress, items);
}

fn help_button(ui: &mut Ui, help: &mut bool, items: &mut Vec<(String, Rect)>) {
    let response = ui.button(" ? ").on_hover_text("Keyboard shortcuts (F1)");
    if response.clicked() {
        *help = true;
    }
    items.push(("?".to_string(), response.rect));
}

fn presenter_toggle(ui: &mut Ui, progress: &mut Progress, items: &mut Vec<(String, Rect)>) {
    let response = ui
        .toggle_value(&mut progress.presenter, "Presenter")
        .on_hover_text("Large type for a projector; answers stay hidden until you reveal them");
    items.push(("Presenter".to_string(), response.rect));
}

fn dark_toggle(ui: &mut Ui, progress: &mut Progress, items: &mut Vec<(String, Rect)>) {
    let response = ui
        .toggle_value(&mut progress.dark, "Dark")
        .on_hover_text("Dark or light theme");
    items.push(("Dark".to_string(), response.rect));
}

/// How wide a button with `text` is drawn, points.
fn button_width(ui: &Ui, text: &str) -> f32 {
    let galley = egui::WidgetText::from(text).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Button,
    );
    galley.size().x + 2.0 * ui.spacing().button_padding.x
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
            "Ctrl + scroll (or pinch) to zoom, drag to pan, double-click to see the whole \
             run; + and - zoom too. Click or drag \
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
