//! Sizes that follow the window: how a page with a run is arranged for the width it has,
//! and the range and clamp helpers every computed size goes through, so that no window is
//! too narrow or too short for the arithmetic (`f32::clamp` panics when its minimum exceeds
//! its maximum, and a narrow window makes exactly that happen to a "share of the width,
//! within readable bounds" computation).
//!
//! All sizes are in egui points (CSS pixels on the web): the same at every pixel density.

use eframe::egui::{self, Rangef, Ui};

/// Narrowest window (points) that fits three columns: the decision or tool (at least
/// [`LEFT_MIN`]), the timeline (a lane-name gutter and a readable plot) and the verdict
/// (at least [`VERDICT_MIN`]). Presenter mode on a 1280-pixel screen is 985 points wide:
/// split, its verdict went under the timeline and the playback bar, below the fold, and its
/// lanes had the height left between them.
const COLUMNS_FROM: f32 = 960.0;
/// Narrowest window (points) that fits the decision beside the timeline; the verdict then
/// goes under the timeline.
const SPLIT_FROM: f32 = 700.0;
/// The decision or tool panel's narrowest width beside the timeline, points.
pub const LEFT_MIN: f32 = 260.0;
/// The verdict panel's narrowest width beside the timeline, points.
pub const VERDICT_MIN: f32 = 240.0;

/// How a page with a run is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arrangement {
    /// Decision (or tool) | timeline | verdict, side by side.
    Columns,
    /// Decision (or tool) beside the timeline, the verdict under the timeline.
    Split,
    /// One column, as on a phone in portrait: the decision above the timeline, the verdict
    /// under it.
    Stacked,
}

impl Arrangement {
    /// The arrangement for a page `width` points wide.
    pub fn for_width(width: f32) -> Self {
        if width >= COLUMNS_FROM {
            Arrangement::Columns
        } else if width >= SPLIT_FROM {
            Arrangement::Split
        } else {
            Arrangement::Stacked
        }
    }
}

/// The range `min..=max`, widened to `min..=min` if `max` fell below `min` (a share of a
/// small window can): never inside out.
pub fn range(min: f32, max: f32) -> Rangef {
    Rangef::new(min, max.max(min))
}

/// `x` kept within `min..=max`, or at `min` when there is no room (`max < min`), where
/// `f32::clamp` would panic. Used for positions: the start of a label, a panel's share.
pub fn fit(x: f32, min: f32, max: f32) -> f32 {
    x.min(max).max(min)
}

/// How wide `text` is set on one line, unwrapped, in `style` (unless it sets its own), points.
pub(super) fn one_line_width(
    ui: &Ui,
    text: impl Into<egui::WidgetText>,
    style: egui::TextStyle,
) -> f32 {
    text.into()
        .into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, style)
        .size()
        .x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_fits_never_turn_inside_out() {
        assert_eq!(range(260.0, 520.0), Rangef::new(260.0, 520.0));
        assert_eq!(range(448.0, 358.0), Rangef::new(448.0, 448.0));
        assert_eq!(fit(500.0, 448.0, 358.0), 448.0);
        assert_eq!(fit(10.0, 0.0, 100.0), 10.0);
        assert_eq!(fit(-5.0, 0.0, 100.0), 0.0);
        assert_eq!(fit(105.0, 0.0, 100.0), 100.0);
    }

    #[test]
    fn narrower_windows_stack() {
        assert_eq!(Arrangement::for_width(1280.0), Arrangement::Columns);
        // Presenter mode's zoom on a 1280-pixel screen.
        assert_eq!(Arrangement::for_width(1280.0 / 1.3), Arrangement::Columns);
        assert_eq!(Arrangement::for_width(900.0), Arrangement::Split);
        assert_eq!(Arrangement::for_width(768.0), Arrangement::Split);
        assert_eq!(Arrangement::for_width(390.0), Arrangement::Stacked);
        assert_eq!(Arrangement::for_width(0.0), Arrangement::Stacked);
    }
}
