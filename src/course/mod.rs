//! The course: a first question (what is the lock for?) and the lesson's eight design steps,
//! step 7 split into four small decisions, each a decision whose every option is played out
//! by the simulator. Pure data and checks; no UI.
//!
//! Each option is bound to a scenario in `assets/scenarios/`. How a step's runs must come out
//! is its [`Grading`]: usually the right call is bound to the design that ships (safe and live)
//! and each wrong call to a scenario that demonstrates the misconception failing.
//! [`teaches`] and `locksim course` check that.

pub mod glossary;
pub mod progress;
mod record;
mod steps;

pub use record::Record;
pub use steps::{INTRO, PURPOSE_RECAP, RECAP, STEPS};

use crate::checker::{Price, Verdict};
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
    /// Every option; exactly one is right, except on a [`Grading::Framing`] step.
    pub options: &'static [Choice],
    /// How the options' runs must come out for the step to teach what it says.
    pub grading: Grading,
    /// Why the right call is right, revealed after a choice has been played out.
    pub explanation: &'static str,
    /// The step's key insight: a title and a sentence or two.
    pub insight: (&'static str, &'static str),
    /// Further scenarios worth playing on this step (file text), e.g. reentrancy in step 7.
    pub extras: &'static [&'static str],
    /// The scenario fields the decision is about, as dotted paths (`lock.renewal`; a worker's
    /// field as `worker.check_lease`; a whole table as `store`). Every option's scenario
    /// differs from the right call's in these fields only, so each run shows what that one
    /// choice does.
    pub about: &'static [&'static str],
}

/// How a step's runs must come out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grading {
    /// No right or wrong: the learner says what their lock is for, and every option plays the
    /// same failure so they can weigh it. Each run must show it (unsafe).
    Framing,
    /// A diagnosis: every run shows a failure, and the right call's run shows every flaw it
    /// names (unsafe and not live).
    Diagnosis,
    /// The right call's run is safe and live; each wrong call's run is unsafe or not live.
    SafeAndLive,
    /// As [`Grading::SafeAndLive`], except a wrong call may instead be safe and live but do the
    /// same work at most [`SLOWER`] times as fast as the right call: its cost is throughput.
    Throughput,
    /// As [`Grading::SafeAndLive`], except a wrong call may instead be safe and live but finish
    /// fewer critical sections than the right call: work refused or given up, never done.
    LostWork,
    /// As [`Grading::SafeAndLive`], except a wrong call may instead be safe and live but keep
    /// some worker waiting at least [`LONGER`] times as long as the right call's longest wait:
    /// its cost is a long tail of waiting, not a lock nobody gets.
    Latency,
}

/// How much longer a safe, live wrong call's longest wait for the lock must be than the right
/// call's on a [`Grading::Latency`] step.
pub const LONGER: f64 = 1.5;

/// How much slower (critical sections completed per simulated second) a safe, live wrong call
/// of a [`Grading::Throughput`] step must be than the right call.
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
    /// What the lock cost: acquire latencies, throughput, availability.
    pub price: Price,
}

impl Demonstration {
    /// Whether the data stayed correct and the lock stayed usable.
    pub fn good(&self) -> bool {
        self.verdict.safe && self.verdict.live
    }

    /// The longest any worker waited for the lock before getting it, simulated ms (0 when
    /// nobody got it).
    pub fn longest_wait_ms(&self) -> u64 {
        self.price.latencies_ms.last().copied().unwrap_or(0)
    }
}

/// Runs a choice's scenario with its own seed.
pub fn demonstrate(choice: &Choice) -> Result<Demonstration, ScenarioError> {
    let scenario = choice.scenario()?;
    Ok(play(scenario))
}

/// Runs any scenario with its own seed.
pub fn play(scenario: Scenario) -> Demonstration {
    let crate::Run {
        trace,
        verdict,
        price,
    } = crate::run(&scenario, scenario.seed);
    Demonstration {
        scenario,
        trace,
        verdict,
        price,
    }
}

