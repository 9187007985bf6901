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
//!
//! Two more from the same report: a name of one of those scripts but Latin whose every letter
//! has a Latin twin is a whole-script confusable (§4: a Cyrillic `А` passes for the Latin
//! `A`; the twins are `confusables.txt`'s prototypes, as [`latin_twin`] lists them), and an
//! accent written as a combining mark after its letter (`e` + U+0308) prints as the one
//! character NFC composes (`ë`), which §3's identifiers are required to be in.

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
        if is_combining_accent(c) {
            return Some(format!(
                "character {at} is U+{code:04X}, an accent written apart from its letter: the \
                 name would print like one with the accented letter; write that letter instead"
            ));
        }
        let Some(script) = look_alike_script(c) else {
            continue;
        };
        match first_script {
            None => first_script = Some((script, at)),
            Some((first, first_at)) if first != script => {
                return Some(format!(
                    "character {at} is U+{code:04X}, {} {} letter after the {} letter at \
                     character {first_at}: a name of mixed scripts can pass for another name",
                    script.article(),
                    script.name(),
                    first.name()
                ));
            }
            Some(_) => {}
        }
    }
    let (script, at) = first_script.filter(|(script, _)| *script != Script::Latin)?;
    let twin: Option<String> = text
        .chars()
        .map(|c| match c.is_alphabetic() {
            true => latin_twin(c),
            false => Some(c),
        })
        .collect();
    let twin = twin?;
    let c = text.chars().nth(at - 1).map_or(0, |c| c as u32);
    Some(format!(
        "character {at} is U+{c:04X}, {} {} letter, and every letter of the name has a \
         Latin twin: it would pass for the Latin name \"{twin}\"",
        script.article(),
        script.name()
    ))
}

/// The Latin letter `c` (of Greek, Cyrillic, Armenian or Cherokee) is confusable with, by
/// Unicode's `confusables.txt` (UTS #39's data); `None` for a letter that has none.
fn latin_twin(c: char) -> Option<char> {
    const TWINS: &[(char, char)] = &[
        // Cyrillic
        ('\u{405}', 'S'),
        ('\u{406}', 'I'),
        ('\u{408}', 'J'),
        ('\u{410}', 'A'),
        ('\u{412}', 'B'),
        ('\u{415}', 'E'),
        ('\u{41a}', 'K'),
        ('\u{41c}', 'M'),
        ('\u{41d}', 'H'),
        ('\u{41e}', 'O'),
        ('\u{420}', 'P'),
        ('\u{421}', 'C'),
        ('\u{422}', 'T'),
        ('\u{425}', 'X'),
        ('\u{430}', 'a'),
        ('\u{435}', 'e'),
        ('\u{43e}', 'o'),
        ('\u{440}', 'p'),
        ('\u{441}', 'c'),
        ('\u{443}', 'y'),
        ('\u{445}', 'x'),
        ('\u{455}', 's'),
        ('\u{456}', 'i'),
        ('\u{458}', 'j'),
        ('\u{4ae}', 'Y'),
        ('\u{4af}', 'y'),
        ('\u{4bb}', 'h'),
        ('\u{4c0}', 'l'),
        ('\u{4cf}', 'l'),
        ('\u{501}', 'd'),
        ('\u{51a}', 'Q'),
        ('\u{51b}', 'q'),
        ('\u{51c}', 'W'),
        ('\u{51d}', 'w'),
        // Greek
        ('\u{391}', 'A'),
        ('\u{392}', 'B'),
        ('\u{395}', 'E'),
        ('\u{396}', 'Z'),
        ('\u{397}', 'H'),
        ('\u{399}', 'I'),
        ('\u{39a}', 'K'),
        ('\u{39c}', 'M'),
        ('\u{39d}', 'N'),
        ('\u{39f}', 'O'),
        ('\u{3a1}', 'P'),
        ('\u{3a4}', 'T'),
        ('\u{3a5}', 'Y'),
        ('\u{3a7}', 'X'),
        ('\u{3bd}', 'v'),
        ('\u{3bf}', 'o'),
        ('\u{3f2}', 'c'),
        ('\u{3f3}', 'j'),
        // Armenian
        ('\u{54d}', 'U'),
        ('\u{54f}', 'S'),
        ('\u{555}', 'O'),
        ('\u{566}', 'q'),
        ('\u{570}', 'h'),
        ('\u{578}', 'n'),
        ('\u{57d}', 'u'),
        ('\u{581}', 'g'),
        ('\u{585}', 'o'),
        // Cherokee
        ('\u{13a2}', 'T'),
        ('\u{13aa}', 'A'),
        ('\u{13ab}', 'J'),
        ('\u{13ac}', 'E'),
        ('\u{13b3}', 'W'),
        ('\u{13b7}', 'M'),
        ('\u{13bb}', 'H'),
        ('\u{13c3}', 'Z'),
        ('\u{13da}', 'S'),
        ('\u{13df}', 'C'),
        ('\u{13e2}', 'P'),
        ('\u{13e6}', 'K'),
        ('\u{13f4}', 'B'),
    ];
    TWINS
        .iter()
        .find_map(|&(letter, latin)| (letter == c).then_some(latin))
}

