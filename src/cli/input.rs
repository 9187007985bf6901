//! Reading a scenario file, and saying where it is wrong in the `FILE:LINE:COL: message`
//! form that editors and terminals turn into a link.

use std::fmt;
use std::path::Path;

use crate::scenario::file::FileError;
use crate::scenario::{self, Scenario, ScenarioError};
use crate::text::printable;

/// A file the CLI cannot use: unreadable, or not a valid scenario (exit status 2).
#[derive(Debug)]
pub struct InputError {
    file: String,
    line: Option<usize>,
    column: Option<usize>,
    field: String,
    message: String,
}

/// A hint for a relative path that is not there: it is read from the current folder, and the
/// shipped scenarios' paths (`assets/scenarios/…`) are the repository root's.
fn where_to_run(file: &Path, error: &std::io::Error) -> &'static str {
    if error.kind() != std::io::ErrorKind::NotFound || file.is_absolute() {
        ""
    } else if file.starts_with("assets") {
        "; the shipped scenarios are in assets/ at the root of locksim's repository: run the \
         command there"
    } else {
        "; a relative path is read from the folder the command runs in"
    }
}

impl InputError {
    fn unreadable(file: &Path, error: &std::io::Error) -> Self {
        InputError {
            file: file.display().to_string(),
            line: None,
            column: None,
            field: String::new(),
            message: format!("cannot read the file: {error}{}", where_to_run(file, error)),
        }
    }

    /// An error `error` found in `file`, at its position.
    pub(super) fn invalid(file: &Path, error: ScenarioError) -> Self {
        InputError {
            file: file.display().to_string(),
            line: error.line,
            column: error.column,
            field: error.field,
            message: error.message,
        }
    }
}

/// Printed to a terminal: the file name, a field path (a key of the file's) and the message
/// (which may quote a value or key) are escaped by [`printable`], so none of them can clear
/// the screen or retitle the window.
impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", printable(&self.file, false))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        if !self.field.is_empty() {
            write!(f, ": {}", printable(&self.field, false))?;
        }
        // toml's messages end in a newline; the caller ends the line.
        write!(f, ": {}", printable(self.message.trim_end(), true))
    }
}

/// Reads and parses (which validates) the scenario at `path`.
pub fn load(path: &Path) -> Result<Scenario, InputError> {
    let bytes = read(path)?;
    scenario::parse_bytes(&bytes).map_err(|e| {
        let mut error = InputError::invalid(path, e);
        if let Some(what) = own_export(&bytes) {
            // The position inside a picture or a report means nothing to its reader.
            (error.line, error.column, error.field) = (None, None, String::new());
            error.message = format!(
                "this is {what} locksim wrote, not a scenario file: the scenario is the .toml \
                 (the app's Export › Scenario file, or the Sandbox's TOML)"
            );
        }
        error
    })
}

/// What a file that is not TOML is, when it is one of locksim's own exports: the SVG picture,
/// the JSON report (`run --json`), or the transcript (`render --transcript`: a title line,
/// `seed N`, a blank line, `timeline`).
fn own_export(bytes: &[u8]) -> Option<&'static str> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_start();
    let mut lines = text.lines();
    if text.starts_with("<?xml") || text.starts_with("<svg") {
        Some("an SVG picture")
    } else if text.starts_with('{') && text.contains("\"violations\"") {
        Some("a JSON report")
    } else if lines.nth(1).is_some_and(|l| l.starts_with("seed ")) && text.contains("\ntimeline\n")
    {
        Some("a transcript")
    } else {
        None
    }
}

/// The text of the file at `path` (an assignment, a hand-in), within
/// [`scenario::MAX_BYTES`]; a byte that is not UTF-8 is an error at its line and column.
pub fn load_text(path: &Path) -> Result<String, InputError> {
    let bytes = read(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..offset];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before
            .rsplit(|&b| b == b'\n')
            .next()
            .map_or(0, |l| String::from_utf8_lossy(l).chars().count())
            + 1;
        InputError {
            file: path.display().to_string(),
            line: Some(line),
            column: Some(column),
            field: String::new(),
            message: format!("not UTF-8 text (byte 0x{:02X})", e.as_bytes()[offset]),
        }
    })
}

/// The bytes of the scenario file at `path`, within [`scenario::MAX_BYTES`]
/// ([`scenario::file::read`]).
fn read(path: &Path) -> Result<Vec<u8>, InputError> {
    scenario::file::read(path).map_err(|e| match e {
        FileError::Unreadable(e) => InputError::unreadable(path, &e),
        FileError::TooLarge(e) => InputError::invalid(path, e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(line: Option<usize>, column: Option<usize>, field: &str) -> String {
        let e = ScenarioError {
            field: field.to_string(),
            line,
            column,
            message: "must be at least 1".to_string(),
        };
        InputError::invalid(Path::new("s.toml"), e).to_string()
    }

    #[test]
    fn errors_lead_with_the_position_they_know() {
        assert_eq!(
            error(Some(12), Some(11), "worker[0].work_ms"),
            "s.toml:12:11: worker[0].work_ms: must be at least 1"
        );
        assert_eq!(error(Some(12), None, ""), "s.toml:12: must be at least 1");
        assert_eq!(error(None, None, ""), "s.toml: must be at least 1");
    }

    #[test]
    fn an_export_given_as_a_scenario_is_named_for_what_it_is() {
        assert_eq!(
            own_export(b"<?xml version=\"1.0\"?>\n<svg>"),
            Some("an SVG picture")
        );
        assert_eq!(
            own_export(b"{\n  \"safe\": false,\n  \"violations\": []}"),
            Some("a JSON report")
        );
        assert_eq!(
            own_export(b"Step 5 \xc2\xb7 Fencing\nseed 1\n\ntimeline\n  time"),
            Some("a transcript")
        );
        assert_eq!(own_export(b"version = 1\nname = \"x\""), None);
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let e = load(Path::new("no/such/file.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("no/such/file.toml: cannot read the file"),
            "{e}"
        );
        assert!(
            e.ends_with("read from the folder the command runs in"),
            "{e}"
        );
        let e = load(Path::new("assets/scenarios/nope.toml")).unwrap_err();
        assert!(
            e.to_string()
                .contains("at the root of locksim's repository"),
            "{e}"
        );
    }
}
