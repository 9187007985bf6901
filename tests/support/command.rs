//! The built `locksim` binary, run as a user runs it: shared by the command-line tests.

use std::process::{Command, Output};

/// Runs `locksim` with `args` and waits for it to finish.
pub fn locksim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_locksim"))
        .args(args)
        .output()
        .expect("start locksim")
}
