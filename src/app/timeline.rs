//! The timeline widget: one lane per node, a time axis, the playhead, hover details.
//!
//! It paints a [`Lanes`] computed once per trace; each frame only maps times to pixels and
//! skips what is out of view or not yet played.

use eframe::egui::{
    self, Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Ui, pos2, vec2,
};

use super::lanes::{
    Lanes, Mark, MarkKind, Partition, Span, SpanKind, Swatch, WriteOutcome, fmt_ms,
};
use super::style;
use crate::checker::{Kind, Verdict};
use crate::trace::{NodeId, RejectReason, Role, Trace};

/// Width of the lane-name column, px.
const GUTTER: f32 = 150.0;
/// Height of the time axis above the lanes, px.
const AXIS: f32 = 46.0;
/// Free space right of the plot so the last tick label fits, px.
const RIGHT_PAD: f32 = 24.0;
/// Narrowest window of time one can zoom into, ms.
const MIN_VIEW_MS: f64 = 5.0;

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
        self.start_ms = (self.start_ms + by_ms).clamp(0.0, until_ms - len);
        self.end_ms = self.start_ms + len;
    }

    /// Scrolls so that `now_ms` stays in view while a zoomed-in run plays.
    pub fn follow(&mut self, now_ms: f64, until_ms: u64) {
        if now_ms > self.end_ms || now_ms < self.start_ms {
            let len = self.len();
            self.pan(now_ms - self.start_ms - 0.1 * len, until_ms as f64);
        }
    }
}

/// What the user asked for by interacting with the timeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Move the playhead here (true ms).
    Seek(f64),
    /// Select violation number `i` of the verdict.
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
    fn x(&self, ms: f64) -> f32 {
        self.view.x(ms, self.plot)
    }

    fn lane_rect(&self, i: usize) -> Rect {
        let top = self.plot.top() + i as f32 * self.lane_h;
        Rect::from_x_y_ranges(self.plot.x_range(), top..=top + self.lane_h)
    }

    /// Whether a thing from `start` to `end` ms is on screen at all.
    fn shows(&self, start: u64, end: u64) -> bool {
        (end as f64) >= self.view.start_ms
            && (start as f64) <= self.view.end_ms.min(self.shown_until_ms)
    }

    /// The screen x-range of `start..end` ms, cut to what may be drawn.
    fn x_range(&self, start: u64, end: u64) -> (f32, f32) {
        let right = (end as f64).min(self.shown_until_ms);
        (self.x(start as f64), self.x(right))
    }
}

/// What the pointer is over; when several are, the more specific (higher) wins.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum HoverRank {
    Shading,
    Bar,
    Mark,
}

