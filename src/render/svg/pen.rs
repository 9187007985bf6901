//! The SVG pen: the picture's [`Pen`] calls written as SVG elements, one group per
//! [`Layer`], the plot's layers clipped to it (the document's `defs` hold the clip paths and
//! the hatching patterns). Each function below makes one element.
//!
//! Every element is the library's one generic [`Element`], named by its tag: its typed
//! `Text` element writes line breaks around its text, which viewers must then strip, and one
//! type keeps the web build to one copy of the library's code for elements.

use svg::Node;
use svg::node::Value;
pub use svg::node::element::Element;

use crate::picture::{Anchor, Area, Hatch, Layer, Pen, measure};
use crate::view::palette::Rgba;

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
pub fn rect(r: Area, fill: Rgba, radius: f32) -> Element {
    let el = bounds(r);
    let el = if radius > 0.0 {
        el.with("rx", num(radius))
    } else {
        el
    };
    filled(el, fill)
}

/// A `<rect>` over `r`, unpainted.
fn bounds(r: Area) -> Element {
    element("rect")
        .with("x", num(r.x0))
        .with("y", num(r.y0))
        .with("width", num(r.width()))
        .with("height", num(r.height()))
}

/// A rectangle filled with the pattern `id` (see `defs`).
fn hatched(r: Area, hatch: Hatch) -> Element {
    bounds(r).with("fill", format!("url(#{})", hatch_id(hatch)))
}

/// A rectangle's outline, `width` px wide inside its edge, as egui's inside strokes are.
fn outline(r: Area, color: Rgba, width: f32, radius: f32) -> Element {
    let el = bounds(r.shrink(width / 2.0))
        .with("rx", num((radius - width / 2.0).max(0.0)))
        .with("fill", "none");
    stroked(el, color, width)
}

/// A straight line.
fn line(a: (f32, f32), b: (f32, f32), color: Rgba, width: f32) -> Element {
    let el = element("line")
        .with("x1", num(a.0))
        .with("y1", num(a.1))
        .with("x2", num(b.0))
        .with("y2", num(b.1));
    stroked(el, color, width)
}

/// A dashed line: `dash` px drawn, `gap` px left out, from `a`.
fn dashed(a: (f32, f32), b: (f32, f32), color: Rgba, width: f32, dash: f32, gap: f32) -> Element {
    line(a, b, color, width).with("stroke-dasharray", format!("{} {}", num(dash), num(gap)))
}

/// A filled disc.
fn disc(center: (f32, f32), radius: f32, color: Rgba) -> Element {
    let el = element("circle")
        .with("cx", num(center.0))
        .with("cy", num(center.1))
        .with("r", num(radius));
    filled(el, color)
}

