//! The sweep a bounded amount at a time: [`Sweep`] runs many seeds of a scenario and of the
//! same setup on every rung of the design ladder, a share per call ([`Sweep::advance`]). The
//! app calls it once a frame on the UI thread: the browser build has no threads, and a fixed
//! amount of work per frame keeps the window responsive there and on the desktop alike.

use super::Tally;
use crate::ladder::rung;
use crate::scenario::{Design, Scenario};

/// Work to do per frame, in engine events. A run costs about its handled events
/// ([`crate::trace::Trace::steps`]) plus a fixed share for setting up, recording and checking
/// it (`RUN_COST`, 100 events); measured that way the work per frame stays bounded whether a
/// scenario's runs are long or short — a few ms in an optimised build. Counting events, not
/// reading a clock, makes it the same on every platform.
pub const EVENTS_PER_FRAME: u64 = 40_000;

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

/// Many seeds of a scenario and of its ladder rungs, run a bounded amount at a time.
///
/// Seeds go round-robin over the rows (every row gets seed k before any gets seed k + 1), so a
/// sweep stopped half-way still compares the rows on the same seeds.
#[derive(Clone, Debug)]
pub struct Sweep {
    rows: Vec<Row>,
    first_seed: u64,
    seeds: u64,
    /// Index of the seed being run (0-based from `first_seed`), and the next row to run it on.
    next_seed: u64,
    next_row: usize,
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
        Sweep {
            rows: std::iter::once(this).chain(rungs).collect(),
            first_seed: scenario.seed,
            seeds,
            next_seed: 0,
            next_row: 0,
        }
    }

    /// Runs until the runs made cost `budget_events` (see [`EVENTS_PER_FRAME`]), or the sweep
    /// is done; at least one run if any is left.
    pub fn advance(&mut self, budget_events: u64) {
        let mut spent = 0;
        while !self.is_done() && spent < budget_events {
            let seed = self.first_seed.wrapping_add(self.next_seed);
            let row = &mut self.rows[self.next_row];
            if let Ok(scenario) = &row.scenario {
                let run = crate::judged(scenario, seed);
                row.tally.add(seed, run.events, &run.verdict, &run.price);
                spent += run.steps + RUN_COST;
            }
            self.next_row += 1;
            if self.next_row == self.rows.len() {
                self.next_row = 0;
                self.next_seed += 1;
            }
        }
    }

    /// Whether every seed has been run on every row.
    pub fn is_done(&self) -> bool {
        self.next_seed >= self.seeds
    }

    /// The fraction of runs made, from 0 to 1.
    pub fn progress(&self) -> f32 {
        if self.seeds == 0 {
            1.0
        } else {
            self.next_seed as f32 / self.seeds as f32
        }
    }

    /// Seeds run on every row so far.
    pub fn seeds_done(&self) -> u64 {
        self.next_seed.min(self.seeds)
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
            let run = crate::run(scenario, seed);
            tally.add(seed, run.events(), &run.verdict, &run.price);
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
    }
}
