//! The timeline widget: one lane per node, a time axis, messages as arrows, the playhead,
//! hover details.
//!
//! It paints a [`Lanes`] (the view model, [`crate::view::timeline`]) computed once per trace. Each frame finds what is in view by binary
//! search over the lanes' time indexes and sums up what is too dense to see one by one (spans
//! under a pixel, marks closer than their symbols, more arrows than fit), so a frame costs
//! about the same for a run of a hundred events as for one of a hundred thousand.

pub(super) mod edit;
mod pen;

use eframe::egui::{
    self, Align2, Color32, FontId, Id, Key, Painter, Rect, Sense, Stroke, Ui, pos2, vec2,
};

// Public with the timeline so that a caller outside the app (benches/frame.rs, the UI tests)
// can build one and read what its legend says.
use self::pen::EguiPen;
use super::{layout, style};
use crate::checker::Verdict;
use crate::picture::sizes::{AXIS, GUTTER, MIN_PLOT, RIGHT_PAD, gutter, lane_floor};
use crate::picture::{self, Area, Frame, Layer, Options, Target, Theme, legend};
use crate::text::fmt_ms;
use crate::trace::Trace;
use crate::view::timeline::Swatch;
pub use crate::view::timeline::{ATTEMPT_NOTE, ATTEMPT_NOTE_UNFENCED, Lanes, attempt_note};

/// Narrowest window of time one can zoom into, ms.
const MIN_VIEW_MS: f64 = 5.0;
/// Zoom per press of `+` or `-`.
const ZOOM_PER_KEY: f64 = 1.5;

/// The window of simulated time in view. Kept by the app between frames (zoom and pan).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    start_ms: f64,
    end_ms: f64,
}

impl View {
    /// The whole run.
    pub fn fit(until_ms: u64) -> Self {
        View {
            start_ms: 0.0,
            end_ms: until_ms.max(1) as f64,
        }
    }

    /// Where `lanes` lanes of equal height go in `rect` (the space [`Timeline::show`]
    /// allocated), points, with this window of time across the plot.
    fn frame(&self, rect: Rect, lanes: usize) -> Frame {
        let plot = Area::new(
            rect.left() + gutter(rect.width()),
            rect.top() + AXIS,
            rect.right() - RIGHT_PAD,
            rect.bottom(),
        );
        Frame {
            left: rect.left(),
            plot,
            axis: Area::new(plot.x0, rect.top(), plot.x1, plot.y0),
            lane_h: plot.height() / lanes.max(1) as f32,
            start_ms: self.start_ms,
            end_ms: self.end_ms,
            shown_until_ms: self.end_ms,
            narrow: gutter(rect.width()) < GUTTER,
        }
    }

    fn len(&self) -> f64 {
        self.end_ms - self.start_ms
    }

    fn ms(&self, x: f32, plot: Rect) -> f64 {
        self.start_ms + f64::from((x - plot.left()) / plot.width()) * self.len()
    }

    /// Zooms by `factor` (> 1 zooms in) keeping `around_ms` where it is on screen.
    fn zoom(&mut self, around_ms: f64, factor: f64, until_ms: f64) {
        let len = (self.len() / factor).clamp(MIN_VIEW_MS.min(until_ms), until_ms);
        let frac = (around_ms - self.start_ms) / self.len();
        self.start_ms = around_ms - frac * len;
        self.end_ms = self.start_ms + len;
        self.pan(0.0, until_ms);
    }

    /// Moves by `by_ms`, staying inside the run.
    fn pan(&mut self, by_ms: f64, until_ms: f64) {
        let len = self.len();
        self.start_ms = (self.start_ms + by_ms).clamp(0.0, (until_ms - len).max(0.0));
        self.end_ms = self.start_ms + len;
    }

    /// The window `from_ms..to_ms` of a run that ends at `until_ms`, kept inside the run and
    /// no narrower than the narrowest zoom.
    pub fn between(from_ms: f64, to_ms: f64, until_ms: u64) -> Self {
        let until = until_ms.max(1) as f64;
        let len = (to_ms - from_ms).clamp(MIN_VIEW_MS.min(until), until);
        let start_ms = from_ms.clamp(0.0, until - len);
        View {
            start_ms,
            end_ms: start_ms + len,
        }
    }

