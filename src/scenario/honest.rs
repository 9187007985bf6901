//! Names and keys that read as what they are: a worker's name and a lock's key are compared
//! byte for byte by the engine but read by eye on the timeline, so two that print alike must
//! not be two things, and one must not pass for a node it is not.
//!
//! The rules follow Unicode's security mechanisms for identifiers (UTS #39, "Unicode Security
//! Mechanisms", §3 identifier characters and §5 mixed-script detection): no default-ignorable
//! code point (invisible: zero-width spaces and joiners, word joiner, byte order mark, tag and
//! variation characters, the Hangul fillers; `DerivedCoreProperties.txt`), no compatibility
//! look-alike (full-width forms, mathematical letters, circled or superscript digits: the
//! characters NFKC would rewrite), digits 0–9 only, and letters of one script among those
//! whose letters pass for one another (Latin, Greek, Cyrillic, Armenian, Cherokee: `ѕtore1`
//! with a Cyrillic dze reads as `store1`).

/// Longest name or key, characters: a lane label and a line of the transcript stay a line.
pub const MAX_NAME_CHARS: usize = 64;

/// Why `text` (a name or key) would not read as what it is, naming the first character at
/// fault by its position (1-based, in characters) and code point; `None` when it is honest.
pub fn dishonesty(text: &str) -> Option<String> {
    let count = text.chars().count();
    if count > MAX_NAME_CHARS {
        return Some(format!(
            "must be at most {MAX_NAME_CHARS} characters; got {count}"
        ));
    }
    let mut first_script: Option<(Script, usize)> = None;
    for (i, c) in text.chars().enumerate() {
        let at = i + 1;
        let code = c as u32;
        if is_default_ignorable(c) {
            return Some(format!(
                "character {at} is U+{code:04X}, an invisible character: the name would print \
                 like one without it"
            ));
        }
        if is_compatibility_lookalike(c) || (c.is_numeric() && !c.is_ascii_digit()) {
            return Some(format!(
                "character {at} is U+{code:04X}, a look-alike of a plain letter or digit: use \
                 the plain one (digits 0-9)"
            ));
        }
        let Some(script) = look_alike_script(c) else {
            continue;
        };
        match first_script {
            None => first_script = Some((script, at)),
            Some((first, first_at)) if first != script => {
                return Some(format!(
                    "character {at} is U+{code:04X}, a {} letter after the {} letter at \
                     character {first_at}: a name of mixed scripts can pass for another name",
                    script.name(),
                    first.name()
                ));
            }
            Some(_) => {}
        }
    }
    None
}

/// The scripts whose letters are confusable with one another's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Cherokee,
}

impl Script {
    fn name(self) -> &'static str {
        match self {
            Script::Latin => "Latin",
            Script::Greek => "Greek",
            Script::Cyrillic => "Cyrillic",
            Script::Armenian => "Armenian",
            Script::Cherokee => "Cherokee",
        }
    }
}

/// The script of a letter of the look-alike scripts (by their Unicode blocks); `None` for any
/// other character.
fn look_alike_script(c: char) -> Option<Script> {
    if !c.is_alphabetic() {
        return None;
    }
    Some(match c as u32 {
        0x41..=0x5A
        | 0x61..=0x7A
        | 0xC0..=0x24F
        | 0x1E00..=0x1EFF
        | 0x2C60..=0x2C7F
        | 0xA720..=0xA7FF
        | 0xAB30..=0xAB6F => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x530..=0x58F | 0xFB13..=0xFB17 => Script::Armenian,
        0x13A0..=0x13FF | 0xAB70..=0xABBF => Script::Cherokee,
        _ => return None,
    })
}

/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters a renderer
/// shows as nothing.
pub fn is_default_ignorable(c: char) -> bool {
    matches!(
        c as u32,
        0xAD | 0x34F
            | 0x61C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

/// Letters and digits that are styled copies of plain ones (NFKC maps them to those): the
/// full-width and half-width forms, the mathematical alphanumerics (`𝐀`), the letterlike and
/// enclosed alphanumerics, super- and subscripts, and ligatures.
fn is_compatibility_lookalike(c: char) -> bool {
    matches!(
        c as u32,
        0xAA | 0xB2..=0xB3
            | 0xB5
            | 0xB9..=0xBA
            | 0x1D2C..=0x1D6A
            | 0x2070..=0x209F
            | 0x2100..=0x214F
            | 0x2150..=0x218F
            | 0x2460..=0x24FF
            | 0x2C7C..=0x2C7D
            | 0x3251..=0x325F
            | 0x32B1..=0x32BF
            | 0xFB00..=0xFB06
            | 0xFF00..=0xFFEF
            | 0x1D400..=0x1D7FF
            | 0x1F100..=0x1F1FF
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_of_one_script_are_honest() {
        // Written with escapes: the web fonts carry no Cyrillic, Greek or Han, and the fonts'
        // test reads this file's strings as text the app shows.
        for name in [
            "A",
            "store-worker_2",
            "\u{410}\u{43b}\u{438}\u{441}\u{430}",
            "\u{3a9}\u{3bc}\u{3ad}\u{3b3}\u{3b1}",
            "Zo\u{eb}",
            "\u{4efb}\u{52a1}",
            "task\u{4efb}\u{52a1}",
        ] {
            assert_eq!(dishonesty(name), None, "{name}");
        }
    }

    #[test]
    fn each_way_to_pass_for_another_name_is_refused_at_its_character() {
        let cases = [
            ("lock\u{200b}", "character 5 is U+200B, an invisible"),
            ("\u{3164}", "character 1 is U+3164, an invisible"),
            ("A\u{feff}", "character 2 is U+FEFF"),
            (
                "\u{455}tore1",
                "character 2 is U+0074, a Latin letter after the Cyrillic letter at character 1",
            ),
            ("store\u{ff11}", "character 6 is U+FF11, a look-alike"),
            ("\u{1d400}", "character 1 is U+1D400, a look-alike"),
            ("A\u{2460}", "character 2 is U+2460, a look-alike"),
            ("\u{661}", "character 1 is U+0661, a look-alike"),
        ];
        for (name, why) in cases {
            let got = dishonesty(name).unwrap_or_default();
            assert!(got.starts_with(why), "{name:?}: {got}");
        }
    }

    #[test]
    fn a_name_is_at_most_a_line_long() {
        assert_eq!(dishonesty(&"W".repeat(MAX_NAME_CHARS)), None);
        assert_eq!(
            dishonesty(&"W".repeat(65_536)).as_deref(),
            Some("must be at most 64 characters; got 65536")
        );
    }
}
