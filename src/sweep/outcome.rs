//! [`Outcome`]: what a [`super::Tally`] counts of one run, as plain data. A sweep run off the
//! UI thread (the desktop's background thread, the web build's worker) hands its outcomes
//! back this way, and the page counts them exactly as if it had made the runs itself.

use serde::{Deserialize, Serialize};

use crate::Judged;
use crate::checker::{Kind, Price};

/// One run, as far as a tally cares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The run's seed.
    pub seed: u64,
    /// Events the run recorded ([`crate::Judged::events`]).
    pub events: u64,
    /// Queue events the engine handled ([`crate::Judged::steps`]): what the run cost.
    pub steps: u64,
    /// No `stale_write`, no `interleaved_writes` ([`Verdict::safe`]).
    pub safe: bool,
    /// No `stuck`, no `starved` ([`Verdict::live`]).
    pub live: bool,
    /// The kinds of violation the run reported: bit `i` stands for `Kind::ALL[i]`.
    kinds: u16,
    /// Where the engine's event budget cut the run short, true ms ([`Verdict::cut_short_at_ms`]).
    pub cut_short_at_ms: Option<u64>,
    /// What the lock cost in the run. Its `f64`s survive the trip through JSON bit for bit
    /// (serde_json's `float_roundtrip`), so a tally counted from outcomes that came by message
    /// is the one the worker would have counted.
    pub price: Price,
}

impl Outcome {
    /// The outcome of `run`, the run of `seed`.
    pub fn of(seed: u64, run: Judged) -> Outcome {
        let verdict = &run.verdict;
        let kinds = Kind::ALL
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
    pub fn has(&self, kind: Kind) -> bool {
        Kind::ALL
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
        let v = verdict(false, &[Kind::StaleWrite, Kind::Starved]);
        let outcome = Outcome::of(7, judged(v.clone(), Price::default()));
        for kind in Kind::ALL {
            assert_eq!(outcome.has(kind), v.has(kind), "{kind:?}");
        }
        assert!(!outcome.safe);
    }

    #[test]
    fn crosses_json_bit_for_bit() {
        let price = Price {
            latencies_ms: vec![3, 17, 17, 900],
            throughput_per_s: 0.1 + 0.2,
            availability: 1.0 / 3.0,
        };
        let outcome = Outcome::of(u64::MAX, judged(verdict(true, &[Kind::Overlap]), price));
        let back: Outcome =
            serde_json::from_str(&serde_json::to_string(&outcome).unwrap()).unwrap();
        assert_eq!(back, outcome);
        assert_eq!(back.price.availability.to_bits(), (1.0f64 / 3.0).to_bits());
    }
}
