//! Files that are not valid TOML, or not text: the error names the key being written.

use crate::File::Edit;
use crate::{Bad, line_of, parse, rejects, rejects_all, with};

const CASES: &[Bad] = &[
    (
        Edit("name = \"Rules\"", "name = \"Rules"),
        "name",
        "name = \"Rules",
        "not valid TOML",
    ),
    (
        Edit("ttl_ms = 10000", "ttl_ms = 10000\nttl_ms = 5"),
        "lock.ttl_ms",
        "ttl_ms = 5",
        "duplicate key",
    ),
];

#[test]
fn broken_toml_is_refused_where_it_breaks() {
    rejects_all(CASES);
}

#[test]
fn syntax_error_names_the_key_being_written() {
    let src = with("work_ms = 1000", "work_ms = 10x0");
    let e = rejects(&src, "worker[1].work_ms", "10x0", "not valid TOML");
    assert_eq!(e.column, Some(11));
}

#[test]
fn deep_nesting_is_an_error_in_plain_words() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let src = with("for_ms = 500", &format!("for_ms = 500\nx = {deep}"));
    let e = parse(&src).unwrap_err();
    assert!(e.message.starts_with("nested too deeply"), "{e}");
    assert!(e.line.is_some(), "{e}");
    assert!(!e.message.contains("recurs"), "{e}");
}

#[test]
fn a_dotted_key_too_deep_is_placed_at_its_line() {
    let key = vec!["deep"; 81].join(".");
    let src = with("for_ms = 500", &format!("for_ms = 500\n{key} = 1"));
    let e = parse(&src).unwrap_err();
    assert!(e.message.starts_with("nested too deeply"), "{e}");
    assert!(
        e.message.contains("each part of a dotted key is a level"),
        "{e}"
    );
    let line = src
        .lines()
        .position(|l| l.starts_with("deep.deep"))
        .unwrap()
        + 1;
    assert_eq!(e.line, Some(line), "{e}");
}

#[test]
fn a_byte_that_is_not_text_is_reported_at_its_line_and_column() {
    let mut bytes = with("name = \"B\"", "name = \"B?\"").into_bytes();
    let at = bytes.iter().position(|&b| b == b'?').unwrap();
    bytes[at] = 0xC3;
    let e = locksim::scenario::parse_bytes(&bytes).unwrap_err();
    assert_eq!(e.field, "worker[1].name");
    assert_eq!(e.message, "not UTF-8 text (byte 0xC3)");
    assert_eq!(
        e.line,
        Some(line_of(&with("name = \"B\"", "name = \"B?\""), "B?"))
    );
    assert_eq!(e.column, Some(10));
}
