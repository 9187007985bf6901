//! No input makes `parse` panic: cut short, bytes flipped, TOML punctuation spliced in, any
//! text at all.

use proptest::prelude::*;

use crate::{BASE, parse};

#[test]
fn every_truncation_is_handled() {
    for (end, _) in BASE.char_indices() {
        let _ = parse(&BASE[..end]);
    }
}

proptest! {
    #[test]
    fn byte_flips_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = BASE.as_bytes().to_vec();
        for (index, byte) in flips {
            let at = index.index(bytes.len());
            bytes[at] = byte;
        }
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn toml_punctuation_never_panics(
        edits in prop::collection::vec(
            (any::<prop::sample::Index>(), prop::sample::select(vec!["[", "]", "[[", "=", "\"", "'", "{", "}", ",", ".", "\n", "#", "-1", "1e9", "inf", "nan", "x"])),
            1..6,
        )
    ) {
        let mut src = BASE.to_string();
        for (index, text) in edits {
            let at = index.index(src.len() + 1);
            let at = src.floor_char_boundary(at);
            src.insert_str(at, text);
        }
        let _ = parse(&src);
    }

    #[test]
    fn arbitrary_text_never_panics(src in "\\PC{0,200}") {
        let _ = parse(&src);
    }
}
