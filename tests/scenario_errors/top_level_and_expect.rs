//! The top-level keys, and the `[check]` and `[expect]` tables.

use crate::File::Edit;
use crate::{Bad, rejects, rejects_all, with};

const CASES: &[Bad] = &[
    (
        Edit("version = 1", "version = 2"),
        "version",
        "version",
        "reads scenario files of version 1 only; got 2",
    ),
    (
        Edit("name = \"Rules\"", "name = \"  \""),
        "name",
        "name",
        "must not be empty",
    ),
    (
        Edit("until_ms = 20000", "until_ms = 0"),
        "until_ms",
        "until_ms",
        "from 1 to 10000000",
    ),
    (
        Edit("until_ms = 20000", "until_ms = 10000001"),
        "until_ms",
        "until_ms",
        "from 1 to 10000000",
    ),
    (
        Edit("starve_after_ms = 10000", "starve_after_ms = 0"),
        "check.starve_after_ms",
        "starve_after_ms",
        "must be at least 1",
    ),
];

#[test]
fn top_level_and_check_values_are_in_range() {
    rejects_all(CASES);
}

#[test]
fn expect_kind_not_both_required_and_absent() {
    let src = with(
        "absent = [\"stale_write\"]",
        "absent = [\"stale_write\", \"overlap\"]",
    );
    let e = rejects(&src, "expect.absent[1]", "absent", "`overlap` is in both");
    assert_eq!(e.column, Some(26));
}
