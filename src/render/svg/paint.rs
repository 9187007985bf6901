//! The SVG elements the picture is made of, with the palette's colours: each function makes
//! one element, so the drawing code reads like the app's painter calls.

use svg::node::element::{Circle, Line, Polygon, Rectangle, Text};

use super::Rect;
use crate::render::measure;
use crate::view::palette::Rgba;

/// The light theme's text colours and lines (egui's light visuals, which the app uses).
pub mod theme {
    use crate::view::palette::Rgba;

    /// The page behind everything.
    pub const PANEL: Rgba = Rgba::rgb(248, 248, 248);
    /// Every other lane, a shade lighter.
    pub const FAINT: Rgba = Rgba::rgb(253, 253, 253);
    /// Lines between lanes and the grid.
    pub const LINE: Rgba = Rgba::rgb(190, 190, 190);
    /// Running text.
    pub const TEXT: Rgba = Rgba::rgb(80, 80, 80);
    /// Names and titles.
    pub const STRONG: Rgba = Rgba::rgb(0, 0, 0);
    /// Captions and notes: the text colour, 60 % opaque.
    pub const WEAK: Rgba = Rgba::translucent(80, 80, 80, 153);
    /// Text on a coloured badge or a lease bar.
    pub const WHITE: Rgba = Rgba::rgb(255, 255, 255);
}

/// A number for an attribute: a tenth of a pixel is finer than any screen shows, and keeps
/// the file short.
pub fn num(v: f32) -> f32 {
    (v * 10.0).round() / 10.0
}

/// `#rrggbb`.
fn hex(c: Rgba) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

/// Sets `fill` (and `fill-opacity` if it is see-through) on `el`.
fn filled<T: svg::Node>(mut el: T, c: Rgba) -> T {
    el.assign("fill", hex(c));
    if c.a < 255 {
        el.assign("fill-opacity", num(c.opacity() * 100.0) / 100.0);
    }
    el
}

/// Sets a stroke of `width` px in `c` on `el`.
fn stroked<T: svg::Node>(mut el: T, c: Rgba, width: f32) -> T {
    el.assign("stroke", hex(c));
    el.assign("stroke-width", num(width));
    if c.a < 255 {
        el.assign("stroke-opacity", num(c.opacity() * 100.0) / 100.0);
    }
    el
}

/// A filled rectangle with corners rounded by `radius` px.
pub fn rect(r: Rect, fill: Rgba, radius: f32) -> Rectangle {
    let el = Rectangle::new()
        .set("x", num(r.x0))
        .set("y", num(r.y0))
        .set("width", num(r.width()))
        .set("height", num(r.height()));
    let el = if radius > 0.0 {
        el.set("rx", num(radius))
    } else {
        el
    };
    filled(el, fill)
}

/// A rectangle filled with the pattern `id` (see `defs`).
pub fn hatched(r: Rect, id: &str) -> Rectangle {
    Rectangle::new()
        .set("x", num(r.x0))
        .set("y", num(r.y0))
        .set("width", num(r.width()))
        .set("height", num(r.height()))
        .set("fill", format!("url(#{id})"))
}

/// A rectangle's outline, `width` px wide inside its edge, as egui's inside strokes are.
pub fn outline(r: Rect, color: Rgba, width: f32, radius: f32) -> Rectangle {
    let inset = r.shrink(width / 2.0);
    let el = Rectangle::new()
        .set("x", num(inset.x0))
        .set("y", num(inset.y0))
        .set("width", num(inset.width()))
        .set("height", num(inset.height()))
        .set("rx", num((radius - width / 2.0).max(0.0)))
        .set("fill", "none");
    stroked(el, color, width)
}

/// A straight line.
pub fn line(a: (f32, f32), b: (f32, f32), color: Rgba, width: f32) -> Line {
    let el = Line::new()
        .set("x1", num(a.0))
        .set("y1", num(a.1))
        .set("x2", num(b.0))
        .set("y2", num(b.1));
    stroked(el, color, width)
}

/// A dashed line: `dash` px drawn, `gap` px left out, from `a`.
pub fn dashed(a: (f32, f32), b: (f32, f32), color: Rgba, width: f32, dash: f32, gap: f32) -> Line {
    line(a, b, color, width).set("stroke-dasharray", format!("{} {}", num(dash), num(gap)))
}

/// A filled disc.
pub fn disc(center: (f32, f32), radius: f32, color: Rgba) -> Circle {
    let el = Circle::new()
        .set("cx", num(center.0))
        .set("cy", num(center.1))
        .set("r", num(radius));
    filled(el, color)
}

/// A closed polygon, filled (`Some`) or outlined.
pub fn polygon(points: &[(f32, f32)], fill: Option<Rgba>, outline: Option<(Rgba, f32)>) -> Polygon {
    let points: Vec<String> = points
        .iter()
        .map(|&(x, y)| format!("{},{}", num(x), num(y)))
        .collect();
    let el = Polygon::new().set("points", points.join(" "));
    let el = match fill {
        Some(c) => filled(el, c),
        None => el.set("fill", "none"),
    };
    match outline {
        Some((c, width)) => stroked(el, c, width),
        None => el,
    }
}

/// Where a text's `x` is: its start or its middle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `x` is where it starts.
    Start,
    /// `x` is its middle.
    Middle,
}

/// One line of text of `size` px whose box is vertically centred on `center_y`, exactly as
/// wide as [`measure::width`] says: a viewer that sets it in a font other than Ubuntu Light
/// fits it to that width (`textLength`), so it never runs into what the layout put beside it.
pub fn text(x: f32, center_y: f32, s: &str, size: f32, color: Rgba, anchor: Anchor) -> Text {
    // The baseline below the middle of the line box: Ubuntu's ascent (0.932 em) less half its
    // height (ascent plus descent, 1.121 em).
    let baseline = center_y + 0.37 * size;
    let s = safe(s);
    let el = Text::new(s.clone())
        .set("x", num(x))
        .set("y", num(baseline))
        .set("font-size", num(size))
        .set("textLength", num(measure::width(&s, size)))
        .set("lengthAdjust", "spacingAndGlyphs");
    let el = match anchor {
        Anchor::Start => el,
        Anchor::Middle => el.set("text-anchor", "middle"),
    };
    filled(el, color)
}

/// `s` as XML may hold it: the control characters a scenario's name could carry (validation
/// refuses them; this is the second guard) are written as `\u{..}` escapes, as a terminal
/// gets them, and the two non-characters XML forbids are replaced.
pub fn safe(s: &str) -> String {
    crate::text::printable(s, false).replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}")
}
