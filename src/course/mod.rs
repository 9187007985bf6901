//! The course: a first question (what is the lock for?) and the lesson's eight design steps,
//! step 7 split into four small decisions, each a decision whose every option is played out
//! by the simulator. Pure data and checks; no UI.
//!
//! Each option is bound to a scenario in `assets/scenarios/`. How a step's runs must come out
//! is its [`Judge`]: usually the right call is bound to the design that ships (safe and live)
//! and each wrong call to a scenario that demonstrates the misconception failing.
//! [`teaches`] and `locksim course` check that.

pub mod glossary;
pub mod progress;
mod steps;

pub use steps::{INTRO, PURPOSE_RECAP, RECAP, STEPS};

use crate::checker::Verdict;
use crate::scenario::{self, Scenario, ScenarioError};
use crate::trace::Trace;

/// One step of the course.
#[derive(Debug)]
pub struct Step {
    /// The number the learner reads: "0" for the first question, "7a" to "7d" for the four
    /// decisions of the lesson's step 7.
    pub number: &'static str,
    /// Short title, e.g. "The stuck flag".
    pub title: &'static str,
    /// The topic in a few words, e.g. "A locked = true row".
    pub topic: &'static str,
    /// The situation, in two or three sentences.
    pub situation: &'static str,
    /// The design question the learner answers.
    pub question: &'static str,
    /// Every option; exactly one is right, except on a [`Judge::Framing`] step.
    pub options: &'static [Choice],
    /// How the options' runs must come out for the step to teach what it says.
    pub judge: Judge,
    /// Why the right call is right, revealed after a choice has been played out.
    pub explanation: &'static str,
    /// The step's key insight: a title and a sentence or two.
    pub insight: (&'static str, &'static str),
    /// Further scenarios worth playing on this step (file text), e.g. reentrancy in step 7.
    pub extras: &'static [&'static str],
}

/// How a step's runs must come out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// No right or wrong: the learner says what their lock is for, and every option plays the
    /// same failure so they can weigh it. Each run must show it (unsafe).
    Framing,
    /// A diagnosis: every run shows a failure, and the right call's run shows every flaw it
    /// names (unsafe and not live).
    Diagnosis,
    /// The right call's run is safe and live; each wrong call's run is unsafe or not live.
    SafeAndLive,
    /// As [`Judge::SafeAndLive`], except a wrong call may instead be safe and live but do the
    /// same work at most [`SLOWER`] times as fast as the right call: its cost is throughput.
    Throughput,
}

/// How much slower (critical sections completed per simulated second) a safe, live wrong call
/// of a [`Judge::Throughput`] step must be than the right call.
pub const SLOWER: f64 = 1.0 / 1.5;

/// One option of a step's decision.
#[derive(Debug)]
pub struct Choice {
    /// The option as the learner reads it.
    pub label: &'static str,
    /// Whether it is the right call (a `Framing` step has none).
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
    /// The scenario that was played.
    pub scenario: Scenario,
    /// What happened.
    pub trace: Trace,
    /// What the checker says about it.
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
    let crate::Run { trace, verdict, .. } = crate::run(&scenario, scenario.seed);
    Demonstration {
        scenario,
        trace,
        verdict,
    }
}

/// Whether option `i` of `step`, played out as `demo`, teaches what the step's [`Judge`] says
/// it should. `right` is the right call's run, needed by [`Judge::Throughput`] only.
pub fn teaches(step: &Step, i: usize, demo: &Demonstration, right: Option<&Demonstration>) -> bool {
    let choice = &step.options[i];
    let v = &demo.verdict;
    match step.judge {
        Judge::Framing => !v.safe,
        Judge::Diagnosis if choice.right => !v.safe && !v.live,
        Judge::Diagnosis => !demo.good(),
        Judge::SafeAndLive => demo.good() == choice.right,
        Judge::Throughput if choice.right => demo.good(),
        Judge::Throughput => {
            !demo.good() || right.is_some_and(|r| v.work.per_s() <= r.verdict.work.per_s() * SLOWER)
        }
    }
}

