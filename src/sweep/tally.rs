//! [`Tally`]: how often each kind of violation appeared over many runs. One count for every
//! front end: `locksim check` prints it (as a table, or as its `--json` document) and the app's
//! "Across seeds" panel draws it, with what the lock cost beside what went wrong.

use serde::{Serialize, Serializer};

use super::Outcome;
use super::latency::Latencies;
use crate::checker::ViolationKind;

/// Counts over many runs. Serialises as `locksim check --json`'s document: `runs`, `safe`,
/// `live`, `events`, `cut_short`, `interrupted`, then `kinds`, an object keyed by kind name in
/// [`ViolationKind::ALL`] order (safety first) with `runs` and `first_seed` for each; then the price
/// ([`crate::checker::Price`]): `latency_ms` (`p50`, `p99`), `throughput_per_s` (3 decimals) and
/// `availability` (4 decimals).
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    /// The acquire latency of every acquisition of every run counted, for its percentiles
    /// over all of them.
    latency_ms: Latencies,
    /// Critical sections finished per simulated second: the mean of the runs'.
    #[serde(serialize_with = "three_decimals")]
    throughput_per_s: Mean,
    /// The share of time the lock was available: the mean of the runs'.
    #[serde(serialize_with = "four_decimals")]
    availability: Mean,
    /// The first seed that was unsafe or not live: the run to look at first.
    #[serde(skip)]
    first_failing: Option<u64>,
    /// Runs that were safe although the lock misbehaved in them (overlap, double grant,
    /// foreign release): the resource turned the bad writes away.
    #[serde(skip)]
    safe_though_misbehaved: u64,
    /// The first seed cut short, and where it stopped (true ms).
    #[serde(skip)]
    first_cut: Option<(u64, u64)>,
}

/// One entry per checker kind, in [`ViolationKind::ALL`] order.
#[derive(Clone, Debug, PartialEq, Eq)]
struct KindCounts([(ViolationKind, KindCount); ViolationKind::ALL.len()]);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
struct KindCount {
    /// Runs that reported this kind at least once.
    runs: u64,
    first_seed: Option<u64>,
}

/// A mean over runs, summed in the order the runs are counted (seed order), so it comes out
/// the same bits whatever the number of threads.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Mean {
    sum: f64,
    runs: u64,
}

impl Mean {
    fn add(&mut self, x: f64) {
        self.sum += x;
        self.runs += 1;
    }

    /// The mean; 0 over no runs.
    fn get(&self) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            self.sum / self.runs as f64
        }
    }
}

/// A mean to 3 decimals: what a reader compares, without float noise.
fn three_decimals<S: Serializer>(mean: &Mean, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((mean.get() * 1e3).round() / 1e3)
}

/// A mean to 4 decimals (a share: hundredths of a percent).
fn four_decimals<S: Serializer>(mean: &Mean, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((mean.get() * 1e4).round() / 1e4)
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
            kinds: KindCounts(ViolationKind::ALL.map(|k| (k, KindCount::default()))),
            latency_ms: Latencies::default(),
            throughput_per_s: Mean::default(),
            availability: Mean::default(),
            first_failing: None,
            safe_though_misbehaved: 0,
            first_cut: None,
        }
    }
}

impl Tally {
    /// Counts one run.
    pub fn add(&mut self, run: &Outcome) {
        let (seed, price) = (run.seed, &run.price);
        self.runs += 1;
        self.safe += u64::from(run.safe);
        self.live += u64::from(run.live);
        self.events += run.events;
        if let Some(at) = run.cut_short_at_ms {
            self.cut_short += 1;
            self.first_cut.get_or_insert((seed, at));
        }
        if !(run.safe && run.live) {
            self.first_failing.get_or_insert(seed);
        }
        let misbehaved = ViolationKind::ALL
            .into_iter()
            .any(|k| k.is_lock_misbehaviour() && run.has(k));
        self.safe_though_misbehaved += u64::from(run.safe && misbehaved);
        for (kind, count) in &mut self.kinds.0 {
            if run.has(*kind) {
                count.runs += 1;
                count.first_seed.get_or_insert(seed);
            }
        }
        for &ms in &price.latencies_ms {
            self.latency_ms.add(ms);
        }
        self.throughput_per_s.add(price.throughput_per_s);
        self.availability.add(price.availability);
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

    /// Runs that were safe although the lock misbehaved in them (an overlap, a double grant
    /// or a foreign release): the resource turned every bad write away.
    pub fn safe_though_misbehaved(&self) -> u64 {
        self.safe_though_misbehaved
    }

    /// Runs that reported `kind`.
    pub fn count(&self, kind: ViolationKind) -> u64 {
        self.entry(kind).runs
    }

    /// The first seed whose run reported `kind`.
    pub fn first_seed(&self, kind: ViolationKind) -> Option<u64> {
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

    /// The `pct`-th percentile (0 to 100) of the acquire latency over every acquisition of
    /// every run, simulated ms (exact below 64 ms, at most 3 % low above); `None`: none came through.
    pub fn latency_percentile_ms(&self, pct: u64) -> Option<u64> {
        self.latency_ms.percentile_ms(pct)
    }

    /// Acquisitions that came through, over every run.
    pub fn acquisitions(&self) -> u64 {
        self.latency_ms.count()
    }

    /// Critical sections finished per simulated second, the mean of the runs' (0: no runs).
    pub fn throughput_per_s(&self) -> f64 {
        self.throughput_per_s.get()
    }

    /// The share of time (0 to 1) the lock was available ([`crate::checker::Price::availability`]), the mean
    /// of the runs' (0: no runs).
    pub fn availability(&self) -> f64 {
        self.availability.get()
    }

    /// `n` runs as a percentage of all runs (0 when there were none).
    pub fn percent(&self, n: u64) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            100.0 * n as f64 / self.runs as f64
        }
    }