impl Timeline<'_> {
    /// Draws the timeline across the width `ui` has, at most `max_height` tall: lanes grow
    /// to fill it up to a comfortable height, and shrink (down to a floor) when there are many.
    pub fn show(&self, ui: &mut Ui, view: &mut View, max_height: f32) -> Option<Action> {
        let lane_count = self.lanes.lanes.len().max(1);
        let lane_h = ((max_height - AXIS) / lane_count as f32).clamp(40.0, 110.0);
        let size = vec2(ui.available_width(), AXIS + lane_h * lane_count as f32);
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        let until = self.lanes.until_ms as f64;
        let plot = Rect::from_min_max(
            pos2(rect.left() + GUTTER, rect.top() + AXIS),
            pos2(rect.right() - RIGHT_PAD, rect.bottom()),
        );
        let axis = Rect::from_x_y_ranges(plot.x_range(), rect.top()..=plot.top());

        let mut action = self.interact(ui, &response, view, plot, axis);

        let geo = Geometry {
            plot,
            axis,
            lane_h,
            shown_until_ms: if self.preview { until } else { self.now_ms },
            view: *view,
        };
        let painter = ui.painter_at(rect);
        self.paint_lane_backgrounds(&painter, &geo, ui);
        paint_axis(&painter, &geo, ui);

        // Everything that happens in time is clipped to the plot, and to the playhead
        // unless previewing, so the future is simply not there yet.
        // The axis row is included for the partition bands.
        let mut clip = plot;
        clip.set_top(axis.top());
        if !self.preview {
            clip.set_right(geo.x(self.now_ms).clamp(plot.left(), plot.right()) + 1.0);
        }
        let content = painter.with_clip_rect(clip);
        // A mark is drawn whole once reached (only reached ones are drawn at all), so one
        // right at the playhead is not cut in half.
        let marks = painter.with_clip_rect(plot);
        let pointer = response.hover_pos();
        // Hover text tells no more than the lanes show.
        let known_until = geo.shown_until_ms as u64;
        let mut hovered: Option<(HoverRank, String)> = None;
        let mut hover = |rank: HoverRank, text: &dyn Fn() -> String| {
            if hovered.as_ref().is_none_or(|(r, _)| rank >= *r) {
                hovered = Some((rank, text()));
            }
        };

        for p in &self.lanes.partitions {
            if let Some(text) = self.paint_partition(&content, &geo, p, pointer) {
                hover(HoverRank::Shading, &|| text.clone());
            }
        }
        for (i, lane) in self.lanes.lanes.iter().enumerate() {
            let node = i as NodeId;
            let lane_rect = geo.lane_rect(i);
            let pointer_here = pointer.filter(|p| lane_rect.contains(*p));
            let shown = || {
                lane.spans
                    .iter()
                    .filter(|s| geo.shows(s.start_ms, s.end_ms))
            };
            // Shadings first, so the bars on top of them stay readable.
            for span in shown().filter(|s| s.kind.bar_row().is_none()) {
                if paint_shading(&content, &geo, lane_rect, node, span, pointer_here) {
                    hover(HoverRank::Shading, &|| {
                        span.details(self.trace, node, known_until)
                    });
                }
            }
            // Bars right to left, so each knows where the next one on its row begins and
            // whether its label fits after it.
            let mut next_x = vec![f32::INFINITY; lane.rows as usize];
            for span in shown().rev() {
                let Some(row) = span.kind.bar_row() else {
                    continue;
                };
                let bar = Bar {
                    lane_rect,
                    rows: lane.rows,
                    row,
                    next_x: next_x[row as usize],
                };
                if paint_bar(&content, &geo, &bar, span, pointer_here) {
                    hover(HoverRank::Bar, &|| {
                        span.details(self.trace, node, known_until)
                    });
                }
                next_x[row as usize] = geo.x(span.start_ms as f64);
            }
            let reached = || lane.marks.iter().filter(|m| geo.shows(m.at_ms, m.at_ms));
            // Every mark's disc is an obstacle for every label, so no label covers a mark.
            let mut taken: Vec<Rect> = reached()
                .map(|m| Rect::from_center_size(mark_center(&geo, lane_rect, m), vec2(20.0, 20.0)))
                .collect();
            for mark in reached() {
                if paint_mark(&marks, &geo, lane_rect, mark, &mut taken, pointer_here) {
                    hover(HoverRank::Mark, &|| mark.details(self.trace, node));
                }
            }
        }

        if self.preview {
            let future = Rect::from_x_y_ranges(
                geo.x(self.now_ms).max(plot.left())..=plot.right(),
                plot.y_range(),
            );
            painter.rect_filled(future, 0.0, ui.visuals().panel_fill.gamma_multiply(0.7));
        }
        if let Some((i, text)) = self.paint_violations(&painter, &geo, pointer) {
            hover(HoverRank::Mark, &|| text.clone());
            if response.clicked() {
                action = Some(Action::Select(i));
            }
        }
        paint_playhead(&painter, &geo, self.now_ms);

        if let Some((_, text)) = hovered {
            response.on_hover_ui_at_pointer(|ui| {
                ui.set_max_width(360.0);
                ui.label(text);
            });
        }
        action
    }

    /// Zoom (scroll), pan (drag on the lanes), fit (double-click), scrub (press or drag on
    /// the axis).
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
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = f64::from(zoom) * (f64::from(scroll) * 0.003).exp();
            if factor != 1.0 {
                view.zoom(view.ms(pos.x, plot), factor, until);
            }
        }
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
            let ms_per_px = view.len() / f64::from(plot.width());
            view.pan(-f64::from(response.drag_delta().x) * ms_per_px, until);
        }
        None
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
                Role::Worker => style::worker(i as NodeId),
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
                role_caption(lane.role),
                FontId::proportional(11.5),
                visuals.weak_text_color(),
            );
        }
    }

    /// Shades the lanes a partition cuts off and draws its band on the axis; returns hover
    /// text if the pointer is on the band.
    fn paint_partition(
        &self,
        painter: &egui::Painter,
        geo: &Geometry,
        p: &Partition,
        pointer: Option<Pos2>,
    ) -> Option<String> {
        if !geo.shows(p.start_ms, p.end_ms) {
            return None;
        }
        let (x0, x1) = geo.x_range(p.start_ms, p.end_ms);
        for &node in p.groups.iter().flatten() {
            let lane = geo.lane_rect(node as usize);
            painter.rect_filled(
                Rect::from_x_y_ranges(x0..=x1, lane.y_range()),
                0.0,
                style::PARTITION,
            );
        }
        let band = Rect::from_x_y_ranges(x0..=x1, geo.axis.top() + 20.0..=geo.axis.top() + 32.0);
        painter.rect_filled(band, 2.0, style::PARTITION.gamma_multiply(2.5));
        painter.text(
            band.left_center() + vec2(4.0, 0.0),
            Align2::LEFT_CENTER,
            format!("partition {}", p.label),
            FontId::proportional(10.5),
            style::FAULT_TEXT,
        );
        pointer.filter(|pos| band.contains(*pos)).map(|_| {
            format!(
                "Network partition from {} to {}:\nno message crosses between {}",
                fmt_ms(p.start_ms),
                fmt_ms(p.end_ms),
                p.label
            )
        })
    }

    /// Triangles on the axis at each violation's time; the selected one also gets a line
    /// across the lanes. Returns the violation under the pointer.
    fn paint_violations(
        &self,
        painter: &egui::Painter,
        geo: &Geometry,
        pointer: Option<Pos2>,
    ) -> Option<(usize, String)> {
        let mut under_pointer = None;
        let tip_y = geo.axis.bottom() - 1.0;
        let shown = || {
            self.verdict.violations.iter().enumerate().filter(|(_, v)| {
                let t = v.at_ms as f64;
                t <= geo.shown_until_ms && t >= geo.view.start_ms && t <= geo.view.end_ms
            })
        };
        // Every marker is an obstacle for the names, so no name hides a marker.
        let mut taken: Vec<Rect> = shown()
            .map(|(_, v)| {
                let x = geo.x(v.at_ms as f64);
                Rect::from_x_y_ranges(x - 6.0..=x + 6.0, tip_y - 10.0..=tip_y)
            })
            .collect();
        for (i, v) in shown() {
            let color = style::violation(v.kind);
            let x = geo.x(v.at_ms as f64);
            let tip = pos2(x, tip_y);
            painter.add(Shape::convex_polygon(
                vec![tip, tip + vec2(-6.0, -10.0), tip + vec2(6.0, -10.0)],
                color,
                Stroke::NONE,
            ));
            // Named beside the marker unless an earlier name is there: the verdict panel
            // and the hover text still say it.
            let galley = painter.layout_no_wrap(
                v.kind.as_str().to_string(),
                FontId::proportional(11.0),
                color,
            );
            let label = Rect::from_min_size(
                tip + vec2(10.0, -5.0 - galley.size().y / 2.0),
                galley.size(),
            );
            if !taken
                .iter()
                .any(|r: &Rect| r.intersects(label.expand2(vec2(3.0, 0.0))))
            {
                taken.push(label);
                painter.galley(label.min, galley, color);
            }
            if self.selected == Some(i) {
                painter.add(Shape::dashed_line(
                    &[pos2(x, geo.plot.top()), pos2(x, geo.plot.bottom())],
                    Stroke::new(1.5, color),
                    6.0,
                    4.0,
                ));
            }
            if pointer.is_some_and(|p| (p.x - x).abs() <= 7.0 && (p.y - tip.y).abs() <= 12.0) {
                under_pointer = Some((
                    i,
                    format!(
                        "{} at {}\n{}\n(click to select)",
                        v.kind,
                        fmt_ms(v.at_ms),
                        v.explanation
                    ),
                ));
            }
        }
        under_pointer
    }
}

