//! What the app painted in its last frame, read from egui's output shapes: for what the
//! accessibility tree cannot tell, whether a text was cut off by the rectangle it was
//! clipped to.

use eframe::egui::{self, Rect};
use egui_kittest::Harness;
use locksim::app::LocksimApp;

/// Every text painted in the last frame: its words, where it was painted and the rectangle
/// it was clipped to, points.
pub fn texts(h: &Harness<'_, LocksimApp>) -> Vec<(String, Rect, Rect)> {
    fn walk(shape: &egui::Shape, clip: Rect, out: &mut Vec<(String, Rect, Rect)>) {
        match shape {
            egui::Shape::Text(t) => {
                let at = t.galley.rect.translate(t.pos.to_vec2());
                out.push((t.galley.text().to_string(), at, clip));
            }
            egui::Shape::Vec(shapes) => {
                for shape in shapes {
                    walk(shape, clip, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, clipped.clip_rect, &mut out);
    }
    out
}

/// Each text `matches` accepts painted in the last frame: where it was painted and the
/// rectangle it was clipped to, points.
pub fn painted(h: &Harness<'_, LocksimApp>, matches: impl Fn(&str) -> bool) -> Vec<(Rect, Rect)> {
    texts(h)
        .into_iter()
        .filter(|(text, ..)| matches(text))
        .map(|(_, at, clip)| (at, clip))
        .collect()
}

/// Whether a text `matches` accepts was painted whole: inside the rectangle it was clipped to
/// and inside the window, `window` points.
pub fn painted_whole(
    h: &Harness<'_, LocksimApp>,
    window: Rect,
    matches: impl Fn(&str) -> bool,
) -> bool {
    painted(h, matches)
        .into_iter()
        .any(|(text, clip)| clip.contains_rect(text) && window.contains_rect(text))
}
