//! Text shown to people (names, keys, descriptions) refuses control characters and
//! right-to-left overrides; a description may still break lines.

use crate::File::Edit;
use crate::{Bad, Good, accepts_all, rejects, rejects_all, with};

const CASES: &[Bad] = &[
    (
        Edit("key = \"lock\"", "key = \"lock\\nfake line\""),
        "worker[1].key",
        "key = \"lock",
        "found U+000A",
    ),
    (
        Edit(
            "name = \"Rules\"",
            "name = \"Rules\"\ndescription = \"a\\u0007\"",
        ),
        "description",
        "description",
        "found U+0007",
    ),
    // A right-to-left override never belongs in a title.
    (
        Edit("name = \"Rules\"", "name = \"R\\u202eX\""),
        "name",
        "name = \"R",
        "found U+202E",
    ),
];

const FINE: &[Good] = &[(
    Edit(
        "name = \"Rules\"",
        "name = \"Rules\"\ndescription = \"a\\nb\\tc\"",
    ),
    "a description may break lines",
)];

#[test]
fn text_shown_to_people_refuses_control_characters() {
    let e = rejects(
        &with("name = \"Rules\"", "name = \"R\\u001b[2J\""),
        "name",
        "name = \"R",
        "must not contain control characters; found U+001B",
    );
    assert_eq!(e.column, Some(1));
    rejects_all(CASES);
    accepts_all(FINE);
}
