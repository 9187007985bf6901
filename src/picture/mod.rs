//! How a run's timeline looks, written once for every medium: the lanes with their names,
//! the axis in simulated time, partitions, the spans and marks on each lane, the violation
//! markers, and the legend, all drawn from the view model ([`crate::view::timeline::Lanes`])
//! against a [`Pen`]. The SVG picture (`render::svg`) is one pen; nothing here knows which.
//!
//! Where the picture sums up what is too dense to see (spans thinner than a pixel, marks
//! closer than their symbols), it does so by the view model's indexes, so a long run costs
//! what a short one does.

mod arrows;
pub mod frame;
pub mod hover;
mod lanes;
pub mod legend;
mod marks;
pub mod measure;
pub mod pen;
pub mod sizes;
mod spans;
pub mod theme;

pub use frame::Frame;
pub use hover::{Hit, Rank, Target};
pub use pen::{Anchor, Area, Hatch, Layer, Pen};
pub use theme::Theme;

use crate::checker::Verdict;
use crate::view::palette::Rgba;
use crate::view::timeline::Lanes;
use sizes::line_h;

/// What the drawing needs as it goes: where things go, in which colours, on what, and where
/// the labels went so far (each new label keeps clear of them).
struct Canvas<'p> {
    frame: Frame,
    theme: Theme,
    pen: &'p mut dyn Pen,
    labels: Vec<Area>,
}

/// What a drawing shows beyond the run itself.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Options {
    /// Messages as arrows (a haze where they are too many), under the bars.
    pub messages: bool,
    /// The violation highlighted across the lanes (an index into `Verdict::violations`).
    pub selected: Option<usize>,
    /// A box on the axis row no tick label may cover (the app's playhead badge), px.
    pub keep_clear: Option<Area>,
}

/// Draws the lanes of a run judged by `verdict` and laid out as `lanes` in `frame`: lane
/// backgrounds and names and the axis ([`Layer::Back`]), partitions, messages if asked,
/// shadings and bars ([`Layer::Content`]), marks ([`Layer::Marks`]) and the violation markers
/// on the axis ([`Layer::Over`]). Only what lies in the frame's window is drawn, and only up to
/// [`Frame::shown_until_ms`]. The legend is [`legend::draw`]. Returns where it put the labels
/// on the lanes, px: what the app's fault chips keep clear of.
pub fn draw(
    pen: &mut dyn Pen,
    (frame, theme): (&Frame, &Theme),
    lanes: &Lanes,
    verdict: &Verdict,
    options: &Options,
) -> Vec<Area> {
    let mut c = Canvas {
        frame: *frame,
        theme: *theme,
        pen,
        labels: Vec::new(),
    };
    lanes::backgrounds(&mut c, lanes);
    lanes::axis(&mut c, options.keep_clear);
    lanes::partitions(&mut c, &lanes.partitions);
    if options.messages {
        arrows::draw(&mut c, lanes);
    }
    for (i, lane) in lanes.lanes.iter().enumerate() {
        spans::lane(&mut c, i, lane);
    }
    for (i, lane) in lanes.lanes.iter().enumerate() {
        marks::lane(&mut c, i, lane);
    }
    marks::violations(&mut c, lanes, verdict, options.selected);
    c.labels
}

/// Text in a hue, readable on the lanes: darker than the hue on the light theme, lighter on
/// the dark one (a dark label on a dark lane disappears).
fn ink(theme: &Theme, c: Rgba) -> Rgba {
    let f = |v: u8| {
        let v = f32::from(v);
        (if theme.dark {
            v + (255.0 - v) * 0.55
        } else {
            v * 0.7
        }) as u8
    };
    Rgba::rgb(f(c.r), f(c.g), f(c.b))
}

/// Draws `text` at `size` px in `color`, wrapped to `max` px wide in at most `most` lines
/// ([`measure::wrap_at_most`]), its first line's top at `(x, top)`; returns the y under its
/// last line.
pub fn paragraph(
    pen: &mut dyn Pen,
    text: &str,
    (x, top): (f32, f32),
    size: f32,
    (max, most): (f32, usize),
    color: Rgba,
) -> f32 {
    let mut y = top;
    for line in measure::wrap_at_most(text, size, max, most) {
        pen.text(
            (x, y + line_h(size) / 2.0),
            Anchor::Start,
            size,
            color,
            &line,
        );
        y += line_h(size);
    }
    y
}