    /// Pans (keeping the zoom) so that `ms` is in view, centred, if it is out of view: the
    /// playhead moved by a click must not land off-screen.
    pub fn reveal(&mut self, ms: f64, until_ms: u64) {
        if ms > self.end_ms || ms < self.start_ms {
            let len = self.len();
            self.pan(ms - self.start_ms - 0.5 * len, until_ms as f64);
        }
    }

    /// Zooms in to `span_ms` around `ms`, or, if the view is already that narrow, pans so
    /// that `ms` is in view: marks a few hundred ms apart, drawn as one bar across a whole
    /// run, stand apart at a chosen moment.
    pub fn close_up(&mut self, ms: f64, span_ms: f64, until_ms: u64) {
        if self.len() > span_ms {
            *self = View::between(ms - span_ms / 2.0, ms + span_ms / 2.0, until_ms);
        } else {
            self.reveal(ms, until_ms);
        }
    }

    /// Scrolls so that `now_ms` stays in view while a zoomed-in run plays.
    pub fn follow(&mut self, now_ms: f64, until_ms: u64) {
        if now_ms > self.end_ms || now_ms < self.start_ms {
            let len = self.len();
            self.pan(now_ms - self.start_ms - 0.1 * len, until_ms as f64);
        }
    }
}

/// Where true time `ms` is drawn on a timeline that took `rect` (the space
/// [`Timeline::show`] allocated) with `view`, points; `None` when it is out of view. For
/// what a page draws over the lanes, such as the first difference between two runs.
pub fn x_of(rect: Rect, view: &View, ms: f64) -> Option<f32> {
    let frame = view.frame(rect, 1);
    (view.start_ms..=view.end_ms)
        .contains(&ms)
        .then(|| frame.x(ms))
}

/// What the user asked for by interacting with the timeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Move the playhead here (true ms).
    Seek(f64),
    /// Select violation number `i` of the verdict (and move the playhead to it).
    Select(usize),
}

/// One frame of the timeline.
pub struct Timeline<'a> {
    /// The run, for names in the hover text.
    pub trace: &'a Trace,
    /// What to draw, laid out once per trace.
    pub lanes: &'a Lanes,
    /// For the violation markers on the axis.
    pub verdict: &'a Verdict,
    /// The playhead, true ms.
    pub now_ms: f64,
    /// Show what lies right of the playhead, dimmed, instead of hiding it.
    pub preview: bool,
    /// The violation highlighted across the lanes.
    pub selected: Option<usize>,
}

fn text_scale_id() -> Id {
    Id::unique("locksim.timeline.text_scale")
}

/// How much larger than the picture's sizes the lanes' text is drawn (1: as the picture has
/// it). Presenter mode sets it for the back of a room; the lanes grow to hold it.
pub(super) fn text_scale(ctx: &egui::Context) -> f32 {
    ctx.data(|d| d.get_temp(text_scale_id())).unwrap_or(1.0)
}

/// Sets [`text_scale`] (clamped to 1–2).
pub fn set_text_scale(ctx: &egui::Context, scale: f32) {
    ctx.data_mut(|d| d.insert_temp(text_scale_id(), scale.clamp(1.0, 2.0)));
}

/// Where the "messages" switch keeps its state: in egui's memory rather than in [`View`], so
/// it holds across runs and views, and the legend can read it.
fn messages_id() -> Id {
    Id::unique("locksim.timeline.messages")
}

/// Whether the timeline draws messages (off until switched on: they are dense).
pub fn messages_shown(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp(messages_id())).unwrap_or(false)
}

/// Switches the drawing of messages on or off.
pub fn set_messages_shown(ctx: &egui::Context, on: bool) {
    ctx.data_mut(|d| d.insert_temp(messages_id(), on));
}

