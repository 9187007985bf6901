//! The picture's pen on egui: each [`Layer`] on a painter of its own clip, text measured and
//! laid out by egui's fonts, and the pointer, so that the thing drawn under it is known.

use eframe::egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, StrokeKind, pos2};

use crate::app::style::color;
use crate::picture::{Anchor, Area, Hatch, Hit, Layer, Pen, Rank, Target};
use crate::view::palette::Rgba;

/// The egui rectangle of a picture's box.
pub fn rect(a: Area) -> Rect {
    Rect::from_min_max(pos2(a.x0, a.y0), pos2(a.x1, a.y1))
}

/// A picture's box of an egui rectangle.
pub fn area(r: Rect) -> Area {
    Area::new(r.left(), r.top(), r.right(), r.bottom())
}

fn pos((x, y): (f32, f32)) -> Pos2 {
    pos2(x, y)
}

/// Draws on egui painters, one per layer, and keeps the most specific thing drawn under the
/// pointer.
pub struct EguiPen {
    /// In [`Layer::ALL`]'s order.
    painters: Vec<Painter>,
    at: usize,
    pointer: Option<Pos2>,
    hovered: Option<(Rank, Target)>,
    /// Text is drawn and measured this many times its size.
    scale: f32,
}

impl EguiPen {
    /// A pen on `painter`, each layer clipped to `clip(layer)` within it, with the pointer at
    /// `pointer` (if it is over the picture), setting text `scale` times its size.
    pub fn new(
        painter: &Painter,
        clip: impl Fn(Layer) -> Rect,
        pointer: Option<Pos2>,
        scale: f32,
    ) -> Self {
        EguiPen {
            painters: Layer::ALL
                .iter()
                .map(|&l| painter.with_clip_rect(clip(l)))
                .collect(),
            at: Layer::Back as usize,
            pointer,
            hovered: None,
            scale,
        }
    }

    /// The thing drawn under the pointer that ranks highest (the later of equals).
    pub fn hovered(self) -> Option<Target> {
        self.hovered.map(|(_, target)| target)
    }

    fn painter(&self) -> &Painter {
        &self.painters[self.at]
    }
}

impl Pen for EguiPen {
    fn layer(&mut self, layer: Layer) {
        self.at = layer as usize;
    }

    fn rect(&mut self, at: Area, fill: Rgba, radius: f32) {
        self.painter().rect_filled(rect(at), radius, color(fill));
    }

    fn outline(&mut self, at: Area, c: Rgba, width: f32, radius: f32) {
        let stroke = Stroke::new(width, color(c));
        self.painter()
            .rect_stroke(rect(at), radius, stroke, StrokeKind::Inside);
    }

    fn line(&mut self, a: (f32, f32), b: (f32, f32), c: Rgba, width: f32) {
        self.painter()
            .line_segment([pos(a), pos(b)], Stroke::new(width, color(c)));
    }

    fn dashed(&mut self, a: (f32, f32), b: (f32, f32), c: Rgba, width: f32, dash: f32, gap: f32) {
        let stroke = Stroke::new(width, color(c));
        self.painter()
            .extend(Shape::dashed_line(&[pos(a), pos(b)], stroke, dash, gap));
    }

    fn hatch(&mut self, at: Area, hatch: Hatch) {
        let stripes = hatch.stripes();
        let r = rect(at);
        let painter = self.painter();
        // Only the stripes that cross the visible part: a long bar zoomed in stays cheap.
        let visible = r.intersect(painter.clip_rect());
        if !visible.is_positive() {
            return;
        }
        let clipped = painter.with_clip_rect(visible);
        let stroke = Stroke::new(1.0, color(stripes.color));
        let (h, step) = (r.height(), stripes.spacing);
        let mut x = visible.left() - h - (visible.left() - r.left()).rem_euclid(step);
        while x < visible.right() {
            let (a, b) = if stripes.rising {
                (pos2(x, r.bottom()), pos2(x + h, r.top()))
            } else {
                (pos2(x, r.top()), pos2(x + h, r.bottom()))
            };
            clipped.line_segment([a, b], stroke);
            x += step;
        }
    }

    fn disc(&mut self, center: (f32, f32), radius: f32, fill: Rgba) {
        self.painter()
            .circle_filled(pos(center), radius, color(fill));
    }

    fn polygon(&mut self, points: &[(f32, f32)], fill: Option<Rgba>, stroke: Option<(Rgba, f32)>) {
        let points = points.iter().copied().map(pos).collect();
        let fill = fill.map_or(Color32::TRANSPARENT, color);
        let stroke = stroke.map_or(Stroke::NONE, |(c, w)| Stroke::new(w, color(c)));
        self.painter()
            .add(Shape::convex_polygon(points, fill, stroke));
    }

    fn text(&mut self, (x, y): (f32, f32), anchor: Anchor, size: f32, c: Rgba, text: &str) {
        let align = match anchor {
            Anchor::Start => Align2::LEFT_CENTER,
            Anchor::Middle => Align2::CENTER_CENTER,
        };
        let font = FontId::proportional(size * self.scale);
        self.painter().text(pos2(x, y), align, text, font, color(c));
    }

    fn text_width(&self, text: &str, size: f32) -> f32 {
        self.painter()
            .layout_no_wrap(
                text.to_string(),
                FontId::proportional(size * self.scale),
                Color32::WHITE,
            )
            .size()
            .x
    }

    fn hover(&mut self, hit: Hit, rank: Rank, target: Target) {
        let Some(p) = self.pointer else { return };
        // Only what is drawn: a thing under the layer's clip (the playhead) is not there yet.
        let drawn = self.painter().clip_rect().contains(p);
        let better = self.hovered.as_ref().is_none_or(|(r, _)| rank >= *r);
        if drawn && better && hit.contains((p.x, p.y)) {
            self.hovered = Some((rank, target));
        }
    }
}
