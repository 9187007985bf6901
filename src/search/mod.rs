//! Find a failure: a counterexample search over fault schedules, which shrinks what it finds
//! and tells it as numbered steps.
//!
//! Given a scenario and a budget (at most N faults per schedule, at most T schedules), the
//! search draws random fault schedules ([`schedule`]), adds each to the scenario's own
//! `[[fault]]` list, runs it with [`crate::judged()`] on the scenario's seed, and stops at the
//! first run the checker calls unsafe (or, with [`Goal::NotLive`], not live). Then it shrinks
//! the schedule ([`shrink`]) to one where removing any single fault makes the run pass, and
//! [`narrate()`] tells that run from its trace.
//!
//! Generation and shrinking are proptest's strategies and value trees, driven here with a
//! fixed ChaCha seed and no persistence, so the same scenario and search seed give the same
//! counterexample on every platform (proptest is built without `std`, whose OS entropy source
//! does not build for `wasm32-unknown-unknown`). A search that finds nothing is evidence, not
//! proof: it tried only the schedules it drew.

pub mod budget;
pub mod narrate;
pub mod schedule;
pub mod shrink;

use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde::{Deserialize, Serialize};

use crate::checker::Verdict;
use crate::scenario::{Fault, Scenario};
use crate::{Judged, Run, judged, run};

pub use budget::Budget;
pub use narrate::{headline, narrate};
pub use schedule::Space;

/// What counts as a failure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goal {
    /// The protected data went wrong: the verdict is not `safe`.
    #[default]
    Unsafe,
    /// The lock stopped being usable: the verdict is not `live`.
    NotLive,
}

/// The search's budget and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// At most this many faults in a drawn schedule (besides the scenario's own).
    pub faults: usize,
    /// At most this many schedules drawn.
    pub tries: u64,
    /// Seed of the search's own random choices; each run uses the scenario's `seed`.
    pub seed: u64,
    /// What the search looks for.
    pub goal: Goal,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            faults: 3,
            tries: 10_000,
            seed: 0,
            goal: Goal::Unsafe,
        }
    }
}

/// A failing run, shrunk.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// The faults added to the scenario's own, in time order: 1-minimal (removing any one of
    /// them makes the run pass).
    pub faults: Vec<Fault>,
    /// How many faults the schedule drawn first had.
    pub drawn: usize,
    /// Runs spent shrinking.
    pub shrink_runs: u64,
    /// The scenario with its own faults and the added ones, its `[expect]` the verdict of its
    /// run ([`Verdict::expectation`]): a complete file's worth, which `verify` passes.
    pub scenario: Scenario,
    /// Its run: trace and verdict.
    pub run: Run,
}

impl Counterexample {
    /// The counterexample a search of `scenario` for `goal` reports when it has shrunk the
    /// schedule it drew first (`drawn` faults) to `faults` in `shrink_runs` runs: the
    /// scenario with them added, and its run, made again. The runs are deterministic, so a
    /// search made elsewhere (the app's background job) is told as if made here.
    pub fn remade(
        scenario: &Scenario,
        goal: Goal,
        faults: Vec<Fault>,
        drawn: usize,
        shrink_runs: u64,
    ) -> Counterexample {
        counterexample(&Oracle::new(scenario, goal), faults, drawn, shrink_runs)
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Schedules drawn and run, the one that failed included (0 when the scenario failed
    /// without added faults).
    pub tries: u64,
    /// The shrunk counterexample, if a run failed within the budget.
    pub found: Option<Counterexample>,
    /// Whether the caller stopped the search before its budget ran out (see
    /// [`search_until`]); `tries` then counts the schedules run before it stopped. With
    /// `found`, it was stopped while shrinking: that schedule fails but may not be 1-minimal.
    pub interrupted: bool,
}

/// Says whether a schedule added to the scenario fails.
pub struct Oracle<'s> {
    scenario: &'s Scenario,
    goal: Goal,
}

impl<'s> Oracle<'s> {
    /// An oracle of schedules added to `scenario`'s own faults.
    pub fn new(scenario: &'s Scenario, goal: Goal) -> Self {
        Oracle { scenario, goal }
    }