impl Timeline<'_> {
    /// Draws the timeline across the width `ui` has, at most `max_height` tall: lanes grow
    /// to fill it up to a comfortable height, and shrink (down to a floor) when there are many.
    pub fn show(&self, ui: &mut Ui, view: &mut View, max_height: f32) -> Option<Action> {
        self.show_labelled(ui, view, max_height).0
    }

    /// [`Self::show`], and where the picture put its labels on the lanes, points: what the
    /// fault-edit layer drawn over it keeps clear of.
    pub fn show_labelled(
        &self,
        ui: &mut Ui,
        view: &mut View,
        max_height: f32,
    ) -> (Option<Action>, Vec<Area>) {
        let lane_count = self.lanes.lanes.len().max(1);
        // Never shorter than the labels on the bars need: a page with less room scrolls.
        let rows = self.lanes.lanes.iter().map(|l| l.rows).max().unwrap_or(1);
        let scale = text_scale(ui.ctx());
        let floor = lane_floor(rows, scale);
        let lane_h = ((max_height - AXIS) / lane_count as f32).clamp(floor, floor.max(110.0));
        // Never narrower than the lane names and a plot to read: a narrower panel clips the
        // right edge rather than turning the plot inside out.
        let width = ui
            .available_width()
            .max(gutter(ui.available_width()) + RIGHT_PAD + MIN_PLOT);
        let size = vec2(width, AXIS + lane_h * lane_count as f32);
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        // Named by its lanes, in order: a screen reader says what the picture holds, and a
        // test finds where each lane is.
        response.widget_info(|| {
            let names: Vec<&str> = self.lanes.lanes.iter().map(|l| l.name.as_str()).collect();
            let name = format!("timeline: {}", names.join(", "));
            egui::WidgetInfo::labeled(egui::Role::Image, true, name)
        });
        let until = self.lanes.until_ms as f64;
        let placed = view.frame(rect, lane_count);
        let (plot, axis) = (pen::rect(placed.plot), pen::rect(placed.axis));

        let mut action = self.interact(ui, &response, view, plot, axis);
        let messages = messages_switch(ui, rect, placed.plot.x0 - placed.left);

        let mut frame = view.frame(rect, lane_count);
        frame.shown_until_ms = if self.preview { until } else { self.now_ms };
        // Larger text needs the short captions to stay inside the names' column.
        frame.narrow |= scale > 1.0;
        let painter = ui.painter_at(rect);
        let badge = playhead_badge(&painter, &frame, self.now_ms);
        // Content is clipped to the plot and the axis row (for the partition bands), and to
        // the playhead unless previewing: the future is simply not there yet. Marks are
        // clipped to the plot only: a mark is drawn whole once reached, so one right at the
        // playhead is not cut in half.
        let mut content = plot;
        content.set_top(axis.top());
        if !self.preview {
            content.set_right(layout::fit(frame.x(self.now_ms), plot.left(), plot.right()) + 1.0);
        }
        let clip = |layer| match layer {
            Layer::Content => content,
            Layer::Marks => plot,
            _ => rect,
        };
        let mut pen = EguiPen::new(&painter, clip, response.hover_pos(), scale);
        let options = Options {
            messages,
            selected: self.selected,
            keep_clear: badge.as_ref().map(|(r, _)| pen::area(r.expand(3.0))),
        };
        let theme = theme(ui);
        let labels = picture::draw(
            &mut pen,
            (&frame, &theme),
            self.lanes,
            self.verdict,
            &options,
        );
        super::drawn::note(
            ui.ctx(),
            (0..lane_count).map(|i| pen::rect(frame.lane(i))),
            labels.iter().map(|&a| pen::rect(a)),
        );

        if self.preview {
            let future = Rect::from_x_y_ranges(
                frame.x(self.now_ms).max(plot.left())..=plot.right(),
                plot.y_range(),
            );
            painter.rect_filled(future, 0.0, ui.visuals().panel_fill.gamma_multiply(0.7));
        }
        // The mouse hint needs the wide column; a phone has no wheel to scroll anyway.
        if !frame.narrow {
            painter.text(
                pos2(rect.left() + 10.0, axis.top() + 28.0),
                Align2::LEFT_TOP,
                "ctrl + scroll: zoom · drag: pan",
                FontId::proportional(10.0),
                ui.visuals().weak_text_color(),
            );
        }
        paint_playhead(&painter, &frame, self.now_ms, badge);

        if let Some(target) = pen.hovered() {
            if let Target::Violations { first, .. } = target
                && response.clicked()
            {
                action = Some(Action::Select(first));
            }
            let run = (self.trace, self.verdict, self.lanes);
            let text = target.details(run, frame.shown_until_ms as u64);
            response.on_hover_ui_at_pointer(|ui| {
                ui.set_max_width(360.0);
                ui.label(text);
            });
        }
        (action, labels)
    }

    /// Zoom (ctrl + scroll, pinch), pan (drag on the lanes, sideways scroll), fit
    /// (double-click), scrub (press or drag on the axis; a finger: tap, or drag sideways).
    fn interact(
        &self,
        ui: &Ui,
        response: &egui::Response,
        view: &mut View,
        plot: Rect,
        axis: Rect,
    ) -> Option<Action> {
        let until = self.lanes.until_ms as f64;
        if let Some(pos) = response.hover_pos() {
            // Ctrl (or Cmd) + wheel and a touchpad's pinch zoom, as in egui_plot's charts; a
            // plain wheel is left to the page, which scrolls when the lanes do not fit it.
            let zoom = ui.input(|i| i.zoom_delta());
            if zoom != 1.0 {
                view.zoom(view.ms(pos.x, plot), f64::from(zoom), until);
            }
            // A sideways scroll (touchpad, shift + wheel) pans; taken, so that a scroll area
            // around the timeline does not move sideways too.
            let sideways = ui.input_mut(|i| std::mem::take(&mut i.smooth_scroll_delta.x));
            if sideways != 0.0 {
                let ms_per_px = view.len() / f64::from(plot.width());
                view.pan(-f64::from(sideways) * ms_per_px, until);
            }
        }
        self.zoom_keys(ui, view);
        if response.double_clicked() {
            *view = View::fit(self.lanes.until_ms);
            return None;
        }
        let pressed_on_axis = ui
            .input(|i| i.pointer.press_origin())
            .is_some_and(|p| axis.contains(p));
        // A finger on the axis scrubs only once it moves sideways, and a tap seeks: a swipe
        // up or down that starts there scrolls the page as it would anywhere else.
        let (touch, moved) = ui.input(|i| {
            let moved = i.pointer.interact_pos().zip(i.pointer.press_origin());
            (
                i.any_touches(),
                moved.map_or(vec2(0.0, 0.0), |(at, from)| at - from),
            )
        });
        let upright = touch && moved.x.abs() <= moved.y.abs();
        if let Some(pos) = response.interact_pointer_pos() {
            // A quick click can press and release within one frame, leaving no press origin.
            let scrubbing = response.is_pointer_button_down_on() && pressed_on_axis && !upright;
            if scrubbing || (response.clicked() && axis.contains(pos)) {
                return Some(Action::Seek(view.ms(pos.x, plot)));
            }
        }
        if response.dragged() && pressed_on_axis && upright {
            ui.scroll_with_delta(vec2(0.0, response.drag_delta().y));
        } else if response.dragged() && !pressed_on_axis {
            let delta = response.drag_delta();
            let ms_per_px = view.len() / f64::from(plot.width());
            view.pan(-f64::from(delta.x) * ms_per_px, until);
            // The up-and-down part of a drag scrolls what the timeline is in, as a drag does
            // anywhere else: on a phone the page is one scrolling column and the lanes are a
            // good part of it, so a swipe across them must not get stuck.
            ui.scroll_with_delta(vec2(0.0, delta.y));
        }
        None
    }

    /// `+` and `-` zoom around the playhead (or the middle, if it is out of view); `0` fits
    /// the whole run. Skipped while a text field has the keyboard.
    fn zoom_keys(&self, ui: &Ui, view: &mut View) {
        if ui.ctx().text_edit_focused() {
            return;
        }
        let (zoom_in, zoom_out, fit) = ui.input(|i| {
            (
                i.key_pressed(Key::Plus) || i.key_pressed(Key::Equals),
                i.key_pressed(Key::Minus),
                i.key_pressed(Key::Num0),
            )
        });
        let until = self.lanes.until_ms as f64;
        let around = if (view.start_ms..=view.end_ms).contains(&self.now_ms) {
            self.now_ms
        } else {
            (view.start_ms + view.end_ms) / 2.0
        };
        if zoom_in {
            view.zoom(around, ZOOM_PER_KEY, until);
        }
        if zoom_out {
            view.zoom(around, 1.0 / ZOOM_PER_KEY, until);
        }
        if fit {
            *view = View::fit(self.lanes.until_ms);
        }
    }
}

