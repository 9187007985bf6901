//! One way to run: a scenario and a seed in; the engine's trace, the checker's verdict and the
//! lock's price out. The CLI, the app, the course, the sweeps and the tests all run through [`run`].

use crate::checker::{self, Price, Verdict};
use crate::scenario::Scenario;
use crate::trace::{EventKind, NodeId, Trace};
use crate::{engine, violation::ViolationKind};

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
    pub fn has(&self, kind: ViolationKind) -> bool {
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

/// A run made only to be judged: what [`run`] gives but the trace, which nobody will show.
#[derive(Clone, Debug)]
pub struct Judged {
    /// What the checker says about it.
    pub verdict: Verdict,
    /// What the lock cost in it.
    pub price: Price,
    /// Events the run recorded ([`Run::events`]).
    pub events: u64,
    /// Queue events the engine handled ([`Run::steps`]).
    pub steps: u64,
}

impl From<Run> for Judged {
    fn from(run: Run) -> Judged {
        Judged {
            events: run.events(),
            steps: run.steps(),
            verdict: run.verdict,
            price: run.price,
        }
    }
}

/// Plays `scenario` with `seed` and judges it as [`run`] does, with the same verdict and
/// price, but checks each event as the engine records it ([`checker::Stream`]) instead of
/// keeping the trace: for sweeps and searches, which show no run. A run the engine's event
/// budget cut short is played again and judged from its trace (see
/// [`checker::Stream::finish`]); the same seed gives the same run.
pub fn judged(scenario: &Scenario, seed: u64) -> Judged {
    let (trace, stream) = engine::run_into(scenario, seed, checker::Stream::new);
    let events = stream.events();
    match stream.finish(scenario, &trace) {
        Some((verdict, price)) => Judged {
            verdict,
            price,
            events,
            steps: trace.steps,
        },
        None => run(scenario, seed).into(),
    }
}

/// The checker reads each event as the engine records it.
impl engine::Recorder for checker::Stream {
    fn record(&mut self, at_ms: u64, node: NodeId, _: i64, kind: EventKind) {
        self.happened(at_ms, node, &kind);
    }
}
