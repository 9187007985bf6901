//! The palette ([`crate::view::palette`]) as egui colours, shared by the timeline, its legend
//! and the verdict panel so that the same thing always looks the same — in the app and in the
//! pictures exported from it.

use eframe::egui::Color32;

use crate::checker::Kind;
use crate::trace::{NodeId, Token};
use crate::view::palette::{self, Rgba};

/// `c` as egui's (premultiplied) colour.
const fn color(c: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied_const(c.r, c.g, c.b, c.a)
}

/// The colour of a worker, by its node id (workers come first in the trace).
pub fn worker(node: NodeId) -> Color32 {
    color(palette::worker(node))
}

/// The colour of a grant: its worker's.
pub fn token(token: Token) -> Color32 {
    color(palette::token(token))
}

/// See [`palette::CLAIM`].
pub const CLAIM: Color32 = color(palette::CLAIM);
/// See [`palette::ACCEPTED`].
pub const ACCEPTED: Color32 = color(palette::ACCEPTED);
/// See [`palette::REJECTED`].
pub const REJECTED: Color32 = color(palette::REJECTED);
/// See [`palette::VIOLATING`].
pub const VIOLATING: Color32 = color(palette::VIOLATING);
/// See [`palette::ANOMALY`].
pub const ANOMALY: Color32 = color(palette::ANOMALY);
/// See [`palette::LIVENESS`].
pub const LIVENESS: Color32 = color(palette::LIVENESS);
/// See [`palette::SAFE`].
pub const SAFE: Color32 = color(palette::SAFE);
/// See [`palette::PAUSED`].
pub const PAUSED: Color32 = color(palette::PAUSED);
/// See [`palette::STALLED`].
pub const STALLED: Color32 = color(palette::STALLED);
/// See [`palette::CRASHED`].
pub const CRASHED: Color32 = color(palette::CRASHED);
/// See [`palette::SLOW_LINK`].
pub const SLOW_LINK: Color32 = color(palette::SLOW_LINK);
/// See [`palette::PARTITION`].
pub const PARTITION: Color32 = color(palette::PARTITION);
/// See [`palette::FAULT_TEXT`].
pub const FAULT_TEXT: Color32 = color(palette::FAULT_TEXT);
/// See [`palette::PLAYHEAD`].
pub const PLAYHEAD: Color32 = color(palette::PLAYHEAD);

/// The colour of a violation of `kind` ([`palette::violation`]).
pub fn violation(kind: Kind) -> Color32 {
    color(palette::violation(kind))
}

/// See [`palette::MESSAGE`].
pub const MESSAGE: Color32 = color(palette::MESSAGE);
/// See [`palette::DROPPED`].
pub const DROPPED: Color32 = color(palette::DROPPED);
/// See [`palette::MESSAGE_HAZE`].
pub const MESSAGE_HAZE: Color32 = color(palette::MESSAGE_HAZE);
/// See [`palette::ROLE`].
pub const ROLE: Color32 = color(palette::ROLE);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::Theme;
    use eframe::egui::Visuals;

    /// The picture's themes are egui's visuals, read from egui rather than copied by hand: the
    /// exported SVG and the app's lanes must not drift apart when egui's change.
    #[test]
    fn the_pictures_themes_are_eguis_visuals() {
        for (theme, visuals) in [
            (Theme::LIGHT, Visuals::light()),
            (Theme::DARK, Visuals::dark()),
        ] {
            let dark = visuals.dark_mode;
            assert_eq!(color(theme.panel), visuals.panel_fill, "dark {dark}: panel");
            // egui adds its faint colour onto what is under it.
            let faint = visuals.faint_bg_color;
            let lifted = |c: u8, by: u8| c.saturating_add(by);
            let p = visuals.panel_fill;
            let on_panel = Color32::from_rgb(
                lifted(p.r(), faint.r()),
                lifted(p.g(), faint.g()),
                lifted(p.b(), faint.b()),
            );
            assert_eq!(color(theme.faint), on_panel, "dark {dark}: faint");
            let line = visuals.widgets.noninteractive.bg_stroke.color;
            assert_eq!(color(theme.line), line, "dark {dark}: line");
            assert_eq!(color(theme.text), visuals.text_color(), "dark {dark}: text");
            let strong = visuals.strong_text_color();
            assert_eq!(color(theme.strong), strong, "dark {dark}: strong");
            let weak = visuals.weak_text_color();
            assert_eq!(color(theme.weak), weak, "dark {dark}: weak");
        }
    }

    /// The palette moved out of the app; its colours must be exactly the ones it had.
    #[test]
    fn the_app_keeps_its_colours() {
        assert_eq!(ACCEPTED, Color32::from_rgb(40, 150, 60));
        assert_eq!(
            PAUSED,
            Color32::from_rgba_unmultiplied_const(120, 120, 140, 60)
        );
        assert_eq!(worker(NodeId::new(1)), Color32::from_rgb(135, 65, 175));
        assert_eq!(
            MESSAGE_HAZE,
            Color32::from_rgba_unmultiplied_const(60, 110, 200, 14)
        );
    }
}