/// The "messages" switch in the corner above the lane names; returns whether it is on.
fn messages_switch(ui: &mut Ui, timeline: Rect, gutter: f32) -> bool {
    let mut on = messages_shown(ui.ctx());
    let corner = Rect::from_min_size(timeline.min + vec2(8.0, 3.0), vec2(gutter - 16.0, 22.0));
    // A child Ui of its own, because `Ui::put` would move the parent's cursor back up here.
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(corner));
    let switch = child.checkbox(&mut on, "messages").on_hover_text(
        "Draw every message as an arrow from sender to receiver (a cross: lost). \
             Where they are too many, a haze shows how many.",
    );
    if switch.changed() {
        set_messages_shown(ui.ctx(), on);
    }
    on
}

/// The picture's theme for `ui`'s visuals.
fn theme(ui: &Ui) -> Theme {
    if ui.visuals().dark_mode {
        Theme::DARK
    } else {
        Theme::LIGHT
    }
}

fn paint_playhead(painter: &Painter, frame: &Frame, now_ms: f64, badge: Option<Badge>) {
    if now_ms < frame.start_ms || now_ms > frame.end_ms {
        return;
    }
    let x = frame.x(now_ms);
    let playhead = style::PLAYHEAD;
    painter.vline(
        x,
        frame.axis.y0 + 20.0..=frame.plot.y1,
        Stroke::new(2.0, playhead),
    );
    if let Some((label, galley)) = badge {
        painter.rect_filled(label, 3.0, playhead);
        painter.galley(label.min + vec2(5.0, 2.0), galley, Color32::WHITE);
    }
}

