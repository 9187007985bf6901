//! Output shared by the commands.

use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;

use crate::text::printable;

/// The command that replays one run exactly: the scenario file and the seed are the whole
/// recipe (the engine is deterministic).
pub fn reproduce(file: &Path, seed: u64) -> String {
    format!("locksim run {} --seed {seed}", shell_word(&file_name(file)))
}

/// A file's name as a terminal may show it: its control characters escaped ([`printable`]).
pub fn file_name(file: &Path) -> String {
    printable(&file.display().to_string(), false).into_owned()
}

/// Writes `value` as pretty JSON followed by a newline, so the shell prompt starts on its own line.
pub fn write_json(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// Quotes a path for a POSIX shell only when it needs it, so the common case stays readable
/// and a path with spaces can still be pasted back.
fn shell_word(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+:,@%=".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduce_lines_paste_back_into_a_shell() {
        assert_eq!(
            reproduce(Path::new("cases/a-b.toml"), 7),
            "locksim run cases/a-b.toml --seed 7"
        );
        assert_eq!(
            reproduce(Path::new("my cases/it's.toml"), 7),
            r"locksim run 'my cases/it'\''s.toml' --seed 7"
        );
    }
}