/// What the bars on a lane of this role mean, under the lane's name.
fn role_caption(role: Role) -> &'static str {
    match role {
        Role::Worker => "worker: believes it holds",
        Role::Store => "lock store: lease it holds",
        Role::Resource => "protected data: writes",
    }
}

/// Tick labels, grid lines and the time unit.
fn paint_axis(painter: &egui::Painter, geo: &Geometry, ui: &Ui) {
    let visuals = ui.visuals();
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
        painter.text(
            pos2(x, geo.axis.top() + 4.0),
            Align2::CENTER_TOP,
            tick_label(t, step),
            FontId::proportional(12.0),
            visuals.text_color(),
        );
    }
    painter.text(
        pos2(geo.axis.left() - 20.0, geo.axis.top() + 4.0),
        Align2::RIGHT_TOP,
        "simulated time",
        FontId::proportional(11.5),
        visuals.weak_text_color(),
    );
    painter.text(
        pos2(geo.axis.left() - 20.0, geo.axis.top() + 20.0),
        Align2::RIGHT_TOP,
        "scroll: zoom · drag: pan",
        FontId::proportional(10.0),
        visuals.weak_text_color(),
    );
}

/// A round step (1, 2 or 5 × 10ⁿ ms) that leaves at least 90 px between ticks.
fn tick_step(view_ms: f64, width_px: f32) -> f64 {
    let raw = view_ms * 90.0 / f64::from(width_px.max(1.0));
    let mut decade = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if decade * m >= raw {
                return decade * m;
            }
        }
        decade *= 10.0;
    }
}

