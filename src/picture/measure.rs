//! How wide a line of text comes out, without a font engine: the picture places its labels
//! where they fit whole and clear of one another, as the app does with egui's measured text.
//!
//! The widths are the advances of Ubuntu Light, egui's proportional font, which the PNG is set
//! in (`render::png`) and which the SVG asks for first. A viewer that lacks it substitutes a
//! sans-serif of about the same width; [`SLACK`] keeps a label that fits here from touching
//! its neighbour there. `render::png`'s tests hold these widths to the font as laid out.

/// Ubuntu Light's advance widths of the printable ASCII characters, `' '` to `'~'`, in
/// thousandths of an em, read from the font's `hmtx` table.
const ASCII: [u16; 95] = [
    228, 274, 392, 653, 564, 831, 648, 240, 310, 310, 472, 564, 246, 282, 246, 359, 564, 564, 564,
    564, 564, 564, 564, 564, 564, 564, 246, 246, 564, 564, 564, 380, 940, 641, 630, 609, 702, 555,
    520, 658, 692, 248, 487, 599, 502, 865, 709, 774, 592, 774, 618, 517, 548, 680, 624, 921, 608,
    569, 560, 310, 359, 310, 564, 490, 376, 509, 583, 460, 583, 548, 376, 573, 569, 237, 237, 495,
    255, 863, 569, 582, 583, 583, 374, 428, 387, 569, 480, 775, 499, 474, 455, 319, 262, 319, 564,
];

/// The advance of a character Ubuntu Light lacks: the renderer falls back to Hack, egui's
/// monospace font, whose every glyph is this wide (arrows, ticks, crosses).
const FALLBACK: u16 = 602;

/// How much wider than measured a label's room must be, for viewers that substitute a font.
pub const SLACK: f32 = 1.06;

/// The advance of `c`, thousandths of an em.
fn advance(c: char) -> u16 {
    match c {
        ' '..='~' => ASCII[c as usize - ' ' as usize],
        '\u{a0}' => ASCII[0],
        '·' => 246,
        '×' => 564,
        '’' => 230,
        '–' => 496,
        '—' | '…' => 996,
        _ => FALLBACK,
    }
}

/// The width of `text` set on one line at `size` px, px.
pub fn width(text: &str, size: f32) -> f32 {
    let thousandths: u32 = text.chars().map(|c| u32::from(advance(c))).sum();
    thousandths as f32 / 1000.0 * size
}

/// `text` cut to fit `max` px at `size` px: whole if it fits, else its longest start that
/// fits with "…" after it (at least one character). A renderer lays a line out in time that
/// grows faster than its length, so no line it is given may be wider than the picture.
pub fn clip(text: &str, size: f32, max: f32) -> String {
    if width(text, size) <= max {
        return text.to_string();
    }
    let room = max - width("…", size);
    let mut used = 0.0;
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let w = f32::from(advance(c)) / 1000.0 * size;
        if i > 0 && used + w > room {
            break;
        }
        used += w;
        end = i + c.len_utf8();
    }
    format!("{}…", &text[..end])
}

/// `text` broken into lines no wider than `max` px at `size` px, at spaces, but never inside
/// a number and its unit (`20 000 ms`); a word wider than `max` gets a line of its own, cut to
/// fit by [`clip`].
pub fn wrap(text: &str, size: f32, max: f32) -> Vec<String> {
    wrap_at_most(text, size, max, usize::MAX)
}

/// [`wrap`], keeping at most `most` lines (at least one): when the text needs more, the last
/// one kept ends in "…".
pub fn wrap_at_most(text: &str, size: f32, max: f32, most: usize) -> Vec<String> {
    let most = most.max(1);
    let mut words: Vec<String> = Vec::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let digits_before = words
            .last()
            .is_some_and(|w| w.ends_with(|c: char| c.is_ascii_digit()));
        let continues =
            word.starts_with(|c: char| c.is_ascii_digit()) || word == "ms" || word == "s";
        match words.last_mut() {
            Some(last) if digits_before && continues => {
                last.push(' ');
                last.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut more = false;
    for word in words {
        let word = clip(&word, size, max);
        if line.is_empty() {
            line = word;
            continue;
        }
        let wider = format!("{line} {word}");
        if width(&wider, size) <= max {
            line = wider;
        } else if lines.len() + 1 < most {
            lines.push(std::mem::replace(&mut line, word));
        } else {
            more = true;
            break;
        }
    }
    if more {
        line = clip(&format!("{line} …"), size, max);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_add_up_by_character() {
        assert_eq!(width("", 12.0), 0.0);
        assert!((width("mm", 10.0) - 2.0 * 8.63).abs() < 1e-4);
        assert!(width("A#1 · fence 1", 12.0) > width("A#1", 12.0));
        assert_eq!(width("→", 10.0), 6.02);
    }

    #[test]
    fn wrapping_keeps_lines_within_the_width() {
        let text = "A#3 is worker A's third try at the lock, not a fencing token";
        let lines = wrap(text, 12.0, 150.0);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(lines.iter().all(|l| width(l, 12.0) <= 150.0), "{lines:?}");
        assert_eq!(lines.join(" "), text);
        assert_eq!(wrap("unbreakable", 12.0, 5.0), ["u…"]);
        assert_eq!(wrap("a unbreakable b", 12.0, 40.0), ["a", "unbr…", "b"]);
        assert_eq!(
            wrap("up to 12 000 ms of 20 000 ms", 12.0, 60.0),
            ["up to", "12 000 ms", "of", "20 000 ms"]
        );
    }

    #[test]
    fn a_long_word_or_paragraph_is_cut_to_the_room_it_has() {
        let word = "W".repeat(200_000);
        let lines = wrap(&word, 20.0, 1_500.0);
        assert_eq!(lines.len(), 1);
        assert!(width(&lines[0], 20.0) <= 1_500.0, "{}", lines[0].len());
        assert!(lines[0].ends_with("W…"));
        let words = "word ".repeat(100_000);
        let lines = wrap_at_most(&words, 20.0, 300.0, 3);
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| width(l, 20.0) <= 300.0), "{lines:?}");
        assert!(
            lines[2].ends_with('…') && !lines[1].ends_with('…'),
            "{lines:?}"
        );
        assert_eq!(
            wrap_at_most("a b", 12.0, 300.0, 3),
            ["a b"],
            "no mark when it all fits"
        );
    }
}
