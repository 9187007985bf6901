//! Time indexes built once per trace, so a frame finds what is in view by binary search and
//! sums up what is too dense to draw without visiting every item.
//!
//! A frame's cost then follows the screen (pixels, drawn shapes), not the length of the run.

use std::ops::Range;

/// Intervals sorted by start, with the latest end of every prefix.
///
/// The running maximum of the ends never decreases, so the first interval that can reach into
/// a window is found by binary search even when intervals have very different lengths.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Intervals {
    /// `(start, end)` in true ms, sorted by start.
    bounds: Vec<(u64, u64)>,
    /// `reach[i]`: the latest end among `bounds[..=i]`.
    reach: Vec<u64>,
}

impl Intervals {
    /// Indexes `bounds`, which must be sorted by start.
    pub fn new(bounds: Vec<(u64, u64)>) -> Self {
        debug_assert!(bounds.is_sorted_by_key(|&(start, _)| start));
        let reach = bounds
            .iter()
            .scan(0, |latest, &(_, end)| {
                *latest = end.max(*latest);
                Some(*latest)
            })
            .collect();
        Intervals { bounds, reach }
    }

    /// `(start, end)` of interval `i`.
    pub fn get(&self, i: usize) -> (u64, u64) {
        self.bounds[i]
    }

    /// Positions of the intervals that may overlap `from..=to` (true ms): every one that does
    /// is inside. An earlier long interval keeps the running maximum high, so some inside may
    /// end before `from`; callers skip those. Intervals that never overlap one another (a
    /// track) get an exact window.
    pub fn window(&self, from: f64, to: f64) -> Range<usize> {
        let first = self.reach.partition_point(|&end| (end as f64) < from);
        let last = self
            .bounds
            .partition_point(|&(start, _)| start as f64 <= to);
        first..last.max(first)
    }

    /// The first position in `within` whose interval starts at `ms` or later.
    pub fn first_starting_at(&self, within: Range<usize>, ms: f64) -> usize {
        within.start + self.bounds[within].partition_point(|&(start, _)| (start as f64) < ms)
    }

    /// The non-empty bins of `bin_ms` among `within`, by start time.
    pub fn bins(&self, within: Range<usize>, bin_ms: f64) -> Vec<Bin> {
        bins(within, bin_ms, |i| self.bounds[i].0)
    }
}

/// Instants sorted by time, each of one of `N` classes, with running counts per class: a run
/// of them tells what it holds in constant time.
#[derive(Clone, Debug, PartialEq)]
pub struct Instants<const N: usize> {
    times: Vec<u64>,
    /// `tally[i][c]`: how many of the first `i` instants are of class `c`.
    tally: Vec<[u32; N]>,
}

impl<const N: usize> Default for Instants<N> {
    fn default() -> Self {
        Instants {
            times: Vec::new(),
            tally: vec![[0; N]],
        }
    }
}

impl<const N: usize> Instants<N> {
    /// Indexes `(time, class)` pairs, which must be sorted by time; `class < N`.
    pub fn new(instants: impl IntoIterator<Item = (u64, usize)>) -> Self {
        let mut index = Instants::default();
        for (time, class) in instants {
            debug_assert!(index.times.last().is_none_or(|&t| t <= time));
            let mut counts = *index.tally.last().expect("starts with a zero row");
            counts[class] += 1;
            index.times.push(time);
            index.tally.push(counts);
        }
        index
    }

    /// The time of instant `i`.
    pub fn time(&self, i: usize) -> u64 {
        self.times[i]
    }

    /// Positions of the instants in `from..=to` (true ms).
    pub fn window(&self, from: f64, to: f64) -> Range<usize> {
        let first = self.times.partition_point(|&t| (t as f64) < from);
        let last = self.times.partition_point(|&t| t as f64 <= to);
        first..last.max(first)
    }

    /// How many instants of each class `range` holds.
    pub fn count(&self, range: Range<usize>) -> [u32; N] {
        let (before, upto) = (&self.tally[range.start], &self.tally[range.end]);
        std::array::from_fn(|c| upto[c] - before[c])
    }

    /// The non-empty bins of `bin_ms` among `within`.
    pub fn bins(&self, within: Range<usize>, bin_ms: f64) -> Vec<Bin> {
        bins(within, bin_ms, |i| self.times[i])
    }
}

