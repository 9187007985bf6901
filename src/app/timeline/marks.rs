//! Marks on the lanes (writes, clock jumps, role changes) and the violation markers on the
//! axis. Marks closer together than their symbols are wide are summed up per bin of a few
//! pixels, in the colour of the gravest thing the bin holds.

use eframe::egui::{self, Color32, FontId, Pos2, Rect, Shape, Stroke, pos2, vec2};

use super::spans::bar_rect;
use super::{Action, Canvas, Geometry, HoverRank, ink};
use crate::app::style;
use crate::checker::Verdict;
use crate::trace::NodeId;
use crate::view::timeline::hover::{crowded_marks, violation_marker, violation_markers};
use crate::view::timeline::place::{Area, Obstacles, Room, label_spot, mark_obstacles};
use crate::view::timeline::{BIN_PX, crowded};
use crate::view::timeline::{Bin, Lane, Lanes, Mark, MarkClass, MarkKind, WriteOutcome};

/// Paints the marks of lane `index` that the playhead has reached and that are in view.
pub(super) fn paint_lane(c: &mut Canvas, index: usize, lane: &Lane) {
    let lane_rect = c.geo.lane_rect(index);
    let (from, to) = c.geo.window();
    // A mark just left of the view still shows part of its disc.
    let pad_ms = 10.0 * c.geo.ms_per_px();
    let times = &lane.mark_times;
    let bins = times.bins(
        times.window(from - pad_ms, to),
        f64::from(BIN_PX) * c.geo.ms_per_px(),
    );
    let crowded = crowded(times, &bins, |t| c.geo.x(t));
    let pointer = c.pointer.filter(|p| lane_rect.contains(*p));
    // Every mark's disc or summary is an obstacle for every label, so no label covers one,
    // and so is its line; so are the labels of shadings and waits.
    let xs = bins.iter().map(|b| {
        let x0 = c.geo.x(times.time(b.items.start) as f64);
        let x1 = c.geo.x(times.time(b.items.end - 1) as f64);
        (x0, x1)
    });
    let lane_ys = (lane_rect.top(), lane_rect.bottom());
    let (mut taken, strips) = mark_obstacles(xs, mark_line(lane_rect), lane_ys);
    taken.extend(c.labels.iter().map(|&r| area(r)));
    let node = NodeId::from_index(index);
    for (bin, crowded) in bins.iter().zip(crowded) {
        if crowded {
            let around = Around {
                taken: &mut taken,
                strips: &strips,
            };
            paint_summary(c, lane_rect, lane, index, bin, around, pointer);
            continue;
        }
        let mark = &lane.marks[bin.items.start];
        let around = Around {
            taken: &mut taken,
            strips: &strips,
        };
        if paint_mark(&c.marks, &c.geo, lane_rect, mark, around, pointer) {
            let (trace, verdict) = (c.trace, c.verdict);
            c.hover
                .offer(HoverRank::Mark, || mark.details(trace, verdict, node));
        }
    }
}

/// The y of the line write discs sit on.
fn mark_line(lane_rect: Rect) -> f32 {
    bar_rect(lane_rect, 1, 0, 0.0, 0.0).center().y
}

