//! Where a picture's parts go: the lane-name column, the lanes, the plot inside them, the axis
//! above, and the time scale that turns simulated time into x and back.

use super::pen::Area;

/// The lanes, the plot inside them, the axis above, and the time scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// The left edge of the lane names, px.
    pub left: f32,
    /// The lanes' drawing area (right of the names, below the axis), px.
    pub plot: Area,
    /// The axis row above `plot`, px.
    pub axis: Area,
    /// Each lane's height, px.
    pub lane_h: f32,
    /// The left end of the time axis, true ms: 0 for a whole run, later when zoomed in.
    pub start_ms: f64,
    /// The right end of the time axis, true ms: the horizon, or where the picture is cut.
    pub end_ms: f64,
    /// Nothing after this is drawn, true ms: the app's playhead (the run so far), or
    /// `end_ms` for a picture of everything on its axis.
    pub shown_until_ms: f64,
    /// The lane-name column is the narrow one: short captions.
    pub narrow: bool,
}

impl Frame {
    /// The x of `ms` true ms, px.
    pub fn x(&self, ms: f64) -> f32 {
        self.plot.x0 + ((ms - self.start_ms) / self.len_ms()) as f32 * self.plot.width()
    }

    /// How much time the axis spans, true ms.
    pub fn len_ms(&self) -> f64 {
        self.end_ms - self.start_ms
    }

    /// The true ms at `x` px.
    pub fn ms(&self, x: f32) -> f64 {
        self.start_ms + f64::from((x - self.plot.x0) / self.plot.width()) * self.len_ms()
    }

    /// True ms per px.
    pub fn ms_per_px(&self) -> f64 {
        self.len_ms() / f64::from(self.plot.width().max(1.0))
    }

    /// Lane `i`'s box across the plot, px.
    pub fn lane(&self, i: usize) -> Area {
        let top = self.plot.y0 + i as f32 * self.lane_h;
        Area::new(self.plot.x0, top, self.plot.x1, top + self.lane_h)
    }

    /// Lane `i`'s name, left of the plot, px.
    pub fn name(&self, i: usize) -> Area {
        let lane = self.lane(i);
        Area::new(self.left, lane.y0, self.plot.x0, lane.y1)
    }

    /// The lane of `lanes` at height `y` px, if any.
    pub fn lane_at(&self, y: f32, lanes: usize) -> Option<usize> {
        let i = ((y - self.plot.y0) / self.lane_h).floor();
        (i >= 0.0 && (i as usize) < lanes).then_some(i as usize)
    }

    /// The x-range of `start..end` ms, cut where what is shown ends, px.
    pub fn x_range(&self, start: u64, end: u64) -> (f32, f32) {
        (
            self.x(start as f64),
            self.x((end as f64).min(self.shown_until_ms)),
        )
    }

    /// The true-ms window drawn: the axis, cut at [`Frame::shown_until_ms`].
    pub fn window(&self) -> (f64, f64) {
        (self.start_ms, self.end_ms.min(self.shown_until_ms))
    }

    /// The x where what is drawn ends: the plot's right edge, or left of it where what is
    /// shown ends, px.
    pub fn shown_x1(&self) -> f32 {
        self.x(self.window().1).min(self.plot.x1)
    }

    /// Whether something from `start` to `end` ms is drawn at all.
    pub fn shows(&self, start: u64, end: u64) -> bool {
        let (from, to) = self.window();
        (end as f64) >= from && (start as f64) <= to
    }
}