/// Items whose times fall into one bin of a grid anchored at time 0 (so panning does not
/// regroup them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bin {
    /// Which bin of the grid.
    pub number: u64,
    /// Positions of its items.
    pub items: Range<usize>,
}

/// Groups the positions `within` (sorted by `time_of`) into bins of `bin_ms`, skipping from
/// one non-empty bin to the next by binary search: the cost follows the bins, not the items.
fn bins(within: Range<usize>, bin_ms: f64, time_of: impl Fn(usize) -> u64) -> Vec<Bin> {
    let mut out = Vec::new();
    let mut i = within.start;
    while i < within.end {
        let number = (time_of(i) as f64 / bin_ms).floor() as u64;
        let bin_end = (number + 1) as f64 * bin_ms;
        let end = partition(i + 1..within.end, |j| (time_of(j) as f64) < bin_end);
        out.push(Bin {
            number,
            items: i..end,
        });
        i = end;
    }
    out
}

/// The first position in `range` for which `before` is false (`before` must hold for a
/// prefix of the range and fail for the rest).
fn partition(range: Range<usize>, before: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (range.start, range.end);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Width of the bins marks are summed up in, px: about a write disc's radius.
pub const BIN_PX: f32 = 7.0;

/// Marks closer than this (px) would overlap: they are summed up instead of drawn.
pub const MIN_GAP_PX: f32 = 14.0;

/// Which bins of `bins` hold marks too close to draw one by one: more than one mark, or one
/// closer than [`MIN_GAP_PX`] to a neighbouring bin's; `x` places a time (true ms) on screen.
pub fn crowded<const N: usize>(
    times: &Instants<N>,
    bins: &[Bin],
    x: impl Fn(f64) -> f32,
) -> Vec<bool> {
    let x = |i: usize| x(times.time(i) as f64);
    let near = |a: &Bin, b: &Bin| x(b.items.start) - x(a.items.end - 1) < MIN_GAP_PX;
    (0..bins.len())
        .map(|b| {
            bins[b].items.len() > 1
                || (b > 0 && near(&bins[b - 1], &bins[b]))
                || bins.get(b + 1).is_some_and(|next| near(&bins[b], next))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_interval_is_found_from_far_to_its_right() {
        let iv = Intervals::new(vec![(0, 1_000), (10, 20), (30, 40), (500, 510)]);
        // Everything from 0 may reach 600, because the first interval does.
        assert_eq!(iv.window(600.0, 700.0), 0..4);
        assert_eq!(iv.window(1_001.0, 2_000.0), 4..4);
        assert_eq!(iv.window(0.0, 15.0), 0..2);
    }

    #[test]
    fn a_track_gets_an_exact_window() {
        let iv = Intervals::new(vec![(0, 10), (10, 20), (30, 40), (50, 60)]);
        assert_eq!(iv.window(21.0, 29.0), 2..2);
        assert_eq!(iv.window(15.0, 35.0), 1..3);
        assert_eq!(iv.first_starting_at(0..4, 30.0), 2);
        assert_eq!(iv.first_starting_at(3..4, 30.0), 3);
    }

    #[test]
    fn instants_count_their_classes_without_a_scan() {
        let ix: Instants<2> = Instants::new([(1, 0), (2, 1), (2, 0), (9, 0)]);
        assert_eq!(ix.window(2.0, 9.0), 1..4);
        assert_eq!(ix.count(1..4), [2, 1]);
        assert_eq!(ix.count(0..0), [0, 0]);
        assert_eq!(Instants::<2>::default().window(0.0, 10.0), 0..0);
    }

    #[test]
    fn bins_hold_neighbours_and_skip_empty_time() {
        let ix: Instants<1> = Instants::new([0, 3, 9, 10, 11, 95].map(|t| (t, 0)));
        let bins = ix.bins(0..6, 10.0);
        let got: Vec<_> = bins.iter().map(|b| (b.number, b.items.clone())).collect();
        assert_eq!(got, [(0, 0..3), (1, 3..5), (9, 5..6)]);
        // A window in the middle only bins what it holds.
        assert_eq!(
            ix.bins(1..2, 10.0),
            [Bin {
                number: 0,
                items: 1..2
            }]
        );
    }
}
