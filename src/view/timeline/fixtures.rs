//! Runs the timeline's tests lay out: the course's step 5 and any scenario's text.

use super::Lanes;
use crate::checker::Verdict;
use crate::scenario;
use crate::trace::{NodeId, Token, Trace};

/// Step 5 of the course: A pauses past its lease, B takes over, the fence turns A away.
const STEP5: &str =
    crate::scenario::library::text(crate::scenario::library::COURSE, "step5-fencing-token.toml");

/// Step 6: store1 leads, grants A, and crashes; store2 takes over.
pub const CONSENSUS: &str = crate::scenario::library::text(
    crate::scenario::library::COURSE,
    "step6-consensus-failover.toml",
);

/// Step 5's nodes.
pub const A: NodeId = NodeId::new(0);
pub const B: NodeId = NodeId::new(1);
pub const STORE1: NodeId = NodeId::new(2);
pub const RESOURCE: NodeId = NodeId::new(3);

/// B's first grant.
pub const B1: Token = Token { worker: B, seq: 1 };

/// The first grant of `worker`.
pub fn token(worker: NodeId) -> Token {
    Token { worker, seq: 1 }
}

/// The engine's run of step 5, and the checker's verdict on it.
pub fn step5_run() -> (Trace, Verdict) {
    let scenario = scenario::parse(STEP5).expect("the step-5 scenario parses");
    let crate::Run { trace, verdict, .. } = crate::run(&scenario, scenario.seed);
    (trace, verdict)
}

/// Step 5, laid out.
pub fn step5() -> Lanes {
    let (trace, verdict) = step5_run();
    Lanes::build(&trace, &verdict)
}

/// The run of a scenario (its text), the checker's verdict, and the lanes they make.
pub fn laid_out(source: &str) -> (Trace, Verdict, Lanes) {
    let scenario = scenario::parse(source).expect("a valid scenario");
    let crate::Run { trace, verdict, .. } = crate::run(&scenario, scenario.seed);
    let lanes = Lanes::build(&trace, &verdict);
    (trace, verdict, lanes)
}

/// The lanes of a scenario, as the engine and the checker make them.
pub fn engine_run(source: &str) -> (Trace, Lanes) {
    let (trace, _, lanes) = laid_out(source);
    (trace, lanes)
}

/// The lane of the node called `name`.
pub fn node(trace: &Trace, name: &str) -> NodeId {
    trace.node_id(name).expect(name)
}
