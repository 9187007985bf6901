//! The picture's neutral colours: the page, lines and text around the palette's hues
//! ([`crate::view::palette`]).

use crate::view::palette::Rgba;

/// The neutral colours a picture is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// The page behind everything.
    pub panel: Rgba,
    /// Every other lane, a shade off the page (egui's `faint_bg_color` added to the page).
    pub faint: Rgba,
    /// Lines between lanes and the grid.
    pub line: Rgba,
    /// Running text.
    pub text: Rgba,
    /// Names and titles.
    pub strong: Rgba,
    /// Captions and notes: the text colour, 60 % opaque.
    pub weak: Rgba,
    /// Text on a coloured badge or a lease bar, and the symbols on write discs.
    pub white: Rgba,
    /// A dark page: text in a hue is lightened to read on it, not darkened.
    pub dark: bool,
}

impl Theme {
    /// The light theme: egui's light visuals, which the app uses and the SVG is drawn in.
    pub const LIGHT: Theme = Theme {
        panel: Rgba::rgb(248, 248, 248),
        faint: Rgba::rgb(253, 253, 253),
        line: Rgba::rgb(190, 190, 190),
        text: Rgba::rgb(80, 80, 80),
        strong: Rgba::rgb(0, 0, 0),
        weak: Rgba::translucent(80, 80, 80, 153),
        white: Rgba::rgb(255, 255, 255),
        dark: false,
    };

    /// The dark theme: egui's dark visuals, which the app uses when the system asks for dark.
    pub const DARK: Theme = Theme {
        panel: Rgba::rgb(27, 27, 27),
        faint: Rgba::rgb(32, 32, 32),
        line: Rgba::rgb(60, 60, 60),
        text: Rgba::rgb(140, 140, 140),
        strong: Rgba::rgb(255, 255, 255),
        weak: Rgba::translucent(140, 140, 140, 153),
        white: Rgba::rgb(255, 255, 255),
        dark: true,
    };
}
