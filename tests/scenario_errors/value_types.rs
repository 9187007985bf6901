//! A value of the wrong type or out of its type's range: the error says what was expected and
//! what the file has, and blames the key that has it.

use crate::File::{Edit, Fault};
use crate::{BASE, Bad, rejects, rejects_all, with, with_fault};

const CASES: &[Bad] = &[
    (
        Edit("topology = \"single\"", "topology = 1"),
        "store.topology",
        "topology = 1",
        "must be one of single, replicated",
    ),
    (
        Edit("design = \"token\"", "design = 5"),
        "lock.design",
        "design = 5",
        "must be one of flag, setnx",
    ),
    (
        Edit("kind = \"pause\"", "kind = \"explode\""),
        "fault[0].kind",
        "explode",
        "must be one of pause, stall, crash",
    ),
    // A fault kind that is not a string still names the kinds.
    (
        Fault("at_ms = 5\nkind = 7"),
        "fault[1].kind",
        "kind = 7",
        "must be one of pause, stall, crash",
    ),
    (
        Fault("at_ms = 5\nkind = [\"pause\"]"),
        "fault[1].kind",
        "kind = [\"pause\"]",
        "must be one of pause, stall, crash",
    ),
    (
        Fault("at_ms = 5\nkind = { a = 1 }"),
        "fault[1].kind",
        "kind = { a = 1 }",
        "must be one of pause, stall, crash",
    ),
    (
        Fault("at_ms = 5\nkind = true"),
        "fault[1].kind",
        "kind = true",
        "must be one of pause, stall, crash",
    ),
    (
        Edit("kinds = [\"overlap\"]", "kinds = [\"overlapp\"]"),
        "expect.kinds[0]",
        "overlapp",
        "got \"overlapp\"",
    ),
    (
        Edit("work_ms = 1000", "work_ms = \"1000\""),
        "worker[1].work_ms",
        "\"1000\"",
        "must be a whole number",
    ),
    (
        Edit("start_ms = 100", "start_ms = -100"),
        "worker[1].start_ms",
        "-100",
        "0 or more; got -100",
    ),
    (
        Edit("ttl_ms = 10000", "ttl_ms = 1.5"),
        "lock.ttl_ms",
        "1.5",
        "whole number",
    ),
    // A decimal where a whole number belongs is named as one, even when its value is whole.
    (
        Fault("at_ms = 1e3\nkind = \"heal\""),
        "fault[1].at_ms",
        "at_ms = 1e3",
        "must be a whole number, 0 or more; got 1e3, a decimal number",
    ),
    (
        Edit("ttl_ms = 10000", "ttl_ms = 10000.0"),
        "lock.ttl_ms",
        "10000.0",
        "got 10000.0, a decimal number",
    ),
    (
        Edit("writes = 1", "writes = 2.5"),
        "worker[1].writes",
        "2.5",
        "must be a whole number from 0 to 4294967295; got 2.5, a decimal number",
    ),
    (
        Edit("clock_offset_ms = 0", "clock_offset_ms = -1e2"),
        "worker[1].clock_offset_ms",
        "-1e2",
        "must be a whole number; got -1e2, a decimal number",
    ),
    (
        Edit("delay_ms = [1, 5]", "delay_ms = [1, 5e0]"),
        "network.delay_ms[1]",
        "[1, 5e0]",
        "got 5e0, a decimal number",
    ),
    (
        Edit("retry_ms = 50", "retry_ms = inf"),
        "lock.retry_ms",
        "retry_ms = inf",
        "must be a whole number, 0 or more; got inf",
    ),
    (
        Edit("version = 1", "version = 1.0"),
        "version",
        "version = 1.0",
        "got 1.0, a decimal number",
    ),
    (
        Edit("writes = 1", "writes = 5000000000"),
        "worker[1].writes",
        "5000000000",
        "from 0 to 4294967295",
    ),
    (
        Edit(
            "until_ms = 20000",
            "seed = 99999999999999999999999999999999999999999",
        ),
        "seed",
        "seed",
        "too large",
    ),
    (
        Edit("loss = 0.0", "loss = 1e400"),
        "network.loss",
        "1e400",
        "too large",
    ),
    (
        Edit("for_ms = 500", "for_ms = \"long\""),
        "fault[0].for_ms",
        "\"long\"",
        "whole number",
    ),
    (
        Edit("node = \"A\"", "node = [\"A\"]"),
        "fault[0].node",
        "[\"A\"]",
        "must be a string",
    ),
    (
        Fault("at_ms = 2\nkind = \"partition\"\ngroups = [[\"A\"], [2]]"),
        "fault[1].groups[1][0]",
        "groups = [[",
        "must be a string in quotes; got 2",
    ),
    (
        Edit("delay_ms = [1, 5]", "delay_ms = [1, 5, 9]"),
        "network.delay_ms",
        "[1, 5, 9]",
        "an array of 2 items; got 3 items",
    ),
    (
        Edit("delay_ms = [1, 5]", "delay_ms = 5"),
        "network.delay_ms",
        "delay_ms = 5",
        "an array of 2 items",
    ),
    (
        Edit("name = \"Rules\"", "name = 1979-05-27"),
        "name",
        "1979",
        "got a date-time",
    ),
];

#[test]
fn a_value_of_the_wrong_type_says_what_was_expected() {
    rejects_all(CASES);
}

#[test]
fn bad_enum_value_lists_the_choices() {
    let src = with("design = \"token\"", "design = \"fence\"");
    let e = rejects(&src, "lock.design", "\"fence\"", "");
    assert_eq!(
        e.message,
        "must be one of flag, setnx, ttl, token, fencing, timestamp, session, none; got \"fence\": did \
         you mean \"fencing\"?"
    );
    assert_eq!(e.column, Some(10));
}

#[test]
fn value_where_a_table_belongs() {
    let src = format!(
        "check = 5\n{}",
        BASE.replace("[check]\nstarve_after_ms = 10000\n", "")
    );
    rejects(&src, "check", "check = 5", "must be a table");
}

#[test]
fn array_where_a_table_belongs() {
    // Not read position by position as if the array held the table's fields in order.
    let src = format!(
        "check = [10000]\n{}",
        BASE.replace("[check]\nstarve_after_ms = 10000\n", "")
    );
    let e = rejects(&src, "check", "check = [10000]", "must be a table");
    assert!(e.message.contains("got an array"), "{}", e.message);
}

#[test]
fn table_where_a_number_or_an_array_belongs() {
    let src = with_fault("at_ms = { ms = 5 }\nkind = \"pause\"\nnode = \"A\"\nfor_ms = 10");
    let e = rejects(
        &src,
        "fault[1].at_ms",
        "at_ms = { ms = 5 }",
        "must be a whole number",
    );
    assert!(e.message.contains("got a table"), "{}", e.message);
}

#[test]
fn a_bad_fault_value_is_blamed_on_its_key_even_when_another_key_has_the_same_value() {
    // `node = "A"` comes first with an equal value; the bad one is `for_ms`.
    let src = with_fault("at_ms = 5\nkind = \"pause\"\nnode = \"A\"\nfor_ms = \"A\"");
    let e = rejects(
        &src,
        "fault[1].for_ms",
        "for_ms = \"A\"",
        "must be a whole number",
    );
    assert_eq!(e.column, Some(10));
}
