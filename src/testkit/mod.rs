//! The one kit for the crate's unit tests: hand-made traces, verdicts and scenarios, so each
//! test states only the events or findings it is about.

mod scenario;
mod trace;
mod verdict;

pub use scenario::scenario;
pub use trace::{A, A1, B1, STORE1, STORE2, TraceBuilder, event, trace};
pub use verdict::{only, outcome, verdict};
