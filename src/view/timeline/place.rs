//! Where a mark's label goes: beside the mark, on the first spot that covers nothing drawn
//! before it and that no other mark's line separates from the mark. The app and the SVG picture
//! place labels by this one rule, so a label never seems to name a neighbouring mark in
//! either. A fault's chip on the app's editable layer keeps clear of the same things by the
//! same test ([`chip_spot`]), pushed up its lane where a label is pushed along.

/// An axis-aligned box on the picture, px, y growing downwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    /// Left edge.
    pub x0: f32,
    /// Top edge.
    pub y0: f32,
    /// Right edge.
    pub x1: f32,
    /// Bottom edge.
    pub y1: f32,
}

impl Area {
    /// The box from `(x0, y0)` to `(x1, y1)`.
    pub fn new(x0: f32, y0: f32, x1: f32, y1: f32) -> Self {
        Area { x0, y0, x1, y1 }
    }

    /// Whether the two boxes overlap by more than an edge.
    pub fn intersects(&self, other: &Area) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    /// The box's width, px.
    pub fn width(&self) -> f32 {
        self.x1 - self.x0
    }

    /// The box's height, px.
    pub fn height(&self) -> f32 {
        self.y1 - self.y0
    }

    /// The y of the box's middle, px.
    pub fn center_y(&self) -> f32 {
        (self.y0 + self.y1) / 2.0
    }

    /// The box moved in by `dx` px on the left and right and `dy` px on the top and bottom.
    pub fn shrink2(&self, dx: f32, dy: f32) -> Self {
        Area::new(self.x0 + dx, self.y0 + dy, self.x1 - dx, self.y1 - dy)
    }

    /// The box moved in by `d` px on every side.
    pub fn shrink(&self, d: f32) -> Self {
        self.shrink2(d, d)
    }

    /// The box moved out by `dx` px on the left and right and `dy` px on the top and bottom.
    pub fn expand2(&self, dx: f32, dy: f32) -> Self {
        self.shrink2(-dx, -dy)
    }

    /// The part of this box inside `other` (not positive when they do not overlap).
    pub fn intersect(&self, other: &Area) -> Self {
        Area::new(
            self.x0.max(other.x0),
            self.y0.max(other.y0),
            self.x1.min(other.x1),
            self.y1.min(other.y1),
        )
    }

    /// Whether the box has a width and a height.
    pub fn is_positive(&self) -> bool {
        self.x1 > self.x0 && self.y1 > self.y0
    }

    /// Whether `other` lies wholly inside this box.
    fn contains(&self, other: &Area) -> bool {
        self.x0 <= other.x0 && other.x1 <= self.x1 && self.y0 <= other.y0 && other.y1 <= self.y1
    }
}

/// Which spots a label may take, tried in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    /// On the mark's line, then below, then above: right of it, left of it, or just after
    /// what is in the way on its right. For a single mark.
    Anywhere,
    /// On the line, then above, then below: right or left of it only. For a summary of
    /// several marks, whose label names one of them: pushed along, it would name another.
    Beside,
}

/// What a label must keep clear of.
#[derive(Clone, Copy, Debug)]
pub struct Obstacles<'a> {
    /// The label must lie wholly inside this box (the plot, or one lane of it).
    pub bounds: Area,
    /// Marks' symbols and the labels placed so far.
    pub taken: &'a [Area],
    /// Every mark's line across its lane, the labelled mark's own among them.
    pub lines: &'a [Area],
}

impl Obstacles<'_> {
    /// What `r` would cover of what is taken and of the lines.
    fn in_the_way<'s>(&'s self, r: &'s Area) -> impl Iterator<Item = &'s Area> {
        self.taken
            .iter()
            .chain(self.lines)
            .filter(move |t| t.intersects(r))
    }

    /// Whether `r` lies inside the bounds and covers nothing.
    fn free(&self, r: &Area) -> bool {
        self.bounds.contains(r) && self.in_the_way(r).next().is_none()
    }
}

