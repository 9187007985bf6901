//! Spans on the lanes: fault shadings, waits, and the belief and lease bars with their
//! labels. Each lane's tracks are culled to the frame's window by binary search, and spans
//! thinner than a pixel are summed up into one block per run of neighbours.

use super::hover::{Hit, Rank, Target};
use super::sizes::{LABEL, THIN_PX, line_h};
use super::{Anchor, Area, Canvas, Hatch, Layer, Pen, Theme, ink, measure};
use crate::trace::NodeId;
use crate::view::palette::{self, Rgba};
use crate::view::timeline::{Lane, MarkKind, Span, SpanKind, Track};

/// Draws every track of lane `index`, in order, so bars come out on top of shadings.
pub(super) fn lane(c: &mut Canvas, index: usize, lane: &Lane) {
    c.pen.layer(Layer::Content);
    for track in &lane.tracks {
        draw_track(c, index, lane, track);
    }
}

/// Neighbouring spans too thin to draw one by one, drawn as one block of their colour.
struct Thin {
    x0: f32,
    x1: f32,
    count: usize,
    /// The first of them (an index into the lane's spans): its kind stands for all.
    first: usize,
    color: Rgba,
    start_ms: u64,
    end_ms: u64,
}

/// Draws the spans of `track` that are in the window: wide ones one by one, thin ones summed
/// up.
fn draw_track(c: &mut Canvas, index: usize, lane: &Lane, track: &Track) {
    let (from, to) = c.frame.window();
    let window = track.times.window(from, to);
    let mut thin: Option<Thin> = None;
    let mut k = window.start;
    while k < window.end {
        let (start, end) = track.times.get(k);
        let (x0, x1) = c.frame.x_range(start, end);
        if x1 - x0 >= THIN_PX {
            if let Some(t) = thin.take() {
                draw_thin(c, index, lane, &t);
            }
            let next_x = if k + 1 < track.spans.len() {
                c.frame.x(track.times.get(k + 1).0 as f64)
            } else {
                f32::INFINITY
            };
            draw_span(c, index, lane, track.spans[k], next_x);
            k += 1;
            continue;
        }
        // The spans of a track that start in this pixel column end before the last of them
        // starts, so all are as thin, but perhaps the last. One binary search finds them all.
        let column_end = c.frame.ms(x0.floor() + 1.0);
        let mut j = track.times.first_starting_at(k + 1..window.end, column_end);
        if j - 1 > k {
            let (last_start, last_end) = track.times.get(j - 1);
            let (a, b) = c.frame.x_range(last_start, last_end);
            if b - a >= THIN_PX {
                j -= 1;
            }
        }
        let end_ms = track.times.get(j - 1).1;
        let right = c.frame.x_range(start, end_ms).1.max(x0 + THIN_PX);
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
                    draw_thin(c, index, lane, &t);
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
        draw_thin(c, index, lane, &t);
    }
}

fn draw_thin(c: &mut Canvas, index: usize, lane: &Lane, t: &Thin) {
    let lane_rect = c.frame.lane(index);
    let kind = &lane.spans[t.first].kind;
    let rect = match kind.bar_row() {
        Some(row) => bar_rect(lane_rect, lane.rows, row, t.x0, t.x1),
        None if matches!(kind, SpanKind::Waiting { .. }) => {
            let y = bar_rect(lane_rect, 1, 0, t.x0, t.x1).center_y();
            Area::new(t.x0, y - 0.75, t.x1, y + 0.75)
        }
        None => Area::new(t.x0, lane_rect.y0 + 1.0, t.x1, lane_rect.y1 - 1.0),
    };
    c.pen.rect(rect, t.color, 0.0);
    let rank = if kind.bar_row().is_some() {
        Rank::Bar
    } else {
        Rank::Shading
    };
    let target = Target::Thin {
        lane: index,
        first: t.first,
        count: t.count,
        from_ms: t.start_ms,
        to_ms: t.end_ms,
    };
    c.pen.hover(Hit::Area(rect.expand2(1.5, 3.0)), rank, target);
}

