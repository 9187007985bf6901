//! The sweep a bounded amount at a time: [`Sweep`] runs many seeds of a scenario and of the
//! same setup on every rung of the design ladder, a batch of runs per call. The batch can be
//! run where the sweep is ([`Sweep::advance`]) or elsewhere: the app runs it off the UI
//! thread (a background thread on the desktop, a Web Worker in the browser) with its own copy
//! of the sweep ([`Sweep::run_next`]), and the page counts the outcomes that come back in
//! its copy ([`Sweep::count`]). Both copies walk the seeds in the same order, so they agree.

use super::{Outcome, Tally};
use crate::ladder::rung;
use crate::scenario::{Design, Scenario};

/// Work per batch, in engine events. A run costs about its handled events
/// ([`crate::trace::Trace::steps`]) plus a fixed share for setting up and checking it
/// ([`RUN_COST`]); measured that way a batch stays a few ms of work whether a scenario's runs
/// are long or short, so progress reaches the page often and a cancelled sweep stops soon.
/// Counting events, not reading a clock, makes the batches the same on every platform.
pub const EVENTS_PER_BATCH: u64 = 40_000;

/// The fixed cost of one run, in events: in a debug build a run of 34 events took as long as
/// about 100 events of a long run.
pub const RUN_COST: u64 = 100;

/// One line of the comparison: what was run, and what came out.
#[derive(Clone, Debug)]
pub struct Row {
    /// "this scenario", or the rung's name.
    pub label: String,
    /// The scenario run on this line, or why it cannot be.
    pub scenario: Result<Scenario, String>,
    /// What its runs so far reported.
    pub tally: Tally,
}

/// Where a sweep stands: the index of the seed being run (0-based from the first seed) and
/// the row to run it on next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cursor {
    seed: u64,
    row: usize,
}

/// Many seeds of a scenario and of its ladder rungs, run a bounded amount at a time.
///
/// Seeds go round-robin over the rows (every row gets seed k before any gets seed k + 1), so a
/// sweep stopped half-way still compares the rows on the same seeds. Rows that cannot run are
/// passed over.
#[derive(Clone, Debug)]
pub struct Sweep {
    rows: Vec<Row>,
    first_seed: u64,
    seeds: u64,
    /// The next run due: always on a row that runs, or past the last seed.
    next: Cursor,
}

impl Sweep {
    /// `seeds` seeds from `scenario.seed` on, for `scenario` and each rung of the ladder
    /// ([`rung`]).
    pub fn new(scenario: &Scenario, seeds: u64) -> Sweep {
        let this = Row {
            label: "this scenario".to_string(),
            scenario: scenario
                .validate()
                .map(|()| scenario.clone())
                .map_err(|e| e.to_string()),
            tally: Tally::default(),
        };
        let rungs = Design::ALL.map(|design| Row {
            label: design.as_str().to_string(),
            scenario: rung(scenario, design),
            tally: Tally::default(),
        });
        let mut sweep = Sweep {
            rows: std::iter::once(this).chain(rungs).collect(),
            first_seed: scenario.seed,
            seeds,
            next: Cursor { seed: 0, row: 0 },
        };
        sweep.next = sweep.settled(sweep.next);
        sweep
    }

    /// `at`, or the first run due after it on a row that runs.
    fn settled(&self, mut at: Cursor) -> Cursor {
        if !self.rows.iter().any(|row| row.scenario.is_ok()) {
            return Cursor {
                seed: self.seeds,
                row: 0,
            };
        }
        while at.seed < self.seeds && self.rows[at.row].scenario.is_err() {
            at = self.after(at);
        }
        at
    }

    /// The run after `at`, whether its row runs or not.
    fn after(&self, at: Cursor) -> Cursor {
        if at.row + 1 == self.rows.len() {
            Cursor {
                seed: at.seed + 1,
                row: 0,
            }
        } else {
            Cursor {
                row: at.row + 1,
                ..at
            }
        }
    }

    /// Makes the runs due next until they cost `budget_events` (see [`EVENTS_PER_BATCH`]) or
    /// the sweep would be done — at least one if any is left — and returns each with its row,
    /// in order, without counting them: [`Sweep::count`] does that, here or in another copy of
    /// this sweep.
    pub fn run_next(&self, budget_events: u64) -> Vec<(usize, Outcome)> {
        let mut batch = Vec::new();
        let mut spent = 0;
        let mut at = self.next;
        while at.seed < self.seeds && spent < budget_events {
            if let Ok(scenario) = &self.rows[at.row].scenario {
                let seed = self.first_seed.wrapping_add(at.seed);
                let outcome = Outcome::of(seed, crate::judged(scenario, seed));
                spent += outcome.steps + RUN_COST;
                batch.push((at.row, outcome));
            }
            at = self.settled(self.after(at));
        }
        batch
    }

