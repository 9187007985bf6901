//! [`Tally`]: how often each kind of violation appeared over many runs. One count for every
//! front end: `locksim check` prints it (as a table, or as its `--json` document) and the app's
//! "Across seeds" panel draws it.

use serde::{Serialize, Serializer};

use crate::checker::{Kind, Verdict};

/// Counts over many runs. Serialises as `locksim check --json`'s document: `runs`, `safe`,
/// `live`, `events`, `cut_short`, `interrupted`, then `kinds`, an object keyed by kind name in
/// [`Kind::ALL`] order (safety first) with `runs` and `first_seed` for each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tally {
    runs: u64,
    safe: u64,
    live: u64,
    /// Events recorded over every run (the sum of `run --json`'s `stats.events`).
    events: u64,
    /// Runs the engine's event budget cut short: judged only up to where they stopped.
    cut_short: u64,
    /// The sweep was stopped before its last seed: the counts are of the runs done.
    interrupted: bool,
    kinds: KindCounts,
    /// The first seed that was unsafe or not live: the run to look at first.
    #[serde(skip)]
    first_failing: Option<u64>,
    /// The first seed cut short, and where it stopped (true ms).
    #[serde(skip)]
    first_cut: Option<(u64, u64)>,
}

/// One entry per checker kind, in [`Kind::ALL`] order.
#[derive(Clone, Debug, PartialEq, Eq)]
struct KindCounts([(Kind, KindCount); Kind::ALL.len()]);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
struct KindCount {
    /// Runs that reported this kind at least once.
    runs: u64,
    first_seed: Option<u64>,
}

impl Serialize for KindCounts {
    /// A JSON object keyed by kind name, in safety-first order rather than alphabetical.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(kind, count)| (kind.as_str(), count)))
    }
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            runs: 0,
            safe: 0,
            live: 0,
            events: 0,
            cut_short: 0,
            interrupted: false,
            kinds: KindCounts(Kind::ALL.map(|k| (k, KindCount::default()))),
            first_failing: None,
            first_cut: None,
        }
    }
}

impl Tally {
    /// Counts one run of `seed` that recorded `events` events and got `verdict`.
    pub fn add(&mut self, seed: u64, events: u64, verdict: &Verdict) {
        self.runs += 1;
        self.safe += u64::from(verdict.safe);
        self.live += u64::from(verdict.live);
        self.events += events;
        if let Some(at) = verdict.cut_short_at_ms {
            self.cut_short += 1;
            self.first_cut.get_or_insert((seed, at));
        }
        if !(verdict.safe && verdict.live) {
            self.first_failing.get_or_insert(seed);
        }
        for (kind, count) in &mut self.kinds.0 {
            if verdict.has(*kind) {
                count.runs += 1;
                count.first_seed.get_or_insert(seed);
            }
        }
    }

    /// Marks the tally as stopped before its last seed.
    pub fn interrupt(&mut self) {
        self.interrupted = true;
    }

    /// Runs counted.
    pub fn runs(&self) -> u64 {
        self.runs
    }

    /// Runs with no `stale_write` and no `interleaved_writes`.
    pub fn safe(&self) -> u64 {
        self.safe
    }

    /// Runs with no `stuck` and no `starved`.
    pub fn live(&self) -> u64 {
        self.live
    }

    /// Events recorded over every run counted.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Runs the engine's event budget cut short.
    pub fn cut_short(&self) -> u64 {
        self.cut_short
    }

    /// Whether the sweep was stopped before its last seed.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// Whether every run counted was safe and live.
    pub fn all_safe_and_live(&self) -> bool {
        self.safe == self.runs && self.live == self.runs
    }

    /// Runs that reported `kind`.
    pub fn count(&self, kind: Kind) -> u64 {
        self.entry(kind).runs
    }

    /// The first seed whose run reported `kind`.
    pub fn first_seed(&self, kind: Kind) -> Option<u64> {
        self.entry(kind).first_seed
    }

    /// The first seed whose run was unsafe or not live.
    pub fn first_failing(&self) -> Option<u64> {
        self.first_failing
    }

    /// The first seed cut short, and the true time it stopped at (simulated ms).
    pub fn first_cut(&self) -> Option<(u64, u64)> {
        self.first_cut
    }

    /// `n` runs as a percentage of all runs (0 when there were none).
    pub fn percent(&self, n: u64) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            100.0 * n as f64 / self.runs as f64
        }
    }

    fn entry(&self, kind: Kind) -> KindCount {
        self.kinds
            .0
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or_else(KindCount::default, |(_, count)| *count)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::testkit::verdict;

    /// Four runs, seeds 5 to 8: two unsafe with `stale_write`, two with `overlap`.
    pub(crate) fn four_runs() -> Tally {
        let mut tally = Tally::default();
        tally.add(5, 100, &verdict(true, &[Kind::Overlap]));
        tally.add(6, 120, &verdict(false, &[Kind::Overlap, Kind::StaleWrite]));
        tally.add(7, 90, &verdict(true, &[]));
        tally.add(8, 110, &verdict(false, &[Kind::StaleWrite]));
        tally
    }

    #[test]
    fn counts_runs_per_kind_and_the_first_seed() {
        let tally = four_runs();
        assert_eq!(tally.count(Kind::StaleWrite), 2);
        assert_eq!(tally.first_seed(Kind::StaleWrite), Some(6));
        assert_eq!(tally.first_seed(Kind::Stuck), None);
        assert_eq!(tally.first_failing(), Some(6));
        assert!(!tally.all_safe_and_live());
        assert_eq!(tally.percent(tally.safe()), 50.0);
        assert_eq!(Tally::default().percent(0), 0.0);
    }

    #[test]
    fn serialises_as_the_check_document() {
        let json = serde_json::to_value(four_runs()).unwrap();
        assert_eq!(json["runs"], 4);
        assert_eq!(json["safe"], 2);
        assert_eq!(json["live"], 4);
        assert_eq!(json["events"], 420);
        assert_eq!(json["cut_short"], 0);
        assert_eq!(json["interrupted"], false);
        assert_eq!(
            json["kinds"]["stale_write"],
            serde_json::json!({"runs": 2, "first_seed": 6})
        );
        assert_eq!(
            json["kinds"]["overlap"],
            serde_json::json!({"runs": 2, "first_seed": 5})
        );
        assert_eq!(
            json["kinds"]["stuck"],
            serde_json::json!({"runs": 0, "first_seed": null})
        );
        let text = serde_json::to_string(&four_runs()).unwrap();
        let at: Vec<usize> = Kind::ALL
            .iter()
            .map(|k| text.find(&format!("\"{}\"", k.as_str())).unwrap())
            .collect();
        assert!(at.is_sorted(), "kinds in safety-first order: {text}");
    }

    #[test]
    fn runs_cut_short_are_counted_with_the_first() {
        let mut tally = four_runs();
        let mut cut = verdict(true, &[]);
        cut.cut_short_at_ms = Some(1_311_968);
        tally.add(9, 10_430_275, &cut);
        tally.add(10, 10_000_000, &cut);
        assert_eq!(tally.cut_short(), 2);
        assert_eq!(tally.events(), 20_430_695);
        assert_eq!(tally.first_cut(), Some((9, 1_311_968)));
    }
}
