//! Wording shared by every check: times, node names, grant labels.
//!
//! Strings are only built for violations that are reported, never per event.

use std::borrow::Cow;

use crate::trace::{KeyId, NodeId, Token, Trace};

/// Formats a simulated time or duration in ms for people: digits in groups of three separated
/// by a space, then the unit, e.g. `1840` → `"1 840 ms"`, `20000` → `"20 000 ms"`.
pub fn fmt_ms(ms: u64) -> String {
    let mut out = fmt_count(ms);
    out.push_str(" ms");
    out
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

/// The Unicode characters that silently reorder text (embeddings, overrides, isolates).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A node's name; `?` for an id the trace does not list (the checker never panics on a trace).
pub(super) fn node(trace: &Trace, id: NodeId) -> &str {
    trace
        .nodes
        .get(id as usize)
        .map_or("?", |n| n.name.as_str())
}

/// A key's name, quoted as students see it in the sentences: `'lock'`.
pub(super) fn key(trace: &Trace, id: KeyId) -> String {
    let name = trace.keys.get(id as usize).map_or("?", String::as_str);
    format!("'{}'", printable(name, false))
}

/// A token as `A#1`, via [`Trace::token_name`] when its worker is a known node.
pub(super) fn token(trace: &Trace, t: Token) -> String {
    if (t.worker as usize) < trace.nodes.len() {
        trace.token_name(t)
    } else {
        format!("?.{}", t.seq)
    }
}

/// A token with its fencing token when the design issues one: `A#1 (fence 3)`.
pub(super) fn grant(trace: &Trace, t: Token, fence: Option<u64>) -> String {
    match fence {
        Some(f) => format!("{} (fence {f})", token(trace, t)),
        None => token(trace, t),
    }
}

/// Node names joined with commas, e.g. `store1, store2, store3`.
pub(super) fn node_list(trace: &Trace, ids: &[NodeId]) -> String {
    let names: Vec<&str> = ids.iter().map(|&id| node(trace, id)).collect();
    names.join(", ")
}

/// Where simulated time ended, for a sentence: "at the end of the run (20 000 ms)", or "when the run
/// was cut short (1 311 968 ms)" if the engine's event budget stopped it first.
pub(super) fn horizon(trace: &Trace) -> String {
    match trace.cut_short_at_ms {
        Some(at) => format!("when the run was cut short ({})", fmt_ms(at)),
        None => format!("at the end of the run ({})", fmt_ms(trace.until_ms)),
    }
}

/// Sorts and deduplicates the node list of a violation (the contract of `Violation::nodes`).
pub(super) fn nodes(mut ids: Vec<NodeId>) -> Vec<NodeId> {
    ids.sort_unstable();
    ids.dedup();
    ids
}

#[cfg(test)]
mod tests {
    use super::fmt_ms;

    #[test]
    fn groups_digits_by_three() {
        assert_eq!(fmt_ms(0), "0 ms");
        assert_eq!(fmt_ms(999), "999 ms");
        assert_eq!(fmt_ms(1_000), "1 000 ms");
        assert_eq!(fmt_ms(17_004), "17 004 ms");
        assert_eq!(fmt_ms(1_234_567), "1 234 567 ms");
        assert_eq!(fmt_ms(u64::MAX), "18 446 744 073 709 551 615 ms");
    }
}
