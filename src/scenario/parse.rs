//! TOML in, TOML out.
//!
//! Reading goes in three passes, each of which can fail with a [`ScenarioError`]: TOML syntax
//! (toml's parser, which keeps the byte span of every key and value), types and names (serde,
//! through [`super::de`], which knows the field path at every value), then ranges and
//! combinations ([`Scenario::validate`], whose field path is looked up in the parsed tree to
//! give it a line too).

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::Scenario;
use super::de::{self, DeError, Problem};
use super::path::{self, Path};

/// A scenario that cannot be used: which field, where, and why.
///
/// Displays as `line 12, column 1: worker[1].work_ms: must be at least 1`, leaving out the
/// parts that are not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Dotted path of the field, e.g. `worker[1].work_ms` (empty if the file as a whole).
    pub field: String,
    /// 1-based line in the source, when known.
    pub line: Option<usize>,
    /// 1-based column (in characters) in the source, when known.
    pub column: Option<usize>,
    /// What is wrong, in words a teacher understands.
    pub message: String,
}

impl ScenarioError {
    /// An error about `field`, with no position: validation sees only the typed value
    /// ([`read_document`] adds the position).
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            field: field.into(),
            line: None,
            column: None,
            message: message.into(),
        }
    }

    /// Adds the line and column of byte `offset` in `src`.
    fn at_offset(mut self, src: &str, offset: usize) -> Self {
        let (line, column) = position(src, offset);
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Adds the position of the error's field in the parsed file, if the file has it.
    fn located(self, src: &str, root: &Spanned<DeValue<'_>>) -> Self {
        match path::locate(root, &Path::parse(&self.field)) {
            Some(span) => self.at_offset(src, span.start),
            None => self,
        }
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "line {line}, column {column}: ")?,
            (Some(line), None) => write!(f, "line {line}: ")?,
            _ => {}
        }
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// The largest scenario read, in bytes (1 MB). A scenario is a page of hand-written text: the
/// largest the project ships is under 4 KB, and 64 workers with every field spelled out take
/// about 40 KB. Refusing more at once keeps a mistaken or hostile file (a log pasted by
/// mistake, 2.5 million `[[worker]]` tables) from costing seconds and gigabytes before
/// validation could say what is wrong with it.
pub const MAX_BYTES: usize = 1_000_000;

/// The error for a scenario over [`MAX_BYTES`]; `len` is its size in bytes when known.
pub fn too_large(len: Option<u64>) -> ScenarioError {
    let size = match len {
        Some(len) => format!("{} bytes", crate::text::fmt_count(len)),
        None => format!(
            "more than {} bytes",
            crate::text::fmt_count(MAX_BYTES as u64)
        ),
    };
    ScenarioError::new(
        "",
        format!(
            "too large: {size}; a scenario may be at most {} bytes (1 MB)",
            crate::text::fmt_count(MAX_BYTES as u64)
        ),
    )
}

/// Parses and validates a scenario file given as bytes: like [`parse`], and a byte that is
/// not UTF-8 text is reported at its line and column, with the field it is in.
pub fn parse_bytes(bytes: &[u8]) -> Result<Scenario, ScenarioError> {
    if bytes.len() > MAX_BYTES {
        return Err(too_large(Some(bytes.len() as u64)));
    }
    match std::str::from_utf8(bytes) {
        Ok(src) => parse(src),
        Err(e) => {
            // Everything before the bad byte is text, so its offset is the same in the lossy
            // copy, which toml can still read far enough to tell the field.
            let offset = e.valid_up_to();
            let lossy = String::from_utf8_lossy(bytes);
            let (table, _) = DeTable::parse_recoverable(&lossy);
            let partial = Spanned::new(table.span(), DeValue::Table(table.into_inner()));
            let message = format!("not UTF-8 text (byte 0x{:02X})", bytes[offset]);
            Err(
                ScenarioError::new(syntax_field(&lossy, &partial, offset), message)
                    .at_offset(&lossy, offset),
            )
        }
    }
}

