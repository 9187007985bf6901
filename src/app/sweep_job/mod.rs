//! A sweep that runs off the UI thread, so the window keeps painting at full rate while
//! thousands of seeds run: on the desktop a background thread ([`thread`]), in the browser a
//! Web Worker — a second instance of the wasm module, talking by messages ([`worker`]).
//!
//! Either side keeps its own copy of the [`Sweep`]: the job runs batches of it and sends each
//! batch's outcomes, in order; the page counts them in its copy ([`Sweep::count`]). A batch
//! is [`EVENTS_PER_BATCH`] events of work, so progress arrives many times a second and a
//! cancelled job stops within a batch. Dropping a job cancels it.

#[cfg(not(target_arch = "wasm32"))]
mod thread;
#[cfg(target_arch = "wasm32")]
pub(crate) mod worker;

#[cfg(not(target_arch = "wasm32"))]
pub use thread::SweepJob;
#[cfg(target_arch = "wasm32")]
pub use worker::SweepJob;

use crate::scenario::{Scenario, parse, to_toml};
use crate::sweep::{EVENTS_PER_BATCH, Outcome, Sweep};

/// How often the page repaints for a sweep's progress: a few times a second is enough to
/// watch the counts move, and every repaint of the whole window is work taken from painting
/// anything else (in a browser without a GPU, much of a core).
pub const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// One batch of a sweep's runs: each with the index of its row.
pub type Batch = Vec<(usize, Outcome)>;

/// `scenario` as a job runs it: written out and read back, as a message carries it to the
/// worker. The page's copy of the sweep is made from the same value, so both copies run the
/// same scenario whatever the way it travelled.
///
/// # Errors
/// The reason, when the scenario cannot be read back (a bug: [`to_toml`] writes what
/// [`parse`] reads).
pub fn as_sent(scenario: &Scenario) -> Result<Scenario, String> {
    parse(&to_toml(scenario)).map_err(|e| e.to_string())
}

/// Runs `sweep` to its end a batch at a time, handing each batch to `send` after counting it
/// in `sweep`; stops early when `send` says the page no longer listens.
fn run_to_end(mut sweep: Sweep, mut send: impl FnMut(Batch) -> bool) {
    while !sweep.is_done() {
        let batch = sweep.run_next(EVENTS_PER_BATCH);
        if sweep.count(&batch).is_err() || !send(batch) {
            return;
        }
    }
}
