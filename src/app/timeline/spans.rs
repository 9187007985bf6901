//! Spans on the lanes: fault shadings, waits, and the belief and lease bars, with their
//! labels. Each lane's tracks are culled to the view by binary search, and spans thinner
//! than a pixel are summed up into one block per pixel column.

use eframe::egui::{
    self, Align2, Color32, FontId, Pos2, Rect, Shape, Stroke, StrokeKind, pos2, vec2,
};

use super::{Canvas, Geometry, HoverRank, ink};
use crate::app::style;
use crate::trace::NodeId;
use crate::view::timeline::hover::thin_spans;
use crate::view::timeline::{Lane, MarkKind, Span, SpanKind, Track};

/// Spans narrower than this on screen (px) are summed up with their neighbours.
const THIN_PX: f32 = 1.0;

/// Paints every track of lane `index`, in order, so bars come out on top of shadings.
pub(super) fn paint_lane(c: &mut Canvas, index: usize, lane: &Lane) {
    for track in &lane.tracks {
        paint_track(c, index, lane, track);
    }
}

/// Paints the spans of `track` that are in view: wide ones one by one, thin ones summed up.
fn paint_track(c: &mut Canvas, index: usize, lane: &Lane, track: &Track) {
    let (from, to) = c.geo.window();
    let window = track.times.window(from, to);
    let mut thin: Option<Thin> = None;
    let mut k = window.start;
    while k < window.end {
        let (start, end) = track.times.get(k);
        let (x0, x1) = c.geo.x_range(start, end);
        if x1 - x0 >= THIN_PX {
            if let Some(t) = thin.take() {
                t.paint(c, index, lane);
            }
            let next_x = if k + 1 < track.spans.len() {
                c.geo.x(track.times.get(k + 1).0 as f64)
            } else {
                f32::INFINITY
            };
            paint_span(c, index, lane, track.spans[k], next_x);
            k += 1;
            continue;
        }
        // The spans of a track that start in this pixel column end before the last of them
        // starts, so all are as thin, but perhaps the last. One binary search finds them all.
        let column_end = c.geo.ms(x0.floor() + 1.0);
        let mut j = track.times.first_starting_at(k + 1..window.end, column_end);
        if j - 1 > k {
            let (last_start, last_end) = track.times.get(j - 1);
            let (a, b) = c.geo.x_range(last_start, last_end);
            if b - a >= THIN_PX {
                j -= 1;
            }
        }
        let end_ms = track.times.get(j - 1).1;
        let right = c.geo.x_range(start, end_ms).1.max(x0 + THIN_PX);
        let first = track.spans[k];
        let color = thin_color(&lane.spans[first].kind, NodeId::from_index(index));
        match &mut thin {
            Some(t) if t.color == color && x0 <= t.x1 + THIN_PX => {
                t.x1 = t.x1.max(right);
                t.count += j - k;
                t.end_ms = end_ms;
            }
            _ => {
                if let Some(t) = thin.take() {
                    t.paint(c, index, lane);
                }
                thin = Some(Thin {
                    x0,
                    x1: right,
                    count: j - k,
                    first,
                    color,
                    start_ms: start,
                    end_ms,
                });
            }
        }
        k = j;
    }
    if let Some(t) = thin {
        t.paint(c, index, lane);
    }
}

/// Paints one span wide enough to see, and offers its hover text.
fn paint_span(c: &mut Canvas, index: usize, lane: &Lane, span: usize, next_x: f32) {
    let lane_rect = c.geo.lane_rect(index);
    let node = NodeId::from_index(index);
    let span = &lane.spans[span];
    let pointer = c.pointer.filter(|p| lane_rect.contains(*p));
    let (hit, rank) = match span.kind.bar_row() {
        Some(row) => {
            let bar = Bar {
                lane_rect,
                rows: lane.rows,
                row,
                next_x,
            };
            (
                paint_bar(&c.content, &c.geo, &bar, span, pointer, &c.labels),
                HoverRank::Bar,
            )
        }
        None => {
            let label_x = fault_label_x(c, lane, c.geo.x(span.start_ms as f64));
            let hit = paint_shading(
                &c.content,
                &c.geo,
                lane_rect,
                node,
                span,
                pointer,
                (label_x, &mut c.labels),
            );
            (hit, HoverRank::Shading)
        }
    };
    if hit {
        let (trace, known) = (c.trace, c.known_until);
        c.hover.offer(rank, || span.details(trace, node, known));
    }
}

/// Where the label of a fault shading that starts at screen `x0` begins: a little inside it,
/// or past a role flag or clock jump standing there, whose labels share the lane's top row.
fn fault_label_x(c: &Canvas, lane: &Lane, x0: f32) -> f32 {
    let x = x0.max(c.geo.plot.left()) + 5.0;
    lane.mark_times
        .window(c.geo.ms(x - 12.0), c.geo.ms(x + 4.0))
        .filter(|&i| !matches!(lane.marks[i].kind, MarkKind::Write { .. }))
        .map(|i| c.geo.x(lane.marks[i].at_ms as f64) + 12.0)
        .fold(x, f32::max)
}

