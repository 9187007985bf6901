//! One way to run: a scenario and a seed in; the engine's trace, the checker's verdict and the
//! lock's price out. The CLI, the app, the course, the sweeps and the tests all run through [`run`].

use crate::checker::{self, Price, Verdict};
use crate::scenario::Scenario;
use crate::trace::Trace;
use crate::{engine, violation::Kind};

/// A scenario played out with one seed and judged.
#[derive(Clone, Debug)]
pub struct Run {
    /// What happened, with ground truth.
    pub trace: Trace,
    /// What the checker says about it.
    pub verdict: Verdict,
    /// What the lock cost in it: acquire latency, availability ([`checker::judge`]).
    pub price: Price,
}

impl Run {
    /// The seed the run was played with.
    pub fn seed(&self) -> u64 {
        self.trace.seed
    }

    /// Events the trace recorded.
    pub fn events(&self) -> u64 {
        self.trace.events.len() as u64
    }

    /// Queue events the engine handled, recorded or not: the run's cost.
    pub fn steps(&self) -> u64 {
        self.trace.steps
    }

    /// `Some(t)` when the engine's event budget stopped the run at true time `t` (simulated
    /// ms) before its horizon; `None` when it reached `until_ms`.
    pub fn cut_short_at_ms(&self) -> Option<u64> {
        self.trace.cut_short_at_ms
    }

    /// Whether the data stayed correct and the lock stayed usable.
    pub fn good(&self) -> bool {
        self.verdict.safe && self.verdict.live
    }

    /// Whether the checker reported a violation of `kind`.
    pub fn has(&self, kind: Kind) -> bool {
        self.verdict.has(kind)
    }
}

/// Plays `scenario` with `seed` ([`engine::run`]) and checks the trace ([`checker::check`]).
/// Deterministic: the same scenario and seed give the same run on every platform.
pub fn run(scenario: &Scenario, seed: u64) -> Run {
    let trace = engine::run(scenario, seed);
    let (verdict, price) = checker::judge(scenario, &trace);
    Run {
        trace,
        verdict,
        price,
    }
}