/// `12 s`, `12.5 s` once ticks are a second or more apart, else `10 004 ms`.
fn tick_label(t: f64, step: f64) -> String {
    if step >= 1000.0 {
        let s = t / 1000.0;
        if s.fract() == 0.0 {
            format!("{s:.0} s")
        } else {
            format!("{s} s")
        }
    } else {
        fmt_ms(t.round() as u64)
    }
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
    let text = fmt_ms(now_ms.round() as u64);
    let galley = painter.layout_no_wrap(text, FontId::proportional(12.0), Color32::WHITE);
    let size = galley.size() + vec2(10.0, 4.0);
    let left = (x - size.x / 2.0).clamp(geo.plot.left() - GUTTER / 2.0, geo.plot.right() - size.x);
    let label = Rect::from_min_size(pos2(left, geo.axis.top() + 2.0), size);
    painter.rect_filled(label, 3.0, style::PLAYHEAD);
    painter.galley(label.min + vec2(5.0, 2.0), galley, Color32::WHITE);
}

/// Where a bar goes: its lane, its row, and what is right of it.
struct Bar {
    lane_rect: Rect,
    rows: u32,
    row: u32,
    /// Screen x where the next bar on the same row begins (infinite if none).
    next_x: f32,
}

/// Paints a belief or lease bar and its labels; returns whether the pointer is on it.
fn paint_bar(
    painter: &egui::Painter,
    geo: &Geometry,
    bar: &Bar,
    span: &Span,
    pointer: Option<Pos2>,
) -> bool {
    let (x0, x1) = geo.x_range(span.start_ms, span.end_ms);
    let rect = bar_rect(bar.lane_rect, bar.rows, bar.row, x0, x1);
    let (color, text_color, lost) = match &span.kind {
        SpanKind::Belief {
            token, lease_lost, ..
        } => {
            let color = style::token(*token);
            paint_belief_bar(painter, rect, color);
            let lost = lease_lost
                .as_ref()
                .filter(|l| l.at_ms as f64 <= geo.shown_until_ms);
            if let Some(l) = lost {
                let gone_x = geo.x(l.at_ms as f64);
                paint_lease_gone(
                    painter,
                    Rect::from_x_y_ranges(gone_x..=rect.right(), rect.y_range()),
                );
            }
            (color, darker(color), lost)
        }
        SpanKind::Lease { token, .. } => {
            let color = style::token(*token);
            paint_lease_bar(painter, rect, color);
            (color, Color32::WHITE, None)
        }
        _ => return false,
    };

    // Labels by importance — which grant, where its lease went, how it ended — each only
    // where it fits whole without covering another.
    let room = rect.intersect(painter.clip_rect()).shrink2(vec2(6.0, 0.0));
    let mut taken = Vec::new();
    let named = place_label(
        painter,
        &span.label,
        text_color,
        room.left(),
        true,
        room,
        &mut taken,
    );
    if let Some(l) = lost {
        let after_name = taken
            .last()
            .map_or(room.left(), |r: &Rect| r.right() + 12.0);
        let left = (geo.x(l.at_ms as f64) + 6.0).max(after_name);
        place_label(
            painter,
            &l.label,
            style::VIOLATING,
            left,
            true,
            room,
            &mut taken,
        );
    }
    // Only once the playhead is past the end: until then the bar has not ended.
    if span.end_ms as f64 <= geo.shown_until_ms {
        place_label(
            painter,
            &span.end_label,
            text_color,
            room.right(),
            false,
            room,
            &mut taken,
        );
    }
    if !named {
        // Too short for its name: put it after the bar if the row is free there.
        let after = Rect::from_x_y_ranges(
            rect.right() + 5.0..=bar.next_x.min(geo.plot.right()) - 8.0,
            rect.y_range(),
        );
        place_label(
            painter,
            &span.label,
            darker(color),
            after.left(),
            true,
            after,
            &mut taken,
        );
    }
    pointer.is_some_and(|p| rect.expand(2.0).contains(p))
}