    /// The scenario with `faults` added after its own, all in time order (a stable sort, so
    /// faults at the same instant keep their order).
    pub fn with(&self, faults: &[Fault]) -> Scenario {
        let mut scenario = self.scenario.clone();
        scenario.faults.extend(faults.iter().cloned());
        crate::order::sort_by_key(&mut scenario.faults, |f| f.at_ms);
        scenario
    }

    /// Runs the scenario with `faults` added, on its own seed, only to judge it
    /// ([`crate::judged`]): the one run a search shows is its counterexample's.
    pub fn run(&self, faults: &[Fault]) -> Judged {
        let scenario = self.with(faults);
        judged(&scenario, scenario.seed)
    }

    /// Whether a run with `verdict` is a failure this oracle looks for.
    pub fn failed(&self, verdict: &Verdict) -> bool {
        match self.goal {
            Goal::Unsafe => !verdict.safe,
            Goal::NotLive => !verdict.live,
        }
    }

    /// Whether the scenario with `faults` added fails.
    pub fn fails(&self, faults: &[Fault]) -> bool {
        self.failed(&self.run(faults).verdict)
    }
}

/// Searches `scenario` for a failing fault schedule within `options`' budget and shrinks the
/// first one found. Deterministic: the same scenario and options give the same outcome.
pub fn search(scenario: &Scenario, options: &Options) -> Finding {
    search_until(scenario, options, |_| true)
}

/// Where a search is when it asks whether to go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Drawing schedules.
    Searching {
        /// Schedules run so far.
        tries: u64,
    },
    /// Shrinking the failing schedule just drawn.
    Shrinking {
        /// Schedules run so far, the failing one included.
        tries: u64,
        /// Shrink runs so far.
        runs: u64,
    },
}

/// [`search`], asking `go_on` before each schedule and before each shrink run, where it is;
/// it stops, with [`Finding::interrupted`] set, the first time `go_on` says no. Stopped while
/// shrinking, it reports the failing schedule as far as it was shrunk. A front end shows
/// progress and honours a cancel from there (a run is bounded by the engine's budget, so
/// `go_on` is asked often).
pub fn search_until(
    scenario: &Scenario,
    options: &Options,
    mut go_on: impl FnMut(Stage) -> bool,
) -> Finding {
    let mut searcher = Searcher::new(scenario, *options);
    loop {
        if let Some(outcome) = searcher.outcome() {
            return outcome.clone();
        }
        if searcher.started()
            && !go_on(Stage::Searching {
                tries: searcher.tries(),
            })
        {
            return searcher.stop();
        }
        searcher.step_until(&mut go_on);
    }
}

/// A search a schedule at a time, for a caller that reports progress as it goes: the app's
/// background job calls [`Searcher::advance`] a batch at a time and tells the page how far it
/// got, like [`crate::sweep::Sweep`]. The outcome is the one [`search`] gives.
pub struct Searcher {
    scenario: Scenario,
    options: Options,
    strategy: BoxedStrategy<Vec<Fault>>,
    runner: TestRunner,
    /// Whether the scenario has been run as it is, before any schedule.
    started: bool,
    tries: u64,
    outcome: Option<Finding>,
}

impl Searcher {
    /// A search of `scenario` within `options`' budget; nothing runs until [`Searcher::step`].
    pub fn new(scenario: &Scenario, options: Options) -> Self {
        Searcher {
            strategy: Space::of(scenario).schedules(options.faults),
            runner: runner(options.seed),
            scenario: scenario.clone(),
            options,
            started: false,
            tries: 0,
            outcome: None,
        }
    }

    /// Runs the scenario as it is (the first call) or the next schedule, shrinking it if it
    /// fails. Returns the engine steps it cost ([`crate::trace::Trace::steps`]), shrinking
    /// included; 0 once the search is over.
    pub fn step(&mut self) -> u64 {
        self.step_until(&mut |_| true)
    }

