//! What the picture is drawn with: a [`Pen`] that puts shapes and text on some surface (an
//! SVG document, egui's painter, a test's list of calls), in the manner of plotters'
//! `DrawingBackend`. The picture decides where everything goes; a pen only knows how to put
//! it there.

use super::hover::{Hit, Rank, Target};
use crate::view::palette::{self, Rgba};
pub use crate::view::timeline::place::Area;

/// The layers of a picture, in paint order: each is drawn over the ones before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    /// Above the lanes, unclipped: a document's title and verdict (the SVG's header).
    Header,
    /// Under everything in the lanes: lane backgrounds and names, the axis and its grid.
    Back,
    /// Clipped to the plot and the axis row: partitions, shadings and bars.
    Content,
    /// Clipped to the plot: marks and their labels.
    Marks,
    /// Unclipped, over the lanes: the violation markers on the axis.
    Over,
    /// Under the lanes, unclipped: the legend.
    Legend,
}

impl Layer {
    /// Every layer, in paint order.
    pub const ALL: [Layer; 6] = [
        Layer::Header,
        Layer::Back,
        Layer::Content,
        Layer::Marks,
        Layer::Over,
        Layer::Legend,
    ];
}

/// Where a text's `x` is: its start or its middle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `x` is where it starts.
    Start,
    /// `x` is its middle.
    Middle,
}

/// The stripes a rectangle can be hatched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hatch {
    /// Red, rising: the part of a belief the store no longer backs.
    LeaseLost,
    /// Grey, falling: a grant on the disk of a node that is down.
    OnDisk,
}

impl Hatch {
    /// Its stripes: 45° lines `spacing` px apart, rising to the right or falling, 1 px wide
    /// in `color`.
    pub fn stripes(self) -> Stripes {
        match self {
            Hatch::LeaseLost => Stripes {
                spacing: 8.0,
                rising: true,
                color: palette::VIOLATING.faded(0.55),
            },
            Hatch::OnDisk => Stripes {
                spacing: 6.0,
                rising: false,
                color: palette::FAULT_TEXT.faded(0.8),
            },
        }
    }
}

/// How a [`Hatch`] is striped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stripes {
    /// From one stripe to the next along the x axis, px.
    pub spacing: f32,
    /// Rising to the right (`/`), else falling (`\`).
    pub rising: bool,
    /// The stripes' colour.
    pub color: Rgba,
}

/// A surface the picture is drawn on. Positions and sizes are px, y growing downwards;
/// every call draws on the layer last chosen with [`Pen::layer`].
pub trait Pen {
    /// Draws what follows on `layer`.
    fn layer(&mut self, layer: Layer);
    /// A filled rectangle with corners rounded by `radius` px.
    fn rect(&mut self, at: Area, fill: Rgba, radius: f32);
    /// A rectangle's outline, `width` px wide inside its edge, corners rounded by `radius` px.
    fn outline(&mut self, at: Area, color: Rgba, width: f32, radius: f32);
    /// A straight line `width` px wide.
    fn line(&mut self, a: (f32, f32), b: (f32, f32), color: Rgba, width: f32);
    /// A dashed line from `a`: `dash` px drawn, `gap` px left out.
    fn dashed(
        &mut self,
        a: (f32, f32),
        b: (f32, f32),
        color: Rgba,
        width: f32,
        dash: f32,
        gap: f32,
    );
    /// A rectangle filled with `hatch`'s stripes.
    fn hatch(&mut self, at: Area, hatch: Hatch);
    /// A filled disc.
    fn disc(&mut self, center: (f32, f32), radius: f32, fill: Rgba);
    /// A closed polygon, filled (`fill`) and/or outlined (`stroke`: colour, width px).
    fn polygon(&mut self, points: &[(f32, f32)], fill: Option<Rgba>, stroke: Option<(Rgba, f32)>);
    /// One line of `text`, `size` px, at `at = (x, center_y)`: its box vertically centred on
    /// `center_y`, starting or centred at `x` as `anchor` says.
    fn text(&mut self, at: (f32, f32), anchor: Anchor, size: f32, color: Rgba, text: &str);
    /// How wide `text` comes out on one line at `size` px, px.
    fn text_width(&self, text: &str, size: f32) -> f32;
    /// Says that `target`, of `rank`, was just drawn where `hit` is: a pen with a pointer
    /// (the app's) keeps the highest-ranked target under it, others ignore it.
    fn hover(&mut self, hit: Hit, rank: Rank, target: Target) {
        let _ = (hit, rank, target);
    }
}
