//! `locksim prove` over the course: `cargo bench --no-default-features --bench prove` proves
//! every course step's right call with K = 2 faults of the default menu over 16 seeds, on
//! one thread and on every core, and prints each one's schedules, distinct runs and times.
//! A right call of an early step (before fencing) is not meant to survive faults: the table
//! says where it breaks. It exits non-zero if the two thread counts disagree.
//! `LOCKSIM_PROVE_FAULTS`, `LOCKSIM_PROVE_SEEDS` and `LOCKSIM_PROVE_BUDGET` change the bounds.
#![allow(
    clippy::disallowed_methods,
    reason = "the benchmark reports its own wall time; the engine it runs reads no clock"
)]

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[path = "../tests/support/env.rs"]
mod env;

use env::env_number;
use locksim::course::{STEPS, right_call};
use locksim::prove::{MenuKind, Options, Proof, prove};

fn main() -> ExitCode {
    let options = Options {
        faults: env_number("LOCKSIM_PROVE_FAULTS", 2) as usize,
        kinds: MenuKind::DEFAULT.to_vec(),
        seeds: 0..env_number("LOCKSIM_PROVE_SEEDS", 16),
        budget: env_number("LOCKSIM_PROVE_BUDGET", 10_000_000),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "prove, ≤ {} faults of the default menu, seeds {}..{}, budget {}; 1 thread and {cores}",
        options.faults, options.seeds.start, options.seeds.end, options.budget
    );
    println!("step  schedules  distinct runs  outcome  1 thread (s)  {cores} threads (s)");
    let mut good = true;
    for step in STEPS.iter() {
        let Some(choice) = right_call(step) else {
            continue;
        };
        let scenario = match choice.scenario() {
            Ok(s) => s,
            Err(e) => {
                println!("{}: invalid scenario: {e}", step.number);
                good = false;
                continue;
            }
        };
        let timed = |threads: usize| -> (Proof, f64) {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            let started = Instant::now();
            let outcome = prove(&scenario, &options, &pool, &AtomicBool::new(false), |_| {});
            (outcome, started.elapsed().as_secs_f64())
        };
        let (one, one_s) = timed(1);
        let (all, all_s) = timed(cores);
        let said = match (&one.found, one.stopped) {
            (Some(f), _) => format!(
                "unsafe (seed {}, {} added)",
                f.seed,
                f.counterexample.faults.len()
            ),
            (None, Some(_)) => "partial".to_string(),
            (None, None) => "holds".to_string(),
        };
        let same = one.explored == all.explored
            && one.distinct_runs == all.distinct_runs
            && one.found.as_ref().map(|f| &f.counterexample.faults)
                == all.found.as_ref().map(|f| &f.counterexample.faults);
        good &= same;
        println!(
            "{:<5} {:>10}  {:>13}  {said:<8} {one_s:>12.2}  {all_s:>12.2}{}",
            step.number,
            one.explored,
            one.distinct_runs,
            if same { "" } else { "  (threads disagree)" }
        );
    }
    if good {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
