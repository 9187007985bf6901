//! Text for people, one home for every front end and the checker: simulated times and counts
//! with their digits grouped, and strings made safe to print on a terminal.

use std::borrow::Cow;

/// Formats a simulated time or duration in ms for people: digits in groups of three separated
/// by a space, then the unit, e.g. `1840` → `"1 840 ms"`, `20000` → `"20 000 ms"`.
pub fn fmt_ms(ms: u64) -> String {
    let mut out = fmt_count(ms);
    out.push_str(" ms");
    out
}

/// A node's clock reading, which can be negative (a clock set behind true time 0).
pub fn fmt_clock_ms(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    format!("{sign}{}", fmt_ms(ms.unsigned_abs()))
}

/// A count for people, digits in groups of three: `277305` → `"277 305"`.
pub fn fmt_count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// `n` of a countable `noun`, for people: "1 run", "2 runs", "10 000 runs".
pub fn fmt_counted(n: u64, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", fmt_count(n))
}

/// `text` safe to print on a terminal: control characters (escape sequences that clear the
/// screen, retitle the window or hide what follows) and the invisible bidirectional overrides
/// that reorder a line are written as `\u{1b}` escapes. Line breaks and tabs are kept if
/// `newlines`.
/// Validation already refuses them in names, keys and descriptions; this is the second guard.
pub fn printable(text: &str, newlines: bool) -> Cow<'_, str> {
    let kept = |c: char| newlines && matches!(c, '\n' | '\t');
    let hidden = |c: char| (c.is_control() && !kept(c)) || is_bidi_control(c);
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` followed by spaces up to `width` characters (left-aligned in a column); text as
/// wide or wider is left whole. Columns whose width comes from input (a name, a path) are
/// padded here rather than with a format width, which Rust caps at 65 535.
pub fn pad_end(text: &str, width: usize) -> String {
    let mut out = String::from(text);
    out.extend(std::iter::repeat_n(
        ' ',
        width.saturating_sub(text.chars().count()),
    ));
    out
}

/// Spaces up to `width` characters, then `text` (right-aligned in a column); see [`pad_end`].
pub fn pad_start(text: &str, width: usize) -> String {
    let mut out: String =
        std::iter::repeat_n(' ', width.saturating_sub(text.chars().count())).collect();
    out.push_str(text);
    out
}

/// The Unicode characters that silently reorder text (embeddings, overrides, isolates).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::{fmt_clock_ms, fmt_counted, fmt_ms, pad_end, pad_start};

    #[test]
    fn columns_are_padded_by_characters_whatever_their_width() {
        assert_eq!(pad_end("ab", 4), "ab  ");
        assert_eq!(pad_start("ab", 4), "  ab");
        assert_eq!(pad_end("é", 2), "é ", "a character, not a byte, per column");
        assert_eq!(pad_start("abcdef", 2), "abcdef", "wider text is left whole");
        // Past what a format width can say.
        assert_eq!(pad_end("x", 70_000).len(), 70_000);
    }

    #[test]
    fn one_is_singular() {
        assert_eq!(fmt_counted(0, "run"), "0 runs");
        assert_eq!(fmt_counted(1, "run"), "1 run");
        assert_eq!(fmt_counted(10_000, "seed"), "10 000 seeds");
    }

    #[test]
    fn groups_digits_by_three() {
        assert_eq!(fmt_ms(0), "0 ms");
        assert_eq!(fmt_ms(999), "999 ms");
        assert_eq!(fmt_ms(1_000), "1 000 ms");
        assert_eq!(fmt_ms(17_004), "17 004 ms");
        assert_eq!(fmt_ms(1_234_567), "1 234 567 ms");
        assert_eq!(fmt_ms(u64::MAX), "18 446 744 073 709 551 615 ms");
        assert_eq!(fmt_clock_ms(-2_500), "-2 500 ms");
    }
}
