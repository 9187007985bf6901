//! Holds within bounds: every schedule of at most K faults from a finite menu, on every seed
//! asked, added to the scenario's own faults and run; either the first unsafe one (shrunk and
//! told as [`crate::search`] tells its counterexample) or a certificate of what was explored.
//!
//! The menu ([`menu`]) is kinds × target nodes × a few durations scaled from the lease. A
//! fault's start times come from the run it would land in ([`probe`](mod@probe)): the first fault's from
//! the run with none added, the second's from the run with the first, and so on, one start
//! 1 ms after each event (messages' travel aside) and one at 0. A fault added after another
//! starts no earlier than it (at the same instant, later in the menu), so each set of faults
//! is run once. A schedule whose run records the very trace of one already extended (and no
//! earlier last fault) is not extended again: the trace records every fault that acted, with
//! its parameters, so the two would go on alike.
//!
//! Schedules are run level by level (all of one fault on every seed, then two, …), each level
//! in a fixed order, in chunks on a rayon pool whose results are read in that order: the
//! outcome, the counterexample and every count are the same whatever the number of threads.
//! A certificate claims exactly that menu, those start times, those seeds and that bound; a
//! fault outside them (another duration, another instant inside a gap between events) was not
//! run. Native only (threads): the CLI's `locksim prove`.

pub mod certificate;
pub mod menu;
pub mod probe;

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::ThreadPool;
use rayon::prelude::*;

pub use certificate::{claim, partial_claim};
pub use menu::{Menu, MenuKind};
pub use probe::{Probe, probe};

use crate::checker::Exercised;
use crate::scenario::{Fault, Scenario};
use crate::search::{Counterexample, Goal, Oracle, shrink};

/// Schedules run between two looks at the progress and the stop flag, per thread.
const CHUNK_PER_THREAD: usize = 64;

/// What a proof explores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// At most this many added faults in a schedule.
    pub faults: usize,
    /// The kinds on the menu.
    pub kinds: Vec<MenuKind>,
    /// The seeds each schedule runs on (half-open: `0..16` is 16 seeds).
    pub seeds: Range<u64>,
    /// At most this many schedules run (the runs of the scenario as it is, one per seed, not
    /// counted).
    pub budget: u64,
}

/// Why a proof ended before it explored everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The schedule budget ran out.
    Budget,
    /// The caller's stop flag was set (Ctrl-C).
    Interrupted,
}

/// The first unsafe schedule, shrunk.
#[derive(Clone, Debug)]
pub struct Found {
    /// The seed it failed on.
    pub seed: u64,
    /// Its place in the enumeration's order, from 1 (0: the scenario failed as it is).
    pub schedule: u64,
    /// The faults of the schedule as enumerated.
    pub drawn: Vec<Fault>,
    /// The counterexample, shrunk to 1-minimal, with its run and its `[expect]`.
    pub counterexample: Counterexample,
}

/// What a proof came to.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The menu explored.
    pub menu: Menu,
    /// The bounds explored.
    pub options: Options,
    /// The file's own faults, on top of which every schedule went.
    pub own_faults: usize,
    /// Schedules run.
    pub explored: u64,
    /// Schedules of every level reached, run or not: the denominator of a partial claim.
    pub total: u64,
    /// The deepest level (number of faults) reached.
    pub levels: usize,
    /// Distinct traces among every run made (the scenario as it is included).
    pub distinct_runs: u64,
    /// The dangers every run made went through, added up ([`crate::checker::exercised`]).
    pub exercised: Exercised,
    /// Why it ended early, if it did.
    pub stopped: Option<Stopped>,
    /// The first unsafe schedule, if one was found.
    pub found: Option<Found>,
}

impl Proof {
    /// Whether every schedule within the bounds was run and none was unsafe.
    pub fn holds(&self) -> bool {
        self.found.is_none() && self.stopped.is_none()
    }
}

/// How far a proof is, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The level being run (faults per schedule).
    pub level: usize,
    /// Schedules run so far.
    pub explored: u64,
    /// Schedules of the levels reached so far.
    pub total: u64,
}

/// A schedule whose run a further fault may land in.
struct Node {
    seed: u64,
    faults: Vec<Fault>,
    /// The last fault's start time and menu entry: a further one goes no earlier.
    last: Option<(u64, usize)>,
    starts_ms: Vec<u64>,
}

impl Node {
    /// The further faults, in order: (start, menu entry).
    fn next(&self, entries: usize) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.starts_ms.iter().flat_map(move |&t| {
            let from = match self.last {
                Some((last_t, _)) if t < last_t => entries,
                Some((last_t, last_i)) if t == last_t => last_i + 1,
                _ => 0,
            };
            (from..entries).map(move |i| (t, i))
        })
    }
}