/// Neighbouring spans too thin to draw one by one, drawn as one block of their colour.
struct Thin {
    x0: f32,
    x1: f32,
    count: usize,
    /// The first of them (an index into the lane's spans): its kind stands for all.
    first: usize,
    color: Color32,
    start_ms: u64,
    end_ms: u64,
}

impl Thin {
    fn paint(self, c: &mut Canvas, index: usize, lane: &Lane) {
        let lane_rect = c.geo.lane_rect(index);
        let kind = &lane.spans[self.first].kind;
        let x = self.x0..=self.x1;
        let rect = match kind.bar_row() {
            Some(row) => bar_rect(lane_rect, lane.rows, row, self.x0, self.x1),
            None if matches!(kind, SpanKind::Waiting { .. }) => {
                let y = bar_rect(lane_rect, 1, 0, self.x0, self.x1).center().y;
                Rect::from_x_y_ranges(x, y - 0.75..=y + 0.75)
            }
            None => Rect::from_x_y_ranges(x, lane_rect.y_range().shrink(1.0)),
        };
        c.content.rect_filled(rect, 0.0, self.color);
        let hit = c
            .pointer
            .is_some_and(|p| rect.expand2(vec2(1.5, 3.0)).contains(p));
        if hit {
            let rank = if kind.bar_row().is_some() {
                HoverRank::Bar
            } else {
                HoverRank::Shading
            };
            let (count, from, to) = (self.count, self.start_ms, self.end_ms);
            c.hover
                .offer(rank, || thin_spans(&lane.name, kind, count, from, to));
        }
    }
}

/// The colour a thin span is summed up in.
fn thin_color(kind: &SpanKind, node: NodeId) -> Color32 {
    match *kind {
        SpanKind::Belief { token, .. } => style::token(token).gamma_multiply(0.5),
        SpanKind::Lease {
            token,
            on_disk: true,
            ..
        } => style::token(token).gamma_multiply(0.35),
        SpanKind::Lease { token, .. } => style::token(token),
        SpanKind::Logged { token, .. } => style::token(token).gamma_multiply(0.3),
        SpanKind::Waiting { .. } => style::worker(node).gamma_multiply(0.7),
        SpanKind::Paused => style::PAUSED,
        SpanKind::Stalled => style::STALLED,
        SpanKind::Crashed => style::CRASHED,
        SpanKind::SlowLink { .. } => style::SLOW_LINK,
    }
}

/// Where a bar goes: its lane, its row, and what is right of it.
struct Bar {
    lane_rect: Rect,
    rows: u32,
    row: u32,
    /// Screen x where the next bar on the same row begins (infinite if none).
    next_x: f32,
}

