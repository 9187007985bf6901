//! The fuzz campaign at full size (`tests/support/fuzz.rs`): `cargo bench --bench fuzz` runs
//! 100 000 generated and mutated scenarios through parse, engine and checker with the budgets
//! on, checks one in 200 through the binary's exit status, and prints the counts. It exits
//! non-zero if any case failed. `LOCKSIM_FUZZ_CASES` and `LOCKSIM_FUZZ_SEED` change the size and
//! the generator seed.
#![allow(
    clippy::disallowed_methods,
    reason = "the campaign reports its own wall time; the engine it runs reads no clock"
)]

use std::process::ExitCode;
use std::time::Instant;

#[path = "../tests/support/env.rs"]
mod env;
#[path = "../tests/support/fuzz.rs"]
mod fuzz;
#[path = "../tests/support/generate.rs"]
mod generate;

use env::env_number;

fn main() -> ExitCode {
    let cases = env_number("LOCKSIM_FUZZ_CASES", 100_000);
    let seed = env_number("LOCKSIM_FUZZ_SEED", 2026);
    let started = Instant::now();
    let counts = fuzz::campaign(cases, seed, 200, Some(env!("CARGO_BIN_EXE_locksim")));
    println!(
        "fuzz campaign, generator seed {seed}, {} s",
        started.elapsed().as_secs()
    );
    println!("{counts}");
    if counts.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
