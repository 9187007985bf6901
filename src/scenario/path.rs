//! Field paths (`worker[1].work_ms`) and where they are in a parsed TOML tree.
//!
//! Errors name a field by its dotted path because that is what a teacher can look for in the
//! file; [`locate`] turns the path back into a byte span so the error can also give a line.

use std::fmt;
use std::ops::Range;

use toml::Spanned;
use toml::de::DeValue;

/// One step from a table to a value inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Segment {
    /// A key of a table.
    Key(String),
    /// An element of an array (0-based, as in `worker[0]`).
    Index(usize),
}

/// A dotted path from the top of the file, e.g. `fault[0].groups[1][0]`. Empty: the whole file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Path(Vec<Segment>);

impl Path {
    /// The path of key `key` inside this table.
    pub(super) fn key(&self, key: &str) -> Path {
        self.with(Segment::Key(key.to_string()))
    }

    /// The path of element `index` of this array.
    pub(super) fn index(&self, index: usize) -> Path {
        self.with(Segment::Index(index))
    }

    fn with(&self, step: Segment) -> Path {
        let mut steps = self.0.clone();
        steps.push(step);
        Path(steps)
    }

    /// The table or array this path is in (the whole file for a top-level key).
    pub(super) fn parent(&self) -> Path {
        Path(self.0[..self.0.len().saturating_sub(1)].to_vec())
    }

    /// Reads a path as written by [`Path`]'s `Display`. Keys of a scenario never contain `.`
    /// or `[`, so splitting on them is exact for every path an error can name.
    pub(super) fn parse(text: &str) -> Path {
        let mut steps = Vec::new();
        for part in text.split('.').filter(|part| !part.is_empty()) {
            let mut pieces = part.split('[');
            if let Some(key) = pieces.next().filter(|key| !key.is_empty()) {
                steps.push(Segment::Key(key.to_string()));
            }
            for index in pieces {
                match index.trim_end_matches(']').parse() {
                    Ok(index) => steps.push(Segment::Index(index)),
                    // Not a path this module wrote: keep what was understood so far.
                    Err(_) => return Path(steps),
                }
            }
        }
        Path(steps)
    }

    /// Where the table at this path is, as a teacher would say it in a message: `"in [lock]"`,
    /// `"in [[worker]]"`, `"at the top level"`.
    pub(super) fn table_phrase(&self) -> String {
        match self.0.as_slice() {
            [] => "at the top level".to_string(),
            [Segment::Key(table)] => format!("in [{table}]"),
            [Segment::Key(array), Segment::Index(_)] => format!("in [[{array}]]"),
            _ => format!("in `{self}`"),
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Segment::Key(key) if i == 0 => f.write_str(key)?,
                Segment::Key(key) => write!(f, ".{key}")?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// The byte span a path points at: the key for a table entry (so the column is where the line
/// starts to say what it sets), the value for an array element, the `[[header]]` for an element
/// of an array of tables. A path into something the file leaves out (a default) points at the
/// nearest part of it the file does contain; `None` if that is only the file as a whole.
pub(super) fn locate(root: &Spanned<DeValue<'_>>, path: &Path) -> Option<Range<usize>> {
    walk(root, path).last().map(|(span, _)| span.clone())
}

/// Follows `path` from `root` as far as the file goes: for each step found, the span
/// [`locate`] reports and the value there.
fn walk<'a, 'de>(
    root: &'a Spanned<DeValue<'de>>,
    path: &Path,
) -> Vec<(Range<usize>, &'a Spanned<DeValue<'de>>)> {
    let mut found = Vec::new();
    let mut here = root;
    for step in &path.0 {
        let next = match (step, here.get_ref()) {
            (Segment::Key(key), DeValue::Table(table)) => table
                .iter()
                .find(|(k, _)| k.get_ref() == key)
                .map(|(k, value)| (k.span(), value)),
            (Segment::Index(index), DeValue::Array(items)) => {
                items.get(*index).map(|item| (item.span(), item))
            }
            _ => None,
        };
        let Some((span, value)) = next else { break };
        found.push((span, value));
        here = value;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_parse_agree() {
        for text in [
            "version",
            "worker[1].work_ms",
            "fault[0].groups[1][0]",
            "lock.design",
        ] {
            assert_eq!(Path::parse(text).to_string(), text);
        }
        assert_eq!(Path::parse(""), Path::default());
    }

    #[test]
    fn table_names_read_like_headers() {
        assert_eq!(Path::default().table_phrase(), "at the top level");
        assert_eq!(Path::parse("lock").table_phrase(), "in [lock]");
        assert_eq!(Path::parse("worker[2]").table_phrase(), "in [[worker]]");
        assert_eq!(
            Path::parse("fault[0].groups").table_phrase(),
            "in `fault[0].groups`"
        );
    }
}
