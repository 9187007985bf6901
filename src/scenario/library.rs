//! Every scenario that ships with locksim, built into the binary: the course's scenarios
//! and the real incidents. The browser build has no files to read, and the app's library,
//! the course and the wasm32 determinism test all need the same list.

// The course's scenarios (`COURSE`, `assets/scenarios/`) and the real incidents
// (`INCIDENTS`, `assets/cases/`), listed from the folders by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The text of `file` (`NAME.toml`) in `list` ([`COURSE`] or [`INCIDENTS`]). A `const fn`,
/// so a name looked up in a constant, as the course's steps do, that is not in the list stops
/// the build instead of a run.
///
/// # Panics
/// When `file` is not in `list`: at compile time in a constant, at run time otherwise.
pub const fn text(list: &[(&str, &'static str)], file: &str) -> &'static str {
    let mut i = 0;
    while i < list.len() {
        if same(list[i].0.as_bytes(), file.as_bytes()) {
            return list[i].1;
        }
        i += 1;
    }
    panic!("not a shipped scenario")
}

/// Byte equality that a `const fn` can call (`==` on slices is not `const`).
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The shipped scenario `assets/<file>`, `file` being `scenarios/NAME.toml` or
/// `cases/NAME.toml`, parsed; for unit tests.
#[cfg(test)]
pub(crate) fn shipped(file: &str) -> super::Scenario {
    let (dir, name) = file.split_once('/').expect("scenarios/NAME or cases/NAME");
    let list = if dir == "cases" { INCIDENTS } else { COURSE };
    let (_, text) = list
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no shipped scenario {file}"));
    super::parse(text).expect("valid scenario")
}