/// The marks of one lane as obstacles to labels: each bin's symbols (around the line write
/// discs sit on, at `y`) and each bin's line across the lane (`lane_y0..lane_y1`).
/// `x_of_bin` gives the x-range, px, of the marks a bin holds.
pub fn mark_obstacles(
    x_of_bin: impl Iterator<Item = (f32, f32)>,
    y: f32,
    (lane_y0, lane_y1): (f32, f32),
) -> (Vec<Area>, Vec<Area>) {
    x_of_bin
        .map(|(x0, x1)| {
            let symbols = Area::new(x0 - 10.0, y - 10.0, x1 + 10.0, y + 10.0);
            let line = Area::new(x0 - 3.0, lane_y0, x1 + 3.0, lane_y1);
            (symbols, line)
        })
        .unzip()
}

/// Gap between a mark and its label, px.
const GAP: f32 = 12.0;
/// Gap after an obstacle a label is pushed past, px.
const PUSH_GAP: f32 = 8.0;
/// Gap under an obstacle a chip is pushed up past, px.
const STACK_GAP: f32 = 2.0;
/// How far below or above its line a label's second and third rows are, px.
const ROW: f32 = 18.0;

/// The spot for a label of `size` (width, height, px) naming the mark drawn across
/// `mark_x0..=mark_x1` whose label line is at `y`; `None` when there is no room, as a
/// cut-off or overlapping label reads worse than none (the mark's hover text still tells).
pub fn label_spot(
    (mark_x0, mark_x1): (f32, f32),
    y: f32,
    (w, h): (f32, f32),
    room: Room,
    around: Obstacles<'_>,
) -> Option<Area> {
    let rows = match room {
        Room::Anywhere => [0.0, ROW, -ROW],
        Room::Beside => [0.0, -ROW, ROW],
    };
    let at = |left: f32, top: f32| Area::new(left, top, left + w, top + h);
    let beside = |dy: f32| {
        let top = y + dy - h / 2.0;
        let right = at(mark_x1 + GAP, top);
        let left = at(mark_x0 - GAP - w, top);
        let in_the_way = around
            .taken
            .iter()
            .filter(|t| t.intersects(&right))
            .map(|t| t.x1)
            .fold(right.x0 - PUSH_GAP, f32::max);
        let pushed = (room == Room::Anywhere).then(|| at(in_the_way + PUSH_GAP, top));
        [Some(right), Some(left), pushed].into_iter().flatten()
    };
    // A line standing between the label and its mark would make the label seem to name
    // that line's mark instead.
    let separated = |r: &Area| {
        let (from, to) = if r.x0 >= mark_x1 {
            (mark_x1 + GAP / 3.0, r.x0)
        } else {
            (r.x1, mark_x0 - GAP / 3.0)
        };
        around.lines.iter().any(|l| l.x0 < to && from < l.x1)
    };
    let fits = |r: &Area| around.free(r) && !separated(r);
    rows.into_iter().flat_map(beside).find(fits)
}

