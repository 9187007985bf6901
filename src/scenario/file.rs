//! Reading a scenario file from disk, within [`MAX_BYTES`]: for the command line and the
//! desktop app's Load alike (the web build reads no files).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::{MAX_BYTES, ScenarioError, too_large};

/// Why a scenario file's bytes could not be had.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be opened or read.
    Unreadable(std::io::Error),
    /// The file is over [`MAX_BYTES`]: the error says so, at no position.
    TooLarge(ScenarioError),
}

/// The bytes of the scenario file at `path`. A file over [`MAX_BYTES`] is refused at once: by
/// its size when the file system knows it, and otherwise (a pipe, `/dev/zero`) as soon as one
/// byte more than the limit has been read.
pub fn read(path: &Path) -> Result<Vec<u8>, FileError> {
    let file = File::open(path).map_err(FileError::Unreadable)?;
    let known = file.metadata().map_err(FileError::Unreadable)?.len();
    if known > MAX_BYTES as u64 {
        return Err(FileError::TooLarge(too_large(Some(known))));
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(FileError::Unreadable)?;
    if bytes.len() > MAX_BYTES {
        return Err(FileError::TooLarge(too_large(None)));
    }
    Ok(bytes)
}
