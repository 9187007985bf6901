//! Shrinking a failing schedule, the way property-testing tools do (QuickCheck, Hypothesis,
//! proptest): keep a smaller schedule whenever it still fails, until nothing smaller does.
//!
//! Two passes. First proptest's own value tree for the schedule drops faults and moves each
//! field towards its low end ([`super::schedule`]), asking [`Oracle::fails`] at every step.
//! Its list shrinker tries each removal once, before it shrinks the fields, so a fault that
//! became removable later would stay; the second pass removes faults one at a time until no
//! single removal still fails, which makes the result 1-minimal.

use proptest::strategy::ValueTree;

use super::Oracle;
use crate::scenario::Fault;

/// At most this many runs in proptest's pass: a schedule of a few faults shrinks in a few
/// hundred; the bound keeps a pathological one from running on.
pub const MAX_SHRINK_RUNS: u64 = 4_096;

/// How a shrink ended: the smallest failing schedule found, the runs it took, and whether it
/// finished (1-minimal) or was stopped part-way.
#[derive(Clone, Debug, PartialEq)]
pub struct Shrunk {
    /// The smallest failing schedule found.
    pub faults: Vec<Fault>,
    /// Runs spent shrinking.
    pub runs: u64,
    /// Whether the shrink ran to its end (1-minimal), not stopped by its caller.
    pub finished: bool,
}

/// Shrinks the failing schedule `tree` holds, asking `go_on` with the runs so far before each
/// run: the first time it says no, the shrink stops with the smallest failing schedule it had.
pub fn shrink(
    tree: &mut impl ValueTree<Value = Vec<Fault>>,
    oracle: &Oracle,
    go_on: &mut dyn FnMut(u64) -> bool,
) -> Shrunk {
    let mut best = tree.current();
    let mut runs = 0;
    if tree.simplify() {
        while runs < MAX_SHRINK_RUNS {
            if !go_on(runs) {
                return Shrunk {
                    faults: best,
                    runs,
                    finished: false,
                };
            }
            let candidate = tree.current();
            runs += 1;
            let more = if oracle.fails(&candidate) {
                best = candidate;
                tree.simplify()
            } else {
                tree.complicate()
            };
            if !more {
                break;
            }
        }
    }
    let mut shrunk = one_minimal(best, oracle, &mut |more| go_on(runs + more));
    shrunk.runs += runs;
    shrunk
}

/// Removes faults from the failing `faults` one at a time, keeping each removal that still
/// fails, until removing any single fault makes the run pass, asking `go_on` before each run
/// as [`shrink`] does.
pub fn one_minimal(
    mut faults: Vec<Fault>,
    oracle: &Oracle,
    go_on: &mut dyn FnMut(u64) -> bool,
) -> Shrunk {
    let mut runs = 0;
    let mut i = 0;
    while i < faults.len() {
        if !go_on(runs) {
            return Shrunk {
                faults,
                runs,
                finished: false,
            };
        }
        let mut without = faults.clone();
        without.remove(i);
        runs += 1;
        if oracle.fails(&without) {
            faults = without;
            i = 0;
        } else {
            i += 1;
        }
    }
    Shrunk {
        faults,
        runs,
        finished: true,
    }
}
