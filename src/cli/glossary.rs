//! `locksim glossary`: every term the course uses, alphabetically, with its definition.

use std::io::{self, Write};

use super::Status;
use crate::course::glossary;

/// Widest a printed line gets, columns.
const WIDTH: usize = 88;

/// Prints each term, the other names it goes by, its definition and its source.
pub fn glossary(out: &mut impl Write) -> io::Result<Status> {
    for entry in glossary::alphabetical() {
        writeln!(out, "{}", entry.term)?;
        let others = entry.other_names();
        if !others.is_empty() {
            wrapped(out, &format!("Also: {}", others.join(", ")))?;
        }
        wrapped(out, entry.definition)?;
        if let Some(source) = entry.source {
            wrapped(out, &format!("Source: {source}"))?;
        }
        writeln!(out)?;
    }
    Ok(Status::Pass)
}

/// Writes `text` indented by two spaces, wrapped between words at [`WIDTH`] columns.
fn wrapped(out: &mut impl Write, text: &str) -> io::Result<()> {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && 2 + line.chars().count() + 1 + word.chars().count() > WIDTH {
            writeln!(out, "  {line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    writeln!(out, "  {line}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_is_printed_once_within_the_width() {
        let mut out = Vec::new();
        assert_eq!(glossary(&mut out).unwrap(), Status::Pass);
        let text = String::from_utf8(out).unwrap();
        for entry in glossary::ENTRIES {
            let heading = format!("\n{}\n", entry.term);
            let found =
                text.matches(&heading).count() + usize::from(text.starts_with(&heading[1..]));
            assert_eq!(found, 1, "{} is listed once", entry.term);
        }
        assert!(text.lines().all(|line| line.chars().count() <= WIDTH));
    }
}
