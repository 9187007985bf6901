//! Where an error is: a file's line and column, or none for a scenario built in code; and the
//! order they are printed in.

use crate::{BASE, line_of, parse, with};

#[test]
fn validate_without_a_file_has_no_position() {
    let mut scenario = parse(BASE).expect("BASE parses");
    scenario.workers[1].work_ms = 0;
    let e = scenario.validate().expect_err("work_ms 0");
    assert_eq!(
        (e.field.as_str(), e.line, e.column),
        ("worker[1].work_ms", None, None)
    );
    assert_eq!(e.to_string(), "worker[1].work_ms: must be at least 1");
}

#[test]
fn display_puts_position_field_and_message_in_order() {
    let src = with("work_ms = 1000", "work_ms = 0");
    let e = parse(&src).expect_err("work_ms 0");
    assert_eq!(
        e.to_string(),
        format!(
            "line {}, column 1: worker[1].work_ms: must be at least 1",
            line_of(&src, "work_ms = 0")
        )
    );
}