/// The playhead's time badge on the axis row: where it sits, and its text.
type Badge = (Rect, std::sync::Arc<egui::Galley>);

/// Where the playhead's time badge sits on the axis row, and its text; `None` when the
/// playhead is outside the view.
fn playhead_badge(painter: &Painter, frame: &Frame, now_ms: f64) -> Option<Badge> {
    if now_ms < frame.start_ms || now_ms > frame.end_ms {
        return None;
    }
    let text = fmt_ms(now_ms.round() as u64);
    let galley = painter.layout_no_wrap(text, FontId::proportional(12.0), Color32::WHITE);
    let size = galley.size() + vec2(10.0, 4.0);
    // Within the plot's width: over the lane names it would cover the "messages" switch.
    let left = layout::fit(
        frame.x(now_ms) - size.x / 2.0,
        frame.plot.x0 - 4.0,
        frame.plot.x1 - size.x,
    );
    Some((
        Rect::from_min_size(pos2(left, frame.axis.y0 + 2.0), size),
        galley,
    ))
}

/// A row of swatches explaining what the timeline shows up to `shown_until_ms`, drawn with
/// the timeline's own code. Later kinds join as they appear, so the legend gives nothing away.
pub fn legend(ui: &mut Ui, swatches: &[(Swatch, u64)], shown_until_ms: f64, fenced: bool) {
    let theme = theme(ui);
    let font = FontId::proportional(13.0);
    let text_color = ui.visuals().text_color();
    let messages = messages_shown(ui.ctx());
    ui.horizontal_wrapped(|ui| {
        let shown: Vec<Swatch> = swatches
            .iter()
            .filter(|(swatch, at)| {
                (messages || !swatch.is_message()) && *at as f64 <= shown_until_ms
            })
            .map(|&(swatch, _)| swatch)
            .collect();
        let grants = shown.iter().any(|s| s.is_grant());
        for swatch in shown {
            let text = swatch.text();
            let galley = ui
                .painter()
                .layout_no_wrap(text.to_string(), font.clone(), text_color);
            // One widget per entry, so a line never breaks between a swatch and its words.
            let size = vec2(34.0 + 6.0 + galley.size().x + 16.0, 18.0);
            let (entry, _) = ui.allocate_exact_size(size, Sense::hover());
            let rect = Rect::from_min_size(entry.min + vec2(0.0, 1.0), vec2(34.0, 16.0));
            let p = ui.painter();
            p.galley(
                pos2(rect.right() + 6.0, entry.center().y - galley.size().y / 2.0),
                galley,
                text_color,
            );
            let mut pen = EguiPen::new(p, |_| p.clip_rect(), None, 1.0);
            legend::draw_swatch(&mut pen, &theme, swatch, pen::area(rect));
        }
        if grants {
            // On a row of its own, as `legend_height` counts it: after the last entry it read
            // as one more entry, and its wrapped lines ran past the room kept for it.
            ui.end_row();
            ui.label(egui::RichText::new(attempt_note(fenced)).size(12.0).weak());
        }
    });
}

