//! The picture as PNG: the SVG ([`super::svg`]) rasterised by resvg, so the PNG is the same
//! drawing, not a second one. Its text is set in egui's own fonts, the desktop app's (Ubuntu
//! Light, and Hack for what Ubuntu lacks), which are built in: the PNG comes out the same on
//! every machine, whatever fonts it has.

use std::fmt;
use std::sync::Arc;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

/// The most pixels a PNG may have: 10 million (5 000 × 2 000 px; a 4K screen is 8.3 million).
/// Rasterising and encoding take about 11 bytes a pixel at peak, on top of the run and its SVG
/// (352 MB in all for 16 million pixels of the largest run the engine allows, 180 MB of them
/// the run), so a PNG at the cap stays under 300 MB.
pub const MAX_PIXELS: u64 = 10_000_000;

/// Why a PNG could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PngError {
    /// The picture would have more than [`MAX_PIXELS`] pixels.
    TooLarge {
        /// Its width, px.
        width: u32,
        /// Its height, px.
        height: u32,
    },
    /// The SVG could not be read (a bug: the SVG is ours).
    Svg(String),
    /// The PNG could not be encoded.
    Encode(String),
}

impl fmt::Display for PngError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PngError::TooLarge { width, height } => write!(
                f,
                "the picture would be {width} × {height} px, more than {MAX_PIXELS} pixels; \
                 ask for a smaller width"
            ),
            PngError::Svg(e) => write!(f, "cannot read the SVG: {e}"),
            PngError::Encode(e) => write!(f, "cannot encode the PNG: {e}"),
        }
    }
}

impl std::error::Error for PngError {}

/// The fonts the PNG's text is set in: the family the SVG asks for first is Ubuntu, and any
/// generic family falls back to it.
fn fonts() -> fontdb::Database {
    let mut db = fontdb::Database::new();
    db.load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
    db.load_font_data(epaint_default_fonts::HACK_REGULAR.to_vec());
    db.set_sans_serif_family(UBUNTU);
    db.set_monospace_family("Hack");
    db
}

/// Ubuntu Light's family name, as the font names itself.
const UBUNTU: &str = "Ubuntu";

/// Rasterises `svg` (a picture from [`super::svg::draw`]) `width` px wide, keeping its
/// proportions, and encodes it as PNG.
pub fn rasterise(svg: &str, width: u32) -> Result<Vec<u8>, PngError> {
    let options = usvg::Options {
        fontdb: Arc::new(fonts()),
        font_family: UBUNTU.to_string(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).ceil().max(1.0) as u32;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(PngError::TooLarge { width, height });
    }
    let mut pixmap = Pixmap::new(width.max(1), height)
        .ok_or_else(|| PngError::Encode(format!("no room for {width} × {height} px")))?;
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::measure;

    #[test]
    fn the_fonts_are_built_in_and_named_as_the_svg_asks() {
        let db = fonts();
        let families: Vec<String> = db
            .faces()
            .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
            .collect();
        assert!(families.iter().any(|f| f == UBUNTU), "{families:?}");
        assert!(families.iter().any(|f| f == "Hack"), "{families:?}");
    }

    /// The label widths the picture is laid out with are the widths the text comes out at.
    #[test]
    fn measured_widths_match_the_font_as_set() {
        let options = usvg::Options {
            fontdb: Arc::new(fonts()),
            font_family: UBUNTU.to_string(),
            ..usvg::Options::default()
        };
        for text in [
            "A#1 · fence 1",
            "overwritten by B#2",
            "paused 10 000 ms",
            "W",
        ] {
            let svg = format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="40">
                   <text x="0" y="20" font-size="100" font-family="Ubuntu" font-weight="300">{text}</text>
                   </svg>"#
            );
            let tree = usvg::Tree::from_str(&svg, &options).unwrap();
            let bbox = tree.root().abs_bounding_box();
            let laid_out = bbox.right();
            let estimated = measure::width(text, 100.0);
            // The ink ends a little before the advance does (the last glyph's side bearing);
            // kerning and rounding move it by a fraction of a per cent.
            assert!(
                laid_out <= estimated * 1.01 && laid_out >= estimated * 0.93,
                "{text}: laid out {laid_out}, estimated {estimated}"
            );
        }
    }
}
