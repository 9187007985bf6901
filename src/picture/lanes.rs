//! The lanes themselves: backgrounds, names and what their bars mean, the time axis with its
//! grid, and the partitions shaded over the lanes they cut off, each named on the axis.

use super::hover::{Hit, Rank, Target};
use super::sizes::line_h;
use super::{Anchor, Area, Canvas, Layer, measure};
use crate::trace::{NodeId, Role};
use crate::view::palette;
use crate::view::timeline::legend::role_caption;
use crate::view::timeline::{Lanes, Partition, tick_label, tick_step};

/// Every other lane shaded, lines between lanes (heavier where one kind of node gives way to
/// the next), and each lane's name with what its bars mean.
pub(super) fn backgrounds(c: &mut Canvas, lanes: &Lanes) {
    c.pen.layer(Layer::Back);
    let (frame, theme) = (&c.frame, &c.theme);
    for (i, lane) in lanes.lanes.iter().enumerate() {
        let r = frame.lane(i);
        let full = Area::new(frame.left, r.y0, r.x1, r.y1);
        if i % 2 == 0 {
            c.pen.rect(full, theme.faint, 0.0);
        }
        let next_role = lanes.lanes.get(i + 1).map(|l| l.role);
        let width = if next_role.is_some_and(|r| r != lane.role) {
            1.5
        } else {
            0.5
        };
        c.pen
            .line((full.x0, full.y1), (full.x1, full.y1), theme.line, width);
        let name_color = match lane.role {
            Role::Worker => palette::worker(NodeId::from_index(i)),
            Role::Store | Role::Resource => theme.strong,
        };
        let mid = full.center_y();
        c.pen.text(
            (frame.left + 10.0, mid - 2.0 - line_h(17.0) / 2.0),
            Anchor::Start,
            17.0,
            name_color,
            &lane.name,
        );
        c.pen.text(
            (frame.left + 10.0, mid + 1.0 + line_h(11.5) / 2.0),
            Anchor::Start,
            11.5,
            theme.weak,
            role_caption(lane.role, frame.narrow),
        );
    }
}

/// Tick labels in simulated time and the grid lines under them; a tick label that would
/// cover `keep_clear` is left out (half a label under the playhead's badge reads as a stray
/// "s").
pub(super) fn axis(c: &mut Canvas, keep_clear: Option<Area>) {
    c.pen.layer(Layer::Back);
    let frame = &c.frame;
    let step = tick_step(frame.len_ms(), frame.plot.width());
    let first = (frame.start_ms / step).ceil() as i64;
    let last = (frame.end_ms / step).floor() as i64;
    for k in first..=last {
        let t = k as f64 * step;
        let x = frame.x(t);
        c.pen.line(
            (x, frame.axis.y1 - 4.0),
            (x, frame.plot.y1),
            c.theme.line,
            0.5,
        );
        let label = tick_label(t, step);
        let w = c.pen.text_width(&label, 12.0);
        let top = frame.axis.y0 + 4.0;
        let at = Area::new(x - w / 2.0, top, x + w / 2.0, top + line_h(12.0));
        if keep_clear.is_some_and(|k| k.intersects(&at)) {
            continue;
        }
        c.pen.text(
            (x, top + line_h(12.0) / 2.0),
            Anchor::Middle,
            12.0,
            c.theme.text,
            &label,
        );
    }
}

/// Every partition's shading and band, then every band's name: bands overlap in time, and a
/// later band would veil an earlier one's name.
pub(super) fn partitions(c: &mut Canvas, partitions: &[Partition]) {
    c.pen.layer(Layer::Content);
    for (i, p) in partitions.iter().enumerate() {
        partition(c, i, p);
    }
    let mut labels = Vec::new();
    for p in partitions {
        partition_label(c, p, &mut labels);
    }
}

/// The band on the axis of a partition's time.
fn partition_band(c: &Canvas, p: &Partition) -> Area {
    let (x0, x1) = c.frame.x_range(p.start_ms, p.end_ms);
    Area::new(x0, c.frame.axis.y0 + 20.0, x1, c.frame.axis.y0 + 32.0)
}

/// Shades the lanes a partition cuts off and draws its band on the axis, where a pointer
/// finds it (partition `index`).
fn partition(c: &mut Canvas, index: usize, p: &Partition) {
    if !c.frame.shows(p.start_ms, p.end_ms) {
        return;
    }
    let band = partition_band(c, p);
    for &node in p.groups.iter().flatten() {
        let lane = c.frame.lane(node.index());
        c.pen.rect(
            Area::new(band.x0, lane.y0, band.x1, lane.y1),
            palette::PARTITION,
            0.0,
        );
    }
    c.pen.rect(band, palette::PARTITION.faded(2.5), 2.0);
    c.pen
        .hover(Hit::Area(band), Rank::Shading, Target::Partition(index));
}

/// Names a partition's band where the name fits, moved right past the other bands' names.
fn partition_label(c: &mut Canvas, p: &Partition, labels: &mut Vec<Area>) {
    if !c.frame.shows(p.start_ms, p.end_ms) {
        return;
    }
    let band = partition_band(c, p);
    let text = format!("partition {}", p.label);
    let (w, h) = (c.pen.text_width(&text, 10.5) * measure::SLACK, line_h(10.5));
    let at = |left: f32| {
        Area::new(
            left,
            band.center_y() - h / 2.0,
            left + w,
            band.center_y() + h / 2.0,
        )
    };
    let mut left = band.x0.max(c.frame.plot.x0) + 4.0;
    while let Some(other) = labels.iter().find(|r| r.intersects(&at(left))) {
        left = other.x1 + 12.0;
    }
    let label = at(left);
    if label.x1 <= band.x1.min(c.frame.plot.x1) {
        c.pen.text(
            (label.x0, band.center_y()),
            Anchor::Start,
            10.5,
            palette::FAULT_TEXT,
            &text,
        );
        labels.push(label);
    }
}
