//! The playback bar: rewind, step, play / pause, speed, scrub.
//!
//! The icons are painted, not font glyphs: egui's default fonts have no media symbols, and
//! the emoji fonts that do would add ≈ 700 kB to the web build.

use eframe::egui::{self, Color32, Pos2, Rect, RichText, Sense, Shape, Stroke, Ui, pos2, vec2};

use crate::text::fmt_ms;
use crate::view::playback::{MAX_SPEED, MIN_SPEED, Playback};

#[derive(Clone, Copy)]
enum Icon {
    ToStart,
    StepBack,
    Play,
    Pause,
    StepForward,
}

/// Draws the bar under the timeline. `moments` are where the step buttons stop; `preview`
/// is the "show what is ahead" switch; `transcript`, if given, the switch of the run's
/// transcript.
pub fn show(
    ui: &mut Ui,
    playback: &mut Playback,
    moments: &[u64],
    until_ms: u64,
    preview: &mut bool,
    transcript: Option<&mut bool>,
) {
    ui.add_space(6.0);
    // On a phone the bar packs tighter: the play button without its word, the time beside
    // the buttons, a shorter speed track. Everything wraps rather than overlap.
    let narrow = ui.available_width() < NARROW;
    ui.horizontal_wrapped(|ui| {
        if icon_button(ui, Icon::ToStart, None)
            .on_hover_text("Back to the start (Home)")
            .clicked()
        {
            playback.seek(0.0);
        }
        if icon_button(ui, Icon::StepBack, None)
            .on_hover_text("Previous moment (←)")
            .clicked()
        {
            playback.step_back(moments);
        }
        let (icon, text) = if playback.is_playing() {
            (Icon::Pause, "Pause")
        } else {
            (Icon::Play, "Play")
        };
        if icon_button(ui, icon, (!narrow).then_some(text))
            .on_hover_text(format!("{text} (Space)"))
            .clicked()
        {
            playback.toggle();
        }
        if icon_button(ui, Icon::StepForward, None)
            .on_hover_text("Next moment (→)")
            .clicked()
        {
            playback.step_forward(moments);
        }
        let track = if narrow { 100.0 } else { 150.0 };
        if narrow {
            time(ui, playback.now_ms(), until_ms);
            ui.end_row();
        } else if ui.available_size_before_wrap().x < track + SPEED_EXTRA + 16.0 {
            // The speed control is one unit, label, track and value: it goes to the next
            // row whole when the rest of this one is too short for it.
            ui.end_row();
        } else {
            ui.add_space(16.0);
        }
        speed_control(ui, playback, track);
        ui.add_space(16.0);
        let ahead = if narrow {
            "show ahead"
        } else {
            "show what is ahead, dimmed"
        };
        ui.checkbox(preview, ahead);
        if let Some(transcript) = transcript {
            ui.checkbox(transcript, "transcript").on_hover_text(
                "The run as a list of sentences, in step with the playhead; click one to go \
                 to its moment",
            );
        }
        if !narrow {
            time(ui, playback.now_ms(), until_ms);
        }
    });
    ui.add_space(4.0);
    let mut now = playback.now_ms();
    ui.spacing_mut().slider_width = (ui.available_width() - 8.0).max(40.0);
    let slider = egui::Slider::new(&mut now, 0.0..=playback.end_ms()).show_value(false);
    let response = ui.add(slider);
    // Named for screen readers (and UI tests): the slider shows no text of its own.
    response.widget_info(|| egui::WidgetInfo::slider(true, now, "playhead"));
    if response.changed() {
        playback.seek(now);
    }
    ui.add_space(6.0);
}

/// Below this width (points) the bar packs tighter.
const NARROW: f32 = 600.0;
/// The speed control's width besides its track: its label and value, points.
const SPEED_EXTRA: f32 = 110.0;

/// "now / end of the run", at the right end of the row when it fits there, else on the
/// next row.
fn time(ui: &mut Ui, now_ms: f64, until_ms: u64) {
    let text = RichText::new(format!(
        "{} / {}",
        fmt_ms(now_ms.round() as u64),
        fmt_ms(until_ms)
    ))
    .monospace()
    .size(14.0);
    let width = super::layout::one_line_width(ui, text.clone(), egui::TextStyle::Body);
    let label = egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend);
    if ui.available_size_before_wrap().x >= width + ui.spacing().item_spacing.x {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.add(label);
        });
    } else {
        ui.end_row();
        ui.add(label);
    }
}

