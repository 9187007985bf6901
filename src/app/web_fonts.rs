//! The web build's fonts, in place of `FontDefinitions::default()` (the desktop's): egui's own,
//! cut down by `web/fonts.sh` to the Latin text any label may hold and the few symbols locksim
//! and egui draw (see `assets/fonts/README.md`). Compiled for wasm32, and for the test below,
//! which holds the cut to every character the app's sources and scenarios contain.

use std::sync::Arc;

use eframe::egui::{FontData, FontDefinitions, FontFamily};

/// egui's text font as the web build carries it, for text and code alike, with the symbols of
/// egui's code font behind it (under egui's name, "Hack") for those Ubuntu lacks. Code is set in
/// Ubuntu on the web: its digits share one width, and the whole of Hack was 10 KB of the
/// gzipped module. egui's third font, five brand logos, is left out: locksim shows none.
pub fn definitions() -> FontDefinitions {
    let font = |bytes: &'static [u8]| Arc::new(FontData::from_static(bytes));
    let mut fonts = FontDefinitions::empty();
    fonts.font_data.insert(
        "Hack".to_owned(),
        font(include_bytes!("../../assets/fonts/Hack-Symbols.subset.ttf")),
    );
    fonts.font_data.insert(
        "Ubuntu-Light".to_owned(),
        font(include_bytes!("../../assets/fonts/Ubuntu-Light.subset.ttf")),
    );
    let family = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
    fonts
        .families
        .insert(FontFamily::Monospace, family(&["Ubuntu-Light", "Hack"]));
    fonts
        .families
        .insert(FontFamily::Proportional, family(&["Ubuntu-Light", "Hack"]));
    fonts
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use eframe::egui::{Context, FontId};

    /// Symbols egui itself may put on screen: the minus of a negative number and the
    /// ellipsis of cut-short text. (Its key names for shortcuts, ⌘ ⏵ …, are in no font the
    /// web carries; locksim writes its own.)
    const EGUI_SYMBOLS: &str = "−…";

    /// `source` without its `//` comments (doc comments included): what is left holds every
    /// string the app can show. A `//` inside a string literal does not start a comment.
    fn without_comments(source: &str) -> String {
        let mut kept = String::new();
        let (mut in_string, mut escaped, mut in_comment) = (false, false, false);
        let mut chars = source.chars().peekable();
        while let Some(c) = chars.next() {
            if in_comment {
                in_comment = c != '\n';
            } else if in_string {
                in_string = escaped || c != '"';
                escaped = !escaped && c == '\\';
            } else if c == '/' && chars.peek() == Some(&'/') {
                in_comment = true;
                continue;
            } else if c == '\'' && chars.peek() == Some(&'"') {
                // The character literal '"', which opens no string.
                kept.push(c);
                kept.extend(chars.next());
            } else {
                in_string = c == '"';
            }
            if !in_comment {
                kept.push(c);
            }
        }
        kept
    }

    /// Every character other than ASCII that the Rust and TOML files under `dir` hold outside
    /// comments: more than the app shows (test data too), never less.
    fn characters(dir: &Path, found: &mut BTreeSet<char>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                characters(&path, found);
                continue;
            }
            let text = || std::fs::read_to_string(&path).unwrap();
            let text = match path.extension().and_then(|e| e.to_str()) {
                Some("rs") => without_comments(&text()),
                Some("toml") => text(),
                _ => continue,
            };
            found.extend(text.chars().filter(|c| !c.is_ascii()));
        }
    }

    #[test]
    fn comments_are_left_out_and_strings_kept() {
        // Written with escapes, so that this file's own scan finds only what is kept.
        let source = "/// \u{2713} a doc\nlet a = \"\u{2192} // \u{25cf}\"; // \u{2717}\n\
                      let q = '\"'; // \u{21d2}\nlet b = \"\\\"\u{2248}\";";
        let kept: String = without_comments(source)
            .chars()
            .filter(|c| !c.is_ascii())
            .collect();
        assert_eq!(kept, "\u{2192}\u{25cf}\u{2248}");
    }

    /// A glyph left out of the web's fonts shows as a box in the browser (and nowhere else:
    /// the desktop and the UI tests have egui's full fonts), so the cut is checked here.
    #[test]
    fn every_character_locksim_shows_is_in_the_web_fonts() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut shown = BTreeSet::new();
        for dir in ["src", "assets"] {
            characters(&root.join(dir), &mut shown);
        }
        shown.extend(EGUI_SYMBOLS.chars());
        assert!(shown.contains(&'→'), "the scan found the app's arrows");

        let ctx = Context::default();
        ctx.set_fonts(crate::app::theme::with_hack_fallback(super::definitions()));
        // The fonts are loaded at the start of a frame.
        crate::app::headless::frame(&ctx, |_| {});
        for font in [FontId::proportional(14.0), FontId::monospace(14.0)] {
            let missing: String =
                ctx.fonts_mut(|f| shown.iter().filter(|&&c| !f.has_glyph(&font, c)).collect());
            assert!(
                missing.is_empty(),
                "{:?} has no glyph for {missing:?}: add them to web/fonts.sh's ranges",
                font.family
            );
        }
    }
}
