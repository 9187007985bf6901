//! An attempt at a challenge: the learner's faults added to the design, run on the design's
//! seed, and judged against the budget and the goal.

use proptest::strategy::{Strategy, ValueTree};

use super::Challenge;
use crate::scenario::{Fault, Scenario};
use crate::search::Space;
use crate::text::fmt_ms;
use crate::{Run, run};

/// What an attempt came to.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// The design with the attempt's faults, in time order.
    pub scenario: Scenario,
    /// Its run on the design's seed.
    pub run: Run,
    /// How the faults go past the budget, in words; empty when they are within it.
    pub overruns: Vec<String>,
    /// Within the budget and the goal met.
    pub won: bool,
}

impl Attempt {
    /// What the attempt came to, in a sentence or two: won (and by which violation), the goal
    /// met over budget, over budget, or not yet (and what the checker did report).
    pub fn status(&self, challenge: &Challenge) -> String {
        let violations = &self.run.verdict.violations;
        let goal = violations.iter().find(|v| challenge.goal.contains(&v.kind));
        if self.won {
            return match goal {
                Some(v) => format!(
                    "Won. The checker reports {} at {}: {}",
                    v.kind,
                    fmt_ms(v.at_ms),
                    v.explanation
                ),
                None => "Won.".to_string(),
            };
        }
        let over = self.overruns.join("; ");
        if !self.overruns.is_empty() && challenge.met(&self.run) {
            return format!("The goal is met, but not within the budget: {over}.");
        }
        if !self.overruns.is_empty() {
            return format!("Over budget: {over}.");
        }
        if violations.is_empty() {
            return format!(
                "Not yet. The checker reports nothing wrong with this run; the goal is {}.",
                challenge.goal_words()
            );
        }
        let mut seen: Vec<String> = Vec::new();
        for v in violations {
            let said = format!("{} at {}", v.kind, fmt_ms(v.at_ms));
            if !seen.iter().any(|s| s.starts_with(v.kind.as_str())) {
                seen.push(said);
            }
        }
        format!(
            "Not yet. The checker reports {}, but the goal is {}.",
            seen.join(", "),
            challenge.goal_words()
        )
    }
}

/// Runs `faults` against `challenge`'s design and judges the run. An attempt over budget
/// is still run (the learner sees what it does) but cannot win.
pub fn play(challenge: &Challenge, faults: &[Fault]) -> Attempt {
    let mut scenario = challenge.design.clone();
    scenario.faults = faults.to_vec();
    crate::order::sort_by_key(&mut scenario.faults, |f| f.at_ms);
    let run = run(&scenario, scenario.seed);
    let overruns = challenge
        .budget
        .overruns(&scenario.faults, scenario.until_ms);
    let won = overruns.is_empty() && challenge.met(&run);
    Attempt {
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
        if play(challenge, &faults).won {
            return Some((tried, faults));
        }
    }
    None
}