/// Draws `text` starting (`from_left`) or ending at `x`, vertically centred on `room`, if it
/// fits inside `room` and clear of `taken`; a cut-off or overlapping label reads worse than
/// none. Returns whether it drew it.
fn place_label(
    painter: &egui::Painter,
    text: &str,
    color: Color32,
    x: f32,
    from_left: bool,
    room: Rect,
    taken: &mut Vec<Rect>,
) -> bool {
    if text.is_empty() || !room.is_positive() {
        return false;
    }
    let galley = painter.layout_no_wrap(text.to_string(), FontId::proportional(12.0), color);
    let size = galley.size();
    let left = if from_left { x } else { x - size.x };
    let rect = Rect::from_min_size(pos2(left, room.center().y - size.y / 2.0), size);
    let fits = rect.left() >= room.left() - 0.5
        && rect.right() <= room.right() + 0.5
        && size.y <= room.height() + 4.0
        && !taken
            .iter()
            .any(|t| t.intersects(rect.expand2(vec2(6.0, 0.0))));
    if fits {
        painter.galley(rect.min, galley, color);
        taken.push(rect);
    }
    fits
}

/// Paints a pause, stall, crash or slow link over the whole lane height, or a wait as a
/// dashed line where the bar will come; returns whether the pointer is on it.
fn paint_shading(
    painter: &egui::Painter,
    geo: &Geometry,
    lane_rect: Rect,
    node: NodeId,
    span: &Span,
    pointer: Option<Pos2>,
) -> bool {
    let (x0, x1) = geo.x_range(span.start_ms, span.end_ms);
    if let SpanKind::Waiting { .. } = span.kind {
        let y = bar_rect(lane_rect, 1, 0, x0, x1).center().y;
        let color = paint_waiting(painter, x0, x1, y, style::worker(node));
        let room = Rect::from_x_y_ranges(x0 + 4.0..=x1, y - 16.0..=y - 2.0);
        place_label(
            painter,
            &span.label,
            color,
            room.left(),
            true,
            room,
            &mut Vec::new(),
        );
        return pointer.is_some_and(|p| (x0..=x1).contains(&p.x) && (p.y - y).abs() <= 6.0);
    }
    let fill = match span.kind {
        SpanKind::Paused => style::PAUSED,
        SpanKind::Stalled => style::STALLED,
        SpanKind::Crashed => style::CRASHED,
        _ => style::SLOW_LINK,
    };
    let rect = Rect::from_x_y_ranges(x0..=x1, lane_rect.y_range().shrink(1.0));
    painter.rect_filled(rect, 0.0, fill);
    painter.text(
        pos2(x0.max(geo.plot.left()) + 5.0, lane_rect.top() + 4.0),
        Align2::LEFT_TOP,
        &span.label,
        FontId::proportional(11.5),
        style::FAULT_TEXT,
    );
    pointer.is_some_and(|p| rect.contains(p))
}

/// A worker's wait: a dashed line in its colour, faded; returns the colour used.
fn paint_waiting(painter: &egui::Painter, x0: f32, x1: f32, y: f32, worker: Color32) -> Color32 {
    let color = worker.gamma_multiply(0.7);
    painter.add(Shape::dashed_line(
        &[pos2(x0, y), pos2(x1, y)],
        Stroke::new(1.5, color),
        5.0,
        4.0,
    ));
    color
}

/// A clock jump: a dashed vertical line.
fn paint_clock_jump(painter: &egui::Painter, x: f32, y: egui::Rangef) {
    painter.add(Shape::dashed_line(
        &[pos2(x, y.min), pos2(x, y.max)],
        Stroke::new(1.5, style::FAULT_TEXT),
        4.0,
        3.0,
    ));
}