/// Parses and validates a scenario file.
///
/// Every error names the field (when there is one) and its line and column. No input makes
/// this panic, and a text over [`MAX_BYTES`] is refused before it is read.
pub fn parse(src: &str) -> Result<Scenario, ScenarioError> {
    if src.len() > MAX_BYTES {
        return Err(too_large(Some(src.len() as u64)));
    }
    let (scenario, root) = read(src)?;
    scenario.validate().map_err(|e| e.located(src, &root))?;
    Ok(scenario)
}

/// Reads a scenario without validating it: a draft the Sandbox's form kept, which may be
/// invalid in the ways [`Scenario::validate`] describes (the form shows where). Text that is
/// not TOML, or not of a scenario's shape, is an error as in [`parse`]. There is no size
/// limit: the caller bounds what it reads.
pub fn parse_draft(src: &str) -> Result<Scenario, ScenarioError> {
    read(src).map(|(scenario, _)| scenario)
}

/// Reads any TOML document of locksim's (an assignment, a hand-in) into `T` the way a
/// scenario is read, then runs `check` on it: every error names its field, and its line and
/// column when the file has that field, as a scenario's do. Refuses a text over [`MAX_BYTES`].
pub fn read_document<T: serde::de::DeserializeOwned>(
    src: &str,
    check: impl FnOnce(&T) -> Result<(), ScenarioError>,
) -> Result<T, ScenarioError> {
    if src.len() > MAX_BYTES {
        return Err(too_large(Some(src.len() as u64)));
    }
    let (table, syntax_errors) = DeTable::parse_recoverable(src);
    let root = Spanned::new(table.span(), DeValue::Table(table.into_inner()));
    if let Some(error) = syntax_errors.first() {
        return Err(syntax_error(src, &root, error));
    }
    let value: T = de::from_tree(&root).map_err(|e| type_error(src, e))?;
    check(&value).map_err(|e| e.located(src, &root))?;
    Ok(value)
}

/// The scenario `src` spells, unvalidated, and the tree it was read from.
fn read(src: &str) -> Result<(Scenario, Spanned<DeValue<'_>>), ScenarioError> {
    let (table, syntax_errors) = DeTable::parse_recoverable(src);
    let root = Spanned::new(table.span(), DeValue::Table(table.into_inner()));
    if let Some(error) = syntax_errors.first() {
        return Err(syntax_error(src, &root, error));
    }
    let scenario: Scenario = de::from_tree(&root).map_err(|e| type_error(src, e))?;
    Ok((scenario, root))
}

/// Writes a scenario as TOML that [`parse`] reads back to the same value.
///
/// The layout is the file format's: top-level fields, then `[network]`, `[lock]`, `[store]`,
/// `[resource]`, `[check]`, each `[[worker]]`, each `[[fault]]`, `[expect]`. Every field is
/// written, defaults included, so a teacher opening a saved file sees every setting there is.
pub fn to_toml(scenario: &Scenario) -> String {
    // Every field is a string, bool, integer, float, array or table, each `Option` is skipped
    // when `None`, and toml-rs writes `u64` values past `i64::MAX` too: serializing cannot fail.
    toml::to_string(scenario).expect("every scenario field has a TOML form")
}

