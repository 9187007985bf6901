//! The timeline widget: one lane per node, a time axis, messages as arrows, the playhead,
//! hover details.
//!
//! It paints a [`Lanes`] (the view model, [`crate::view::timeline`]) computed once per trace. Each frame finds what is in view by binary
//! search over the lanes' time indexes and sums up what is too dense to see one by one (spans
//! under a pixel, marks closer than their symbols, more arrows than fit), so a frame costs
//! about the same for a run of a hundred events as for one of a hundred thousand.

mod arrows;
pub(super) mod edit;
mod marks;
mod spans;

use eframe::egui::{
    self, Align2, Color32, FontId, Id, Key, Painter, Pos2, Rect, Sense, Stroke, Ui, pos2, vec2,
};

// Public with the timeline so that a caller outside the app (benches/frame.rs, the UI tests)
// can build one and read what its legend says.
use super::{layout, style};
use crate::checker::{Kind, Verdict};
use crate::picture::sizes::{AXIS, GUTTER, MIN_PLOT, RIGHT_PAD, gutter};
use crate::picture::{Area, Frame};
use crate::text::fmt_ms;
use crate::trace::{NodeId, RejectReason, Role, Trace};
use crate::view::timeline::legend::role_caption;
pub use crate::view::timeline::{ATTEMPT_NOTE, ATTEMPT_NOTE_UNFENCED, Lanes, attempt_note};
use crate::view::timeline::{Partition, Swatch, WriteOutcome, tick_label, tick_step};

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
            narrow: gutter(rect.width()) < GUTTER,
        }
    }

    fn len(&self) -> f64 {
        self.end_ms - self.start_ms
    }

    fn x(&self, ms: f64, plot: Rect) -> f32 {
        plot.left() + ((ms - self.start_ms) / self.len()) as f32 * plot.width()
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

/// Where things go on screen this frame.
struct Geometry {
    /// The left edge of the lane names, px.
    lanes_left: f32,
    /// The lanes' drawing area (right of the gutter, below the axis).
    plot: Rect,
    /// The axis row above `plot`.
    axis: Rect,
    lane_h: f32,
    /// Only times up to this are drawn (the playhead, unless previewing).
    shown_until_ms: f64,
    view: View,
}

impl Geometry {
    /// The lane-name column's width, px.
    fn gutter(&self) -> f32 {
        self.plot.left() - self.lanes_left
    }

    fn x(&self, ms: f64) -> f32 {
        self.view.x(ms, self.plot)
    }

    fn lane_rect(&self, i: usize) -> Rect {
        let top = self.plot.top() + i as f32 * self.lane_h;
        Rect::from_x_y_ranges(self.plot.x_range(), top..=top + self.lane_h)
    }

    /// The true ms at screen x.
    fn ms(&self, x: f32) -> f64 {
        self.view.ms(x, self.plot)
    }

    /// True ms per screen point.
    fn ms_per_px(&self) -> f64 {
        self.view.len() / f64::from(self.plot.width().max(1.0))
    }

    /// The true-ms window drawn this frame: the view, cut at the playhead unless previewing.
    fn window(&self) -> (f64, f64) {
        (
            self.view.start_ms,
            self.view.end_ms.min(self.shown_until_ms),
        )
    }

    /// Whether a thing from `start` to `end` ms is on screen at all.
    fn shows(&self, start: u64, end: u64) -> bool {
        let (from, to) = self.window();
        (end as f64) >= from && (start as f64) <= to
    }

    /// The screen x-range of `start..end` ms, cut to what may be drawn.
    fn x_range(&self, start: u64, end: u64) -> (f32, f32) {
        let right = (end as f64).min(self.shown_until_ms);
        (self.x(start as f64), self.x(right))
    }
}

/// What the pointer is over; when several are, the more specific (higher) wins.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum HoverRank {
    Shading,
    /// Below bars, as arrows are drawn below them.
    Arrow,
    Bar,
    Mark,
}

/// The hover text of the most specific thing under the pointer, so far this frame.
#[derive(Default)]
struct Hover(Option<(HoverRank, String)>);

impl Hover {
    /// Offers the text of a thing of `rank` under the pointer; it is only written if it wins.
    fn offer(&mut self, rank: HoverRank, text: impl FnOnce() -> String) {
        if self.0.as_ref().is_none_or(|(r, _)| rank >= *r) {
            self.0 = Some((rank, text()));
        }
    }
}