    /// [`Searcher::step`], asking `go_on` before each shrink run; stopped, the search is over,
    /// [`Finding::interrupted`], with the failing schedule as far as it was shrunk.
    pub fn step_until(&mut self, go_on: &mut dyn FnMut(Stage) -> bool) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        let oracle = Oracle::new(&self.scenario, self.options.goal);
        if !self.started {
            self.started = true;
            let run = oracle.run(&[]);
            let cost = run.steps;
            if oracle.failed(&run.verdict) {
                self.finish(Some(counterexample(&oracle, Vec::new(), 0, 0)));
            } else if self.options.faults == 0 || self.options.tries == 0 {
                self.finish(None);
            }
            return cost;
        }
        self.tries += 1;
        let mut cost = 0;
        if let Ok(mut tree) = self.strategy.new_tree(&mut self.runner) {
            let drawn = tree.current();
            let run = oracle.run(&drawn);
            cost = run.steps;
            if oracle.failed(&run.verdict) {
                let tries = self.tries;
                let shrunk = shrink::shrink(&mut tree, &oracle, &mut |runs| {
                    go_on(Stage::Shrinking { tries, runs })
                });
                // Each shrink run costs about as much as the one that failed.
                cost = cost.saturating_mul(shrunk.runs + 1);
                self.finish(Some(counterexample(
                    &oracle,
                    shrunk.faults,
                    drawn.len(),
                    shrunk.runs,
                )));
                if !shrunk.finished
                    && let Some(outcome) = &mut self.outcome
                {
                    outcome.interrupted = true;
                }
                return cost;
            }
        }
        if self.tries >= self.options.tries {
            self.finish(None);
        }
        cost
    }

    /// Runs schedules until they cost `budget_events` engine steps or the search is over; at
    /// least one if any is left.
    pub fn advance(&mut self, budget_events: u64) {
        let mut spent = 0;
        while self.outcome.is_none() && spent < budget_events {
            // A run costs its steps plus a fixed share for setting up and checking it.
            spent += self.step() + crate::sweep::RUN_COST;
        }
    }

    /// Whether the scenario has been run as it is.
    pub fn started(&self) -> bool {
        self.started
    }

    /// Schedules run so far.
    pub fn tries(&self) -> u64 {
        self.tries
    }

    /// The budget it searches within.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The scenario it searches.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Schedules run as a share of the budget, 0 to 1 (1 once the search is over).
    pub fn progress(&self) -> f32 {
        if self.outcome.is_some() || self.options.tries == 0 {
            1.0
        } else {
            (self.tries as f64 / self.options.tries as f64) as f32
        }
    }

    /// What it found, once the search is over.
    pub fn outcome(&self) -> Option<&Finding> {
        self.outcome.as_ref()
    }

    /// Ends the search where it is: its outcome, [`Finding::interrupted`] if it was not over.
    pub fn stop(self) -> Finding {
        let tries = self.tries;
        self.outcome.unwrap_or(Finding {
            tries,
            found: None,
            interrupted: true,
        })
    }

    fn finish(&mut self, found: Option<Counterexample>) {
        self.outcome = Some(Finding {
            tries: self.tries,
            found,
            interrupted: false,
        });
    }
}

/// proptest's runner with its ChaCha generator seeded from `seed` alone. Only the generator
/// matters: the schedules' strategies neither filter nor size collections by the config.
pub(crate) fn runner(seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    TestRunner::new_with_rng(Config::default(), rng)
}