/// The step numbered `number` ("5", "7b"), if there is one.
pub fn step(number: &str) -> Option<&'static Step> {
    STEPS.iter().find(|s| s.number == number)
}

/// The steps that make up the lesson's step `n`: one, or for step 7 its four decisions.
pub fn lesson_step(n: u8) -> impl Iterator<Item = &'static Step> {
    STEPS.iter().filter(move |s| {
        s.number.trim_end_matches(|c: char| c.is_ascii_lowercase()) == n.to_string()
    })
}

/// The right call of `step`, if it has one.
pub fn right_call(step: &Step) -> Option<&Choice> {
    step.options.iter().find(|c| c.right)
}

/// Plays out every option of `step` and says whether each teaches what it should.
pub fn lessons(step: &Step) -> Vec<Result<(Demonstration, bool), ScenarioError>> {
    let demos: Vec<_> = step.options.iter().map(demonstrate).collect();
    let right = step
        .options
        .iter()
        .position(|c| c.right)
        .and_then(|i| demos[i].as_ref().ok());
    demos
        .iter()
        .enumerate()
        .map(|(i, demo)| {
            let demo = demo.clone()?;
            let ok = teaches(step, i, &demo, right);
            Ok((demo, ok))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graded() -> impl Iterator<Item = &'static Step> {
        STEPS.iter().filter(|s| s.judge != Judge::Framing)
    }

    #[test]
    fn each_graded_step_has_one_right_call_and_two_wrong_ones() {
        for step in graded() {
            let right = step.options.iter().filter(|c| c.right).count();
            let wrong = step.options.len() - right;
            assert_eq!(right, 1, "step {} has {right} right calls", step.number);
            assert!(wrong >= 2, "step {} has {wrong} wrong calls", step.number);
        }
        let framing: Vec<_> = STEPS.iter().filter(|s| s.judge == Judge::Framing).collect();
        assert_eq!(framing.len(), 1, "one question on what the lock is for");
        assert!(framing[0].options.iter().all(|c| !c.right));
        assert_eq!(
            PURPOSE_RECAP.len(),
            framing[0].options.len(),
            "the recap recalls each answer"
        );
    }

    #[test]
    fn the_lessons_eight_steps_are_all_there() {
        let numbers: Vec<&str> = STEPS.iter().map(|s| s.number).collect();
        assert_eq!(
            numbers,
            [
                "0", "1", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d", "8"
            ]
        );
    }

    /// The right call sits at no one position in more than 40 % of the graded decisions, and
    /// is the longest label in at most half of them: pressing "1" every time, or picking the
    /// longest option, must not pass the course.
    #[test]
    fn the_right_call_has_no_tell() {
        let steps: Vec<&Step> = graded().collect();
        let mut at = [0usize; 8];
        let mut longest = 0;
        for step in &steps {
            let i = step.options.iter().position(|c| c.right).unwrap();
            at[i] += 1;
            let len = |c: &Choice| c.label.chars().count();
            let right = len(&step.options[i]);
            if step.options.iter().all(|c| c.right || len(c) < right) {
                longest += 1;
            }
        }
        for (i, &n) in at.iter().enumerate() {
            assert!(
                n * 10 <= steps.len() * 4,
                "the right call is option {} in {n} of {} decisions",
                i + 1,
                steps.len()
            );
        }
        assert!(
            longest * 2 <= steps.len(),
            "the right call is the longest label in {longest} of {} decisions",
            steps.len()
        );
    }

    #[test]
    fn every_choice_demonstrates_what_it_should() {
        for step in STEPS.iter() {
            for (i, lesson) in lessons(step).into_iter().enumerate() {
                let (demo, ok) = lesson.expect("course scenarios parse");
                assert!(
                    ok,
                    "step {} option {:?}: safe={} live={} work={:.2}/s (scenario {:?}, seed {})",
                    step.number,
                    step.options[i].label,
                    demo.verdict.safe,
                    demo.verdict.live,
                    demo.verdict.work.per_s(),
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
