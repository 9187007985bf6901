//! The frame around every page: the top bar (course navigation, the tools, theme,
//! presenter mode, help) and the help window.

use eframe::egui::{self, Id, Rect, RichText, Ui};

use super::keys;
use super::layout;
use super::style;
use crate::course::STEPS;
use crate::course::progress::{Place, Progress};

/// The bar along the top. `help` opens the help window. Returns each item's name and where
/// it was drawn (points), so that tests can check that none is drawn over another.
///
/// Where every place of the course does not fit one row with the rest, the course's places
/// fold into one picker. What still does not fit (a phone) wraps onto more rows; the theme,
/// presenter and help buttons sit at the right end of the last row, or of a row of their own
/// when they do not fit there (on a window too narrow even for that, they wrap like the rest).
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
    // The room reads the lesson, not the bar: in presenter mode the bar keeps the window's
    // ordinary type, so that it stays one row on a projector.
    let type_scale = if presenter {
        1.0 / super::theme::PRESENTER_ZOOM
    } else {
        1.0
    };
    for font in ui.style_mut().text_styles.values_mut() {
        font.size *= type_scale;
    }
    let mut items = Vec::new();
    let mut folded = false;
    // On a phone, tighter spacing keeps the course's pages on one row, and separators would
    // only start rows.
    let narrow = ui.available_width() < NARROW;
    let width = ui.available_width();
    ui.horizontal_wrapped(|ui| {
        if narrow {
            ui.spacing_mut().item_spacing.x = 3.0;
        }
        let separator = |ui: &mut Ui| {
            if !narrow {
                ui.separator();
            }
        };
        let name = ui.label(RichText::new("locksim").strong().size(18.0 * type_scale));
        items.push(("locksim".to_string(), name.rect));
        separator(ui);
        // A projector's or a tablet's window is too narrow for every step: the steps fold
        // into one picker, so the bar stays one row above the lesson. The estimate cannot
        // know every font's widths: a bar that wrapped anyway folds from then on at its width.
        let fold_below = ui
            .ctx()
            .data(|d| d.get_temp::<f32>(fold_id()))
            .unwrap_or(0.0);
        folded = width < fold_below || !fits_one_row(ui);
        if folded {
            step_picker(ui, progress, &mut items);
        } else {
            course_places(ui, progress, &told, &mut items);
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
    let row = items[0].1.center().y;
    if !folded
        && items
            .iter()
            .any(|(_, r)| !(r.top()..=r.bottom()).contains(&row))
    {
        ui.ctx().data_mut(|d| d.insert_temp(fold_id(), width + 1.0));
        ui.ctx()
            .request_discard("the top bar wrapped: its steps fold");
    }
    items
}

/// Where the window's width below which the top bar's steps fold is kept, once a bar wrapped.
fn fold_id() -> Id {
    Id::unique("locksim.top_bar.fold_below")
}

/// Every place of the course as its own button: Intro, each step's number, Recap. A step
/// already answered shows how (green right first time, amber not) once `told`.
fn course_places(
    ui: &mut Ui,
    progress: &mut Progress,
    told: &dyn Fn(usize) -> bool,
    items: &mut Vec<(String, Rect)>,
) {
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
}

/// The course's places as one picker naming where the learner is.
fn step_picker(ui: &mut Ui, progress: &mut Progress, items: &mut Vec<(String, Rect)>) {
    let name = |place: Place| match place {
        Place::Intro => "Intro".to_string(),
        Place::Step(n) => format!("Step {}: {}", STEPS[n].number, STEPS[n].title),
        _ => "Recap".to_string(),
    };
    // Short, so the bar keeps one row: the page under it gives the step's title.
    let here = match progress.place {
        Place::Step(n) => format!("Step {}", STEPS[n].number),
        place if Place::course().any(|p| p == place) => name(place),
        _ => "Course".to_string(),
    };
    let response = egui::ComboBox::from_id_salt("locksim.course.place")
        .selected_text(here)
        .show_ui(ui, |ui| {
            for place in Place::course() {
                ui.selectable_value(&mut progress.place, place, name(place));
            }
        })
        .response;
    // Named for screen readers: what shows is only where the learner is.
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, "Course page"));
    items.push(("course".to_string(), response.rect));
}