/// A closed polygon, filled (`Some`) or outlined.
fn polygon(points: &[(f32, f32)], fill: Option<Rgba>, outline: Option<(Rgba, f32)>) -> Element {
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

/// One line of text of `size` px whose box is vertically centred on `center_y`, exactly as
/// wide as [`measure::width`] says: a viewer that sets it in a font other than Ubuntu Light
/// fits it to that width (`textLength`), so it never runs into what the layout put beside it.
fn text(x: f32, center_y: f32, s: &str, size: f32, color: Rgba, anchor: Anchor) -> Element {
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

/// The id of the pattern in the document's `defs` that draws `hatch`.
pub fn hatch_id(hatch: Hatch) -> &'static str {
    match hatch {
        Hatch::LeaseLost => "lease-lost",
        Hatch::OnDisk => "on-disk",
    }
}

/// Draws the picture as SVG elements: one group for each [`Layer`].
///
/// A layer with a clip ([`SvgPen::clip`]) is clipped only when something drawn on it
/// reaches past the clip's edge: a whole run's picture then needs no clip path at all, and
/// renderers that apply clip paths wrongly (ImageMagick's own draws the outside of the clip)
/// still show it whole.
pub struct SvgPen {
    /// The groups, in [`Layer::ALL`]'s order.
    groups: [Element; Layer::ALL.len()],
    /// Per layer, the clip path's id and area, if it is clipped.
    clips: [Option<(&'static str, Area)>; Layer::ALL.len()],
    /// Per layer, whether something drawn on it reaches past its clip.
    spilled: [bool; Layer::ALL.len()],
    /// The group drawn on.
    at: Layer,
}

impl SvgPen {
    /// A pen with every layer empty and none clipped.
    pub fn new() -> Self {
        SvgPen {
            groups: Layer::ALL.map(|_| group()),
            clips: [None; Layer::ALL.len()],
            spilled: [false; Layer::ALL.len()],
            at: Layer::Back,
        }
    }

    /// Clips `layer` to `area`, the clip path `#id` of the document's `defs`, wherever
    /// something drawn on it reaches past that area.
    pub fn clip(&mut self, layer: Layer, id: &'static str, area: Area) {
        self.clips[layer as usize] = Some((id, area));
    }

    /// The layers' groups, in paint order.
    pub fn into_groups(self) -> [Element; Layer::ALL.len()] {
        let mut groups = self.groups;
        for (i, group) in groups.iter_mut().enumerate() {
            if let (Some((id, _)), true) = (self.clips[i], self.spilled[i]) {
                group.assign("clip-path", format!("url(#{id})"));
            }
        }
        groups
    }

    fn out(&mut self, el: Element) {
        self.groups[self.at as usize].append(el);
    }

    /// Notes what is drawn next on the current layer spans `x0..x1` × `y0..y1`.
    fn reach(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) {
        let layer = self.at as usize;
        // A pixel of slack: what a clip would cut by less than that does not show.
        if let Some((_, c)) = self.clips[layer]
            && (x0 < c.x0 - 1.0 || y0 < c.y0 - 1.0 || x1 > c.x1 + 1.0 || y1 > c.y1 + 1.0)
        {
            self.spilled[layer] = true;
        }
    }

    /// [`SvgPen::reach`] of the points, each `pad` around.
    fn reach_points(&mut self, points: &[(f32, f32)], pad: f32) {
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &(x, y) in points {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        self.reach(x0 - pad, y0 - pad, x1 + pad, y1 + pad);
    }
}

impl Pen for SvgPen {
    fn layer(&mut self, layer: Layer) {
        self.at = layer;
    }

    fn rect(&mut self, at: Area, fill: Rgba, radius: f32) {
        self.reach(at.x0, at.y0, at.x1, at.y1);
        self.out(rect(at, fill, radius));
    }

    fn outline(&mut self, at: Area, color: Rgba, width: f32, radius: f32) {
        let w = width / 2.0;
        self.reach(at.x0 - w, at.y0 - w, at.x1 + w, at.y1 + w);
        self.out(outline(at, color, width, radius));
    }

    fn line(&mut self, a: (f32, f32), b: (f32, f32), color: Rgba, width: f32) {
        self.reach_points(&[a, b], width / 2.0);
        self.out(line(a, b, color, width));
    }

    fn dashed(
        &mut self,
        a: (f32, f32),
        b: (f32, f32),
        color: Rgba,
        width: f32,
        dash: f32,
        gap: f32,
    ) {
        self.reach_points(&[a, b], width / 2.0);
        self.out(dashed(a, b, color, width, dash, gap));
    }

    fn hatch(&mut self, at: Area, hatch: Hatch) {
        self.reach(at.x0, at.y0, at.x1, at.y1);
        self.out(hatched(at, hatch));
    }

    fn disc(&mut self, center: (f32, f32), radius: f32, fill: Rgba) {
        self.reach_points(&[center], radius);
        self.out(disc(center, radius, fill));
    }

    fn polygon(&mut self, points: &[(f32, f32)], fill: Option<Rgba>, stroke: Option<(Rgba, f32)>) {
        self.reach_points(points, stroke.map_or(0.0, |(_, w)| w / 2.0));
        self.out(polygon(points, fill, stroke));
    }

    fn text(&mut self, (x, center_y): (f32, f32), anchor: Anchor, size: f32, color: Rgba, s: &str) {
        let w = self.text_width(s, size);
        let x0 = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - w / 2.0,
        };
        self.reach(x0, center_y - size / 2.0, x0 + w, center_y + size / 2.0);
        self.out(text(x, center_y, s, size, color, anchor));
    }

    fn text_width(&self, text: &str, size: f32) -> f32 {
        measure::width(text, size)
    }
}