/// What the painting code shares within one frame.
struct Canvas<'a> {
    geo: Geometry,
    /// Clipped to the plot and the axis row, and to the playhead unless previewing: the
    /// future is simply not there yet.
    content: Painter,
    /// Clipped to the plot only: a mark is drawn whole once reached (only reached ones are
    /// drawn at all), so one right at the playhead is not cut in half.
    marks: Painter,
    pointer: Option<Pos2>,
    trace: &'a Trace,
    /// For the checker's words on a write it names.
    verdict: &'a Verdict,
    /// Hover text tells no more than the lanes show.
    known_until: u64,
    hover: Hover,
    /// Where the labels of shadings and waits went, so later labels keep clear of them.
    labels: Vec<Rect>,
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
        let lane_count = self.lanes.lanes.len().max(1);
        let lane_h = ((max_height - AXIS) / lane_count as f32).clamp(40.0, 110.0);
        // Never narrower than the lane names and a plot to read: a narrower panel clips the
        // right edge rather than turning the plot inside out.
        let width = ui
            .available_width()
            .max(gutter(ui.available_width()) + RIGHT_PAD + MIN_PLOT);
        let gutter = gutter(width);
        let size = vec2(width, AXIS + lane_h * lane_count as f32);
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        let until = self.lanes.until_ms as f64;
        let plot = Rect::from_min_max(
            pos2(rect.left() + gutter, rect.top() + AXIS),
            pos2(rect.right() - RIGHT_PAD, rect.bottom()),
        );
        let axis = Rect::from_x_y_ranges(plot.x_range(), rect.top()..=plot.top());

        let mut action = self.interact(ui, &response, view, plot, axis);
        let messages = messages_switch(ui, rect, gutter);

        let geo = Geometry {
            lanes_left: rect.left(),
            plot,
            axis,
            lane_h,
            shown_until_ms: if self.preview { until } else { self.now_ms },
            view: *view,
        };
        let painter = ui.painter_at(rect);
        self.paint_lane_backgrounds(&painter, &geo, ui);
        paint_axis(&painter, &geo, ui, self.now_ms);

        // The axis row is included for the partition bands.
        let mut clip = plot;
        clip.set_top(axis.top());
        if !self.preview {
            clip.set_right(layout::fit(geo.x(self.now_ms), plot.left(), plot.right()) + 1.0);
        }
        let mut c = Canvas {
            content: painter.with_clip_rect(clip),
            marks: painter.with_clip_rect(plot),
            known_until: geo.shown_until_ms as u64,
            geo,
            pointer: response.hover_pos(),
            trace: self.trace,
            verdict: self.verdict,
            hover: Hover::default(),
            labels: Vec::new(),
        };

        let mut partition_labels = Vec::new();
        for p in &self.lanes.partitions {
            let painted = paint_partition(
                &c.content,
                &c.geo,
                self.trace,
                p,
                c.pointer,
                &mut partition_labels,
            );
            if let Some(text) = painted {
                c.hover.offer(HoverRank::Shading, || text);
            }
        }
        // Arrows go under the bars: they end at the bars' edges, so only where they cross a
        // lane on their way does a bar hide them, and it keeps its label readable there.
        if messages {
            let plan = arrows::plan(&c, self.lanes);
            arrows::paint_haze(&mut c, &plan);
            arrows::paint_arrows(&mut c, self.lanes, &plan);
        }
        for (i, lane) in self.lanes.lanes.iter().enumerate() {
            spans::paint_lane(&mut c, i, lane);
        }
        for (i, lane) in self.lanes.lanes.iter().enumerate() {
            marks::paint_lane(&mut c, i, lane);
        }

        if self.preview {
            let future = Rect::from_x_y_ranges(
                c.geo.x(self.now_ms).max(plot.left())..=plot.right(),
                plot.y_range(),
            );
            painter.rect_filled(future, 0.0, ui.visuals().panel_fill.gamma_multiply(0.7));
        }
        let clicked = response.clicked();
        if let Some(select) = marks::paint_violations(
            &mut c,
            &painter,
            self.lanes,
            self.verdict,
            self.selected,
            clicked,
        ) {
            action = Some(select);
        }
        paint_playhead(&painter, &c.geo, self.now_ms);

        if let Some((_, text)) = c.hover.0 {
            response.on_hover_ui_at_pointer(|ui| {
                ui.set_max_width(360.0);
                ui.label(text);
            });
        }
        action
    }

    /// Zoom (ctrl + scroll, pinch), pan (drag on the lanes, sideways scroll), fit
    /// (double-click), scrub (press or drag on the axis).
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
        if let Some(pos) = response.interact_pointer_pos() {
            // A quick click can press and release within one frame, leaving no press origin.
            let scrubbing = response.is_pointer_button_down_on() && pressed_on_axis;
            if scrubbing || (response.clicked() && axis.contains(pos)) {
                return Some(Action::Seek(view.ms(pos.x, plot)));
            }
        }
        if response.dragged() && !pressed_on_axis {
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

    fn paint_lane_backgrounds(&self, painter: &egui::Painter, geo: &Geometry, ui: &Ui) {
        let visuals = ui.visuals();
        for (i, lane) in self.lanes.lanes.iter().enumerate() {
            let lane_rect = geo.lane_rect(i);
            let full = Rect::from_x_y_ranges(
                painter.clip_rect().left()..=geo.plot.right(),
                lane_rect.y_range(),
            );
            if i % 2 == 0 {
                painter.rect_filled(full, 0.0, visuals.faint_bg_color);
            }
            // A heavier line where one kind of node gives way to the next.
            let next_role = self.lanes.lanes.get(i + 1).map(|l| l.role);
            let stroke = if next_role.is_some_and(|r| r != lane.role) {
                Stroke::new(1.5, visuals.widgets.noninteractive.bg_stroke.color)
            } else {
                Stroke::new(0.5, visuals.widgets.noninteractive.bg_stroke.color)
            };
            painter.hline(full.x_range(), full.bottom(), stroke);

            let name_color = match lane.role {
                Role::Worker => style::worker(NodeId::from_index(i)),
                Role::Store | Role::Resource => visuals.strong_text_color(),
            };
            let left = full.left() + 10.0;
            painter.text(
                pos2(left, full.center().y - 2.0),
                Align2::LEFT_BOTTOM,
                &lane.name,
                FontId::proportional(17.0),
                name_color,
            );
            painter.text(
                pos2(left, full.center().y + 1.0),
                Align2::LEFT_TOP,
                role_caption(lane.role, geo.gutter() < GUTTER),
                FontId::proportional(11.5),
                visuals.weak_text_color(),
            );
        }
    }
}