/// How tall the legend gets at `width` once every entry of `swatches` is shown, points: the
/// room a page keeps under the lanes so that neither the lanes jump nor the legend is cut
/// as it grows while the run plays.
pub fn legend_height(ui: &Ui, swatches: &[(Swatch, u64)], width: f32, fenced: bool) -> f32 {
    let font = FontId::proportional(13.0);
    let messages = messages_shown(ui.ctx());
    let spacing = ui.spacing().item_spacing;
    let (mut rows, mut x) = (0usize, f32::INFINITY);
    let mut grants = false;
    for &(swatch, _) in swatches {
        if !messages && swatch.is_message() {
            continue;
        }
        grants |= swatch.is_grant();
        let text = ui
            .painter()
            .layout_no_wrap(swatch.text().to_string(), font.clone(), Color32::WHITE)
            .size()
            .x;
        let entry = 34.0 + 6.0 + text + 16.0;
        if x + entry > width {
            rows += 1;
            x = 0.0;
        }
        x += entry + spacing.x;
    }
    let mut height = rows as f32 * (18.0 + spacing.y);
    if grants {
        let note = ui.painter().layout(
            attempt_note(fenced).to_string(),
            FontId::proportional(12.0),
            Color32::WHITE,
            width,
        );
        height += note.size().y + spacing.y;
    }
    height
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::sizes::NARROW_GUTTER;
    use crate::scenario;
    use eframe::egui::Pos2;

    /// The run of a scenario file, laid out.
    fn run(source: &str) -> (Trace, Verdict, Lanes) {
        let scenario = scenario::parse(source).expect("a valid scenario");
        let crate::Run { trace, verdict, .. } = crate::run(&scenario, scenario.seed);
        let lanes = Lanes::build(&trace, &verdict);
        (trace, verdict, lanes)
    }

    const WIDTH: f32 = 1280.0;

    /// Shows `timeline` in a root Ui of 1280 × 800 (no margins, so the timeline starts at
    /// 0, 0) for one frame with `events`; returns what it asked for and how many shapes it
    /// painted.
    fn frame(
        ctx: &egui::Context,
        timeline: &Timeline,
        view: &mut View,
        events: Vec<egui::Event>,
    ) -> (Option<Action>, usize) {
        let input = egui::RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(WIDTH, 800.0))),
            events,
            ..Default::default()
        };
        let mut action = None;
        let mut output = ctx.run_ui(input, |ui| action = timeline.show(ui, view, 700.0));
        output.textures_delta.clear();
        (action, output.shapes.len())
    }

    fn button(pos: Pos2, pressed: bool) -> egui::Event {
        egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        }
    }

    #[test]
    fn clicking_a_violation_marker_selects_it() {
        let (trace, verdict, lanes) = run(include_str!(
            "../../assets/scenarios/step5-fencing-token.toml"
        ));
        let (i, v) = verdict
            .violations
            .iter()
            .enumerate()
            .next()
            .expect("step 5 reports an overlap");
        let timeline = Timeline {
            trace: &trace,
            lanes: &lanes,
            verdict: &verdict,
            now_ms: trace.until_ms as f64,
            preview: false,
            selected: None,
        };
        let ctx = egui::Context::default();
        let mut view = View::fit(trace.until_ms);
        let plot_width = WIDTH - GUTTER - RIGHT_PAD;
        let x = GUTTER + (v.at_ms as f64 / trace.until_ms as f64) as f32 * plot_width;
        let marker = pos2(x, AXIS - 6.0);
        let actions: Vec<_> = [
            vec![egui::Event::PointerMoved(marker)],
            vec![button(marker, true)],
            vec![button(marker, false)],
        ]
        .into_iter()
        .filter_map(|events| frame(&ctx, &timeline, &mut view, events).0)
        .collect();
        assert_eq!(actions.last(), Some(&Action::Select(i)), "{actions:?}");
    }

    #[test]
    fn a_long_busy_run_is_summed_up_to_what_the_screen_can_show() {
        let (trace, verdict, lanes) = run(include_str!("../../benches/busy.toml"));
        assert!(trace.events.len() >= 100_000, "{}", trace.events.len());
        let ctx = egui::Context::default();
        set_messages_shown(&ctx, true);
        let timeline = Timeline {
            trace: &trace,
            lanes: &lanes,
            verdict: &verdict,
            now_ms: trace.until_ms as f64,
            preview: false,
            selected: None,
        };
        let mut view = View::fit(trace.until_ms);
        let (_, shapes) = frame(&ctx, &timeline, &mut view, Vec::new());
        // A few shapes per pixel column and lane at most, however many events there are.
        let columns = (WIDTH - GUTTER - RIGHT_PAD) as usize;
        assert!(
            shapes < columns * lanes.lanes.len(),
            "{shapes} shapes for {} events",
            trace.events.len()
        );
    }

    #[test]
    fn zoom_keeps_the_point_under_the_pointer() {
        let mut v = View::fit(20_000);
        v.zoom(10_000.0, 2.0, 20_000.0);
        assert_eq!((v.start_ms, v.end_ms), (5_000.0, 15_000.0));
        v.zoom(15_000.0, 0.1, 20_000.0);
        assert_eq!(
            (v.start_ms, v.end_ms),
            (0.0, 20_000.0),
            "never wider than the run"
        );
        v.zoom(0.0, 1e9, 20_000.0);
        assert_eq!((v.start_ms, v.end_ms), (0.0, MIN_VIEW_MS));
    }

    #[test]
    fn a_chosen_window_stays_inside_the_run() {
        let v = View::between(1_000.0, 3_000.0, 20_000);
        assert_eq!((v.start_ms, v.end_ms), (1_000.0, 3_000.0));
        let v = View::between(19_000.0, 25_000.0, 20_000);
        assert_eq!((v.start_ms, v.end_ms), (14_000.0, 20_000.0));
        let v = View::between(7.0, 7.0, 20_000);
        assert_eq!((v.start_ms, v.end_ms), (7.0, 7.0 + MIN_VIEW_MS));
    }

    #[test]
    fn a_close_up_zooms_in_once_then_only_pans() {
        let mut v = View::fit(25_000);
        v.close_up(8_014.0, 4_000.0, 25_000);
        assert_eq!((v.start_ms, v.end_ms), (6_014.0, 10_014.0));
        // Already that close: a later moment pans the same window there.
        v.close_up(20_000.0, 4_000.0, 25_000);
        assert_eq!(v.len(), 4_000.0);
        assert!(v.start_ms <= 20_000.0 && 20_000.0 <= v.end_ms);
        // Near the end of the run the window stays inside it.
        v = View::fit(25_000);
        v.close_up(24_900.0, 4_000.0, 25_000);
        assert_eq!((v.start_ms, v.end_ms), (21_000.0, 25_000.0));
    }

    #[test]
    fn a_moment_is_placed_where_the_timeline_draws_it() {
        let rect = Rect::from_min_size(pos2(10.0, 0.0), vec2(1000.0, 300.0));
        let view = View::fit(20_000);
        assert_eq!(x_of(rect, &view, 0.0), Some(10.0 + GUTTER));
        assert_eq!(x_of(rect, &view, 20_000.0), Some(1010.0 - RIGHT_PAD));
        // A phone's narrower gutter; a moment out of a zoomed-in view is nowhere.
        let narrow = Rect::from_min_size(pos2(0.0, 0.0), vec2(300.0, 300.0));
        assert_eq!(x_of(narrow, &view, 0.0), Some(NARROW_GUTTER));
        let zoomed = View::between(5_000.0, 6_000.0, 20_000);
        assert_eq!(x_of(rect, &zoomed, 4_999.0), None);
    }

    #[test]
    fn revealing_a_moment_pans_without_zooming() {
        let mut v = View::fit(20_000);
        v.zoom(0.0, 4.0, 20_000.0);
        let len = v.len();
        v.reveal(15_000.0, 20_000);
        assert!(v.start_ms <= 15_000.0 && 15_000.0 <= v.end_ms);
        assert!((v.len() - len).abs() < 1e-9);
        let before = v;
        v.reveal(15_100.0, 20_000);
        assert_eq!(v, before);
    }

    #[test]
    fn following_the_playhead_pans_a_zoomed_view() {
        let mut v = View::fit(20_000);
        v.zoom(0.0, 4.0, 20_000.0);
        v.follow(6_000.0, 20_000);
        assert_eq!((v.start_ms, v.end_ms), (5_500.0, 10_500.0));
    }
}