/// The rectangle of bar row `row` of `rows` in a lane, from `x0` to `x1`.
fn bar_rect(lane: Rect, rows: u32, row: u32, x0: f32, x1: f32) -> Rect {
    // Room above for fault labels ("paused 15 000 ms"), a little below.
    let area = lane.y_range();
    let (top, bottom) = (area.min + 20.0, area.max - 8.0);
    let row_h = ((bottom - top) / rows as f32).min(28.0);
    let y0 = (top + bottom) / 2.0 - row_h * rows as f32 / 2.0 + row_h * row as f32;
    Rect::from_x_y_ranges(x0..=x1.max(x0 + 1.0), y0 + 1.5..=y0 + row_h - 1.5)
}

/// The worker's view: a light fill with a border in the worker's colour.
pub fn paint_belief_bar(painter: &egui::Painter, rect: Rect, color: Color32) {
    painter.rect_filled(rect, 3.0, color.gamma_multiply(0.22));
    painter.rect_stroke(rect, 3.0, Stroke::new(1.5, color), StrokeKind::Inside);
}

/// The store's view: solid in the holder's colour.
pub fn paint_lease_bar(painter: &egui::Painter, rect: Rect, color: Color32) {
    painter.rect_filled(rect, 3.0, color);
}

/// Red hatching over the part of a belief bar where the store no longer held the grant.
pub fn paint_lease_gone(painter: &egui::Painter, rect: Rect) {
    let hatch = painter.with_clip_rect(rect.intersect(painter.clip_rect()));
    hatch.rect_filled(rect, 0.0, style::VIOLATING.gamma_multiply(0.12));
    let h = rect.height();
    let stroke = Stroke::new(1.0, style::VIOLATING.gamma_multiply(0.55));
    // Only the stripes that cross the visible part: a long bar zoomed in stays cheap.
    let visible = rect.intersect(painter.clip_rect());
    let mut x = visible.left() - h - (visible.left() - rect.left()).rem_euclid(8.0);
    while x < visible.right() {
        hatch.line_segment([pos2(x, rect.bottom()), pos2(x + h, rect.top())], stroke);
        x += 8.0;
    }
    hatch.vline(
        rect.left(),
        rect.y_range(),
        Stroke::new(2.0, style::VIOLATING),
    );
}

/// A write's disc: ✓ accepted, ✗ rejected, ! violating.
pub fn paint_write(painter: &egui::Painter, center: Pos2, outcome: WriteOutcome) {
    let white = Stroke::new(2.0, Color32::WHITE);
    match outcome {
        WriteOutcome::Accepted => {
            painter.circle_filled(center, 7.0, style::ACCEPTED);
            painter.line_segment([center + vec2(-3.5, 0.0), center + vec2(-1.0, 3.0)], white);
            painter.line_segment([center + vec2(-1.0, 3.0), center + vec2(3.5, -3.0)], white);
        }
        WriteOutcome::Rejected { .. } => {
            painter.circle_filled(center, 7.0, style::REJECTED);
            painter.line_segment([center + vec2(-3.0, -3.0), center + vec2(3.0, 3.0)], white);
            painter.line_segment([center + vec2(-3.0, 3.0), center + vec2(3.0, -3.0)], white);
        }
        WriteOutcome::Violating(_) => {
            painter.circle_filled(center, 9.0, style::VIOLATING);
            painter.line_segment([center + vec2(0.0, -5.0), center + vec2(0.0, 1.0)], white);
            painter.circle_filled(center + vec2(0.0, 4.0), 1.2, Color32::WHITE);
        }
    }
}

/// Where a mark's disc sits: on the lane's bar line.
fn mark_center(geo: &Geometry, lane_rect: Rect, mark: &Mark) -> Pos2 {
    let x = geo.x(mark.at_ms as f64);
    pos2(x, bar_rect(lane_rect, 1, 0, x, x).center().y)
}