/// Shades the lanes a partition cuts off and draws its band on the axis; returns hover
/// text if the pointer is on the band.
fn paint_partition(
    painter: &egui::Painter,
    geo: &Geometry,
    trace: &Trace,
    p: &Partition,
    pointer: Option<Pos2>,
    labels: &mut Vec<Rect>,
) -> Option<String> {
    if !geo.shows(p.start_ms, p.end_ms) {
        return None;
    }
    let (x0, x1) = geo.x_range(p.start_ms, p.end_ms);
    for &node in p.groups.iter().flatten() {
        let lane = geo.lane_rect(node.index());
        painter.rect_filled(
            Rect::from_x_y_ranges(x0..=x1, lane.y_range()),
            0.0,
            style::PARTITION,
        );
    }
    let band = Rect::from_x_y_ranges(x0..=x1, geo.axis.top() + 20.0..=geo.axis.top() + 32.0);
    painter.rect_filled(band, 2.0, style::PARTITION.gamma_multiply(2.5));
    // Partitions overlap in time (one inside another): a label another one's label is in the
    // way of moves right past it, if its band is long enough.
    let galley = painter.layout_no_wrap(
        format!("partition {}", p.label),
        FontId::proportional(10.5),
        style::FAULT_TEXT,
    );
    let size = galley.size();
    let mut left = band.left().max(geo.plot.left()) + 4.0;
    while let Some(other) = labels.iter().find(|r| {
        r.intersects(Rect::from_min_size(
            pos2(left, band.center().y - size.y / 2.0),
            size,
        ))
    }) {
        left = other.right() + 12.0;
    }
    let label = Rect::from_min_size(pos2(left, band.center().y - size.y / 2.0), size);
    if label.right() <= band.right().min(geo.plot.right()) {
        painter.galley(label.min, galley, style::FAULT_TEXT);
        labels.push(label);
    }
    pointer
        .filter(|pos| band.contains(*pos))
        .map(|_| p.details(trace, geo.shown_until_ms as u64))
}

