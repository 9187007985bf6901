//! Every size of the picture, once, px.

/// Width of the lane-name column.
pub const GUTTER: f32 = 150.0;
/// The lane-name column of a timeline narrower than [`NARROW`], with short captions: on a
/// phone the names must not take 40 % of the screen from the plot.
pub const NARROW_GUTTER: f32 = 100.0;
/// Below this width of the timeline the picture uses [`NARROW_GUTTER`].
pub const NARROW: f32 = 560.0;

/// The lane-name column's width for a timeline `width` px wide.
pub fn gutter(width: f32) -> f32 {
    if width < NARROW {
        NARROW_GUTTER
    } else {
        GUTTER
    }
}
/// Height of the time axis above the lanes.
pub const AXIS: f32 = 46.0;
/// Free space right of the plot so the last tick label fits.
pub const RIGHT_PAD: f32 = 24.0;
/// The narrowest plot drawn.
pub const MIN_PLOT: f32 = 120.0;
/// A lane's height with one row of bars: room for a fault's label above the bar and a mark's
/// label under it.
pub const LANE: f32 = 72.0;
/// What each further row of bars adds to a lane.
pub const ROW: f32 = 26.0;
/// The size of labels on bars and beside marks.
pub const LABEL: f32 = 12.0;
/// Spans narrower than this are summed up with their neighbours.
pub const THIN_PX: f32 = 1.0;
/// How far past the plot a violation's name may reach, into the free space on its right.
pub const RIGHT_OVERHANG: f32 = 20.0;
/// A legend swatch's width and height.
pub const SWATCH: (f32, f32) = (34.0, 16.0);
/// The legend's text size.
pub const LEGEND_TEXT: f32 = 13.0;
/// The size of the legend's note on how grants are named.
pub const LEGEND_NOTE: f32 = 12.0;
/// Height of one row of legend entries.
pub const LEGEND_ROW: f32 = 21.0;

/// The height of a lane whose busiest lane holds `rows` rows of bars.
pub fn lane_height(rows: u32) -> f32 {
    LANE.max(28.0 + ROW * rows as f32)
}

/// The least height of a lane whose busiest lane holds `rows` rows of bars, with text `scale`
/// times its size: the exported picture's height ([`lane_height`]), where a fault's label, a
/// wait's and each bar's fit above one another, and 8 px for a mark's label that a full top
/// row sends under the bars (a leader's flag beside a fault's label in a narrow timeline);
/// grown by what larger text adds to each.
pub fn lane_floor(rows: u32, scale: f32) -> f32 {
    let grown = line_h(LABEL) * (scale - 1.0).max(0.0) * (rows + 2) as f32;
    (lane_height(rows) + 8.0 + grown).ceil()
}

/// A line of text's height at `size` px.
pub fn line_h(size: f32) -> f32 {
    size * 1.2
}