/// The colour thin spans are summed up in.
fn thin_color(kind: &SpanKind, node: NodeId) -> Rgba {
    match *kind {
        SpanKind::Belief { token, .. } => palette::token(token).faded(0.5),
        SpanKind::Lease {
            token,
            on_disk: true,
            ..
        } => palette::token(token).faded(0.35),
        SpanKind::Lease { token, .. } => palette::token(token),
        SpanKind::Logged { token, .. } => palette::token(token).faded(0.3),
        SpanKind::Waiting { .. } => palette::worker(node).faded(0.7),
        SpanKind::Paused => palette::PAUSED,
        SpanKind::Stalled => palette::STALLED,
        SpanKind::Crashed => palette::CRASHED,
        SpanKind::SlowLink { .. } => palette::SLOW_LINK,
    }
}

/// Draws span `at` of `lane`, wide enough to see; `next_x` is where the next span of its
/// track begins.
fn draw_span(c: &mut Canvas, index: usize, lane: &Lane, at: usize, next_x: f32) {
    let span = &lane.spans[at];
    let (hit, rank) = match span.kind.bar_row() {
        Some(row) => (draw_bar(c, index, lane.rows, row, span, next_x), Rank::Bar),
        None => (draw_shading(c, index, lane, span), Rank::Shading),
    };
    if let Some(hit) = hit {
        let target = Target::Span {
            lane: index,
            span: at,
        };
        c.pen.hover(Hit::Area(hit), rank, target);
    }
}

/// Draws a belief or lease bar and its labels: which grant, where its lease went, how it
/// ended — each only where it fits whole, clear of every label drawn before. Returns where a
/// pointer is on it.
fn draw_bar(
    c: &mut Canvas,
    index: usize,
    rows: u32,
    row: u32,
    span: &Span,
    next_x: f32,
) -> Option<Area> {
    let lane_rect = c.frame.lane(index);
    let (x0, x1) = c.frame.x_range(span.start_ms, span.end_ms);
    let rect = bar_rect(lane_rect, rows, row, x0, x1);
    let pen = &mut *c.pen;
    let (color, text_color, lost) = match &span.kind {
        SpanKind::Belief {
            token, lease_lost, ..
        } => {
            let color = palette::token(*token);
            belief_bar(pen, rect, color);
            let lost = lease_lost
                .as_ref()
                .filter(|l| l.at_ms as f64 <= c.frame.shown_until_ms);
            if let Some(l) = lost {
                let gone_x = c.frame.x(l.at_ms as f64);
                lease_gone(pen, Area::new(gone_x, rect.y0, rect.x1, rect.y1));
            }
            (color, ink(&c.theme, color), lost)
        }
        SpanKind::Lease {
            token,
            on_disk: true,
            ..
        } => {
            let color = palette::token(*token);
            on_disk_bar(pen, rect, color);
            (color, ink(&c.theme, color), None)
        }
        SpanKind::Lease {
            token, took_over, ..
        } => {
            let color = palette::token(*token);
            lease_bar(pen, rect, color);
            if *took_over {
                takeover_edge(pen, &c.theme, rect);
            }
            (color, c.theme.white, None)
        }
        SpanKind::Logged { token, .. } => {
            let color = palette::token(*token);
            logged_bar(pen, rect, color);
            (color, ink(&c.theme, color), None)
        }
        _ => return None,
    };

    let room = rect.intersect(&c.frame.plot).shrink2(6.0, 0.0);
    let mut taken: Vec<Area> = c.labels.clone();
    let before = taken.len();
    let mut place =
        |text: &str, color: Rgba, x: f32, from_left: bool, room: Area, taken: &mut Vec<Area>| {
            place_label(pen, text, color, x, from_left, room, taken)
        };
    // No label has the red edge where the lease was lost through it, which would read as
    // part of the text: the name keeps left of it, the end right of it.
    let (name_room, end_room) = match lost.map(|l| c.frame.x(l.at_ms as f64)) {
        Some(gone_x) if room.x0 < gone_x && gone_x < room.x1 => (
            Area::new(room.x0, room.y0, room.x1.min(gone_x - 4.0), room.y1),
            Area::new(room.x0.max(gone_x + 4.0), room.y0, room.x1, room.y1),
        ),
        _ => (room, room),
    };
    // Too little room left of the edge: the name goes right of it, before the loss is told.
    let named = place(
        &span.label,
        text_color,
        room.x0,
        true,
        name_room,
        &mut taken,
    ) || (end_room != room
        && place(
            &span.label,
            text_color,
            end_room.x0 + 2.0,
            true,
            end_room,
            &mut taken,
        ));
    if let Some(l) = lost {
        let after_name = if named {
            taken.last().map_or(room.x0, |r| r.x1 + 12.0)
        } else {
            room.x0
        };
        let left = (c.frame.x(l.at_ms as f64) + 6.0).max(after_name);
        place(&l.label, palette::VIOLATING, left, true, room, &mut taken);
    }
    // Only once it is shown to its end: until then the bar has not ended.
    if span.end_ms as f64 <= c.frame.shown_until_ms {
        place(
            &span.end_label,
            text_color,
            room.x1,
            false,
            end_room,
            &mut taken,
        );
    }
    if !named {
        // Too short for its name: after the bar, if its row is free there, and not past
        // what is shown, which would cut it in half.
        let end = next_x.min(c.frame.shown_x1());
        let after = Area::new(rect.x1 + 5.0, rect.y0, end - 8.0, rect.y1);
        let color = ink(&c.theme, color);
        place(&span.label, color, after.x0, true, after, &mut taken);
    }
    c.labels.extend_from_slice(&taken[before..]);
    Some(rect.expand2(2.0, 2.0))
}