    /// Counts a batch from [`Sweep::run_next`] of this sweep or of a copy made by
    /// [`Sweep::new`] with the same arguments, in the order made.
    ///
    /// # Errors
    /// A run that is not the one due next (a batch counted twice, or from another sweep) is
    /// refused, and it and the rest of the batch are left uncounted.
    pub fn count(&mut self, batch: &[(usize, Outcome)]) -> Result<(), String> {
        for (row, outcome) in batch {
            let due = self.first_seed.wrapping_add(self.next.seed);
            if self.is_done() || *row != self.next.row || outcome.seed != due {
                return Err(format!(
                    "run of seed {} on row {row} came when seed {due} on row {} was due",
                    outcome.seed, self.next.row
                ));
            }
            self.rows[*row].tally.add(outcome);
            self.next = self.settled(self.after(self.next));
        }
        Ok(())
    }

    /// Runs and counts the runs due next until they cost `budget_events`, or the sweep is
    /// done; at least one run if any is left.
    pub fn advance(&mut self, budget_events: u64) {
        let batch = self.run_next(budget_events);
        self.count(&batch)
            .expect("a sweep's own batch is the one due");
    }

    /// Whether every seed has been run on every row.
    pub fn is_done(&self) -> bool {
        self.next.seed >= self.seeds
    }

    /// The fraction of runs made, from 0 to 1.
    pub fn progress(&self) -> f32 {
        if self.seeds == 0 {
            1.0
        } else {
            self.next.seed.min(self.seeds) as f32 / self.seeds as f32
        }
    }

    /// Seeds run on every row so far.
    pub fn seeds_done(&self) -> u64 {
        self.next.seed.min(self.seeds)
    }

    /// Seeds run on at least one row so far: [`Self::seeds_done`], plus the seed the rows are
    /// part-way through. The first row's count of runs, which the app's headline gives.
    pub fn seeds_begun(&self) -> u64 {
        (self.next.seed + u64::from(self.next.row > 0)).min(self.seeds)
    }

    /// Seeds the sweep was asked to run.
    pub fn seeds(&self) -> u64 {
        self.seeds
    }

    /// The rows: this scenario first, then the rungs bottom to top.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::library::shipped;

    /// The plain loop the sweep must agree with.
    fn straight(scenario: &Scenario, seeds: u64) -> Tally {
        let mut tally = Tally::default();
        for i in 0..seeds {
            let seed = scenario.seed + i;
            let run = crate::Judged::from(crate::run(scenario, seed));
            tally.add(&Outcome::of(seed, run));
        }
        tally
    }

    #[test]
    fn the_sweep_counts_what_a_straight_loop_counts() {
        let s = shipped("scenarios/step7-retry-starves.toml");
        let mut sweep = Sweep::new(&s, 12);
        let mut frames = 0;
        while !sweep.is_done() {
            // A small budget: every frame ends part-way through a seed's rows.
            sweep.advance(500);
            frames += 1;
        }
        assert!(frames > 6, "the work was spread over {frames} frames");
        for row in sweep.rows() {
            let scenario = row.scenario.as_ref().expect("every rung runs");
            assert_eq!(row.tally, straight(scenario, 12), "row {}", row.label);
            assert_eq!(row.tally.runs(), 12);
        }
    }

    #[test]
    fn a_stopped_sweep_has_run_every_row_on_the_same_seeds() {
        let s = shipped("scenarios/step5-pause-unfenced.toml");
        let mut sweep = Sweep::new(&s, 100);
        sweep.advance(1);
        sweep.advance(1);
        let runs: Vec<u64> = sweep.rows().iter().map(|r| r.tally.runs()).collect();
        assert_eq!(runs, vec![1, 1, 0, 0, 0, 0]);
        assert!(!sweep.is_done());
        assert_eq!(sweep.seeds_done(), 0, "seed 0 is not done on every row yet");
        assert_eq!(sweep.seeds_begun(), 1, "as many as the first row's runs");
    }

    #[test]
    fn a_copy_counting_the_batches_run_elsewhere_agrees_with_the_sweep_that_ran_them() {
        let s = shipped("scenarios/step5-pause-unfenced.toml");
        let mut elsewhere = Sweep::new(&s, 30);
        let mut here = Sweep::new(&s, 30);
        while !elsewhere.is_done() {
            let batch = elsewhere.run_next(3_000);
            elsewhere.count(&batch).unwrap();
            here.count(&batch).unwrap();
            assert_eq!(here.seeds_done(), elsewhere.seeds_done());
        }
        assert!(here.is_done());
        for (a, b) in here.rows().iter().zip(elsewhere.rows()) {
            assert_eq!(a.tally, b.tally, "row {}", a.label);
        }
    }

    #[test]
    fn a_batch_counted_twice_is_refused() {
        let s = shipped("scenarios/step5-pause-unfenced.toml");
        let mut sweep = Sweep::new(&s, 5);
        let batch = sweep.run_next(1);
        sweep.count(&batch).unwrap();
        let err = sweep.count(&batch).unwrap_err();
        assert!(
            err.contains("seed 1 on row 0 came when seed 1 on row 1"),
            "{err}"
        );
        assert_eq!(sweep.rows()[0].tally.runs(), 1);
    }
}
