//! Marks on the lanes (writes, clock jumps, role changes, claims, holds) and the violation
//! markers on the axis. Marks closer together than their symbols are wide are summed up per
//! bin of a few pixels, in the colour of the gravest thing the bin holds.

use super::hover::{Hit, Rank, Target};
use super::sizes::{LABEL, RIGHT_OVERHANG, line_h};
use super::spans::bar_rect;
use super::{Anchor, Area, Canvas, Layer, Pen, Theme, ink, measure};
use crate::checker::Verdict;
use crate::view::palette::{self, Rgba};
use crate::view::timeline::place::{Obstacles, Room, label_spot, mark_obstacles};
use crate::view::timeline::{BIN_PX, crowded};
use crate::view::timeline::{Bin, Lane, Lanes, Mark, MarkClass, MarkKind, WriteOutcome};

/// The y of the line write discs sit on.
fn mark_line(lane_rect: Area) -> f32 {
    bar_rect(lane_rect, 1, 0, 0.0, 0.0).center_y()
}

/// Draws the marks of lane `index` that are in the window, each label clear of every mark and
/// of every label drawn before.
pub(super) fn lane(c: &mut Canvas, index: usize, lane: &Lane) {
    c.pen.layer(Layer::Marks);
    let lane_rect = c.frame.lane(index);
    let times = &lane.mark_times;
    let (from, to) = c.frame.window();
    // A mark just left of the window still shows part of its disc.
    let pad_ms = 10.0 * c.frame.ms_per_px();
    let bins = times.bins(
        times.window(from - pad_ms, to),
        f64::from(BIN_PX) * c.frame.ms_per_px(),
    );
    let crowded = crowded(times, &bins, |t| c.frame.x(t));
    let y = mark_line(lane_rect);
    // Every mark's disc or summary is an obstacle for every label, and so is its line.
    let xs = bins.iter().map(|b| {
        let x0 = c.frame.x(times.time(b.items.start) as f64);
        let x1 = c.frame.x(times.time(b.items.end - 1) as f64);
        (x0, x1)
    });
    let (mut taken, lines) = mark_obstacles(xs, y, (lane_rect.y0, lane_rect.y1));
    taken.extend(c.labels.iter().copied());
    for (bin, crowded) in bins.iter().zip(crowded) {
        let around = Around {
            taken: &mut taken,
            lines: &lines,
        };
        let hit = if crowded {
            summary(c, lane_rect, lane, bin, around)
        } else {
            draw_mark(c, lane_rect, &lane.marks[bin.items.start], around)
        };
        let target = if crowded {
            Target::Marks {
                lane: index,
                items: bin.items.clone(),
            }
        } else {
            Target::Mark {
                lane: index,
                mark: bin.items.start,
            }
        };
        c.pen.hover(Hit::Area(hit), Rank::Mark, target);
    }
}

/// What a mark's label must keep clear of: the marks and labels taken so far, and each mark's
/// line across its lane.
struct Around<'a> {
    taken: &'a mut Vec<Area>,
    lines: &'a [Area],
}