/// Draws `text` starting (`from_left`) or ending at `x`, vertically centred on `room`, if it
/// fits inside `room` and clear of `taken`, and notes where; a cut-off or overlapping label
/// reads worse than none. Returns whether it drew it.
fn place_label(
    pen: &mut dyn Pen,
    text: &str,
    color: Rgba,
    x: f32,
    from_left: bool,
    room: Area,
    taken: &mut Vec<Area>,
) -> bool {
    // No glyph is narrower than this at the label's size: a room narrower than that is too
    // small for the text before paying for its layout (many bars at once are too short).
    const NARROWEST_GLYPH_PX: f32 = 2.5;
    let too_narrow = room.width() < text.chars().count() as f32 * NARROWEST_GLYPH_PX;
    if text.is_empty() || !room.is_positive() || too_narrow {
        return false;
    }
    let (w, h) = (pen.text_width(text, LABEL), line_h(LABEL));
    let left = if from_left { x } else { x - w * measure::SLACK };
    let rect = Area::new(
        left,
        room.center_y() - h / 2.0,
        left + w,
        room.center_y() + h / 2.0,
    );
    let fits = rect.x0 >= room.x0 - 0.5
        && rect.x0 + w * measure::SLACK <= room.x1 + 0.5
        && h <= room.height() + 6.0
        && !taken.iter().any(|t| t.intersects(&rect.expand2(6.0, 0.0)));
    if fits {
        pen.text(
            (rect.x0, room.center_y()),
            Anchor::Start,
            LABEL,
            color,
            text,
        );
        taken.push(rect);
    }
    fits
}

/// Where the label of a fault shading that starts at `x0` begins: a little inside it, or past
/// a role flag or clock jump standing there, whose labels share the lane's top row.
fn fault_label_x(c: &Canvas, lane: &Lane, x0: f32) -> f32 {
    let x = x0.max(c.frame.plot.x0) + 5.0;
    lane.mark_times
        .window(c.frame.ms(x - 12.0), c.frame.ms(x + 4.0))
        .filter(|&i| !matches!(lane.marks[i].kind, MarkKind::Write { .. }))
        .map(|i| c.frame.x(lane.marks[i].at_ms as f64) + 12.0)
        .fold(x, f32::max)
}

/// A pause, stall, crash or slow link over the whole lane, named along its top; or a wait as
/// a dashed line where the bar will come, named above it. Returns where a pointer is on it.
fn draw_shading(c: &mut Canvas, index: usize, lane: &Lane, span: &Span) -> Option<Area> {
    let lane_rect = c.frame.lane(index);
    let (x0, x1) = c.frame.x_range(span.start_ms, span.end_ms);
    if let SpanKind::Waiting { .. } = span.kind {
        let y = bar_rect(lane_rect, 1, 0, x0, x1).center_y();
        let worker = palette::worker(NodeId::from_index(index));
        let color = waiting(c.pen, x0, x1, y, worker);
        let room = Area::new(x0 + 4.0, y - 16.0, x1.min(c.frame.plot.x1), y - 2.0);
        place_label(
            c.pen,
            &span.label,
            color,
            room.x0,
            true,
            room,
            &mut c.labels,
        );
        return Some(Area::new(x0, y - 6.0, x1, y + 6.0));
    }
    let fill = match span.kind {
        SpanKind::Paused => palette::PAUSED,
        SpanKind::Stalled => palette::STALLED,
        SpanKind::Crashed => palette::CRASHED,
        _ => palette::SLOW_LINK,
    };
    let shading = Area::new(x0, lane_rect.y0 + 1.0, x1, lane_rect.y1 - 1.0);
    c.pen.rect(shading, fill, 0.0);
    let left = fault_label_x(c, lane, x0);
    let size = 11.5;
    let w = c.pen.text_width(&span.label, size);
    let label = Area::new(
        left,
        lane_rect.y0 + 4.0,
        left + w,
        lane_rect.y0 + 4.0 + line_h(size),
    );
    let clear = !c
        .labels
        .iter()
        .any(|t| t.intersects(&label.expand2(6.0, 0.0)));
    if clear && left + w * measure::SLACK <= c.frame.plot.x1 {
        c.pen.text(
            (label.x0, label.center_y()),
            Anchor::Start,
            size,
            palette::FAULT_TEXT,
            &span.label,
        );
        c.labels.push(label);
    }
    Some(shading)
}

