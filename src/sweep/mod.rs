//! Many seeds of one scenario, counted: "usually exclusive" as a number. The count
//! ([`Tally`]) is the same for every front end; the runs are made either a share at a time on
//! one thread ([`Sweep`], the app's "Across seeds" panel, which also compares the rungs of the
//! design ladder) or on every core ([`on_threads`], `locksim check`).

mod latency;
mod outcome;
mod slices;
mod summary;
mod tally;
// Threads: not in the web build.
#[cfg(not(target_arch = "wasm32"))]
mod parallel;

pub use outcome::Outcome;
#[cfg(not(target_arch = "wasm32"))]
pub use parallel::on_threads;
pub use slices::{EVENTS_PER_BATCH, RUN_COST, Row, Sweep};
pub use summary::{
    FirstRun, availability_percent, ladder_line, percent, price_cells, runs_of, share_cell,
};
pub use tally::Tally;
#[cfg(test)]
pub(crate) use tally::tests::four_runs;