/// The marks of one crowded bin as a short bar in the colour of the gravest; or, when it holds
/// no writes, the symbol of the last (the state the bin leaves the node in). A bar holding a
/// write that corrupted the data is labelled with the first such write, as a mark of its own
/// is: the verdict names it, and the learner looks for it on the resource's lane. Returns
/// where a pointer is on it.
fn summary(c: &mut Canvas, lane_rect: Area, lane: &Lane, bin: &Bin, around: Around) -> Area {
    let times = &lane.mark_times;
    let counts = times.count(bin.items.clone());
    let gravest = MarkClass::ALL
        .into_iter()
        .rev()
        .find(|&k| counts[k as usize] > 0)
        .unwrap_or(MarkClass::ClockJump);
    let x0 = c.frame.x(times.time(bin.items.start) as f64);
    let x1 = c
        .frame
        .x(times.time(bin.items.end - 1) as f64)
        .max(x0 + 2.0);
    match gravest {
        MarkClass::Claim | MarkClass::Accepted | MarkClass::Rejected | MarkClass::Violating => {
            let y = mark_line(lane_rect);
            let rect = Area::new(x0 - 1.0, y - 6.0, x1 + 1.0, y + 6.0);
            c.pen.rect(rect, class_color(gravest), 2.0);
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
                let label = (mark.label.as_str(), palette::VIOLATING);
                place_label(c, lane_rect, ((x0, x1), y), label, Room::Beside, around);
            }
            rect.expand2(3.0, 2.0)
        }
        // No writes: role changes and clock jumps, which are few. The last one's symbol tells
        // the state the bin leaves the node in; its label would not fit.
        MarkClass::ClockJump | MarkClass::Leader | MarkClass::SteppedDown | MarkClass::Hold => {
            let last = &lane.marks[bin.items.end - 1];
            let x = c.frame.x(last.at_ms as f64);
            let pen = &mut *c.pen;
            match last.kind {
                MarkKind::BecameLeader { .. } => role(pen, (x, lane_rect.y0 + 3.0), true),
                MarkKind::SteppedDown { .. } => role(pen, (x, lane_rect.y0 + 3.0), false),
                MarkKind::Hold { token, .. } => hold(pen, x, lane_rect, palette::token(token)),
                _ => clock_jump(pen, x, lane_rect.y0 + 2.0, lane_rect.y1 - 2.0),
            }
            Area::new(x0 - 6.0, lane_rect.y0 - 2.0, x1 + 13.0, lane_rect.y0 + 20.0)
        }
    }
}

/// The colour a mark of `class` is drawn in.
fn class_color(class: MarkClass) -> Rgba {
    match class {
        MarkClass::Accepted => palette::ACCEPTED,
        MarkClass::Rejected => palette::REJECTED,
        MarkClass::Violating => palette::VIOLATING,
        MarkClass::Claim => palette::CLAIM,
        MarkClass::Hold | MarkClass::Leader | MarkClass::SteppedDown => palette::ROLE,
        MarkClass::ClockJump => palette::FAULT_TEXT,
    }
}

/// Draws a mark and its label, beside it on the first spot with room ([`label_spot`]);
/// returns where a pointer is on it.
fn draw_mark(c: &mut Canvas, lane_rect: Area, mark: &Mark, around: Around) -> Area {
    let x = c.frame.x(mark.at_ms as f64);
    let y = mark_line(lane_rect);
    let pen = &mut *c.pen;
    let (color, label_y) = match mark.kind {
        MarkKind::Write { outcome, .. } => {
            let color = outcome_color(outcome);
            pen.line((x, lane_rect.y0 + 3.0), (x, lane_rect.y1 - 3.0), color, 1.0);
            write(pen, &c.theme, (x, y), outcome);
            (color, y)
        }
        MarkKind::Claim {
            token, stamp_ms, ..
        } => {
            claim(pen, (x, y), palette::token(token), stamp_ms.is_some());
            (palette::CLAIM, y)
        }
        MarkKind::ClockJump { .. } => {
            clock_jump(pen, x, lane_rect.y0 + 2.0, lane_rect.y1 - 2.0);
            (palette::FAULT_TEXT, lane_rect.y0 + 10.0)
        }
        MarkKind::Hold { token, .. } => {
            hold(pen, x, lane_rect, palette::token(token));
            (palette::ROLE, lane_rect.y0 + 10.0)
        }
        MarkKind::BecameLeader { .. } | MarkKind::SteppedDown { .. } => {
            let up = matches!(mark.kind, MarkKind::BecameLeader { .. });
            role(pen, (x, lane_rect.y0 + 3.0), up);
            (palette::ROLE, lane_rect.y0 + 10.0)
        }
    };
    let label = (mark.label.as_str(), color);
    place_label(
        c,
        lane_rect,
        ((x, x), label_y),
        label,
        Room::Anywhere,
        around,
    );
    Area::new(x - 9.0, lane_rect.y0, x + 9.0, lane_rect.y1)
}