/// Whether option `i` of `step`, played out as `demo`, teaches what the step's [`Grading`] says
/// it should. `right` is the right call's run, needed by [`Grading::Throughput`] only.
pub fn teaches(step: &Step, i: usize, demo: &Demonstration, right: Option<&Demonstration>) -> bool {
    let choice = &step.options[i];
    let v = &demo.verdict;
    match step.grading {
        Grading::Framing => !v.safe,
        Grading::Diagnosis if choice.right => !v.safe && !v.live,
        Grading::Diagnosis => !demo.good(),
        Grading::SafeAndLive => demo.good() == choice.right,
        Grading::Throughput if choice.right => demo.good(),
        Grading::Throughput => {
            !demo.good() || right.is_some_and(|r| v.work.per_s() <= r.verdict.work.per_s() * SLOWER)
        }
        Grading::LostWork | Grading::Latency if choice.right => demo.good(),
        Grading::LostWork => {
            !demo.good() || right.is_some_and(|r| v.work.completed < r.verdict.work.completed)
        }
        Grading::Latency => {
            !demo.good()
                || right.is_some_and(|r| {
                    demo.longest_wait_ms() as f64 >= r.longest_wait_ms() as f64 * LONGER
                })
        }
    }
}

/// The line above a step's title: "STEP 5" until the learner has made a call, then "STEP 5 ·
/// FENCING TOKENS". The topic names the idea of the right call, so it waits.
pub fn kicker(step: &Step, topic_shown: bool) -> String {
    if topic_shown {
        format!("STEP {} · {}", step.number, step.topic.to_uppercase())
    } else {
        format!("STEP {}", step.number)
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
        STEPS.iter().filter(|s| s.grading != Grading::Framing)
    }

    #[test]
    fn each_graded_step_has_one_right_call_and_two_wrong_ones() {
        for step in graded() {
            let right = step.options.iter().filter(|c| c.right).count();
            let wrong = step.options.len() - right;
            assert_eq!(right, 1, "step {} has {right} right calls", step.number);
            assert!(wrong >= 2, "step {} has {wrong} wrong calls", step.number);
        }
        let framing: Vec<_> = STEPS
            .iter()
            .filter(|s| s.grading == Grading::Framing)
            .collect();
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

    /// Words too common to give anything away.
    const FUNCTION_WORDS: &[&str] = &[
        "that", "this", "with", "from", "what", "which", "when", "them", "then", "they", "their",
        "there", "have", "been", "into", "does", "must", "more", "than", "also", "same", "once",
        "each", "every", "before", "after", "will", "would", "should", "could", "your", "here",
        "make", "made",
    ];

    /// The content words of `text`, each cut to its first five letters so that "refuse" and
    /// "refuses", "renew" and "renewal" count as one.
    fn stems(text: &str) -> std::collections::BTreeSet<String> {
        text.to_lowercase()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.len() >= 4 && !FUNCTION_WORDS.contains(w))
            .map(|w| w.chars().take(5).collect())
            .collect()
    }

    /// The words of the right label that no wrong label of `step` shares.
    fn only_in_the_right_label(step: &Step) -> std::collections::BTreeSet<String> {
        let right = stems(right_call(step).unwrap().label);
        let wrong: std::collections::BTreeSet<String> = step
            .options
            .iter()
            .filter(|c| !c.right)
            .flat_map(|c| stems(c.label))
            .collect();
        right.difference(&wrong).cloned().collect()
    }

    /// Pressing "1" every time, picking the longest option or matching the step's words to
    /// the options must not pass the course: the right call sits at no one position in more
    /// than 3 of the 11 graded decisions, is the strictly longest label in at most 3, and
    /// shares no word with the topic, the situation or the question that every wrong label
    /// lacks.
    #[test]
    fn the_right_call_has_no_tell() {
        let steps: Vec<&Step> = graded().collect();
        assert_eq!(steps.len(), 11);
        let mut at = [0usize; 8];
        let mut longest = Vec::new();
        for step in &steps {
            let i = step.options.iter().position(|c| c.right).unwrap();
            at[i] += 1;
            let len = |c: &Choice| c.label.chars().count();
            let right = len(&step.options[i]);
            if step.options.iter().all(|c| c.right || len(c) < right) {
                longest.push(step.number);
            }
            let only = only_in_the_right_label(step);
            let echo =
                |text: &str| -> Vec<String> { stems(text).intersection(&only).cloned().collect() };
            let topic = echo(step.topic);
            assert!(
                topic.is_empty(),
                "step {}: the topic {:?} shares {topic:?} with the right label only",
                step.number,
                step.topic
            );
            let asked = echo(&format!("{} {}", step.situation, step.question));
            assert!(
                asked.is_empty(),
                "step {}: the situation or question shares {asked:?} with the right label only",
                step.number
            );
        }
        for (i, &n) in at.iter().enumerate() {
            assert!(
                n <= 3,
                "the right call is option {} in {n} of {} decisions",
                i + 1,
                steps.len()
            );
        }
        assert!(
            longest.len() <= 3,
            "the right call is the strictly longest label in steps {longest:?}"
        );
    }

    #[test]
    fn the_tell_finder_sees_an_echo() {
        assert!(stems("The resource refuses it").contains("refus"));
        assert_eq!(stems("it is a lock"), ["lock".to_string()].into());
        let echoing = Step {
            number: "x",
            title: "t",
            topic: "Renewal",
            situation: "",
            question: "",
            options: &[
                Choice {
                    label: "Renew after each batch",
                    right: true,
                    feedback: "",
                    scenario: "",
                },
                Choice {
                    label: "Never",
                    right: false,
                    feedback: "",
                    scenario: "",
                },
            ],
            grading: Grading::SafeAndLive,
            explanation: "",
            insight: ("", ""),
            extras: &[],
            about: &[],
        };
        assert!(only_in_the_right_label(&echoing).contains("renew"));
    }

    /// A scenario as `path = value` lines, a worker's or fault's fields under `worker[i].x`,
    /// leaving out what only describes it (name, description, source, expect).
    fn fields(scenario: &Scenario) -> std::collections::BTreeMap<String, String> {
        fn walk(
            path: &str,
            value: &toml::Value,
            out: &mut std::collections::BTreeMap<String, String>,
        ) {
            match value {
                toml::Value::Table(t) => {
                    for (k, v) in t {
                        let p = if path.is_empty() {
                            k.clone()
                        } else {
                            format!("{path}.{k}")
                        };
                        walk(&p, v, out);
                    }
                }
                toml::Value::Array(a) if a.iter().all(toml::Value::is_table) && !a.is_empty() => {
                    for (i, v) in a.iter().enumerate() {
                        walk(&format!("{path}[{i}]"), v, out);
                    }
                }
                v => {
                    out.insert(path.to_string(), v.to_string());
                }
            }
        }
        let mut value = toml::Value::try_from(scenario).expect("a scenario serialises");
        if let Some(t) = value.as_table_mut() {
            for k in ["name", "description", "source", "expect", "version"] {
                t.remove(k);
            }
        }
        let mut out = std::collections::BTreeMap::new();
        walk("", &value, &mut out);
        out
    }

    /// Whether `path` ("worker[2].retry_ms") is one of the fields `about` names ("worker.retry_ms",
    /// or a whole table, "store").
    fn declared(about: &[&str], path: &str) -> bool {
        let mut plain = String::new();
        let mut skipping = false;
        for c in path.chars() {
            match c {
                '[' => skipping = true,
                ']' => skipping = false,
                c if !skipping => plain.push(c),
                _ => {}
            }
        }
        about
            .iter()
            .any(|a| plain == *a || plain.starts_with(&format!("{a}.")))
    }

    /// Every wrong option's scenario is the right call's (on the first question, the first
    /// option's) with only the fields its step is about changed: the same workers, seed,
    /// horizon, faults, network, store and resource. A difference elsewhere would let the
    /// runs differ for a reason the step does not teach.
    #[test]
    fn every_option_differs_from_the_right_call_only_in_what_the_step_is_about() {
        for step in STEPS.iter() {
            let base = right_call(step).unwrap_or(&step.options[0]);
            let base_fields = fields(&base.scenario().expect("course scenarios parse"));
            for option in step.options {
                let option_fields = fields(&option.scenario().expect("course scenarios parse"));
                let keys: std::collections::BTreeSet<&String> =
                    base_fields.keys().chain(option_fields.keys()).collect();
                for k in keys {
                    let (a, b) = (base_fields.get(k), option_fields.get(k));
                    assert!(
                        a == b || declared(step.about, k),
                        "step {}, option {:?}: `{k}` is {} here and {} in the right call's run, \
                         but the step is about {:?} only",
                        step.number,
                        option.label,
                        b.map_or("unset", String::as_str),
                        a.map_or("unset", String::as_str),
                        step.about
                    );
                }
            }
        }
    }

    /// Step 3's health check deletes a lock because its holder does not answer, not because
    /// the scenario says so: with the pauses taken out, every holder answers and nobody's
    /// lock is deleted from under it.
    #[test]
    fn the_health_check_deletes_only_a_lock_whose_holder_is_silent() {
        let step = step("3").unwrap();
        let ping = step
            .options
            .iter()
            .find(|c| c.scenario().unwrap().lock.ping_timeout_ms.is_some())
            .expect("step 3 has a health check option");
        let foreign = |d: &Demonstration| {
            d.verdict
                .violations
                .iter()
                .any(|v| v.kind == crate::checker::ViolationKind::ForeignRelease)
        };
        let with_pause = demonstrate(ping).unwrap();
        assert!(!with_pause.verdict.safe && foreign(&with_pause));
        let mut scenario = ping.scenario().unwrap();
        scenario
            .faults
            .retain(|f| !matches!(f.kind, scenario::FaultKind::Pause { .. }));
        let without = play(scenario);
        assert!(without.good(), "{:?}", without.verdict.violations);
        assert!(!foreign(&without), "{:?}", without.verdict.violations);
    }

    /// Step 8 says a lock may not be needed, and plays it: a compare-and-swap with no lock
    /// asks no store, and its retry loop lands every worker's increment. The compare-and-swap
    /// is what keeps it right: the same run with plain writes loses an update.
    #[test]
    fn step_8_plays_a_compare_and_swap_with_no_lock() {
        let lock_free = step("8")
            .unwrap()
            .extras
            .iter()
            .map(|text| scenario::parse(text).unwrap())
            .find(|s| {
                s.lock.design == scenario::Design::None
                    && s.resource.mode == scenario::ResourceMode::Cas
            })
            .expect("step 8 has a lock-free compare-and-swap run");
        let demo = play(lock_free.clone());
        assert!(demo.good(), "{:?}", demo.verdict.violations);
        let mut accepted = std::collections::BTreeSet::new();
        let mut last_value = 0;
        for e in &demo.trace.events {
            match &e.kind {
                crate::trace::EventKind::AcquireStarted { .. }
                | crate::trace::EventKind::Acquired { .. }
                | crate::trace::EventKind::Granted { .. } => {
                    panic!("a lock-free run takes no lock: {:?}", e.kind)
                }
                crate::trace::EventKind::WriteAccepted { token, value, .. } => {
                    accepted.insert(token.worker);
                    last_value = *value;
                }
                _ => {}
            }
        }
        assert_eq!(
            accepted.len(),
            lock_free.workers.len(),
            "every worker's write lands"
        );
        assert_eq!(
            last_value,
            lock_free.workers.len() as u64,
            "no increment is lost"
        );
        let mut plain = lock_free;
        plain.resource.mode = scenario::ResourceMode::Plain;
        let unchecked = play(plain);
        assert!(!unchecked.verdict.safe);
        assert!(
            unchecked
                .verdict
                .violations
                .iter()
                .any(|v| v.kind == crate::checker::ViolationKind::InterleavedWrites)
        );
    }

    /// Step 7d's hot path is paced by the lock, not the work: each turn's 5 ms of work is a
    /// small part of it, and a consensus store, which commits every grant and release on a
    /// majority, makes each turn slower still.
    #[test]
    fn step_7d_times_a_hot_path_that_the_lock_paces() {
        let runs: Vec<Demonstration> = step("7d")
            .unwrap()
            .extras
            .iter()
            .map(|text| play(scenario::parse(text).unwrap()))
            .collect();
        let [single, consensus] = &runs[..] else {
            panic!("two hot-path runs");
        };
        for run in [single, consensus] {
            assert!(run.good(), "{:?}", run.verdict.violations);
            let work = run.verdict.work;
            let busy = work.completed * run.scenario.workers[0].work_ms;
            assert!(
                busy * 3 < work.last_done_ms.unwrap(),
                "{}: {} updates of {} ms are most of {} ms",
                run.scenario.name,
                work.completed,
                run.scenario.workers[0].work_ms,
                work.last_done_ms.unwrap()
            );
        }
        assert_eq!(single.scenario.store.topology, scenario::Topology::Single);
        assert_eq!(
            consensus.scenario.store.topology,
            scenario::Topology::Consensus
        );
        assert!(consensus.verdict.work.per_s() < single.verdict.work.per_s());
    }

    /// Step 7a compares renewal policies only: every run fences the same way at the same
    /// resource, so what differs between the verdicts is renewal's doing.
    #[test]
    fn step_7a_runs_share_the_fencing_design_and_resource() {
        let step = step("7a").unwrap();
        let right = right_call(step).unwrap().scenario().unwrap();
        for option in step.options {
            let s = option.scenario().unwrap();
            assert_eq!(s.lock.design, right.lock.design, "{}", option.label);
            assert_eq!(s.resource, right.resource, "{}", option.label);
        }
    }

    #[test]
    fn a_declared_field_covers_every_worker_and_a_whole_table() {
        assert!(declared(&["worker.key"], "worker[3].key"));
        assert!(declared(&["store"], "store.topology"));
        assert!(!declared(&["lock.design"], "lock.ttl_ms"));
        assert!(!declared(&["store"], "storey"));
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
