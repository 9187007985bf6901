//! Scenario files: every rule a scenario must follow gives an error naming the field, its line
//! and the reason; valid files round-trip through `to_toml`; no input makes `parse` panic.
//!
//! One module per subject. Most cases are rows of a table: how the bad file is made from
//! [`BASE`], the field, the line and a fragment of the message; [`rejects_all`] checks every
//! row and names each that fails.

mod control_characters;
mod faults;
mod lock;
mod missing_fields;
mod network;
mod no_panic;
mod positions;
mod round_trip;
mod store;
mod toml_syntax;
mod top_level_and_expect;
mod unknown_fields;
mod value_types;
mod workers;

use locksim::scenario::{ScenarioError, parse};

/// A valid file touching every table, so each test changes one line of it.
const BASE: &str = r#"version = 1
name = "Rules"
until_ms = 20000

[network]
delay_ms = [1, 5]
loss = 0.0
timeout_ms = 200

[lock]
design = "token"
ttl_ms = 10000
retry_ms = 50

[store]
topology = "single"
nodes = 1
failover_ms = 1000

[resource]
fencing = false

[check]
starve_after_ms = 10000

[[worker]]
name = "A"
work_ms = 2000

[[worker]]
name = "B"
start_ms = 100
work_ms = 1000
writes = 1
retry_ms = 100
key = "lock"
write_timeout_ms = 1000
clock_offset_ms = 0
clock_drift_ppm = 0

[[fault]]
at_ms = 1000
kind = "pause"
node = "A"
for_ms = 500

[expect]
kinds = ["overlap"]
absent = ["stale_write"]
"#;

/// How a case's file is made.
#[derive(Debug)]
enum File {
    /// `BASE` with the one occurrence of the first text replaced by the second.
    Edit(&'static str, &'static str),
    /// `BASE` with each edit made in turn, as [`File::Edit`] makes one.
    Edits(&'static [(&'static str, &'static str)]),
    /// `BASE` with one more `[[fault]]` of this body (it becomes `fault[1]`).
    Fault(&'static str),
    /// This text, without `BASE`.
    Text(&'static str),
}

impl File {
    /// The file's text.
    fn text(&self) -> String {
        match self {
            File::Edit(old, new) => with(old, new),
            File::Edits(edits) => edits.iter().fold(BASE.to_string(), |src, (old, new)| {
                assert_eq!(
                    src.matches(old).count(),
                    1,
                    "`{old}` must occur once in\n{src}"
                );
                src.replacen(old, new, 1)
            }),
            File::Fault(body) => with_fault(body),
            File::Text(text) => text.to_string(),
        }
    }
}

/// A file that must be refused: how it is made, the field the error names, text on the line it
/// points at, and a fragment of its message.
type Bad = (File, &'static str, &'static str, &'static str);

/// A file that must be accepted, and why it is fine.
type Good = (File, &'static str);

/// `BASE` with the one occurrence of `old` replaced by `new`.
fn with(old: &str, new: &str) -> String {
    assert_eq!(
        BASE.matches(old).count(),
        1,
        "`{old}` must occur once in BASE"
    );
    BASE.replacen(old, new, 1)
}

/// `BASE` with one more `[[fault]]` (it becomes `fault[1]`).
fn with_fault(body: &str) -> String {
    format!("{BASE}\n[[fault]]\n{body}\n")
}

/// 1-based line of the first occurrence of `needle` in `src`.
fn line_of(src: &str, needle: &str) -> usize {
    let at = src
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in source"));
    src[..at].matches('\n').count() + 1
}

/// Whether `src` is rejected for `field`, on the line where `on_line` occurs, at some column,
/// with a message containing `fragment`; the error if so, else what differs.
fn refusal(src: &str, field: &str, on_line: &str, fragment: &str) -> Result<ScenarioError, String> {
    let error = match parse(src) {
        Ok(_) => return Err(format!("accepted, but should fail on {field}:\n{src}")),
        Err(error) => error,
    };
    let line = src.contains(on_line).then(|| line_of(src, on_line));
    if error.field != field {
        Err(format!("field `{}`, not `{field}`: {error}", error.field))
    } else if line.is_none() || error.line != line {
        Err(format!(
            "line {:?}, not that of `{on_line}` ({line:?}): {error}",
            error.line
        ))
    } else if error.column.is_none() {
        Err(format!("no column: {error}"))
    } else if !error.message.contains(fragment) {
        Err(format!("message `{}` lacks `{fragment}`", error.message))
    } else {
        Ok(error)
    }
}

/// Asserts that `src` is rejected for `field`, on the line where `on_line` occurs, with a
/// message containing `fragment`.
#[track_caller]
fn rejects(src: &str, field: &str, on_line: &str, fragment: &str) -> ScenarioError {
    refusal(src, field, on_line, fragment).unwrap_or_else(|why| panic!("{why}"))
}

/// Checks every row of `table`, then fails naming each row that did not hold.
#[track_caller]
fn rejects_all(table: &[Bad]) {
    let failed: Vec<String> = table
        .iter()
        .enumerate()
        .filter_map(|(row, (file, field, on_line, fragment))| {
            let why = refusal(&file.text(), field, on_line, fragment).err()?;
            Some(format!("row {row}, {file:?}: {why}"))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} rows failed:\n{}",
        failed.len(),
        table.len(),
        failed.join("\n")
    );
}

/// Checks that every file of `table` parses, then fails naming each row that did not.
#[track_caller]
fn accepts_all(table: &[Good]) {
    let failed: Vec<String> = table
        .iter()
        .enumerate()
        .filter_map(|(row, (file, why))| {
            let error = parse(&file.text()).err()?;
            Some(format!("row {row} ({why}), {file:?}: {error}"))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