/// The spot for a chip `h` px tall across `x0..x1` (its time on the axis, which it keeps):
/// at the bottom of `around.bounds` (its lane), else pushed up just past what is in the way
/// there, until it covers nothing; `None` when it would leave the top.
pub fn chip_spot((x0, x1): (f32, f32), h: f32, around: Obstacles<'_>) -> Option<Area> {
    let mut r = Area::new(x0, around.bounds.y1 - h, x1, around.bounds.y1);
    while around.bounds.contains(&r) {
        if around.free(&r) {
            return Some(r);
        }
        // Past the highest top in the way: each push moves it up, so this ends.
        let top = around.in_the_way(&r).map(|t| t.y0).fold(r.y1, f32::min);
        r = Area::new(x0, top - STACK_GAP - h, x1, top - STACK_GAP);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLOT: Area = Area {
        x0: 0.0,
        y0: 0.0,
        x1: 1000.0,
        y1: 60.0,
    };

    fn line(x: f32) -> Area {
        Area::new(x - 3.0, 0.0, x + 3.0, 60.0)
    }

    fn spot(x: f32, taken: &[Area], lines: &[Area]) -> Option<Area> {
        let around = Obstacles {
            bounds: PLOT,
            taken,
            lines,
        };
        label_spot((x, x), 30.0, (100.0, 14.0), Room::Anywhere, around)
    }

    #[test]
    fn a_lone_mark_is_labelled_on_its_right() {
        let r = spot(100.0, &[], &[line(100.0)]).unwrap();
        assert_eq!((r.x0, r.y0), (112.0, 23.0));
    }

    #[test]
    fn a_label_never_sits_past_another_marks_line() {
        // Marks at 100 and 130: the first has no room on its right before the second's line
        // and none on its left inside the plot; pushing it past 130 would name that mark.
        let lines = [line(100.0), line(130.0)];
        let taken = [
            Area::new(90.0, 20.0, 110.0, 40.0),
            Area::new(120.0, 20.0, 140.0, 40.0),
        ];
        assert_eq!(spot(100.0, &taken, &lines), None);
        // The second mark's label goes on its own right.
        let r = spot(130.0, &taken, &lines).unwrap();
        assert_eq!(r.x0, 142.0);
    }

    #[test]
    fn a_label_is_pushed_past_a_label_but_not_past_a_line() {
        let lines = [line(500.0)];
        let label = Area::new(505.0, 23.0, 560.0, 37.0);
        let r = spot(500.0, &[label], &lines).unwrap();
        // Right and left of the mark on its line are taken (left is free here, so left).
        assert_eq!(r.x1, 488.0);
        // With the left cut off by the plot, it is pushed past the other label.
        let around = Obstacles {
            bounds: Area::new(450.0, 0.0, 1000.0, 60.0),
            taken: &[label],
            lines: &lines,
        };
        let r = label_spot((500.0, 500.0), 30.0, (100.0, 14.0), Room::Anywhere, around).unwrap();
        assert_eq!(r.x0, 568.0);
    }

    /// A chip 16 px tall on lane 0..60 from 100 to 200, among `taken`.
    fn chip(taken: &[Area]) -> Option<Area> {
        let around = Obstacles {
            bounds: PLOT,
            taken,
            lines: &[],
        };
        chip_spot((100.0, 200.0), 16.0, around)
    }

    #[test]
    fn a_chip_sits_at_the_bottom_of_its_lane_and_is_pushed_up_past_what_is_there() {
        assert_eq!(chip(&[]), Some(Area::new(100.0, 44.0, 200.0, 60.0)));
        // A label under it, and another just above that one: past both.
        let under = Area::new(150.0, 40.0, 250.0, 54.0);
        let above = Area::new(0.0, 20.0, 120.0, 34.0);
        assert_eq!(
            chip(&[under, above]),
            Some(Area::new(100.0, 2.0, 200.0, 18.0))
        );
        // Beside it in time is not in its way.
        assert_eq!(
            chip(&[Area::new(200.0, 0.0, 300.0, 60.0)]),
            Some(Area::new(100.0, 44.0, 200.0, 60.0))
        );
        // No room left: none.
        assert_eq!(chip(&[Area::new(190.0, 10.0, 300.0, 50.0)]), None);
    }

    #[test]
    fn a_summary_label_is_never_pushed() {
        let lines = [line(500.0)];
        let taken = [Area::new(505.0, 0.0, 560.0, 60.0)];
        let around = Obstacles {
            bounds: Area::new(450.0, 0.0, 1000.0, 60.0),
            taken: &taken,
            lines: &lines,
        };
        assert_eq!(
            label_spot((500.0, 500.0), 30.0, (100.0, 14.0), Room::Beside, around),
            None
        );
    }
}