/// Draws `text` beside what is drawn across `xs` (its label line at `y`), on the first spot
/// `room` allows in the lane ([`label_spot`]); nothing when there is none. The label is then
/// taken.
fn place_label(
    c: &mut Canvas,
    lane_rect: Area,
    (xs, y): ((f32, f32), f32),
    (text, color): (&str, Rgba),
    room: Room,
    around: Around,
) {
    let (w, h) = (c.pen.text_width(text, LABEL), line_h(LABEL));
    let plot = c.frame.plot;
    let obstacles = Obstacles {
        bounds: Area::new(plot.x0, lane_rect.y0, plot.x1, lane_rect.y1),
        taken: around.taken,
        lines: around.lines,
    };
    let size = (w * measure::SLACK, h);
    if let Some(r) = label_spot(xs, y, size, room, obstacles) {
        c.pen.text(
            (r.x0, (r.y0 + r.y1) / 2.0),
            Anchor::Start,
            LABEL,
            ink(&c.theme, color),
            text,
        );
        around
            .taken
            .push(Area::new(r.x0 - 2.0, r.y0 - 2.0, r.x1 + 2.0, r.y1 + 2.0));
        c.labels.push(r);
    }
}

/// The colour of a write that came out as `outcome`.
fn outcome_color(outcome: WriteOutcome) -> Rgba {
    match outcome {
        WriteOutcome::Accepted => palette::ACCEPTED,
        WriteOutcome::Rejected { .. } => palette::REJECTED,
        WriteOutcome::Violating(_) => palette::VIOLATING,
    }
}

/// Triangles on the axis at each violation's time (summed up where they crowd), each named
/// beside it where the name fits; those judged at the end only once the whole run is shown.
/// The `selected` one also gets a line across the lanes.
pub(super) fn violations(
    c: &mut Canvas,
    lanes: &Lanes,
    verdict: &Verdict,
    selected: Option<usize>,
) {
    c.pen.layer(Layer::Over);
    let frame = c.frame;
    let tip_y = frame.axis.y1 - 1.0;
    let (from, to) = frame.window();
    if let Some(v) = selected.and_then(|i| verdict.violations.get(i)) {
        let t = v.at_ms as f64;
        if (from..=to).contains(&t) {
            let x = frame.x(t);
            let color = palette::violation(v.kind);
            let (top, bottom) = ((x, frame.plot.y0), (x, frame.plot.y1));
            c.pen.dashed(top, bottom, color, 1.5, 6.0, 4.0);
        }
    }
    let sets: Vec<_> = lanes
        .markers(frame.shown_until_ms)
        .map(|markers| {
            let times = &markers.times;
            let bins = times.bins(
                times.window(from, to),
                f64::from(BIN_PX) * frame.ms_per_px(),
            );
            (markers, bins)
        })
        .collect();
    // Every marker is an obstacle for the names, so no name hides a marker.
    let mut taken: Vec<Area> = sets
        .iter()
        .flat_map(|(markers, bins)| {
            bins.iter().map(|b| {
                let x0 = frame.x(markers.times.time(b.items.start) as f64);
                let x1 = frame.x(markers.times.time(b.items.end - 1) as f64);
                Area::new(x0 - 6.0, tip_y - 10.0, x1 + 6.0, tip_y)
            })
        })
        .collect();
    for (set, (markers, bins)) in sets.iter().enumerate() {
        for bin in bins {
            let (first, name) = markers.marker(verdict, bin);
            let color = palette::violation(verdict.violations[first].kind);
            let x = frame.x(markers.times.time(bin.items.start) as f64);
            c.pen.polygon(
                &[(x, tip_y), (x - 6.0, tip_y - 10.0), (x + 6.0, tip_y - 10.0)],
                Some(color),
                None,
            );
            let (w, h) = (c.pen.text_width(&name, 11.0) * measure::SLACK, line_h(11.0));
            let label = Area::new(
                x + 10.0,
                tip_y - 5.0 - h / 2.0,
                x + 10.0 + w,
                tip_y - 5.0 + h / 2.0,
            );
            let clear = !taken.iter().any(|r| r.intersects(&label.expand2(3.0, 0.0)));
            if clear && label.x1 <= frame.plot.x1 + RIGHT_OVERHANG {
                taken.push(label);
                c.pen.text(
                    (label.x0, label.center_y()),
                    Anchor::Start,
                    11.0,
                    color,
                    &name,
                );
            }
            let target = Target::Violations {
                first,
                set,
                items: bin.items.clone(),
            };
            let hit = Area::new(x - 7.0, tip_y - 12.0, x + 7.0, tip_y + 12.0);
            c.pen.hover(Hit::Area(hit), Rank::Mark, target);
        }
    }
}

