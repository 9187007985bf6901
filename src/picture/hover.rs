//! What a pointer can be over on the picture, told by the drawing as it draws ([`Pen::hover`]),
//! and the words each gives when it wins: the pen with a pointer keeps one, the page shows
//! its [`Target::details`].
//!
//! [`Pen::hover`]: super::Pen::hover

use std::ops::Range;

use crate::checker::Verdict;
use crate::trace::{NodeId, Trace};
use crate::view::timeline::Lanes;
use crate::view::timeline::hover::{
    crowded_marks, message_haze, thin_spans, violation_marker, violation_markers,
};
use crate::view::timeline::place::Area;

/// Where a thing was drawn, for a pointer to be on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hit {
    /// Inside a box, px.
    Area(Area),
    /// Within `px` of the segment from `.0` to `.1`.
    Near((f32, f32), (f32, f32), f32),
}

impl Hit {
    /// Whether `(x, y)` px is on it.
    pub fn contains(&self, (x, y): (f32, f32)) -> bool {
        match *self {
            Hit::Area(a) => a.x0 <= x && x <= a.x1 && a.y0 <= y && y <= a.y1,
            Hit::Near(a, b, px) => distance_to_segment((x, y), a, b) <= px,
        }
    }
}

/// The distance from `p` to the segment `a`–`b`, px.
fn distance_to_segment(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (abx, aby) = (b.0 - a.0, b.1 - a.1);
    let len2 = abx * abx + aby * aby;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * abx + (p.1 - a.1) * aby) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (dx, dy) = (a.0 + abx * t - p.0, a.1 + aby * t - p.1);
    (dx * dx + dy * dy).sqrt()
}

/// How specific a thing is: where several are under the pointer, the highest wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// A shading over a lane, a partition's band, a haze of messages.
    Shading,
    /// A message: below bars, as arrows are drawn below them.
    Arrow,
    /// A bar.
    Bar,
    /// A mark or a violation marker.
    Mark,
}

/// A thing drawn on the picture, by its place in the view model: lanes, spans and marks by
/// their indexes in [`Lanes`].
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A span wide enough to see.
    Span {
        /// Its lane.
        lane: usize,
        /// Its index in the lane's spans.
        span: usize,
    },
    /// Neighbouring spans too thin to draw one by one.
    Thin {
        /// Their lane.
        lane: usize,
        /// The first of them, which stands for their kind.
        first: usize,
        /// How many.
        count: usize,
        /// Where the first starts, true ms.
        from_ms: u64,
        /// Where the last ends, true ms.
        to_ms: u64,
    },
    /// A mark drawn on its own.
    Mark {
        /// Its lane.
        lane: usize,
        /// Its index in the lane's marks.
        mark: usize,
    },
    /// Marks too close for their symbols, summed up.
    Marks {
        /// Their lane.
        lane: usize,
        /// Their positions in the lane's mark times.
        items: Range<usize>,
    },
    /// A marker on the axis.
    Violations {
        /// The violation it stands for, which a click selects: an index into
        /// `Verdict::violations`.
        first: usize,
        /// Which of [`Lanes::markers`] it is of.
        set: usize,
        /// The markers it sums up: positions in that set.
        items: Range<usize>,
    },
    /// A partition's band on the axis: its index in [`Lanes::partitions`].
    Partition(usize),
    /// A message's arrow: its index in [`Lanes::messages`].
    Message(usize),
    /// A haze of messages too many for arrows.
    Haze {
        /// How many.
        count: usize,
        /// When the first was sent, true ms.
        from_ms: u64,
        /// When the last was sent, true ms.
        to_ms: u64,
    },
}

impl Target {
    /// What the page says about it, telling nothing after `known_until_ms` (true ms).
    pub fn details(
        &self,
        (trace, verdict, lanes): (&Trace, &Verdict, &Lanes),
        known_until_ms: u64,
    ) -> String {
        match self {
            Target::Span { lane, span } => {
                let node = NodeId::from_index(*lane);
                lanes.lanes[*lane].spans[*span].details(trace, node, known_until_ms)
            }
            Target::Thin {
                lane,
                first,
                count,
                from_ms,
                to_ms,
            } => {
                let lane = &lanes.lanes[*lane];
                thin_spans(
                    &lane.name,
                    &lane.spans[*first].kind,
                    *count,
                    *from_ms,
                    *to_ms,
                )
            }
            Target::Mark { lane, mark } => {
                let node = NodeId::from_index(*lane);
                lanes.lanes[*lane].marks[*mark].details(trace, verdict, node)
            }
            Target::Marks { lane, items } => {
                let l = &lanes.lanes[*lane];
                if items.len() == 1 {
                    let node = NodeId::from_index(*lane);
                    return l.marks[items.start].details(trace, verdict, node);
                }
                let times = &l.mark_times;
                let counts = times.count(items.clone());
                let (from, to) = (times.time(items.start), times.time(items.end - 1));
                crowded_marks(&l.name, &counts, from, to)
            }
            Target::Violations { first, set, items } => {
                let v = &verdict.violations[*first];
                if items.len() == 1 {
                    return violation_marker(v);
                }
                let markers = lanes
                    .markers(known_until_ms as f64)
                    .nth(*set)
                    .expect("a marker set the picture drew");
                let summed: Vec<_> = items
                    .clone()
                    .map(|k| &verdict.violations[markers.violations[k]])
                    .collect();
                violation_markers(&summed, v.kind)
            }
            Target::Partition(i) => lanes.partitions[*i].details(trace, known_until_ms),
            Target::Message(i) => lanes.messages[*i].details(trace, known_until_ms),
            Target::Haze {
                count,
                from_ms,
                to_ms,
            } => message_haze(*count, *from_ms, *to_ms),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_to_a_segment_is_to_its_nearest_point() {
        let (a, b) = ((0.0, 0.0), (10.0, 0.0));
        assert_eq!(distance_to_segment((5.0, 3.0), a, b), 3.0);
        assert_eq!(distance_to_segment((13.0, 4.0), a, b), 5.0);
        assert_eq!(distance_to_segment((0.0, 2.0), a, a), 2.0);
    }
}