/// Whether the whole bar (the course's every place, the tools and the settings) fits on one
/// row of what is left of `ui`'s.
fn fits_one_row(ui: &Ui) -> bool {
    let spacing = ui.spacing().item_spacing.x;
    let label =
        |text: &str| layout::one_line_width(ui, text, egui::TextStyle::Button) + 2.0 * spacing;
    let steps: f32 = STEPS.iter().map(|s| label(s.number)).sum();
    let rest: f32 = [
        "Intro",
        "Recap",
        "Sandbox",
        "Library",
        "Challenges",
        "Glossary",
    ]
    .iter()
    .map(|t| label(t))
    .sum();
    let buttons: f32 = [" ? ", "Presenter", "Dark"]
        .iter()
        .map(|t| button_width(ui, t) + spacing)
        .sum();
    steps + rest + buttons + 4.0 * spacing <= ui.available_size_before_wrap().x
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
    layout::one_line_width(ui, text, egui::TextStyle::Button) + 2.0 * ui.spacing().button_padding.x
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
///
/// As wide as [`HELP_WIDTH`] where the window has room, else the window's width less a
/// margin: its text wraps to that width, and what does not fit the window's height scrolls
/// between the title and Close, so that both stay on screen.
pub fn help_window(ctx: &egui::Context, open: &mut bool) {
    if !*open {
        return;
    }
    let screen = ctx.content_rect().size();
    // The modal's frame is egui's popup frame.
    let margins = egui::Frame::popup(&ctx.global_style()).total_margin().sum()
        + egui::Vec2::splat(2.0 * HELP_GAP);
    let width = layout::fit(screen.x - margins.x, 0.0, HELP_WIDTH);
    let modal = egui::Modal::new(Id::unique("help")).show(ctx, |ui| {
        ui.set_width(width);
        let heading = ui.heading("Keyboard shortcuts").rect.height();
        ui.add_space(6.0);
        // Room for what is around the list: the heading, the spaces, Close.
        let spacing = ui.spacing().item_spacing.y;
        let close = (ui.text_style_height(&egui::TextStyle::Button)
            + 2.0 * ui.spacing().button_padding.y)
            .max(ui.spacing().interact_size.y);
        let around = heading + close + 12.0 + 4.0 * spacing;
        egui::ScrollArea::vertical()
            .max_height((screen.y - margins.y - around).max(HELP_MIN_HEIGHT))
            .auto_shrink([false, true])
            .show(ui, shortcuts);
        ui.add_space(6.0);
        ui.button("Close").clicked()
    });
    if modal.inner || modal.should_close() {
        *open = false;
    }
}

/// The help window's width where the window has room, points.
const HELP_WIDTH: f32 = 440.0;
/// Space kept between the help window and the window's edges, points.
const HELP_GAP: f32 = 8.0;
/// The shortest the help window's list gets on a very short window, points: it scrolls.
const HELP_MIN_HEIGHT: f32 = 60.0;

/// The help window's list: each key beside what it does, the keys in a column at most
/// [`KEY_SHARE`] of the width (a long key wraps within it), then the timeline's gestures.
fn shortcuts(ui: &mut Ui) {
    let width = ui.available_width();
    let spacing = 12.0;
    let key = |text: &str| RichText::new(text).monospace().strong();
    let widest = keys::HELP
        .iter()
        .map(|(k, _)| layout::one_line_width(ui, key(k), egui::TextStyle::Body))
        .fold(0.0, f32::max);
    let key_width = widest.min(width * KEY_SHARE).ceil();
    let what_width = (width - key_width - spacing).max(0.0);
    for (k, what) in keys::HELP {
        ui.horizontal_top(|ui| {
            ui.spacing_mut().item_spacing.x = spacing;
            wrapped(ui, key_width, key(k));
            wrapped(ui, what_width, RichText::new(*what));
        });
        ui.add_space(2.0);
    }
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
}

/// The widest share of the help window's width its column of keys takes.
const KEY_SHARE: f32 = 0.4;

/// `text` in a column `width` points wide, wrapped to it.
fn wrapped(ui: &mut Ui, width: f32, text: RichText) {
    ui.allocate_ui_with_layout(
        egui::vec2(width, 0.0),
        egui::Layout::top_down(egui::Align::Min),
        |ui| {
            ui.set_width(width);
            ui.add(egui::Label::new(text).wrap());
        },
    );
}
