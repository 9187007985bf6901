//! [`Outcome`]: what a [`super::Tally`] counts of one run, as plain data. A sweep run off the
//! UI thread (the desktop's background thread, the web build's worker) hands its outcomes
//! back this way, and the page counts them exactly as if it had made the runs itself.

use serde::{Deserialize, Serialize};

use crate::Judged;
use crate::checker::{Price, ViolationKind};

/// One run, as far as a tally cares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The run's seed.
    pub seed: u64,
    /// Events the run recorded ([`crate::Judged::events`]).
    pub events: u64,
    /// Queue events the engine handled ([`crate::Judged::steps`]): what the run cost.
    pub steps: u64,
    /// No `stale_write`, no `interleaved_writes` ([`crate::checker::Verdict::safe`]).
    pub safe: bool,
    /// No `stuck`, no `starved` ([`crate::checker::Verdict::live`]).
    pub live: bool,
    /// The kinds of violation the run reported: bit `i` stands for `ViolationKind::ALL[i]`.
    kinds: u16,
    /// Where the engine's event budget cut the run short, true ms ([`crate::checker::Verdict::cut_short_at_ms`]).
    pub cut_short_at_ms: Option<u64>,
    /// What the lock cost in the run. The app's background job sends it in a format that
    /// keeps its `f64`s bit for bit, so a tally counted from outcomes that came by message is
    /// the one the worker would have counted.
    pub price: Price,
}

impl Outcome {
    /// The outcome of `run`, the run of `seed`.
    pub fn of(seed: u64, run: Judged) -> Outcome {
        let verdict = &run.verdict;
        let kinds = ViolationKind::ALL
            .iter()
            .enumerate()
            .filter(|(_, kind)| verdict.has(**kind))
            .fold(0, |bits, (i, _)| bits | 1 << i);
        Outcome {
            seed,
            events: run.events,
            steps: run.steps,
            safe: verdict.safe,
            live: verdict.live,
            kinds,
            cut_short_at_ms: verdict.cut_short_at_ms,
            price: run.price,
        }
    }

    /// Whether the run reported a violation of `kind`.
    pub fn has(&self, kind: ViolationKind) -> bool {
        ViolationKind::ALL
            .iter()
            .position(|k| *k == kind)
            .is_some_and(|i| self.kinds & 1 << i != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Verdict;
    use crate::testkit::verdict;

    fn judged(verdict: Verdict, price: Price) -> Judged {
        Judged {
            verdict,
            price,
            events: 40,
            steps: 50,
        }
    }

    #[test]
    fn keeps_every_kind_the_verdict_has_and_no_other() {
        let v = verdict(false, &[ViolationKind::StaleWrite, ViolationKind::Starved]);
        let outcome = Outcome::of(7, judged(v.clone(), Price::default()));
        for kind in ViolationKind::ALL {
            assert_eq!(outcome.has(kind), v.has(kind), "{kind:?}");
        }
        assert!(!outcome.safe);
    }
}