/// Tick labels, grid lines and the time unit.
/// A tick label the playhead's badge would cover is left out: half a label under the badge
/// reads as a stray "s".
fn paint_axis(painter: &egui::Painter, geo: &Geometry, ui: &Ui, now_ms: f64) {
    let visuals = ui.visuals();
    let badge = playhead_badge(painter, geo, now_ms).map(|(rect, _)| rect.expand(3.0));
    let step = tick_step(geo.view.len(), geo.plot.width());
    let first = (geo.view.start_ms / step).ceil() as i64;
    let last = (geo.view.end_ms / step).floor() as i64;
    for k in first..=last {
        let t = k as f64 * step;
        let x = geo.x(t);
        painter.vline(
            x,
            geo.axis.bottom() - 4.0..=geo.plot.bottom(),
            Stroke::new(0.5, visuals.widgets.noninteractive.bg_stroke.color),
        );
        let label = painter.layout_no_wrap(
            tick_label(t, step),
            FontId::proportional(12.0),
            visuals.text_color(),
        );
        let at = Align2::CENTER_TOP.anchor_size(pos2(x, geo.axis.top() + 4.0), label.size());
        if !badge.is_some_and(|b| b.intersects(at)) {
            painter.galley(at.min, label, visuals.text_color());
        }
    }
    // The mouse hint needs the wide column; a phone has no wheel to scroll anyway.
    if geo.gutter() >= GUTTER {
        painter.text(
            pos2(geo.lanes_left + 10.0, geo.axis.top() + 28.0),
            Align2::LEFT_TOP,
            "ctrl + scroll: zoom · drag: pan",
            FontId::proportional(10.0),
            visuals.weak_text_color(),
        );
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

fn paint_playhead(painter: &egui::Painter, geo: &Geometry, now_ms: f64) {
    if now_ms < geo.view.start_ms || now_ms > geo.view.end_ms {
        return;
    }
    let x = geo.x(now_ms);
    painter.vline(
        x,
        geo.axis.top() + 20.0..=geo.plot.bottom(),
        Stroke::new(2.0, style::PLAYHEAD),
    );
    if let Some((label, galley)) = playhead_badge(painter, geo, now_ms) {
        painter.rect_filled(label, 3.0, style::PLAYHEAD);
        painter.galley(label.min + vec2(5.0, 2.0), galley, Color32::WHITE);
    }
}

/// Where the playhead's time badge sits on the axis row, and its text; `None` when the
/// playhead is outside the view.
fn playhead_badge(
    painter: &egui::Painter,
    geo: &Geometry,
    now_ms: f64,
) -> Option<(Rect, std::sync::Arc<egui::Galley>)> {
    if now_ms < geo.view.start_ms || now_ms > geo.view.end_ms {
        return None;
    }
    let text = fmt_ms(now_ms.round() as u64);
    let galley = painter.layout_no_wrap(text, FontId::proportional(12.0), Color32::WHITE);
    let size = galley.size() + vec2(10.0, 4.0);
    // Within the plot's width: over the lane names it would cover the "messages" switch.
    let left = layout::fit(
        geo.x(now_ms) - size.x / 2.0,
        geo.plot.left() - 4.0,
        geo.plot.right() - size.x,
    );
    Some((
        Rect::from_min_size(pos2(left, geo.axis.top() + 2.0), size),
        galley,
    ))
}

/// Text in a hue, readable on the panel: darker than the hue on the light theme, lighter on
/// the dark one (a dark label on a dark lane disappears).
fn ink(painter: &Painter, color: Color32) -> Color32 {
    let dark = painter.ctx().theme() == egui::Theme::Dark;
    let f = |c: u8| {
        let c = f32::from(c);
        (if dark {
            c + (255.0 - c) * 0.55
        } else {
            c * 0.7
        }) as u8
    };
    Color32::from_rgb(f(color.r()), f(color.g()), f(color.b()))
}

/// A row of swatches explaining what the timeline shows up to `shown_until_ms`, drawn with
/// the timeline's own code. Later kinds join as they appear, so the legend gives nothing away.
pub fn legend(ui: &mut Ui, swatches: &[(Swatch, u64)], shown_until_ms: f64, fenced: bool) {
    let worker = style::worker(NodeId::new(0));
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
            match swatch {
                Swatch::Belief => {
                    spans::paint_belief_bar(p, rect, worker);
                }
                Swatch::Lease | Swatch::Grant => {
                    spans::paint_lease_bar(p, rect, worker);
                }
                Swatch::TookOver => {
                    spans::paint_lease_bar(p, rect, worker);
                    spans::paint_takeover_edge(p, rect);
                }
                Swatch::OnDisk => {
                    spans::paint_on_disk_bar(p, rect, worker);
                }
                Swatch::Logged => {
                    spans::paint_logged_bar(p, rect, worker);
                }
                Swatch::LeaseLost => {
                    spans::paint_belief_bar(p, rect, worker);
                    spans::paint_lease_gone(p, rect);
                }
                Swatch::Waiting => {
                    spans::paint_waiting(p, rect.left(), rect.right(), rect.center().y, worker);
                }
                Swatch::Paused => {
                    p.rect_filled(rect, 0.0, style::PAUSED);
                }
                Swatch::Stalled => {
                    p.rect_filled(rect, 0.0, style::STALLED);
                }
                Swatch::Crashed => {
                    p.rect_filled(rect, 0.0, style::CRASHED);
                }
                Swatch::SlowLink => {
                    p.rect_filled(rect, 0.0, style::SLOW_LINK);
                }
                Swatch::Partition => {
                    p.rect_filled(rect, 0.0, style::PARTITION);
                }
                Swatch::ClockJump => {
                    marks::paint_clock_jump(p, rect.center().x, rect.y_range());
                }
                Swatch::Leader => {
                    marks::paint_role(p, rect.center_top(), true);
                }
                Swatch::SteppedDown => {
                    marks::paint_role(p, rect.center_top(), false);
                }
                Swatch::Claim => {
                    marks::paint_claim(p, rect.center(), style::CLAIM, true);
                }
                Swatch::Hold => {
                    marks::paint_hold(p, rect.center().x, rect.expand2(vec2(0.0, 2.0)), worker);
                }
                Swatch::Accepted => {
                    marks::paint_write(p, rect.center(), WriteOutcome::Accepted);
                }
                Swatch::Rejected => {
                    let outcome = WriteOutcome::Rejected {
                        reason: RejectReason::StaleToken,
                        highest_fence: None,
                    };
                    marks::paint_write(p, rect.center(), outcome);
                }
                Swatch::Violating => {
                    marks::paint_write(p, rect.center(), WriteOutcome::Violating(Kind::StaleWrite));
                }
                Swatch::Message => {
                    let (from, to) = (rect.left_bottom(), rect.right_top());
                    arrows::paint_arrow(p, from, to, style::MESSAGE, false);
                }
                Swatch::Held => {
                    let (a, b) = (rect.left_bottom(), rect.center_bottom());
                    p.extend(egui::Shape::dashed_line(
                        &[a, b],
                        Stroke::new(1.4, style::MESSAGE),
                        3.0,
                        3.0,
                    ));
                    arrows::paint_arrow(p, b, rect.right_top(), style::MESSAGE, false);
                }
                Swatch::Dropped => {
                    let (from, to) = (rect.left_bottom(), rect.right_center() - vec2(5.0, 0.0));
                    arrows::paint_arrow(p, from, to, style::MESSAGE, true);
                }
            }
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
    fn ticks_are_round_and_not_crowded() {
        assert_eq!(tick_step(20_000.0, 1000.0), 2_000.0);
        assert_eq!(tick_step(20_000.0, 400.0), 5_000.0);
        assert_eq!(tick_step(100.0, 1000.0), 10.0);
        assert_eq!(tick_step(3.0, 1000.0), 1.0);
    }

    #[test]
    fn tick_labels_switch_to_seconds() {
        assert_eq!(tick_label(12_000.0, 2_000.0), "12 s");
        assert_eq!(tick_label(2_500.0, 500.0), "2 500 ms");
        assert_eq!(tick_label(12_500.0, 2_500.0), "12.5 s");
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
