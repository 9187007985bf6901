//! The SVG elements the picture is made of, with the palette's colours: each function makes
//! one element, so the drawing code reads like the app's painter calls.
//!
//! Every element is the library's one generic [`Element`], named by its tag: its typed
//! `Text` element writes line breaks around its text, which viewers must then strip, and one
//! type keeps the web build to one copy of the library's code for elements.

use svg::Node;
use svg::node::Value;
pub use svg::node::element::Element;

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

/// Sets attributes while building an element.
pub trait With {
    /// The element with attribute `name` set to `value`.
    fn with(self, name: &str, value: impl Into<Value>) -> Self;
}

impl With for Element {
    fn with(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.assign(name, value);
        self
    }
}

/// An empty element `<name>`.
pub fn element(name: &str) -> Element {
    Element::new(name)
}

/// An empty group, `<g>`.
pub fn group() -> Element {
    element("g")
}

/// `el` with `child` added as its last child.
pub fn add(mut el: Element, child: Element) -> Element {
    el.append(child);
    el
}

/// Sets `fill` (and `fill-opacity` if it is see-through) on `el`.
fn filled(mut el: Element, c: Rgba) -> Element {
    el.assign("fill", hex(c));
    if c.a < 255 {
        el.assign("fill-opacity", num(c.opacity() * 100.0) / 100.0);
    }
    el
}

/// Sets a stroke of `width` px in `c` on `el`.
fn stroked(mut el: Element, c: Rgba, width: f32) -> Element {
    el.assign("stroke", hex(c));
    el.assign("stroke-width", num(width));
    if c.a < 255 {
        el.assign("stroke-opacity", num(c.opacity() * 100.0) / 100.0);
    }
    el
}

/// `#rrggbb`, for a stroke set by hand.
pub fn color(c: Rgba) -> String {
    hex(c)
}

/// A filled rectangle with corners rounded by `radius` px.
pub fn rect(r: Rect, fill: Rgba, radius: f32) -> Element {
    let el = bounds(r);
    let el = if radius > 0.0 {
        el.with("rx", num(radius))
    } else {
        el
    };
    filled(el, fill)
}

/// A `<rect>` over `r`, unpainted.
fn bounds(r: Rect) -> Element {
    element("rect")
        .with("x", num(r.x0))
        .with("y", num(r.y0))
        .with("width", num(r.width()))
        .with("height", num(r.height()))
}

/// A rectangle filled with the pattern `id` (see `defs`).
pub fn hatched(r: Rect, id: &str) -> Element {
    bounds(r).with("fill", format!("url(#{id})"))
}

/// A rectangle's outline, `width` px wide inside its edge, as egui's inside strokes are.
pub fn outline(r: Rect, color: Rgba, width: f32, radius: f32) -> Element {
    let el = bounds(r.shrink(width / 2.0))
        .with("rx", num((radius - width / 2.0).max(0.0)))
        .with("fill", "none");
    stroked(el, color, width)
}

/// A straight line.
pub fn line(a: (f32, f32), b: (f32, f32), color: Rgba, width: f32) -> Element {
    let el = element("line")
        .with("x1", num(a.0))
        .with("y1", num(a.1))
        .with("x2", num(b.0))
        .with("y2", num(b.1));
    stroked(el, color, width)
}

/// A dashed line: `dash` px drawn, `gap` px left out, from `a`.
pub fn dashed(
    a: (f32, f32),
    b: (f32, f32),
    color: Rgba,
    width: f32,
    dash: f32,
    gap: f32,
) -> Element {
    line(a, b, color, width).with("stroke-dasharray", format!("{} {}", num(dash), num(gap)))
}

/// A filled disc.
pub fn disc(center: (f32, f32), radius: f32, color: Rgba) -> Element {
    let el = element("circle")
        .with("cx", num(center.0))
        .with("cy", num(center.1))
        .with("r", num(radius));
    filled(el, color)
}

/// A closed polygon, filled (`Some`) or outlined.
pub fn polygon(points: &[(f32, f32)], fill: Option<Rgba>, outline: Option<(Rgba, f32)>) -> Element {
    let points: Vec<String> = points
        .iter()
        .map(|&(x, y)| format!("{},{}", num(x), num(y)))
        .collect();
    let el = element("polygon").with("points", points.join(" "));
    let el = match fill {
        Some(c) => filled(el, c),
        None => el.with("fill", "none"),
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
pub fn text(x: f32, center_y: f32, s: &str, size: f32, color: Rgba, anchor: Anchor) -> Element {
    // The baseline below the middle of the line box: Ubuntu's ascent (0.932 em) less half its
    // height (ascent plus descent, 1.121 em).
    let baseline = center_y + 0.37 * size;
    let s = safe(s);
    let mut el = element("text")
        .with("x", num(x))
        .with("y", num(baseline))
        .with("font-size", num(size))
        .with("textLength", num(measure::width(&s, size)))
        .with("lengthAdjust", "spacingAndGlyphs");
    if anchor == Anchor::Middle {
        el.assign("text-anchor", "middle");
    }
    el.append(svg::node::Text::new(s));
    filled(el, color)
}

/// A text node holding `s`, made safe as [`safe`] does.
pub fn text_node(s: &str) -> svg::node::Text {
    svg::node::Text::new(safe(s))
}

/// `s` as XML may hold it: the control characters a scenario's name could carry (validation
/// refuses them; this is the second guard) are written as `\u{..}` escapes, as a terminal
/// gets them, and the two non-characters XML forbids are replaced.
fn safe(s: &str) -> String {
    crate::text::printable(s, false).replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}")
}