/// The combining marks that accent Latin, Greek and Cyrillic letters (Combining Diacritical
/// Marks and its extensions): after a letter they print as the precomposed letter NFC makes.
fn is_combining_accent(c: char) -> bool {
    matches!(
        c as u32,
        0x300..=0x36F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F
    )
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
    /// "a" or "an", as the name reads.
    fn article(self) -> &'static str {
        match self {
            Script::Armenian => "an",
            _ => "a",
        }
    }

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

    /// One of each pair of look-alike scripts, in either order, is refused at the first
    /// letter of the second script.
    #[test]
    fn each_mix_of_look_alike_scripts_is_refused_at_its_letter() {
        let cases = [
            // Latin with a Cyrillic dze, a Greek omicron, an Armenian oh, a Cherokee a.
            ("\u{455}tore1", 2, "Latin", "Cyrillic", 1),
            ("st\u{3bf}re1", 3, "Greek", "Latin", 1),
            ("st\u{585}re1", 3, "Armenian", "Latin", 1),
            ("\u{585}k", 2, "Latin", "Armenian", 1),
            ("lock\u{13aa}", 5, "Cherokee", "Latin", 1),
            // A Cyrillic name with a Latin a, a Greek one with a Cyrillic o.
            ("\u{43c}a\u{448}", 2, "Latin", "Cyrillic", 1),
            ("\u{3bb}\u{43e}", 2, "Cyrillic", "Greek", 1),
        ];
        for (name, at, second, first, first_at) in cases {
            let got = dishonesty(name).unwrap_or_default();
            let code = name.chars().nth(at - 1).unwrap() as u32;
            let a = if second == "Armenian" { "an" } else { "a" };
            let want = format!(
                "character {at} is U+{code:04X}, {a} {second} letter after the {first} letter at \
                 character {first_at}"
            );
            assert!(got.starts_with(&want), "{name:?}: {got}");
        }
    }

    /// A name all of whose letters are twins of Latin ones, in one other script, passes for
    /// the Latin name; a name of that script with a letter of its own does not.
    #[test]
    fn a_name_wholly_of_latin_twins_is_refused_as_the_name_it_passes_for() {
        let cases = [
            ("\u{410}", "U+0410, a Cyrillic letter", "\"A\""),
            (
                "\u{455}\u{435}\u{445}1",
                "U+0455, a Cyrillic letter",
                "\"sex1\"",
            ),
            ("\u{39a}\u{39f}-2", "U+039A, a Greek letter", "\"KO-2\""),
            ("\u{570}\u{578}", "U+0570, an Armenian letter", "\"hn\""),
            ("\u{13aa}\u{13f4}", "U+13AA, a Cherokee letter", "\"AB\""),
        ];
        for (name, letter, latin) in cases {
            let got = dishonesty(name).unwrap_or_default();
            assert!(
                got.starts_with(&format!("character 1 is {letter}"))
                    && got.ends_with(&format!("pass for the Latin name {latin}")),
                "{name:?}: {got}"
            );
        }
        // A Cyrillic, a Greek name with a letter that has no Latin twin.
        assert_eq!(dishonesty("\u{410}\u{43d}\u{44f}"), None);
        assert_eq!(dishonesty("\u{39f}\u{3bb}"), None);
    }

    #[test]
    fn an_accent_apart_from_its_letter_is_refused() {
        let got = dishonesty("Zoe\u{308}").unwrap_or_default();
        assert!(
            got.starts_with("character 4 is U+0308, an accent written apart"),
            "{got}"
        );
        assert_eq!(dishonesty("Zo\u{eb}"), None, "the accented letter itself");
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