/// Paints the marks of one crowded bin as a short bar in the colour of the gravest, and
/// offers a hover text that counts them (or tells the one it holds). A bar holding a write
/// that corrupted the data is labelled with the first such write, as a mark of its own is:
/// the checker's verdict names it, and the learner looks for it on the resource's lane.
fn paint_summary(
    c: &mut Canvas,
    lane_rect: Rect,
    lane: &Lane,
    index: usize,
    bin: &Bin,
    around: Around<'_>,
    pointer: Option<Pos2>,
) {
    let times = &lane.mark_times;
    let counts = times.count(bin.items.clone());
    let gravest = MarkClass::ALL
        .into_iter()
        .rev()
        .find(|&k| counts[k as usize] > 0)
        .unwrap_or(MarkClass::ClockJump);
    let x0 = c.geo.x(times.time(bin.items.start) as f64);
    let x1 = c.geo.x(times.time(bin.items.end - 1) as f64).max(x0 + 2.0);
    let rect = match gravest {
        MarkClass::Claim | MarkClass::Accepted | MarkClass::Rejected | MarkClass::Violating => {
            let y = mark_line(lane_rect);
            let rect = Rect::from_x_y_ranges(x0 - 1.0..=x1 + 1.0, y - 6.0..=y + 6.0);
            c.marks.rect_filled(rect, 2.0, class_color(gravest));
            let violating = lane.marks[bin.items.clone()].iter().find(|m| {
                matches!(
                    m.kind,
                    MarkKind::Write {
                        outcome: WriteOutcome::Violating(_),
                        ..
                    }
                )
            });
            if let Some(mark) = violating {
                let at = Rect::from_x_y_ranges(x0..=x1, y..=y);
                let label = (mark.label.as_str(), style::VIOLATING);
                place_label(&c.marks, &c.geo, at, label, Room::Beside, around);
            }
            rect
        }
        // No writes: role changes and clock jumps, which are few. The last one's symbol
        // tells the state the bin leaves the node in; its label would not fit.
        MarkClass::ClockJump | MarkClass::Leader | MarkClass::SteppedDown | MarkClass::Hold => {
            let last = &lane.marks[bin.items.end - 1];
            let x = c.geo.x(last.at_ms as f64);
            match last.kind {
                MarkKind::BecameLeader { .. } => {
                    paint_role(&c.marks, pos2(x, lane_rect.top() + 3.0), true);
                }
                MarkKind::SteppedDown { .. } => {
                    paint_role(&c.marks, pos2(x, lane_rect.top() + 3.0), false);
                }
                MarkKind::Hold { token, .. } => {
                    paint_hold(&c.marks, x, lane_rect, style::token(token));
                }
                _ => paint_clock_jump(&c.marks, x, lane_rect.y_range().shrink(2.0)),
            }
            Rect::from_x_y_ranges(
                x0 - 3.0..=x1 + 10.0,
                lane_rect.top()..=lane_rect.top() + 18.0,
            )
        }
    };
    if !pointer.is_some_and(|p| rect.expand2(vec2(3.0, 2.0)).contains(p)) {
        return;
    }
    if bin.items.len() == 1 {
        let (mark, trace, verdict) = (&lane.marks[bin.items.start], c.trace, c.verdict);
        c.hover.offer(HoverRank::Mark, || {
            mark.details(trace, verdict, NodeId::from_index(index))
        });
    } else {
        let (from, to) = (times.time(bin.items.start), times.time(bin.items.end - 1));
        c.hover.offer(HoverRank::Mark, || {
            crowded_marks(&lane.name, &counts, from, to)
        });
    }
}

/// The colour a mark of `class` is drawn in.
fn class_color(class: MarkClass) -> Color32 {
    match class {
        MarkClass::Accepted => style::ACCEPTED,
        MarkClass::Rejected => style::REJECTED,
        MarkClass::Violating => style::VIOLATING,
        MarkClass::Claim => style::CLAIM,
        MarkClass::Hold => style::ROLE,
        MarkClass::ClockJump => style::FAULT_TEXT,
        MarkClass::Leader | MarkClass::SteppedDown => style::ROLE,
    }
}

/// A role change: a small flag on a pole standing at `top`, flying right; filled when the
/// node took the lead, hollow when it gave it up.
pub(super) fn paint_role(painter: &egui::Painter, top: Pos2, up: bool) {
    let stroke = Stroke::new(1.5, style::ROLE);
    painter.vline(top.x, top.y..=top.y + 14.0, stroke);
    let points = vec![top, top + vec2(9.0, 3.5), top + vec2(0.0, 7.0)];
    let flag = if up {
        Shape::convex_polygon(points, style::ROLE, Stroke::NONE)
    } else {
        Shape::convex_polygon(points, Color32::TRANSPARENT, Stroke::new(1.2, style::ROLE))
    };
    painter.add(flag);
}