/// Paints a mark; returns whether the pointer is on it.
fn paint_mark(
    painter: &egui::Painter,
    geo: &Geometry,
    lane_rect: Rect,
    mark: &Mark,
    taken: &mut Vec<Rect>,
    pointer: Option<Pos2>,
) -> bool {
    let Pos2 { x, y } = mark_center(geo, lane_rect, mark);
    let font = FontId::proportional(12.0);
    let (color, label_y) = match mark.kind {
        MarkKind::Write { outcome, .. } => {
            let color = match outcome {
                WriteOutcome::Accepted => style::ACCEPTED,
                WriteOutcome::Rejected { .. } => style::REJECTED,
                WriteOutcome::Violating(_) => style::VIOLATING,
            };
            painter.vline(x, lane_rect.y_range().shrink(3.0), Stroke::new(1.0, color));
            paint_write(painter, pos2(x, y), outcome);
            (color, y)
        }
        MarkKind::ClockJump { .. } => {
            paint_clock_jump(painter, x, lane_rect.y_range().shrink(2.0));
            (style::FAULT_TEXT, lane_rect.top() + 10.0)
        }
    };
    // Beside the mark, on the first side with room that no mark or earlier label took.
    let galley = painter.layout_no_wrap(mark.label.clone(), font, darker(color));
    let size = galley.size();
    let spots = [0.0, 18.0, -18.0].into_iter().flat_map(|dy| {
        let y = label_y + dy - size.y / 2.0;
        [pos2(x + 12.0, y), pos2(x - 12.0 - size.x, y)]
    });
    let fits = |r: &Rect| {
        r.left() >= geo.plot.left()
            && r.right() <= geo.plot.right()
            && !taken.iter().any(|l: &Rect| l.intersects(*r))
    };
    if let Some(rect) = spots
        .map(|p| Rect::from_min_size(p, size))
        .find(|r| fits(r))
    {
        taken.push(rect.expand(2.0));
        painter.galley(rect.min, galley, color);
    }
    pointer.is_some_and(|p| (p.x - x).abs() <= 9.0)
}

/// Text on a light tint of `color` needs a darker shade of it.
fn darker(color: Color32) -> Color32 {
    Color32::from_rgb(
        (f32::from(color.r()) * 0.7) as u8,
        (f32::from(color.g()) * 0.7) as u8,
        (f32::from(color.b()) * 0.7) as u8,
    )
}

/// A row of swatches explaining what the timeline shows up to `shown_until_ms`, drawn with
/// the timeline's own code. Later kinds join as they appear, so the legend gives nothing away.
pub fn legend(ui: &mut Ui, swatches: &[(Swatch, u64)], shown_until_ms: f64) {
    let worker = style::worker(0);
    let font = FontId::proportional(13.0);
    let text_color = ui.visuals().text_color();
    ui.horizontal_wrapped(|ui| {
        let shown = swatches
            .iter()
            .filter(|(_, at)| *at as f64 <= shown_until_ms);
        for &(swatch, _) in shown {
            let text = swatch_text(swatch);
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
                    paint_belief_bar(p, rect, worker);
                }
                Swatch::Lease => {
                    paint_lease_bar(p, rect, worker);
                }
                Swatch::LeaseLost => {
                    paint_belief_bar(p, rect, worker);
                    paint_lease_gone(p, rect);
                }
                Swatch::Waiting => {
                    paint_waiting(p, rect.left(), rect.right(), rect.center().y, worker);
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
                    paint_clock_jump(p, rect.center().x, rect.y_range());
                }
                Swatch::Accepted => {
                    paint_write(p, rect.center(), WriteOutcome::Accepted);
                }
                Swatch::Rejected => {
                    let outcome = WriteOutcome::Rejected {
                        reason: RejectReason::StaleToken,
                        highest_fence: None,
                    };
                    paint_write(p, rect.center(), outcome);
                }
                Swatch::Violating => {
                    paint_write(p, rect.center(), WriteOutcome::Violating(Kind::StaleWrite));
                }
            }
        }
    });
}

/// What a legend entry says.
fn swatch_text(swatch: Swatch) -> &'static str {
    match swatch {
        Swatch::Belief => "worker believes it holds the lock",
        Swatch::Lease => "store holds its lease",
        Swatch::LeaseLost => "believes it holds, but the store no longer does",
        Swatch::Waiting => "waiting for the lock",
        Swatch::Paused => "paused",
        Swatch::Stalled => "stalled: alive, but no progress",
        Swatch::Crashed => "crashed",
        Swatch::SlowLink => "slow link",
        Swatch::Partition => "cut off by a partition",
        Swatch::ClockJump => "clock jump",
        Swatch::Accepted => "write accepted",
        Swatch::Rejected => "write rejected",
        Swatch::Violating => "write that corrupted the data",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn following_the_playhead_pans_a_zoomed_view() {
        let mut v = View::fit(20_000);
        v.zoom(0.0, 4.0, 20_000.0);
        v.follow(6_000.0, 20_000);
        assert_eq!((v.start_ms, v.end_ms), (5_500.0, 10_500.0));
    }
}