/// A slider on a log scale from [`MIN_SPEED`] to [`MAX_SPEED`]: each step of its track
/// multiplies the speed by the same factor, so 0.1×–1× gets as much room as 10×–100×. The
/// number beside it can be dragged or typed into.
fn speed_control(ui: &mut Ui, playback: &mut Playback, track: f32) {
    ui.label("speed");
    let mut speed = playback.speed();
    ui.spacing_mut().slider_width = track;
    let slider = egui::Slider::new(&mut speed, MIN_SPEED..=MAX_SPEED)
        .logarithmic(true)
        .custom_formatter(|v, _| speed_text(v))
        .custom_parser(|s| s.trim().trim_end_matches(['×', 'x']).trim().parse().ok());
    // Named by the word beside it as a name of its own, not by linking that label: the slider
    // and its number share the one name, which a linked label would give only one of them.
    ui.add(slider)
        .accessible_name("speed")
        .on_hover_text("Simulated time per real time, 0.1× to 100× (log scale)");
    if speed != playback.speed() {
        playback.set_speed(speed);
    }
}

/// `0.25×`, `2×`, `35×`: two significant digits, which is all a speed needs.
fn speed_text(speed: f64) -> String {
    let rounded = if speed < 1.0 {
        (speed * 100.0).round() / 100.0
    } else if speed < 10.0 {
        (speed * 10.0).round() / 10.0
    } else {
        speed.round()
    };
    format!("{rounded}×")
}

/// A button with a painted icon and, optionally, a word after it.
fn icon_button(ui: &mut Ui, icon: Icon, text: Option<&str>) -> egui::Response {
    let font = egui::FontId::proportional(15.0);
    let galley = text.map(|t| {
        ui.painter()
            .layout_no_wrap(t.to_string(), font, Color32::PLACEHOLDER)
    });
    let text_w = galley.as_ref().map_or(0.0, |g| g.size().x + 8.0);
    let (rect, response) = ui.allocate_exact_size(vec2(36.0 + text_w, 30.0), Sense::click());
    let visuals = ui.style().interact(&response);
    let painter = ui.painter();
    painter.rect(
        rect,
        visuals.corner_radius,
        visuals.weak_bg_fill,
        visuals.bg_stroke,
        egui::StrokeKind::Inside,
    );
    let color = visuals.text_color();
    paint_icon(
        painter,
        pos2(rect.left() + 18.0, rect.center().y),
        icon,
        color,
    );
    if let Some(galley) = galley {
        let pos = pos2(rect.left() + 34.0, rect.center().y - galley.size().y / 2.0);
        painter.galley(pos, galley, color);
    }
    response
}

/// Paints `icon` in a 14 px box centred on `c`.
fn paint_icon(painter: &egui::Painter, c: Pos2, icon: Icon, color: Color32) {
    let triangle = |tip_x: f32, base_x: f32, half_h: f32| {
        Shape::convex_polygon(
            vec![
                pos2(base_x, c.y - half_h),
                pos2(tip_x, c.y),
                pos2(base_x, c.y + half_h),
            ],
            color,
            Stroke::NONE,
        )
    };
    let bar = |x: f32, w: f32| Rect::from_min_size(pos2(x, c.y - 6.0), vec2(w, 12.0));
    match icon {
        Icon::Play => {
            painter.add(triangle(c.x + 6.0, c.x - 5.0, 6.5));
        }
        Icon::Pause => {
            painter.rect_filled(bar(c.x - 5.0, 3.5), 0.0, color);
            painter.rect_filled(bar(c.x + 1.5, 3.5), 0.0, color);
        }
        Icon::StepForward => {
            painter.add(triangle(c.x + 3.0, c.x - 6.0, 6.0));
            painter.rect_filled(bar(c.x + 3.5, 2.5), 0.0, color);
        }
        Icon::StepBack => {
            painter.add(triangle(c.x - 3.0, c.x + 6.0, 6.0));
            painter.rect_filled(bar(c.x - 6.0, 2.5), 0.0, color);
        }
        Icon::ToStart => {
            painter.rect_filled(bar(c.x - 7.0, 2.5), 0.0, color);
            painter.add(triangle(c.x - 4.0, c.x + 1.5, 6.0));
            painter.add(triangle(c.x + 1.5, c.x + 7.0, 6.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_read_with_two_significant_digits() {
        assert_eq!(speed_text(0.1), "0.1×");
        assert_eq!(speed_text(0.2512), "0.25×");
        assert_eq!(speed_text(2.0), "2×");
        assert_eq!(speed_text(3.1623), "3.2×");
        assert_eq!(speed_text(35.48), "35×");
        assert_eq!(speed_text(100.0), "100×");
    }
}
