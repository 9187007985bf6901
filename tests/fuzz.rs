//! The fuzz campaign (`support/fuzz.rs`) at the size `cargo test` affords: a few thousand
//! generated and mutated scenarios through parse, engine and checker with the budgets on.
//! `cargo bench --bench fuzz` runs the same campaign at 100 000 cases and prints its counts.
//! `LOCKSIM_FUZZ_CASES` and `LOCKSIM_FUZZ_SEED` run more cases or other ones.

#[path = "support/env.rs"]
mod env;
#[path = "support/fuzz.rs"]
mod fuzz;
#[path = "support/generate.rs"]
mod generate;

use env::env_number;

/// Cases in `cargo test`: every profile and mutation many times, about 20 s in a debug build.
const CASES: u64 = 3_000;

/// One case in this many also goes through the binary, to check its exit status.
const EXIT_EVERY: u64 = 50;

#[test]
fn generated_and_mutated_scenarios_never_panic_overrun_or_mislead() {
    let cases = env_number("LOCKSIM_FUZZ_CASES", CASES);
    let seed = env_number("LOCKSIM_FUZZ_SEED", 12);
    let counts = fuzz::campaign(cases, seed, EXIT_EVERY, Some(env!("CARGO_BIN_EXE_locksim")));
    println!("{counts}");
    assert_eq!(counts.failed(), 0, "{counts}");
    assert_eq!(counts.cases, cases);
    assert!(counts.mutated_valid > 0 && counts.refused > 0, "{counts}");
    assert!(counts.fenced > 0 && counts.owner_token > 0, "{counts}");
}
