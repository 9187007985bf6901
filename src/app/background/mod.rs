//! Work that runs off the UI thread, so the window keeps painting at full rate while it goes:
//! the sweeps of "Across seeds" and the searches of "Find a failure". On the desktop it runs
//! on a background thread ([`thread`]); in the browser in a Web Worker — a second instance of
//! the wasm module, talking by messages ([`worker`]).
//!
//! The page asks for [`Work`] and hears [`News`], in order, a batch of work at a time
//! ([`EVENTS_PER_BATCH`] events), so progress arrives many times a second and a cancelled job
//! stops within a batch. Both sides make the same deterministic runs: a sweep's page keeps its
//! own copy of the [`Sweep`] and counts the outcomes it hears ([`Sweep::count`]); a search's
//! page makes the found run again from the faults it hears ([`Counterexample::remade`]).
//! Dropping a job cancels it.

#[cfg(not(target_arch = "wasm32"))]
mod thread;
#[cfg(target_arch = "wasm32")]
pub(crate) mod worker;

#[cfg(not(target_arch = "wasm32"))]
pub use thread::Job;
#[cfg(target_arch = "wasm32")]
pub use worker::Job;

use serde::{Deserialize, Serialize};

use crate::scenario::{Fault, Scenario, parse, to_toml};
use crate::search::{Counterexample, Options, Searcher};
use crate::sweep::{EVENTS_PER_BATCH, Outcome, Sweep};

/// How often the page repaints for a job's progress: a few times a second is enough to watch
/// the counts move, and every repaint of the whole window is work taken from painting
/// anything else (in a browser without a GPU, much of a core).
pub const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// One batch of a sweep's runs: each with the index of its row.
pub type Batch = Vec<(usize, Outcome)>;

/// What the page asks a job to do. The scenario travels as TOML ([`to_toml`]), as it would
/// to a file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Work {
    /// Across seeds: `seeds` seeds of the scenario and of its ladder rungs ([`Sweep::new`]).
    Sweep { scenario: String, seeds: u64 },
    /// Find a failure: a search of the scenario within `options` ([`Searcher::new`]).
    Search { scenario: String, options: Options },
}

/// What a job tells the page, in the order it happened.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum News {
    /// The next batch of a sweep's runs.
    Batch(Batch),
    /// A search has run this many schedules so far.
    Searched(u64),
    /// A search is over after `tries` schedules; what it found, if anything.
    SearchOver { tries: u64, found: Option<Found> },
}

/// A failing schedule a search found and shrank: enough to make its counterexample again
/// ([`Counterexample::remade`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Found {
    /// The faults added, 1-minimal ([`Counterexample::faults`]).
    pub faults: Vec<Fault>,
    /// How many faults the schedule drawn first had.
    pub drawn: usize,
    /// Runs spent shrinking.
    pub shrink_runs: u64,
}

impl Work {
    /// A sweep of `scenario`.
    pub fn sweep(scenario: &Scenario, seeds: u64) -> Work {
        Work::Sweep {
            scenario: to_toml(scenario),
            seeds,
        }
    }

    /// A search of `scenario`.
    pub fn search(scenario: &Scenario, options: Options) -> Work {
        Work::Search {
            scenario: to_toml(scenario),
            options,
        }
    }
}

impl Found {
    /// The counterexample this is of, for a search of `scenario` with `options`.
    pub fn remade(self, scenario: &Scenario, options: &Options) -> Counterexample {
        Counterexample::remade(
            scenario,
            options.goal,
            self.faults,
            self.drawn,
            self.shrink_runs,
        )
    }
}

/// `scenario` as a job runs it: written out and read back, as a message carries it to the
/// worker. The page's side is made from the same value, so both sides run the same scenario
/// whatever the way it travelled.
///
/// # Errors
/// The reason, when the scenario cannot be read back (a bug: [`to_toml`] writes what
/// [`parse`] reads).
pub fn as_sent(scenario: &Scenario) -> Result<Scenario, String> {
    parse(&to_toml(scenario)).map_err(|e| e.to_string())
}

/// Does `work`, a batch at a time, telling `send` the news after each — and whether it is
/// the last, which the page should show at once rather than within [`PROGRESS_EVERY`];
/// stops early when `send` says the page no longer listens.
///
/// # Errors
/// When the work's scenario cannot be read.
fn perform(work: Work, mut send: impl FnMut(News, bool) -> bool) -> Result<(), String> {
    match work {
        Work::Sweep { scenario, seeds } => {
            let scenario = parse(&scenario).map_err(|e| e.to_string())?;
            let mut sweep = Sweep::new(&scenario, seeds);
            while !sweep.is_done() {
                let batch = sweep.run_next(EVENTS_PER_BATCH);
                sweep.count(&batch)?;
                if !send(News::Batch(batch), sweep.is_done()) {
                    break;
                }
            }
        }
        Work::Search { scenario, options } => {
            let scenario = parse(&scenario).map_err(|e| e.to_string())?;
            let mut search = Searcher::new(&scenario, options);
            loop {
                search.advance(EVENTS_PER_BATCH);
                let news = match search.outcome() {
                    None => News::Searched(search.tries()),
                    Some(outcome) => News::SearchOver {
                        tries: outcome.tries,
                        found: outcome.found.as_ref().map(|found| Found {
                            faults: found.faults.clone(),
                            drawn: found.drawn,
                            shrink_runs: found.shrink_runs,
                        }),
                    },
                };
                let over = matches!(news, News::SearchOver { .. });
                if !send(news, over) || over {
                    break;
                }
            }
        }
    }
    Ok(())
}
