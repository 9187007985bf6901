//! The palette ([`crate::view::palette`]) as egui colours, for what the app draws beside the
//! picture (the verdict panel, the transcript, the fault-edit layer): the same thing always
//! looks the same there and on the lanes.

use eframe::egui::Color32;

use crate::checker::ViolationKind;
use crate::view::palette::{self, Rgba};

/// `c` as egui's (premultiplied) colour.
pub const fn color(c: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied_const(c.r, c.g, c.b, c.a)
}

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
/// See [`palette::PLAYHEAD`].
pub const PLAYHEAD: Color32 = color(palette::PLAYHEAD);

/// The colour of a violation of `kind` ([`palette::violation`]).
pub fn violation(kind: ViolationKind) -> Color32 {
    color(palette::violation(kind))
}

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
            assert_eq!(theme.dark, dark, "which theme");
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
}
