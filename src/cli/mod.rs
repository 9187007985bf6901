//! The headless command line (DESIGN §4): `run`, `verify`, `check`.

use std::process::ExitCode;

/// Entry point of the `locksim` binary. With no arguments it opens the desktop app.
pub fn main() -> ExitCode {
    ExitCode::SUCCESS
}
