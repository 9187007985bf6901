//! An attempt at a challenge: the learner's faults added to the design, run on the design's
//! seed, and judged against the budget and the goal.

use proptest::strategy::{Strategy, ValueTree};

use super::Challenge;
use crate::scenario::{Fault, Scenario};
use crate::search::Space;
use crate::{Run, run};

/// What an attempt came to.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// The design with the attempt's faults, in time order.
    pub scenario: Scenario,
    /// Its run on the design's seed.
    pub run: Run,
    /// How the faults go past the budget, in words; empty when they are within it.
    pub overruns: Vec<String>,
    /// Within the budget and the goal met.
    pub won: bool,
}

/// Runs `faults` against `challenge`'s design and judges the run. An attempt over budget
/// is still run (the learner sees what it does) but cannot win.
pub fn judge(challenge: &Challenge, faults: &[Fault]) -> Judgement {
    let mut scenario = challenge.design.clone();
    scenario.faults = faults.to_vec();
    scenario.faults.sort_by_key(|f| f.at_ms);
    let run = run(&scenario, scenario.seed);
    let overruns = challenge.budget.overruns(&scenario.faults);
    let won = overruns.is_empty() && challenge.met(&run);
    Judgement {
        scenario,
        run,
        overruns,
        won,
    }
}

/// Draws up to `tries` attempts within `challenge`'s budget ([`Space::within`]) with the
/// search's seeded generator and returns the first that wins, with how many were tried.
/// Deterministic: the same challenge, tries and seed give the same answer.
pub fn search(challenge: &Challenge, tries: u64, seed: u64) -> Option<(u64, Vec<Fault>)> {
    let strategy = Space::of(&challenge.design).within(&challenge.budget);
    let mut runner = crate::search::runner(seed);
    for tried in 1..=tries {
        let faults = strategy.new_tree(&mut runner).ok()?.current();
        if judge(challenge, &faults).won {
            return Some((tried, faults));
        }
    }
    None
}