/// A write's disc: ✓ accepted, ✗ rejected, ! violating.
pub(super) fn write(pen: &mut dyn Pen, theme: &Theme, (x, y): (f32, f32), outcome: WriteOutcome) {
    let white = |pen: &mut dyn Pen, a: (f32, f32), b: (f32, f32)| {
        pen.line((x + a.0, y + a.1), (x + b.0, y + b.1), theme.white, 2.0);
    };
    match outcome {
        WriteOutcome::Accepted => {
            pen.disc((x, y), 7.0, palette::ACCEPTED);
            white(pen, (-3.5, 0.0), (-1.0, 3.0));
            white(pen, (-1.0, 3.0), (3.5, -3.0));
        }
        WriteOutcome::Rejected { .. } => {
            pen.disc((x, y), 7.0, palette::REJECTED);
            white(pen, (-3.0, -3.0), (3.0, 3.0));
            white(pen, (-3.0, 3.0), (3.0, -3.0));
        }
        WriteOutcome::Violating(_) => {
            pen.disc((x, y), 9.0, palette::VIOLATING);
            white(pen, (0.0, -5.0), (0.0, 1.0));
            pen.disc((x, y + 4.0), 1.2, theme.white);
        }
    }
}

/// A role change: a small flag on a pole standing at `top`, flying right; filled when the
/// node took the lead, hollow when it gave it up.
pub(super) fn role(pen: &mut dyn Pen, (x, y): (f32, f32), up: bool) {
    pen.line((x, y), (x, y + 14.0), palette::ROLE, 1.5);
    let points = [(x, y), (x + 9.0, y + 3.5), (x, y + 7.0)];
    if up {
        pen.polygon(&points, Some(palette::ROLE), None);
    } else {
        pen.polygon(&points, None, Some((palette::ROLE, 1.2)));
    }
}

/// A claim at the store (`timestamp`): a diamond in the claimant's colour, filled when the
/// store recorded it, hollow when it deleted it.
pub(super) fn claim(pen: &mut dyn Pen, (x, y): (f32, f32), color: Rgba, recorded: bool) {
    let points = [(x, y - 6.0), (x + 6.0, y), (x, y + 6.0), (x - 6.0, y)];
    if recorded {
        pen.polygon(&points, Some(color), None);
    } else {
        pen.polygon(&points, None, Some((color, 1.5)));
    }
}

/// A change of a reentrant worker's hold count: a short bar across the top of its lane, in
/// its colour.
pub(super) fn hold(pen: &mut dyn Pen, x: f32, lane_rect: Area, color: Rgba) {
    let top = lane_rect.y0 + 3.0;
    pen.line((x, top), (x, top + 14.0), color, 2.5);
    pen.line((x - 4.0, top), (x + 4.0, top), color, 2.0);
}

/// A clock jump: a dashed vertical line from `y0` to `y1`.
pub(super) fn clock_jump(pen: &mut dyn Pen, x: f32, y0: f32, y1: f32) {
    pen.dashed((x, y0), (x, y1), palette::FAULT_TEXT, 1.5, 4.0, 3.0);
}