/// Paints a belief or lease bar and its labels, the one after it clear of `labels`; returns
/// whether the pointer is on it.
fn paint_bar(
    painter: &egui::Painter,
    geo: &Geometry,
    bar: &Bar,
    span: &Span,
    pointer: Option<Pos2>,
    labels: &[Rect],
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
            (color, ink(painter, color), lost)
        }
        SpanKind::Lease {
            token,
            on_disk: true,
            ..
        } => {
            let color = style::token(*token);
            paint_on_disk_bar(painter, rect, color);
            (color, ink(painter, color), None)
        }
        SpanKind::Lease {
            token, took_over, ..
        } => {
            let color = style::token(*token);
            paint_lease_bar(painter, rect, color);
            if *took_over {
                paint_takeover_edge(painter, rect);
            }
            (color, Color32::WHITE, None)
        }
        SpanKind::Logged { token, .. } => {
            let color = style::token(*token);
            paint_logged_bar(painter, rect, color);
            (color, ink(painter, color), None)
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
        // Too short for its name: put it after the bar if the row is free there, and no
        // shading's or wait's label is in the way.
        taken.extend_from_slice(labels);
        // Not past the playhead either, which would cut it in half.
        let end = bar.next_x.min(painter.clip_rect().right());
        let after = Rect::from_x_y_ranges(rect.right() + 5.0..=end - 8.0, rect.y_range());
        place_label(
            painter,
            &span.label,
            ink(painter, color),
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
    // Every glyph is at least this wide: a room narrower than that is too small for the text
    // before paying for its layout (many bars at once are too short for a label).
    const NARROWEST_GLYPH_PX: f32 = 3.0;
    let too_narrow = room.width() < text.chars().count() as f32 * NARROWEST_GLYPH_PX;
    if text.is_empty() || !room.is_positive() || too_narrow {
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

/// Paints a pause, stall, crash or slow link over the whole lane height, its label starting
/// at `label_x`, or a wait as a dashed line where the bar will come; adds the label drawn to
/// `labels`. Returns whether the pointer is on it.
fn paint_shading(
    painter: &egui::Painter,
    geo: &Geometry,
    lane_rect: Rect,
    node: NodeId,
    span: &Span,
    pointer: Option<Pos2>,
    (label_x, labels): (f32, &mut Vec<Rect>),
) -> bool {
    let (x0, x1) = geo.x_range(span.start_ms, span.end_ms);
    if let SpanKind::Waiting { .. } = span.kind {
        let y = bar_rect(lane_rect, 1, 0, x0, x1).center().y;
        let color = paint_waiting(painter, x0, x1, y, style::worker(node));
        let room = Rect::from_x_y_ranges(x0 + 4.0..=x1, y - 16.0..=y - 2.0);
        place_label(painter, &span.label, color, room.left(), true, room, labels);
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
    labels.push(painter.text(
        pos2(label_x, lane_rect.top() + 4.0),
        Align2::LEFT_TOP,
        &span.label,
        FontId::proportional(11.5),
        style::FAULT_TEXT,
    ));
    pointer.is_some_and(|p| rect.contains(p))
}

/// A worker's wait: a dashed line in its colour, faded; returns the colour used.
pub(super) fn paint_waiting(
    painter: &egui::Painter,
    x0: f32,
    x1: f32,
    y: f32,
    worker: Color32,
) -> Color32 {
    let color = worker.gamma_multiply(0.7);
    painter.add(Shape::dashed_line(
        &[pos2(x0, y), pos2(x1, y)],
        Stroke::new(1.5, color),
        5.0,
        4.0,
    ));
    color
}

/// The rectangle of bar row `row` of `rows` in a lane, from `x0` to `x1`.
pub(super) fn bar_rect(lane: Rect, rows: u32, row: u32, x0: f32, x1: f32) -> Rect {
    // Room above for fault labels ("paused 15 000 ms"), a little below.
    let area = lane.y_range();
    let (top, bottom) = (area.min + 20.0, area.max - 8.0);
    let row_h = ((bottom - top) / rows as f32).min(28.0);
    let y0 = (top + bottom) / 2.0 - row_h * rows as f32 / 2.0 + row_h * row as f32;
    Rect::from_x_y_ranges(x0..=x1.max(x0 + 1.0), y0 + 1.5..=y0 + row_h - 1.5)
}

/// The worker's view: a light fill with a border in the worker's colour.
pub(super) fn paint_belief_bar(painter: &egui::Painter, rect: Rect, color: Color32) {
    painter.rect_filled(rect, 3.0, color.gamma_multiply(0.22));
    painter.rect_stroke(rect, 3.0, Stroke::new(1.5, color), StrokeKind::Inside);
}

/// The store's view: solid in the holder's colour.
pub(super) fn paint_lease_bar(painter: &egui::Painter, rect: Rect, color: Color32) {
    painter.rect_filled(rect, 3.0, color);
}

/// A grant on the disk of a node that is down: faded, hatched in grey, outlined — frozen, not
/// live.
pub(super) fn paint_on_disk_bar(painter: &egui::Painter, rect: Rect, color: Color32) {
    painter.rect_filled(rect, 3.0, color.gamma_multiply(0.18));
    let hatch = painter.with_clip_rect(rect.intersect(painter.clip_rect()));
    let stroke = Stroke::new(1.0, style::FAULT_TEXT.gamma_multiply(0.8));
    let h = rect.height();
    let visible = rect.intersect(painter.clip_rect());
    let mut x = visible.left() - h - (visible.left() - rect.left()).rem_euclid(6.0);
    while x < visible.right() {
        hatch.line_segment([pos2(x, rect.top()), pos2(x + h, rect.bottom())], stroke);
        x += 6.0;
    }
    painter.rect_stroke(rect, 3.0, Stroke::new(1.0, color), StrokeKind::Inside);
}

/// The start of a lease a new leader took over from its log: a white double edge, so it does
/// not read as a fresh grant.
pub(super) fn paint_takeover_edge(painter: &egui::Painter, rect: Rect) {
    let stroke = Stroke::new(1.5, Color32::WHITE);
    let y = rect.y_range().shrink(3.0);
    for dx in [3.0, 6.5] {
        painter.vline(rect.left() + dx, y, stroke);
    }
}

/// A follower's logged copy of an acquire: a faint fill over a thin strip in the holder's
/// colour along the bottom, lighter than the leader's lease.
pub(super) fn paint_logged_bar(painter: &egui::Painter, rect: Rect, color: Color32) {
    painter.rect_filled(rect, 3.0, color.gamma_multiply(0.1));
    let strip = Rect::from_x_y_ranges(rect.x_range(), rect.bottom() - 3.0..=rect.bottom());
    painter.rect_filled(strip, 1.0, color.gamma_multiply(0.8));
}

/// Red hatching over the part of a belief bar where the store no longer held the grant.
pub(super) fn paint_lease_gone(painter: &egui::Painter, rect: Rect) {
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