/// A worker's wait: a dashed line in its colour, faded; returns the colour used.
pub(super) fn waiting(pen: &mut dyn Pen, x0: f32, x1: f32, y: f32, worker: Rgba) -> Rgba {
    let color = worker.faded(0.7);
    pen.dashed((x0, y), (x1, y), color, 1.5, 5.0, 4.0);
    color
}

/// The rectangle of bar row `row` of `rows` in a lane, from `x0` to `x1`.
pub(super) fn bar_rect(lane: Area, rows: u32, row: u32, x0: f32, x1: f32) -> Area {
    // Room above for fault labels ("paused 15 000 ms"), a little below.
    let (top, bottom) = (lane.y0 + 20.0, lane.y1 - 8.0);
    let row_h = ((bottom - top) / rows as f32).min(28.0);
    let y0 = (top + bottom) / 2.0 - row_h * rows as f32 / 2.0 + row_h * row as f32;
    Area::new(x0, y0 + 1.5, x1.max(x0 + 1.0), y0 + row_h - 1.5)
}

/// The worker's view: a light fill with a border in the worker's colour.
pub(super) fn belief_bar(pen: &mut dyn Pen, rect: Area, color: Rgba) {
    pen.rect(rect, color.faded(0.22), 3.0);
    pen.outline(rect, color, 1.5, 3.0);
}

/// The store's view: solid in the holder's colour.
pub(super) fn lease_bar(pen: &mut dyn Pen, rect: Area, color: Rgba) {
    pen.rect(rect, color, 3.0);
}

/// A grant on the disk of a node that is down: faded, hatched in grey, outlined — frozen, not
/// live.
pub(super) fn on_disk_bar(pen: &mut dyn Pen, rect: Area, color: Rgba) {
    pen.rect(rect, color.faded(0.18), 3.0);
    pen.hatch(rect, Hatch::OnDisk);
    pen.outline(rect, color, 1.0, 3.0);
}

/// The start of a lease a new leader took over from its log: a white double edge, so it does
/// not read as a fresh grant.
pub(super) fn takeover_edge(pen: &mut dyn Pen, theme: &Theme, rect: Area) {
    for dx in [3.0, 6.5] {
        let x = rect.x0 + dx;
        pen.line((x, rect.y0 + 3.0), (x, rect.y1 - 3.0), theme.white, 1.5);
    }
}

/// A follower's logged copy of an acquire: a faint fill over a thin strip in the holder's
/// colour along the bottom, lighter than the leader's lease.
pub(super) fn logged_bar(pen: &mut dyn Pen, rect: Area, color: Rgba) {
    pen.rect(rect, color.faded(0.1), 3.0);
    let strip = Area::new(rect.x0, rect.y1 - 3.0, rect.x1, rect.y1);
    pen.rect(strip, color.faded(0.8), 1.0);
}

/// Red hatching over the part of a belief bar where the store no longer held the grant, with
/// a red edge where that began.
pub(super) fn lease_gone(pen: &mut dyn Pen, rect: Area) {
    pen.rect(rect, palette::VIOLATING.faded(0.12), 0.0);
    pen.hatch(rect, Hatch::LeaseLost);
    pen.line(
        (rect.x0, rect.y0),
        (rect.x0, rect.y1),
        palette::VIOLATING,
        2.0,
    );
}
