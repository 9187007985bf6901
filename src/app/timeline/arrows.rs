//! Messages as arrows from the sender's lane to the receiver's, a lost one ending in a cross.
//!
//! A run sends far more messages than fit on screen, so messages are binned by send time a
//! few pixels at a time: a bin with a handful gets its arrows, a fuller one only a haze over
//! the lanes whose depth tells how many were sent then. Zoomed in to where a bin is a
//! millisecond or less, every message gets its arrow: times are whole milliseconds, so what
//! shares a bin then was sent at the same instant (a broadcast to every store node) and
//! zooming further would not pull those arrows apart.

use std::cmp::Ordering;

use eframe::egui::{Color32, Pos2, Rect, Shape, Stroke, Vec2, pos2, vec2};

use super::spans::bar_rect;
use super::{Canvas, HoverRank};
use crate::app::style;
use crate::trace::{NodeId, Role};
use crate::view::timeline::hover::message_haze;
use crate::view::timeline::{Lanes, Message};

/// Width of a send-time bin, px.
const BIN_PX: f32 = 6.0;
/// A bin with more messages than this is summed up as haze: one broadcast to five store
/// nodes and an answer still get arrows.
const MAX_ARROWS_PER_BIN: usize = 6;
/// How close the pointer must come to an arrow to hover it, px.
const HOVER_PX: f32 = 4.0;

/// What this frame draws of the messages: which get an arrow, and where haze goes instead.
pub(super) struct Plan {
    /// Messages drawn one by one, as indexes into [`Lanes::messages`].
    arrows: Vec<usize>,
    /// Runs of neighbouring bins too full for arrows.
    haze: Vec<Haze>,
}

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

/// Decides which messages in view get an arrow and where haze goes instead.
pub(super) fn plan(c: &Canvas, lanes: &Lanes) -> Plan {
    let geo = &c.geo;
    let (from, to) = geo.window();
    let flights = &lanes.flights;
    let window = flights.window(from, to);
    // Messages sent before the view and still flying into it: few, so each gets its arrow.
    let first_sent_in_view = flights.first_starting_at(window.clone(), from);
    let mut arrows: Vec<usize> = (window.start..first_sent_in_view)
        .filter(|&i| flights.get(i).1 as f64 >= from)
        .collect();
    let mut haze: Vec<Haze> = Vec::new();
    let bin_ms = f64::from(BIN_PX) * geo.ms_per_px();
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
        let x0 = geo.x(bin.number as f64 * bin_ms);
        let x1 = geo.x((bin.number + 1) as f64 * bin_ms);
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
    Plan { arrows, haze }
}

/// Paints the haze where messages are too many for arrows.
pub(super) fn paint_haze(c: &mut Canvas, plan: &Plan) {
    let y = c.geo.plot.y_range();
    for h in &plan.haze {
        let rect = Rect::from_x_y_ranges(h.x0..=h.x1, y);
        c.content.rect_filled(
            rect,
            0.0,
            style::MESSAGE_HAZE.gamma_multiply(f32::from(h.depth)),
        );
        if c.pointer.is_some_and(|p| rect.contains(p)) {
            let (count, from, to) = (h.count, h.from_ms, h.to_ms);
            c.hover
                .offer(HoverRank::Shading, || message_haze(count, from, to));
        }
    }
}

/// Paints the arrows of `plan`.
pub(super) fn paint_arrows(c: &mut Canvas, lanes: &Lanes, plan: &Plan) {
    for &i in &plan.arrows {
        let m = &lanes.messages[i];
        let (from_y, to_y) = ends_y(c, lanes, m.from, m.to);
        let color = arrow_color(lanes, m);
        let sent = pos2(c.geo.x(m.sent_ms as f64), from_y);
        let got_through = m.left_ms > m.sent_ms;
        // A message TCP held waits on its sender's lane, dashed, until it goes out again (or
        // is lost with its connection, or the run ends).
        let wait_end = if got_through { m.left_ms } else { m.end_ms };
        let waited = m
            .held
            .then(|| [sent, pos2(c.geo.x(wait_end as f64), from_y)]);
        if let Some(wait) = waited {
            c.content
                .extend(Shape::dashed_line(&wait, Stroke::new(1.4, color), 3.0, 3.0));
        }
        let from = waited.map_or(sent, |w| w[1]);
        let to = pos2(c.geo.x(m.end_ms as f64), to_y);
        if !m.held || got_through || m.dropped.is_some() {
            paint_arrow(&c.content, from, to, color, m.dropped.is_some());
        }
        let hit = c.pointer.is_some_and(|p| {
            // Only what has been drawn: the part of the flight up to the playhead.
            p.x <= c.geo.x(c.geo.shown_until_ms)
                && (distance_to_segment(p, from, to) <= HOVER_PX
                    || waited.is_some_and(|w| distance_to_segment(p, w[0], w[1]) <= HOVER_PX))
        });
        if hit {
            let (trace, known) = (c.trace, c.known_until);
            c.hover.offer(HoverRank::Arrow, || m.details(trace, known));
        }
    }
}

/// Paints one message from `from` to `to`: a line with a head, or with a cross if it was lost.
pub(super) fn paint_arrow(
    painter: &eframe::egui::Painter,
    from: Pos2,
    to: Pos2,
    color: Color32,
    lost: bool,
) {
    let stroke = Stroke::new(1.2, color);
    let dir = (to - from).normalized();
    if lost {
        // The cross stops short of the receiver's bars, which would hide half of it.
        let to = to - dir * 5.0;
        painter.line_segment([from, to], Stroke::new(1.2, color.gamma_multiply(0.6)));
        let cross = Stroke::new(1.8, style::DROPPED);
        let (a, b) = (vec2(3.5, 3.5), vec2(3.5, -3.5));
        painter.line_segment([to - a, to + a], cross);
        painter.line_segment([to - b, to + b], cross);
        return;
    }
    painter.line_segment([from, to], stroke);
    let back = to - dir * 7.0;
    let side: Vec2 = dir.rot90() * 3.5;
    painter.add(Shape::convex_polygon(
        vec![to, back + side, back - side],
        color,
        Stroke::NONE,
    ));
}

/// Where an arrow from lane `from` to lane `to` leaves and arrives: at the edges of their bars
/// that face each other, so arrows do not cover the bars and labels at either end.
fn ends_y(c: &Canvas, lanes: &Lanes, from: NodeId, to: NodeId) -> (f32, f32) {
    let bars = |node: NodeId| {
        let rows = lanes.lanes[node.index()].rows;
        let lane = c.geo.lane_rect(node.index());
        let top = bar_rect(lane, rows, 0, 0.0, 0.0).top();
        let bottom = bar_rect(lane, rows, rows - 1, 0.0, 0.0).bottom();
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
fn arrow_color(lanes: &Lanes, m: &Message) -> Color32 {
    match lanes.lanes[m.from.index()].role {
        Role::Worker => style::worker(m.from).gamma_multiply(0.85),
        Role::Store | Role::Resource => style::MESSAGE,
    }
}

/// The distance from `p` to the segment `a`–`b`.
fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let len2 = ab.length_sq();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t).distance(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_to_a_segment_is_to_its_nearest_point() {
        let (a, b) = (pos2(0.0, 0.0), pos2(10.0, 0.0));
        assert_eq!(distance_to_segment(pos2(5.0, 3.0), a, b), 3.0);
        assert_eq!(distance_to_segment(pos2(13.0, 4.0), a, b), 5.0);
        assert_eq!(distance_to_segment(pos2(0.0, 2.0), a, a), 2.0);
    }
}