/// Triangles on the axis at each violation's time (summed up where they crowd); the selected
/// one also gets a line across the lanes. Returns the action a click on one asks for.
pub(super) fn paint_violations(
    c: &mut Canvas,
    painter: &egui::Painter,
    lanes: &Lanes,
    verdict: &Verdict,
    selected: Option<usize>,
    clicked: bool,
) -> Option<Action> {
    let geo = &c.geo;
    let tip_y = geo.axis.bottom() - 1.0;
    if let Some(v) = selected.and_then(|i| verdict.violations.get(i)) {
        let t = v.at_ms as f64;
        if t <= geo.shown_until_ms && t >= geo.view.start_ms && t <= geo.view.end_ms {
            let x = geo.x(t);
            painter.add(Shape::dashed_line(
                &[pos2(x, geo.plot.top()), pos2(x, geo.plot.bottom())],
                Stroke::new(1.5, style::violation(v.kind)),
                6.0,
                4.0,
            ));
        }
    }
    let (from, to) = geo.window();
    let sets: Vec<_> = lanes
        .markers(geo.shown_until_ms)
        .map(|markers| {
            let times = &markers.times;
            let bins = times.bins(times.window(from, to), f64::from(BIN_PX) * geo.ms_per_px());
            (markers, bins)
        })
        .collect();
    // Every marker is an obstacle for the names, so no name hides a marker.
    let mut taken: Vec<Rect> = sets
        .iter()
        .flat_map(|(markers, bins)| {
            bins.iter().map(|b| {
                let x0 = geo.x(markers.times.time(b.items.start) as f64);
                let x1 = geo.x(markers.times.time(b.items.end - 1) as f64);
                Rect::from_x_y_ranges(x0 - 6.0..=x1 + 6.0, tip_y - 10.0..=tip_y)
            })
        })
        .collect();
    let mut action = None;
    for (markers, bins) in &sets {
        for bin in bins {
            let (first, name) = markers.marker(verdict, bin);
            let v = &verdict.violations[first];
            let color = style::violation(v.kind);
            let x = geo.x(markers.times.time(bin.items.start) as f64);
            let tip = pos2(x, tip_y);
            painter.add(Shape::convex_polygon(
                vec![tip, tip + vec2(-6.0, -10.0), tip + vec2(6.0, -10.0)],
                color,
                Stroke::NONE,
            ));
            // Named beside the marker unless an earlier name is there: the verdict panel and
            // the hover text still say it.
            let galley = painter.layout_no_wrap(name, FontId::proportional(11.0), color);
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
            let under = c
                .pointer
                .is_some_and(|p| (p.x - x).abs() <= 7.0 && (p.y - tip.y).abs() <= 12.0);
            if !under {
                continue;
            }
            if clicked {
                action = Some(Action::Select(first));
            }
            let items = bin.items.clone();
            c.hover.offer(HoverRank::Mark, || {
                if items.len() == 1 {
                    return violation_marker(v);
                }
                let summed: Vec<_> = items
                    .map(|k| &verdict.violations[markers.violations[k]])
                    .collect();
                violation_markers(&summed, v.kind)
            });
        }
    }
    action
}