fn counterexample(
    oracle: &Oracle,
    faults: Vec<Fault>,
    drawn: usize,
    shrink_runs: u64,
) -> Counterexample {
    let mut faults = faults;
    crate::order::sort_by_key(&mut faults, |f| f.at_ms);
    // The file's name, `[expect]` and description were written for its own faults, not for
    // the ones found; the saved file expects the verdict its run gets, so `verify` keeps it.
    let setup = oracle.with(&faults);
    let mut scenario = Scenario {
        expect: None,
        name: format!("Failure found by search in: {}", setup.name),
        description: format!(
            "Found by locksim search: the setup of \"{}\" with the faults below, the smallest \
             schedule that still fails.",
            setup.name
        ),
        ..setup
    };
    let run = run(&scenario, scenario.seed);
    scenario.expect = Some(run.verdict.expectation());
    Counterexample {
        faults,
        drawn,
        shrink_runs,
        scenario,
        run,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::FaultKind;
    use crate::scenario::library::COURSE;
    use crate::violation::ViolationKind;

    /// A shipped course scenario, with its `[[fault]]` tables removed when `bare`.
    fn course(file: &str, bare: bool) -> Scenario {
        let (_, src) = COURSE
            .iter()
            .find(|(name, _)| *name == file)
            .unwrap_or_else(|| panic!("{file} is not in the course"));
        let mut scenario = crate::scenario::parse(src).expect("a shipped scenario is valid");
        if bare {
            scenario.faults.clear();
        }
        scenario
    }

    #[test]
    fn a_redlock_without_its_faults_fails_again_with_a_double_grant_in_three_faults_or_fewer() {
        let scenario = course("step6-redlock-clock-jump.toml", true);
        assert!(scenario.faults.is_empty());
        let outcome = search(&scenario, &Options::default());
        let found = outcome
            .found
            .expect("a failing schedule within 10 000 tries");
        assert!(outcome.tries >= 1 && outcome.tries <= 10_000);
        assert!(!found.faults.is_empty() && found.faults.len() <= 3);
        assert!(found.drawn >= found.faults.len());
        assert!(!found.run.verdict.safe);
        assert!(
            found.run.has(ViolationKind::DoubleGrant),
            "{:?}",
            found.run.verdict
        );
        assert_eq!(found.scenario.faults, found.faults);
        assert_eq!(
            found.scenario.expect,
            Some(found.run.verdict.expectation()),
            "the saved file expects the verdict its run gets"
        );
        let story = narrate(&found.scenario, &found.run);
        assert!(story[0].starts_with("1. at "), "{story:?}");
        let last = story.last().expect("a story");
        assert!(
            found
                .run
                .verdict
                .violations
                .last()
                .is_some_and(|v| last.ends_with(&v.explanation)),
            "{last}"
        );
    }

    /// Fencing only the writes stops a stale write, not a read-modify-write that straddles two
    /// grants: a holder frozen past its lease writes (its token still the highest seen) after
    /// the next holder has read, so one update overwrites the other.
    #[test]
    fn fencing_only_the_writes_still_lets_two_updates_interleave() {
        let scenario = course("step5-fenced-writes-only.toml", true);
        let outcome = search(&scenario, &Options::default());
        let found = outcome.found.expect("a pause past the lease");
        assert_eq!(found.faults.len(), 1);
        assert!(matches!(
            found.faults[0].kind,
            FaultKind::Pause { .. } | FaultKind::Stall { .. }
        ));
        assert!(found.run.has(ViolationKind::InterleavedWrites));
        assert!(!found.run.has(ViolationKind::StaleWrite));
    }

    #[test]
    fn the_fenced_lock_survives_ten_thousand_schedules() {
        let scenario = course("step5-fencing-token.toml", true);
        let outcome = search(&scenario, &Options::default());
        assert!(
            outcome.found.is_none(),
            "{:?}",
            outcome.found.map(|f| f.faults)
        );
        assert_eq!(outcome.tries, 10_000);
    }

    #[test]
    fn a_search_in_slices_finds_what_the_whole_search_finds() {
        let scenario = course("step6-redlock-clock-jump.toml", true);
        let whole = search(&scenario, &Options::default());
        let mut searcher = Searcher::new(&scenario, Options::default());
        let mut slices = 0;
        while searcher.outcome().is_none() {
            searcher.advance(2_000);
            slices += 1;
        }
        assert!(slices > 1, "the budget split the search");
        let sliced = searcher.stop();
        assert_eq!(sliced.tries, whole.tries);
        assert_eq!(
            sliced.found.map(|f| f.faults),
            whole.found.map(|f| f.faults)
        );
    }

    #[test]
    fn a_stopped_search_says_it_was_interrupted_and_how_far_it_got() {
        let scenario = course("step5-fencing-token.toml", true);
        let mut searcher = Searcher::new(&scenario, Options::default());
        searcher.advance(5_000);
        let tries = searcher.tries();
        assert!(tries > 0 && tries < 10_000);
        assert!(searcher.progress() > 0.0 && searcher.progress() < 1.0);
        let outcome = searcher.stop();
        assert!(outcome.interrupted && outcome.found.is_none());
        assert_eq!(outcome.tries, tries);
    }

    #[test]
    fn a_search_stopped_while_shrinking_gives_the_failing_schedule_so_far() {
        let scenario = course("step5-pause-unfenced.toml", true);
        let options = Options {
            seed: 7,
            ..Options::default()
        };
        let whole = search(&scenario, &options);
        let mut asked = Vec::new();
        let stopped = search_until(&scenario, &options, |stage| {
            asked.push(stage);
            !matches!(stage, Stage::Shrinking { runs: 3, .. })
        });
        assert!(stopped.interrupted);
        assert_eq!(stopped.tries, whole.tries);
        let found = stopped.found.as_ref().expect("the failing schedule");
        assert_eq!(found.shrink_runs, 3);
        assert!(
            !found.run.verdict.safe,
            "the schedule as far as it was shrunk still fails"
        );
        let shrinking = asked
            .iter()
            .filter(|s| matches!(s, Stage::Shrinking { .. }))
            .count();
        assert_eq!(shrinking, 4, "asked before each shrink run: {asked:?}");
        let story = headline(Goal::Unsafe, &stopped, "by Ctrl-C ");
        assert!(
            story.contains("stopped by Ctrl-C while shrinking it, after 3 runs"),
            "{story}"
        );
    }

    #[test]
    fn the_same_seed_finds_the_same_counterexample() {
        let scenario = course("step5-pause-unfenced.toml", true);
        let options = Options {
            seed: 7,
            ..Options::default()
        };
        let first = search(&scenario, &options);
        let again = search(&scenario, &options);
        assert_eq!(first.tries, again.tries);
        let faults = |o: &Finding| o.found.as_ref().map(|f| f.faults.clone());
        assert!(faults(&first).is_some());
        assert_eq!(faults(&first), faults(&again));
    }

    #[test]
    fn a_scenario_that_already_fails_is_its_own_counterexample() {
        let scenario = course("step5-pause-unfenced.toml", false);
        let outcome = search(&scenario, &Options::default());
        assert_eq!(outcome.tries, 0);
        let found = outcome.found.expect("the scenario fails as shipped");
        assert!(found.faults.is_empty());
        assert_eq!(found.scenario.faults, scenario.faults);
    }

    #[test]
    fn nothing_to_add_and_nothing_failing_is_nothing_found() {
        let scenario = course("step5-fencing-token.toml", true);
        let options = Options {
            faults: 0,
            ..Options::default()
        };
        let outcome = search(&scenario, &options);
        assert_eq!(outcome.tries, 0);
        assert!(outcome.found.is_none());
    }

    /// Bare course scenarios the properties search: a flaw of each kind of store.
    const FLAWED: [&str; 4] = [
        "step5-pause-unfenced.toml",
        "step6-redlock-clock-jump.toml",
        "step6-async-failover.toml",
        "step4-blind-release.toml",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 12,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        })]

        /// Every shrunk counterexample still fails, and removing any one of its faults makes
        /// the run pass (1-minimality).
        #[test]
        fn every_counterexample_fails_and_is_one_minimal(
            file in proptest::sample::select(&FLAWED[..]),
            seed in proptest::prelude::any::<u64>(),
            live in proptest::prelude::any::<bool>(),
        ) {
            let scenario = course(file, true);
            let goal = if live { Goal::NotLive } else { Goal::Unsafe };
            let options = Options { faults: 3, tries: 300, seed, goal };
            let oracle = Oracle::new(&scenario, goal);
            if let Some(found) = search(&scenario, &options).found {
                proptest::prop_assert!(oracle.failed(&found.run.verdict));
                proptest::prop_assert!(oracle.fails(&found.faults));
                for i in 0..found.faults.len() {
                    let mut without = found.faults.clone();
                    without.remove(i);
                    proptest::prop_assert!(!oracle.fails(&without), "{file}: fault {i} of {:?}", found.faults);
                }
            }
        }

        /// Every drawn schedule makes a scenario that validates: the search never runs what a
        /// file could not say.
        #[test]
        fn drawn_schedules_are_valid_scenarios(
            file in proptest::sample::select(&FLAWED[..]),
            seed in proptest::prelude::any::<u64>(),
        ) {
            let scenario = course(file, true);
            let strategy = Space::of(&scenario).schedules(5);
            let mut runner = runner(seed);
            for _ in 0..50 {
                let faults = strategy.new_tree(&mut runner).expect("no filters").current();
                let with = Oracle::new(&scenario, Goal::Unsafe).with(&faults);
                proptest::prop_assert!(with.validate().is_ok(), "{:?}: {:?}", faults, with.validate());
            }
        }
    }
}
