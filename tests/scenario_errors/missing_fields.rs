//! A required field left out: the error names it and points at the table that lacks it.

use crate::File::{Edit, Fault};
use crate::{BASE, Bad, rejects, rejects_all};

const CASES: &[Bad] = &[
    (Edit("version = 1\n", ""), "version", "name", "missing"),
    (Edit("name = \"Rules\"\n", ""), "name", "version", "missing"),
    (
        Edit("name = \"A\"\n", ""),
        "worker[0].name",
        "[[worker]]",
        "missing",
    ),
    (
        Fault("at_ms = 7\nkind = \"crash\""),
        "fault[1].node",
        "[[fault]]\nat_ms = 7",
        "missing",
    ),
    (
        Fault("at_ms = 7\nnode = \"A\""),
        "fault[1].kind",
        "[[fault]]\nat_ms = 7",
        "missing",
    ),
];

#[test]
fn a_missing_field_is_named() {
    rejects_all(CASES);
}

#[test]
fn a_worker_is_required() {
    let src: String = BASE
        .split("\n[[worker]]")
        .next()
        .expect("BASE has text before its workers")
        .to_string();
    rejects(&src, "worker", "version", "at least one [[worker]]");
}
