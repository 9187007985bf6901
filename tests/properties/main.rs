//! Properties of the engine and the checker over generated scenarios, one module per subject.
//!
//! The generator (`support/generate.rs`, shared with the fuzz campaign) builds only scenarios
//! that `Scenario::validate` must accept: every design, topology (with a node count it allows),
//! holder behaviour, resource mode and fault kind, with 1–4 workers and a random seed. Checked:
//! - [`determinism`]: the validator accepts them, the TOML they print parses back to the same
//!   scenario, and a run is deterministic: the same scenario and seed give the same trace, and
//!   running without recording handles the same number of events;
//! - [`no_panic`]: nothing panics, and the trace stays inside the horizon and in time order;
//! - [`verdict_consistency`]: the verdict agrees with its own violations (`safe`, `live`,
//!   order, named nodes, the horizon);
//! - [`safety_of_fencing`]: fencing tokens checked at the resource (`single` or `consensus`
//!   store) never let a `stale_write` through, whatever pauses, stalls, delays, partitions,
//!   clock jumps and worker crashes happen;
//! - [`owner_tokens`]: owner-token designs (`token`, `fencing`) never report a
//!   `foreign_release` but an operator's `force_release`;
//! - [`single_grant`]: a store that keeps its state and times leases on a monotonic clock
//!   (`single`, `redlock`, `consensus`) never grants one lock to two owners at once, whatever
//!   the faults;
//! - [`no_lease`]: designs without a lease (`flag`, `setnx`, `timestamp`, `session`) never expire a lock;
//! - [`progress`]: a lone worker, with no fault and no loss, gets the lock; the `flag` design,
//!   with workers starting together, does produce an `overlap` for some seed.
//!
//! [`pinned_bugs`] keeps each engine bug these properties found as a small scenario that must
//! keep passing.
//!
//! A failure names the seed and prints the whole scenario as TOML: save it to a file and
//! `locksim run FILE` reproduces the run. Each property draws from a fixed generator seed, so a
//! run of the suite is repeatable; set `PROPTEST_RNG_SEED` (a number) to explore other cases
//! and `PROPTEST_CASES` to run more of them.

mod determinism;
mod no_lease;
mod no_panic;
mod owner_tokens;
mod pinned_bugs;
mod progress;
mod safety_of_fencing;
mod single_grant;
mod verdict_consistency;

#[path = "../support/generate.rs"]
mod generate;

use std::panic::{AssertUnwindSafe, catch_unwind};

use locksim::checker::Verdict;
use locksim::scenario::Scenario;
use locksim::trace::Trace;
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError};

use generate::repro;

/// Cases per property unless `PROPTEST_CASES` says otherwise: enough to cover every design and
/// topology many times, few enough for a debug build to finish in seconds.
const CASES: u32 = 64;

/// The configuration of one property; `seed` fixes its generator unless `PROPTEST_RNG_SEED` is
/// set. Each property has its own seed so that those drawing from the same profile still see
/// different scenarios.
fn config(seed: u64) -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = CASES;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(seed);
    }
    // A failure prints the scenario itself; no regression files are written next to the tests.
    config.failure_persistence = None;
    config
}

/// The scenario must be one the validator accepts (else the generator is wrong).
fn ensure_valid(sc: &Scenario) -> Result<(), TestCaseError> {
    match sc.validate() {
        Ok(()) => Ok(()),
        Err(e) => Err(TestCaseError::fail(format!(
            "the generator built a scenario the validator rejects ({}: {e})\n{}",
            e.field,
            repro(sc)
        ))),
    }
}

/// Runs the scenario with its own seed and checks the trace; a panic anywhere is a failure
/// that names the scenario.
fn run_and_check(sc: &Scenario) -> Result<(Trace, Verdict), TestCaseError> {
    ensure_valid(sc)?;
    catch_unwind(AssertUnwindSafe(|| {
        let run = locksim::run(sc, sc.seed);
        (run.trace, run.verdict)
    }))
    .map_err(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        TestCaseError::fail(format!("panicked: {what}\n{}", repro(sc)))
    })
}

/// The verdict's violations, one line each, for failure messages.
fn listing(v: &Verdict) -> String {
    v.violations
        .iter()
        .map(|x| format!("  {} at {} ms: {}\n", x.kind, x.at_ms, x.explanation))
        .collect()
}
