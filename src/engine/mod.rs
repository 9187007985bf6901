//! The engine: a deterministic discrete-event simulation of one scenario.

use crate::scenario::Scenario;
use crate::trace::Trace;

/// Plays `scenario` out with `seed` and records every event.
pub fn run(scenario: &Scenario, seed: u64) -> Trace {
    Trace {
        scenario: scenario.name.clone(),
        seed,
        until_ms: scenario.until_ms,
        design: scenario.lock.design,
        topology: scenario.store.topology,
        nodes: Vec::new(),
        keys: Vec::new(),
        events: Vec::new(),
        steps: 0,
    }
}