/// Explores every schedule within `options` added to `scenario`'s own faults, on `pool`'s
/// threads, and stops at the first unsafe one. `stop` is read before each run; `progress` is
/// told after each chunk. Deterministic: the outcome is the same for any number of threads.
pub fn prove(
    scenario: &Scenario,
    options: &Options,
    pool: &ThreadPool,
    stop: &AtomicBool,
    mut progress: impl FnMut(Progress),
) -> Proof {
    let menu = Menu::of(scenario, &options.kinds);
    let entries = menu.entries.len();
    let mut outcome = Proof {
        menu,
        options: options.clone(),
        own_faults: scenario.faults.len(),
        explored: 0,
        total: 0,
        levels: 0,
        distinct_runs: 0,
        exercised: Exercised::default(),
        stopped: None,
        found: None,
    };
    let seeds: Vec<u64> = options.seeds.clone().collect();
    let bases: Vec<Option<Probe>> = pool.install(|| {
        seeds
            .par_iter()
            .map(|&seed| (!stop.load(Ordering::SeqCst)).then(|| probe(scenario, &[], seed)))
            .collect()
    });
    // Per seed and fingerprint: the earliest last fault of a schedule extended with that run.
    let mut seen: BTreeMap<(u64, u64), Option<(u64, usize)>> = BTreeMap::new();
    let mut frontier = Vec::with_capacity(seeds.len());
    for (&seed, base) in seeds.iter().zip(bases) {
        let Some(base) = base else {
            outcome.stopped = Some(Stopped::Interrupted);
            return outcome;
        };
        seen.insert((seed, base.fingerprint), None);
        outcome.distinct_runs += 1;
        outcome.exercised += base.exercised;
        if !base.verdict.safe {
            outcome.found = Some(found(scenario, seed, 0, Vec::new(), stop));
            return outcome;
        }
        frontier.push(Node {
            seed,
            faults: Vec::new(),
            last: None,
            starts_ms: base.starts_ms,
        });
    }
    let threads = pool.current_num_threads().max(1);
    for level in 1..=options.faults {
        outcome.levels = level;
        outcome.total += frontier
            .iter()
            .map(|node| node.next(entries).count() as u64)
            .sum::<u64>();
        let mut jobs = frontier
            .iter()
            .enumerate()
            .flat_map(|(n, node)| node.next(entries).map(move |(t, i)| (n, t, i)));
        let mut next = Vec::new();
        loop {
            let room = options.budget.saturating_sub(outcome.explored);
            let chunk: Vec<(usize, u64, usize)> = jobs
                .by_ref()
                .take((CHUNK_PER_THREAD * threads).min(usize::try_from(room).unwrap_or(usize::MAX)))
                .collect();
            if chunk.is_empty() {
                if room == 0 && outcome.explored < outcome.total {
                    outcome.stopped = Some(Stopped::Budget);
                    return outcome;
                }
                break;
            }
            let schedule = |&(n, t, i): &(usize, u64, usize)| {
                let mut faults = frontier[n].faults.clone();
                faults.push(outcome.menu.fault(i, t));
                faults
            };
            let probes: Vec<Option<Probe>> = pool.install(|| {
                chunk
                    .par_iter()
                    .map(|job| {
                        (!stop.load(Ordering::SeqCst))
                            .then(|| probe(scenario, &schedule(job), frontier[job.0].seed))
                    })
                    .collect()
            });
            for (job, probe) in chunk.iter().zip(probes) {
                let Some(probe) = probe else {
                    outcome.stopped = Some(Stopped::Interrupted);
                    return outcome;
                };
                outcome.explored += 1;
                outcome.exercised += probe.exercised;
                let (n, t, i) = *job;
                let seed = frontier[n].seed;
                let last = Some((t, i));
                let extend = match seen.get_mut(&(seed, probe.fingerprint)) {
                    None => {
                        outcome.distinct_runs += 1;
                        seen.insert((seed, probe.fingerprint), last);
                        true
                    }
                    Some(kept) if last < *kept => {
                        *kept = last;
                        true
                    }
                    Some(_) => false,
                };
                if !probe.verdict.safe {
                    let index = outcome.explored;
                    outcome.found = Some(found(scenario, seed, index, schedule(job), stop));
                    return outcome;
                }
                if extend && level < options.faults {
                    next.push(Node {
                        seed,
                        faults: schedule(job),
                        last,
                        starts_ms: probe.starts_ms,
                    });
                }
            }
            progress(Progress {
                level,
                explored: outcome.explored,
                total: outcome.total,
            });
        }
        drop(jobs);
        frontier = next;
    }
    outcome
}

/// The unsafe schedule `drawn` on `seed`, shrunk as the search shrinks ([`shrink::one_minimal`])
/// and made again as a complete scenario with its `[expect]`.
fn found(
    scenario: &Scenario,
    seed: u64,
    schedule: u64,
    drawn: Vec<Fault>,
    stop: &AtomicBool,
) -> Found {
    let mut on_seed = scenario.clone();
    on_seed.seed = seed;
    let oracle = Oracle::new(&on_seed, Goal::Unsafe);
    let shrunk = shrink::one_minimal(drawn.clone(), &oracle, &mut |_| {
        !stop.load(Ordering::SeqCst)
    });
    let mut counterexample = Counterexample::remade(
        &on_seed,
        Goal::Unsafe,
        shrunk.faults,
        drawn.len(),
        shrunk.runs,
    );
    counterexample.scenario.name = format!("Failure found by prove in: {}", scenario.name);
    counterexample.scenario.description = format!(
        "Found by locksim prove: the setup of \"{}\" on seed {seed} with the faults below, \
         the first unsafe schedule of its enumeration, shrunk until removing any one fault \
         makes the run pass.",
        scenario.name
    );
    Found {
        seed,
        schedule,
        drawn,
        counterexample,
    }
}

#[cfg(test)]
mod tests;
