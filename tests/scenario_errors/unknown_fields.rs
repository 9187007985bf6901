//! A key the format does not have is named, with the keys its table does have.

use crate::File::{Edit, Fault};
use crate::{Bad, rejects, rejects_all, with};

const CASES: &[Bad] = &[
    (
        Edit("until_ms = 20000", "until = 20000"),
        "until",
        "until = 20000",
        "unknown field `until` at the top level",
    ),
    (
        Edit("work_ms = 2000", "work_ms = 2000\nspeed = 3"),
        "worker[0].speed",
        "speed = 3",
        "unknown field `speed` in [[worker]]",
    ),
    (
        Edit("for_ms = 500", "for_ms = 500\nduration = 3"),
        "fault[0].duration",
        "duration = 3",
        "expected one of node, for_ms",
    ),
    // A heal takes no fields at all.
    (
        Fault("at_ms = 10\nkind = \"heal\"\nnode = \"B\""),
        "fault[1].node",
        "node = \"B\"",
        "heal fault takes only at_ms and kind",
    ),
];

#[test]
fn an_unknown_field_is_named_with_its_table() {
    rejects_all(CASES);
}

#[test]
fn unknown_field_in_a_table() {
    let src = with("ttl_ms = 10000", "ttl = 10000");
    let e = rejects(
        &src,
        "lock.ttl",
        "ttl = 10000",
        "unknown field `ttl` in [lock]",
    );
    assert!(e.message.contains("expected one of design, ttl_ms,"), "{e}");
    assert_eq!(e.column, Some(1));
}

#[test]
fn a_slip_of_a_letter_is_told_the_name_it_was_meant_for() {
    let src = with("ttl_ms = 10000", "ttl_m = 10000");
    let e = rejects(&src, "lock.ttl_m", "ttl_m = 10000", "unknown field `ttl_m`");
    assert!(
        e.message
            .starts_with("unknown field `ttl_m` in [lock]; did you mean `ttl_ms`? expected one of"),
        "{e}"
    );
    // A name like none of them gets the list alone.
    let src = with("ttl_ms = 10000", "earthquake = 1");
    let e = rejects(&src, "lock.earthquake", "earthquake = 1", "unknown field");
    assert!(!e.message.contains("did you mean"), "{e}");
}