    fn entry(&self, kind: ViolationKind) -> KindCount {
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
    use crate::checker::{Price, Verdict};
    use crate::testkit::{outcome, verdict};

    fn add(tally: &mut Tally, seed: u64, events: u64, v: &Verdict) {
        tally.add(&outcome(seed, events, v, Price::default()));
    }

    /// Four runs, seeds 5 to 8: two unsafe with `stale_write`, two with `overlap`.
    pub(crate) fn four_runs() -> Tally {
        let mut tally = Tally::default();
        add(
            &mut tally,
            5,
            100,
            &verdict(true, &[ViolationKind::Overlap]),
        );
        add(
            &mut tally,
            6,
            120,
            &verdict(false, &[ViolationKind::Overlap, ViolationKind::StaleWrite]),
        );
        add(&mut tally, 7, 90, &verdict(true, &[]));
        add(
            &mut tally,
            8,
            110,
            &verdict(false, &[ViolationKind::StaleWrite]),
        );
        tally
    }

    #[test]
    fn counts_the_safe_runs_in_which_the_lock_misbehaved() {
        let mut t = Tally::default();
        let runs = [
            verdict(true, &[ViolationKind::Overlap]),
            verdict(false, &[ViolationKind::Overlap, ViolationKind::StaleWrite]),
            verdict(true, &[]),
            verdict(true, &[ViolationKind::Starved]),
        ];
        for (seed, v) in runs.iter().enumerate() {
            t.add(&outcome(seed as u64, 1, v, Default::default()));
        }
        assert_eq!(t.safe(), 3);
        assert_eq!(t.safe_though_misbehaved(), 1, "starving is not misbehaving");
    }

    #[test]
    fn counts_runs_per_kind_and_the_first_seed() {
        let tally = four_runs();
        assert_eq!(tally.count(ViolationKind::StaleWrite), 2);
        assert_eq!(tally.first_seed(ViolationKind::StaleWrite), Some(6));
        assert_eq!(tally.first_seed(ViolationKind::Stuck), None);
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
        let at: Vec<usize> = ViolationKind::ALL
            .iter()
            .map(|k| text.find(&format!("\"{}\"", k.as_str())).unwrap())
            .collect();
        assert!(at.is_sorted(), "kinds in safety-first order: {text}");
    }

    #[test]
    fn the_price_follows_the_kinds_latency_over_every_acquisition_the_rest_per_run() {
        let mut tally = Tally::default();
        let price = |latencies_ms: Vec<u64>, throughput_per_s, availability| Price {
            latencies_ms,
            throughput_per_s,
            availability,
        };
        tally.add(&outcome(
            1,
            10,
            &verdict(true, &[]),
            price(vec![3, 4], 0.5, 1.0),
        ));
        tally.add(&outcome(
            2,
            10,
            &verdict(true, &[]),
            price(vec![5, 900], 0.25, 0.5),
        ));
        assert_eq!(tally.acquisitions(), 4);
        assert_eq!(tally.latency_percentile_ms(50), Some(4));
        assert_eq!(
            tally.latency_percentile_ms(99),
            Some(896),
            "900 ms, to 1/32"
        );
        assert_eq!(tally.throughput_per_s(), 0.375);
        assert_eq!(tally.availability(), 0.75);
        let text = serde_json::to_string(&tally).unwrap();
        assert!(
            text.ends_with(
                r#"},"latency_ms":{"p50":4,"p99":896},"throughput_per_s":0.375,"availability":0.75}"#
            ),
            "{text}"
        );
        let none = serde_json::to_string(&Tally::default()).unwrap();
        assert!(
            none.ends_with(
                r#""latency_ms":{"p50":null,"p99":null},"throughput_per_s":0.0,"availability":0.0}"#
            ),
            "{none}"
        );
    }

    #[test]
    fn runs_cut_short_are_counted_with_the_first() {
        let mut tally = four_runs();
        let mut cut = verdict(true, &[]);
        cut.cut_short_at_ms = Some(1_311_968);
        add(&mut tally, 9, 10_430_275, &cut);
        add(&mut tally, 10, 10_000_000, &cut);
        assert_eq!(tally.cut_short(), 2);
        assert_eq!(tally.events(), 20_430_695);
        assert_eq!(tally.first_cut(), Some((9, 1_311_968)));
    }
}
