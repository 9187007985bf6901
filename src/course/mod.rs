//! The course: eight design steps, each a decision whose every option is played out by the
//! simulator (DESIGN §5). Pure data and checks; no UI.
//!
//! Each option is bound to a scenario in `tests/scenarios/`. The right call is bound to the
//! design that ships (it must come out safe and live); each wrong call to a scenario that
//! demonstrates the misconception failing. [`demonstrate`] and `locksim course` check that.

pub mod glossary;
mod steps;

pub use steps::{INTRO, RECAP, STEPS};

use crate::checker::{self, Verdict};
use crate::scenario::{self, Scenario, ScenarioError};
use crate::trace::Trace;

/// One step of the course.
#[derive(Debug)]
pub struct Step {
    /// Short title, e.g. "The stuck flag".
    pub title: &'static str,
    /// The topic in a few words, e.g. "A locked = true row".
    pub topic: &'static str,
    /// The situation, in two or three sentences.
    pub situation: &'static str,
    /// The design question the learner answers.
    pub question: &'static str,
    /// Every option; exactly one is right.
    pub options: &'static [Choice],
    /// Why the right call is right, revealed after a choice has been played out.
    pub explanation: &'static str,
    /// The step's key insight: a title and a sentence or two.
    pub insight: (&'static str, &'static str),
    /// Further scenarios worth playing on this step (file text), e.g. reentrancy in step 7.
    pub extras: &'static [&'static str],
}

/// One option of a step's decision.
#[derive(Debug)]
pub struct Choice {
    pub label: &'static str,
    pub right: bool,
    /// What the demonstration shows, read after the run.
    pub feedback: &'static str,
    /// The scenario that plays this choice out (TOML text).
    pub scenario: &'static str,
}

impl Choice {
    /// Parses the bound scenario.
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        scenario::parse(self.scenario)
    }
}

/// A played-out choice: its scenario, trace and verdict.
#[derive(Clone, Debug)]
pub struct Demonstration {
    pub scenario: Scenario,
    pub trace: Trace,
    pub verdict: Verdict,
}

impl Demonstration {
    /// Whether the data stayed correct and the lock stayed usable.
    pub fn good(&self) -> bool {
        self.verdict.safe && self.verdict.live
    }
}

/// Runs a choice's scenario with its own seed.
pub fn demonstrate(choice: &Choice) -> Result<Demonstration, ScenarioError> {
    let scenario = choice.scenario()?;
    Ok(play(scenario))
}

/// Runs any scenario with its own seed.
pub fn play(scenario: Scenario) -> Demonstration {
    let trace = crate::engine::run(&scenario, scenario.seed);
    let verdict = checker::check(&scenario, &trace);
    Demonstration {
        scenario,
        trace,
        verdict,
    }
}

/// Whether a choice's demonstration teaches what it should: the right call comes out safe
/// and live, a wrong call shows a failure.
pub fn teaches(choice: &Choice, demo: &Demonstration) -> bool {
    demo.good() == choice.right
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_steps_each_with_one_right_call_and_two_wrong_ones() {
        assert_eq!(STEPS.len(), 8);
        for (i, step) in STEPS.iter().enumerate() {
            let right = step.options.iter().filter(|c| c.right).count();
            let wrong = step.options.len() - right;
            assert_eq!(right, 1, "step {} has {right} right calls", i + 1);
            assert!(wrong >= 2, "step {} has {wrong} wrong calls", i + 1);
        }
    }

    #[test]
    fn every_choice_demonstrates_what_it_should() {
        for (i, step) in STEPS.iter().enumerate() {
            for choice in step.options {
                let demo = demonstrate(choice).expect("course scenarios parse");
                assert!(
                    teaches(choice, &demo),
                    "step {} option {:?}: safe={} live={} (scenario {:?}, seed {})",
                    i + 1,
                    choice.label,
                    demo.verdict.safe,
                    demo.verdict.live,
                    demo.scenario.name,
                    demo.scenario.seed
                );
            }
            for extra in step.extras {
                scenario::parse(extra).expect("extra scenarios parse");
            }
        }
    }
}