/// A write's disc: ✓ accepted, ✗ rejected, ! violating.
pub(super) fn paint_write(painter: &egui::Painter, center: Pos2, outcome: WriteOutcome) {
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

/// A claim at the store (`timestamp`): a diamond in the claimant's colour, filled when the
/// store recorded it, hollow when it deleted it.
pub(super) fn paint_claim(painter: &egui::Painter, center: Pos2, color: Color32, recorded: bool) {
    let points = vec![
        center + vec2(0.0, -6.0),
        center + vec2(6.0, 0.0),
        center + vec2(0.0, 6.0),
        center + vec2(-6.0, 0.0),
    ];
    let diamond = if recorded {
        Shape::convex_polygon(points, color, Stroke::NONE)
    } else {
        Shape::convex_polygon(points, Color32::TRANSPARENT, Stroke::new(1.5, color))
    };
    painter.add(diamond);
}

/// A change of a reentrant worker's hold count: a short bar across the top of its lane, in
/// its colour, where the nested acquire or release happened.
pub(super) fn paint_hold(painter: &egui::Painter, x: f32, lane_rect: Rect, color: Color32) {
    let top = lane_rect.top() + 3.0;
    painter.vline(x, top..=top + 14.0, Stroke::new(2.5, color));
    painter.hline(x - 4.0..=x + 4.0, top, Stroke::new(2.0, color));
}

/// Where a mark's disc sits: on the lane's bar line.
fn mark_center(geo: &Geometry, lane_rect: Rect, mark: &Mark) -> Pos2 {
    let x = geo.x(mark.at_ms as f64);
    pos2(x, bar_rect(lane_rect, 1, 0, x, x).center().y)
}

/// Paints a mark with its label; returns whether the pointer is on it.
fn paint_mark(
    painter: &egui::Painter,
    geo: &Geometry,
    lane_rect: Rect,
    mark: &Mark,
    around: Around<'_>,
    pointer: Option<Pos2>,
) -> bool {
    let Pos2 { x, y } = mark_center(geo, lane_rect, mark);
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
        MarkKind::Claim {
            token, stamp_ms, ..
        } => {
            paint_claim(painter, pos2(x, y), style::token(token), stamp_ms.is_some());
            (style::CLAIM, y)
        }
        MarkKind::ClockJump { .. } => {
            paint_clock_jump(painter, x, lane_rect.y_range().shrink(2.0));
            (style::FAULT_TEXT, lane_rect.top() + 10.0)
        }
        MarkKind::Hold { token, .. } => {
            paint_hold(painter, x, lane_rect, style::token(token));
            (style::ROLE, lane_rect.top() + 10.0)
        }
        MarkKind::BecameLeader { .. } | MarkKind::SteppedDown { .. } => {
            let up = matches!(mark.kind, MarkKind::BecameLeader { .. });
            paint_role(painter, pos2(x, lane_rect.top() + 3.0), up);
            (style::ROLE, lane_rect.top() + 10.0)
        }
    };
    let at = Rect::from_x_y_ranges(x..=x, label_y..=label_y);
    place_label(
        painter,
        geo,
        at,
        (&mark.label, color),
        Room::Anywhere,
        around,
    );
    pointer.is_some_and(|p| (p.x - x).abs() <= 9.0)
}

/// What a summary's label must keep clear of: the marks and labels taken so far, and each
/// mark's line across its lane.
struct Around<'a> {
    taken: &'a mut Vec<Area>,
    strips: &'a [Area],
}

/// Paints `text` beside what is drawn across `at` (its label line at `at`'s centre), on the
/// first spot `room` allows ([`label_spot`]); nothing when there is none in the plot. The
/// label is then taken.
fn place_label(
    painter: &egui::Painter,
    geo: &Geometry,
    at: Rect,
    (text, color): (&str, Color32),
    room: Room,
    around: Around<'_>,
) {
    let font = FontId::proportional(12.0);
    let galley = painter.layout_no_wrap(text.to_string(), font, ink(painter, color));
    let size = galley.size();
    let obstacles = Obstacles {
        bounds: area(geo.plot),
        taken: around.taken,
        lines: around.strips,
    };
    let spot = label_spot(
        (at.left(), at.right()),
        at.center().y,
        (size.x, size.y),
        room,
        obstacles,
    );
    if let Some(spot) = spot {
        around.taken.push(area(rect(spot).expand(2.0)));
        painter.galley(pos2(spot.x0, spot.y0), galley, color);
    }
}

/// The placement's box of an egui rectangle.
fn area(r: Rect) -> Area {
    Area::new(r.left(), r.top(), r.right(), r.bottom())
}

/// The egui rectangle of a placement's box.
fn rect(a: Area) -> Rect {
    Rect::from_min_max(pos2(a.x0, a.y0), pos2(a.x1, a.y1))
}

/// A clock jump: a dashed vertical line.
pub(super) fn paint_clock_jump(painter: &egui::Painter, x: f32, y: egui::Rangef) {
    painter.add(Shape::dashed_line(
        &[pos2(x, y.min), pos2(x, y.max)],
        Stroke::new(1.5, style::FAULT_TEXT),
        4.0,
        3.0,
    ));
}
