//! Messages as arrows from the sender's lane to the receiver's, a lost one ending in a cross.
//!
//! A run sends far more messages than fit, so messages are binned by send time a few pixels
//! at a time: a bin with a handful gets its arrows, a fuller one only a haze over the lanes
//! whose depth tells how many were sent then. Zoomed in to where a bin is a millisecond or
//! less, every message gets its arrow: times are whole milliseconds, so what shares a bin then
//! was sent at the same instant (a broadcast to every store node) and zooming further would
//! not pull those arrows apart.

use std::cmp::Ordering;

use super::hover::{Hit, Rank, Target};
use super::spans::bar_rect;
use super::{Canvas, Layer, Pen};
use crate::trace::{NodeId, Role};
use crate::view::palette::{self, Rgba};
use crate::view::timeline::{Lanes, Message};

/// Width of a send-time bin, px.
const BIN_PX: f32 = 6.0;
/// A bin with more messages than this is summed up as haze: one broadcast to five store
/// nodes and an answer still get arrows.
const MAX_ARROWS_PER_BIN: usize = 6;
/// How close a pointer must come to an arrow to be on it, px.
const HOVER_PX: f32 = 4.0;

/// Bins too full for arrows, next to each other and about as full, drawn as one block.
struct Haze {
    x0: f32,
    x1: f32,
    /// How full, 1 (just over the limit) to 4.
    depth: u8,
    count: usize,
    from_ms: u64,
    to_ms: u64,
}

/// Draws the messages in the window on [`Layer::Content`]: haze where they are too many,
/// arrows elsewhere.
pub(super) fn draw(c: &mut Canvas, lanes: &Lanes) {
    c.pen.layer(Layer::Content);
    let (arrows, haze) = plan(c, lanes);
    let (y0, y1) = (c.frame.plot.y0, c.frame.plot.y1);
    for h in haze {
        let rect = super::Area::new(h.x0, y0, h.x1, y1);
        c.pen
            .rect(rect, palette::MESSAGE_HAZE.faded(f32::from(h.depth)), 0.0);
        let target = Target::Haze {
            count: h.count,
            from_ms: h.from_ms,
            to_ms: h.to_ms,
        };
        c.pen.hover(Hit::Area(rect), Rank::Shading, target);
    }
    for i in arrows {
        message(c, lanes, i);
    }
}

/// Which messages in the window get an arrow (indexes into [`Lanes::messages`]), and where
/// haze goes instead.
fn plan(c: &Canvas, lanes: &Lanes) -> (Vec<usize>, Vec<Haze>) {
    let frame = &c.frame;
    let (from, to) = frame.window();
    let flights = &lanes.flights;
    let window = flights.window(from, to);
    // Messages sent before the window and still flying into it: few, so each gets its arrow.
    let first_sent_in_view = flights.first_starting_at(window.clone(), from);
    let mut arrows: Vec<usize> = (window.start..first_sent_in_view)
        .filter(|&i| flights.get(i).1 as f64 >= from)
        .collect();
    let mut haze: Vec<Haze> = Vec::new();
    let bin_ms = f64::from(BIN_PX) * frame.ms_per_px();
    for bin in flights.bins(first_sent_in_view..window.end, bin_ms) {
        let count = bin.items.len();
        if count <= MAX_ARROWS_PER_BIN || bin_ms <= 1.0 {
            arrows.extend(bin.items);
            continue;
        }
        // Depth grows with the doubling of the count, so a bin with 400 messages does not
        // look a hundred times darker than one with 4.
        let depth = (count as f64 / MAX_ARROWS_PER_BIN as f64)
            .log2()
            .ceil()
            .clamp(1.0, 4.0) as u8;
        let x0 = frame.x(bin.number as f64 * bin_ms);
        let x1 = frame.x((bin.number + 1) as f64 * bin_ms);
        let (from_ms, to_ms) = (
            flights.get(bin.items.start).0,
            flights.get(bin.items.end - 1).0,
        );
        match haze.last_mut() {
            Some(h) if h.depth == depth && (h.x1 - x0).abs() < 0.5 => {
                h.x1 = x1;
                h.count += count;
                h.to_ms = to_ms;
            }
            _ => haze.push(Haze {
                x0,
                x1,
                depth,
                count,
                from_ms,
                to_ms,
            }),
        }
    }
    // A held message is rare and tells the story of its run: it gets its arrow at any zoom.
    for &i in &lanes.held {
        let m = &lanes.messages[i];
        if m.sent_ms as f64 <= to && m.end_ms as f64 >= from && !arrows.contains(&i) {
            arrows.push(i);
        }
    }
    (arrows, haze)
}

