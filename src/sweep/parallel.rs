//! The sweep on every core, for `locksim check` and the benchmarks: seeds run in parallel
//! chunks on a rayon pool and are counted in seed order, so the tally does not depend on the
//! number of threads. Not in the web build, which has no threads (it sweeps with
//! [`super::Sweep`]).

use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::ThreadPool;
use rayon::prelude::*;

use super::{Outcome, Tally};
use crate::scenario::Scenario;

/// How many recorded events one chunk of a sweep should hold per thread: between chunks the
/// progress is shown and a stop is heeded, so this bounds how late either can be (a few
/// tenths of a second at the engine's millions of events per second), while a chunk stays long
/// enough that handing it to the threads costs next to nothing. Counted in events rather than
/// timed so that the sweep reads no clock.
const CHUNK_EVENTS_PER_THREAD: u64 = 2_000_000;

/// At most this many runs per thread in a chunk, for runs so short (a few events) that the
/// event count says little about their cost.
const CHUNK_RUNS_PER_THREAD: u64 = 1_024;

/// Runs and checks every seed of `seeds` on `pool`'s threads and counts them as a
/// [`Tally`]. The seeds go in chunks: each chunk runs in parallel and is counted in seed
/// order, so the tally is the one a single thread would give, whatever the number of threads.
/// Before each run the sweep ends, with the tally marked interrupted, if `stop` is set (by
/// Ctrl-C in `locksim check`): the tally counts the seeds before the first run not made;
/// after each chunk, `after_chunk` sees the tally so far.
pub fn on_threads(
    scenario: &Scenario,
    seeds: RangeInclusive<u64>,
    pool: &ThreadPool,
    stop: &AtomicBool,
    mut after_chunk: impl FnMut(&Tally),
) -> Tally {
    let mut tally = Tally::default();
    let (mut next, last) = seeds.into_inner();
    let threads = pool.current_num_threads() as u64;
    // One run per thread first, then as many as hold about the target number of events, from
    // the mean so far: a run's length depends on the scenario, from a few events to the budget.
    let mut chunk = threads;
    while next <= last {
        if stop.load(Ordering::SeqCst) {
            tally.interrupt();
            break;
        }
        let end = next.saturating_add(chunk - 1).min(last);
        // Each run asks first, so a stop is heard within one run, not one chunk: the runs
        // that had started finish, and the tally keeps those before the first that did not.
        let outcomes: Vec<Option<Outcome>> = pool.install(|| {
            (next..=end)
                .into_par_iter()
                .map(|seed| {
                    (!stop.load(Ordering::SeqCst))
                        .then(|| Outcome::of(seed, crate::judged(scenario, seed)))
                })
                .collect()
        });
        for outcome in &outcomes {
            match outcome {
                Some(outcome) => tally.add(outcome),
                None => {
                    tally.interrupt();
                    return tally;
                }
            }
        }
        after_chunk(&tally);
        let mean_events = (tally.events() / tally.runs()).max(1);
        chunk = (threads * CHUNK_EVENTS_PER_THREAD / mean_events)
            .clamp(threads, threads * CHUNK_RUNS_PER_THREAD);
        let Some(after) = end.checked_add(1) else {
            break;
        };
        next = after;
    }
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parallel sweep counts exactly what running the seeds one after another does.
    #[test]
    fn a_sweep_on_several_threads_counts_as_one_thread_does() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/scenarios/step1-flag-race.toml"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let scenario = crate::scenario::parse(&text).unwrap();
        let mut sequential = Tally::default();
        for seed in 10..=209 {
            let run = crate::Judged::from(crate::run(&scenario, seed));
            sequential.add(&Outcome::of(seed, run));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let mut chunks = 0;
        let parallel = on_threads(&scenario, 10..=209, &pool, &AtomicBool::new(false), |_| {
            chunks += 1;
        });
        assert!(chunks > 0);
        assert_eq!(parallel.runs(), 200);
        assert_eq!(parallel, sequential);
    }

    /// One worker alone, and a pool of two threads to sweep it with.
    fn one_worker_on_two_threads() -> (Scenario, rayon::ThreadPool) {
        let scenario = crate::scenario::parse(
            "version = 1\nname = \"One\"\nseed = 1\n[[worker]]\nname = \"A\"\n",
        )
        .unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        (scenario, pool)
    }

    #[test]
    fn a_sweep_stopped_before_it_starts_counts_nothing_and_says_so() {
        let (scenario, pool) = one_worker_on_two_threads();
        let tally = on_threads(&scenario, 1..=100, &pool, &AtomicBool::new(true), |_| {});
        assert_eq!(tally.runs(), 0);
        assert!(tally.interrupted());
    }

    #[test]
    fn a_sweep_ends_at_the_largest_seed() {
        let (scenario, pool) = one_worker_on_two_threads();
        let stop = AtomicBool::new(false);
        let tally = on_threads(&scenario, u64::MAX - 4..=u64::MAX, &pool, &stop, |_| {});
        assert_eq!(tally.runs(), 5);
        assert!(!tally.interrupted());
    }
}
