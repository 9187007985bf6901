//! `locksim assignment seal KEY.toml`: the teacher's answer key, sealed for handing out
//! ([`crate::assignment::seal()`]).

use std::io::{self, Write};
use std::path::Path;

use super::Status;
use super::input::{self, InputError};
use crate::assignment;

/// Prints the sealed assignment on stdout; exit 2 (the error on stderr) if the key cannot be
/// read, is invalid, or a solution it gives does not win its task.
pub fn seal(key: &Path, out: &mut impl Write) -> io::Result<Status> {
    let text = match input::load_text(key) {
        Ok(text) => text,
        Err(e) => return Ok(super::invalid(&e)),
    };
    match assignment::seal(&text) {
        Ok(sealed) => {
            out.write_all(sealed.as_bytes())?;
            Ok(Status::Pass)
        }
        Err(e) => Ok(super::invalid(&InputError::invalid(key, e))),
    }
}