/// 1-based line and column (in characters, as an editor counts) of byte `offset`.
fn position(src: &str, offset: usize) -> (usize, usize) {
    let before = &src[..src.floor_char_boundary(offset)];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

fn syntax_error(
    src: &str,
    partial: &Spanned<DeValue<'_>>,
    error: &toml::de::Error,
) -> ScenarioError {
    // toml stops at a fixed depth of arrays and tables inside each other, and says so in a
    // parser's terms.
    let too_deep = error.message().contains("recursion");
    let message = if too_deep {
        "nested too deeply: a scenario's keys, arrays and tables go only a few levels inside \
         each other (the deepest is a partition's groups, an array of arrays), and each part of \
         a dotted key is a level"
            .to_string()
    } else {
        format!("this is not valid TOML: {}", error.message())
    };
    // toml gives no position for a dotted key too deep: the line with the most parts is it.
    let start = error
        .span()
        .map(|span| span.start)
        .or_else(|| too_deep.then(|| most_dotted_line(src)).flatten());
    match start {
        Some(start) => {
            ScenarioError::new(syntax_field(src, partial, start), message).at_offset(src, start)
        }
        None => ScenarioError::new("", message),
    }
}

/// The byte offset of the line whose key (before its `=`) has the most dots, if any has one.
fn most_dotted_line(src: &str) -> Option<usize> {
    let mut offset = 0;
    let mut best: Option<(usize, usize)> = None;
    for line in src.split_inclusive('\n') {
        let key = line.split('=').next().unwrap_or("");
        let dots = key.matches('.').count();
        if dots > 0 && best.is_none_or(|(most, _)| dots > most) {
            best = Some((dots, offset));
        }
        offset += line.len();
    }
    best.map(|(_, at)| at)
}

/// The field being written where the syntax breaks, as far as can be told. By TOML's rules a
/// line belongs to the last `[header]` above it, and toml's partial tree still has the headers
/// before the error; the key is what the broken line has before its `=`.
fn syntax_field(src: &str, partial: &Spanned<DeValue<'_>>, offset: usize) -> String {
    let offset = src.floor_char_boundary(offset);
    let line_start = src[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = src[line_start..].lines().next().unwrap_or("");
    let table = last_header_before(src, partial, line_start, &Path::default())
        .map(|(_, path)| path)
        .unwrap_or_default();
    let key = line
        .split_once('=')
        .map(|(key, _)| key.trim())
        .filter(|key| {
            !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        });
    match key {
        Some(key) => table.key(key).to_string(),
        None => table.to_string(),
    }
}

/// The path of the table whose `[header]` (or `[[header]]`) starts last before `offset`, and
/// where it starts. Inline tables (`{ … }`) do not count: the lines after one are not in it.
fn last_header_before(
    src: &str,
    value: &Spanned<DeValue<'_>>,
    offset: usize,
    path: &Path,
) -> Option<(usize, Path)> {
    let children: Vec<(Path, &Spanned<DeValue<'_>>)> = match value.get_ref() {
        DeValue::Table(table) => table
            .iter()
            .map(|(key, child)| (path.key(key.get_ref()), child))
            .collect(),
        DeValue::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, child)| (path.index(i), child))
            .collect(),
        _ => Vec::new(),
    };
    children
        .into_iter()
        .filter_map(|(child_path, child)| {
            let start = child.span().start;
            let is_header = matches!(child.get_ref(), DeValue::Table(_))
                && src.get(start..).is_some_and(|rest| rest.starts_with('['))
                && start <= offset;
            let here = is_header.then(|| (start, child_path.clone()));
            // Prefer the deeper of equal starts: `[a.b]` also opens the implicit `a`.
            here.into_iter()
                .chain(last_header_before(src, child, offset, &child_path))
                .max_by_key(|(start, _)| *start)
        })
        .max_by_key(|(start, _)| *start)
}

fn type_error(src: &str, error: DeError) -> ScenarioError {
    let (path, span) = error.at.clone().unwrap_or_default();
    // `[[worker]]` is the one required array of tables; "no default" would not tell a teacher
    // what to write.
    let message = if error.problem == Problem::Missing("worker") && path == Path::parse("worker") {
        "missing: a scenario needs at least one [[worker]] table".to_string()
    } else {
        error.message()
    };
    ScenarioError::new(path.to_string(), message).at_offset(src, span.start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters_from_one() {
        let src = "a = 1\nbé = 2\n";
        assert_eq!(position(src, 0), (1, 1));
        assert_eq!(position(src, 6), (2, 1));
        assert_eq!(position(src, 9), (2, 3)); // after the two-byte `é`
        assert_eq!(position(src, 8), (2, 2)); // inside `é`: its start
        assert_eq!(position(src, 999), (3, 1));
    }

    #[test]
    fn display_leaves_out_what_is_unknown() {
        let mut e = ScenarioError::new("worker[1].work_ms", "must be at least 1");
        assert_eq!(e.to_string(), "worker[1].work_ms: must be at least 1");
        e.line = Some(12);
        e.column = Some(1);
        assert_eq!(
            e.to_string(),
            "line 12, column 1: worker[1].work_ms: must be at least 1"
        );
        e.field.clear();
        assert_eq!(e.to_string(), "line 12, column 1: must be at least 1");
    }
}