/// Draws message `i`: its wait on the sender's lane if TCP held it, then its arrow.
fn message(c: &mut Canvas, lanes: &Lanes, i: usize) {
    let m = &lanes.messages[i];
    let (from_y, to_y) = ends_y(c, lanes, m.from, m.to);
    let color = arrow_color(lanes, m);
    let sent = (c.frame.x(m.sent_ms as f64), from_y);
    let got_through = m.left_ms > m.sent_ms;
    // A message TCP held waits on its sender's lane, dashed, until it goes out again (or is
    // lost with its connection, or the run ends).
    let wait_end = if got_through { m.left_ms } else { m.end_ms };
    let waited = m.held.then(|| (sent, (c.frame.x(wait_end as f64), from_y)));
    if let Some((a, b)) = waited {
        c.pen.dashed(a, b, color, 1.4, 3.0, 3.0);
        c.pen
            .hover(Hit::Near(a, b, HOVER_PX), Rank::Arrow, Target::Message(i));
    }
    let from = waited.map_or(sent, |w| w.1);
    let to = (c.frame.x(m.end_ms as f64), to_y);
    if !m.held || got_through || m.dropped.is_some() {
        arrow(c.pen, from, to, color, m.dropped.is_some());
    }
    c.pen.hover(
        Hit::Near(from, to, HOVER_PX),
        Rank::Arrow,
        Target::Message(i),
    );
}

/// One message from `from` to `to`: a line with a head, or with a cross if it was lost.
pub(super) fn arrow(pen: &mut dyn Pen, from: (f32, f32), to: (f32, f32), color: Rgba, lost: bool) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(f32::EPSILON);
    let dir = (dx / len, dy / len);
    if lost {
        // The cross stops short of the receiver's bars, which would hide half of it.
        let to = (to.0 - dir.0 * 5.0, to.1 - dir.1 * 5.0);
        pen.line(from, to, color.faded(0.6), 1.2);
        let d = 3.5;
        pen.line(
            (to.0 - d, to.1 - d),
            (to.0 + d, to.1 + d),
            palette::DROPPED,
            1.8,
        );
        pen.line(
            (to.0 - d, to.1 + d),
            (to.0 + d, to.1 - d),
            palette::DROPPED,
            1.8,
        );
        return;
    }
    pen.line(from, to, color, 1.2);
    let back = (to.0 - dir.0 * 7.0, to.1 - dir.1 * 7.0);
    let side = (-dir.1 * 3.5, dir.0 * 3.5);
    let head = [
        to,
        (back.0 + side.0, back.1 + side.1),
        (back.0 - side.0, back.1 - side.1),
    ];
    pen.polygon(&head, Some(color), None);
}

/// Where an arrow from lane `from` to lane `to` leaves and arrives: at the edges of their bars
/// that face each other, so arrows do not cover the bars and labels at either end.
fn ends_y(c: &Canvas, lanes: &Lanes, from: NodeId, to: NodeId) -> (f32, f32) {
    let bars = |node: NodeId| {
        let rows = lanes.lanes[node.index()].rows;
        let lane = c.frame.lane(node.index());
        let top = bar_rect(lane, rows, 0, 0.0, 0.0).y0;
        let bottom = bar_rect(lane, rows, rows - 1, 0.0, 0.0).y1;
        (top, bottom)
    };
    let ((from_top, from_bottom), (to_top, to_bottom)) = (bars(from), bars(to));
    match from.cmp(&to) {
        Ordering::Less => (from_bottom, to_top),
        Ordering::Greater => (from_top, to_bottom),
        Ordering::Equal => (from_bottom, to_bottom),
    }
}

/// A worker's requests in its own colour; answers and store traffic in a neutral one.
fn arrow_color(lanes: &Lanes, m: &Message) -> Rgba {
    match lanes.lanes[m.from.index()].role {
        Role::Worker => palette::worker(m.from).faded(0.85),
        Role::Store | Role::Resource => palette::MESSAGE,
    }
}
