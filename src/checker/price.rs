//! What the lock cost in one run: not a violation, a measurement. Safety is what a rung buys;
//! its price is how long a worker waits for the lock, how many critical sections get done,
//! and how much of the time a worker that wants the lock is kept from it.
//!
//! All three are read from the workers' side of the trace — what a user of the lock feels —
//! with the checker's facts ([`Facts`]): each worker's waits and the time it was off (paused,
//! stalled or crashed).

use super::Work;
use super::facts::{Facts, merged};
use crate::order;
use crate::trace::{KeyId, Trace};

/// The price of the lock in one run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Price {
    /// Acquire latency of every acquisition that came through, sorted, simulated ms: from the
    /// worker's first request (`AcquireStarted`) to its `Acquired`, counting every failed
    /// attempt, back-off and place in a queue between — how long the caller of `lock()`
    /// waited. Time the worker itself was paused meanwhile counts too: its caller waited
    /// through it. A wait the horizon cut is not an acquisition and is left out.
    pub latencies_ms: Vec<u64>,
    /// Critical sections finished per simulated second ([`Work::per_s`]).
    pub throughput_per_s: f64,
    /// The share of simulated time, 0 to 1, that the lock was not kept from a worker that
    /// wanted it. A moment counts against it when, on some key, a running worker (not paused,
    /// stalled or crashed) is waiting for the lock and no running worker believes it holds
    /// it (from `Acquired` to `LetGo`): the lock sits with a paused or dead holder until its
    /// lease runs out, a store without a majority grants nothing, or a free lock waits for a
    /// retry's back-off. Time a holder works, or nobody asks, counts for it. 1 for a run of
    /// no simulated time.
    pub availability: f64,
}

impl Price {
    /// The price of `trace`'s lock, from the checker's facts and the work it counted.
    pub(super) fn of(trace: &Trace, facts: &Facts, work: &Work) -> Price {
        let mut latencies_ms: Vec<u64> = facts
            .waits
            .iter()
            .filter(|w| w.acquired)
            .map(|w| w.end_ms.saturating_sub(w.start_ms))
            .collect();
        order::sort(&mut latencies_ms);
        let until = trace.simulated_until_ms();
        let availability = if until == 0 {
            1.0
        } else {
            1.0 - kept_from_lock_ms(trace, facts, until) as f64 / until as f64
        };
        Price {
            latencies_ms,
            throughput_per_s: work.per_s(),
            availability,
        }
    }

    /// The `pct`-th percentile (0 to 100) of the acquire latencies, by nearest rank: the
    /// smallest latency at least `pct` % of them are no longer than; `None` when no
    /// acquisition came through.
    pub fn latency_percentile_ms(&self, pct: u64) -> Option<u64> {
        let n = self.latencies_ms.len() as u64;
        let rank = nearest_rank(pct, n)?;
        self.latencies_ms.get(rank as usize - 1).copied()
    }
}

/// The 1-based rank of the `pct`-th percentile (0 to 100) of `n` sorted values, by nearest
/// rank; `None` when there are none.
pub fn nearest_rank(pct: u64, n: u64) -> Option<u64> {
    (n > 0).then(|| (pct.min(100) * n).div_ceil(100).clamp(1, n))
}

/// Simulated ms in `[0, until)` during which, on some key, a running worker waited for the
/// lock and no running worker held it.
fn kept_from_lock_ms(trace: &Trace, facts: &Facts, until: u64) -> u64 {
    let off = |worker: crate::trace::NodeId| {
        facts
            .nodes
            .get(worker.index())
            .map_or(&[][..], |n| n.off.as_slice())
    };
    let mut gaps = Vec::new();
    for key in KeyId::all(trace.keys.len()) {
        let mut asking = Vec::new();
        for w in facts.waits.iter().filter(|w| w.key == key) {
            asking.extend(running(w.start_ms, w.end_ms.min(until), off(w.worker)));
        }
        if asking.is_empty() {
            continue;
        }
        let mut holding = Vec::new();
        for t in facts.tokens.iter().filter(|t| t.key == key) {
            if let Some(acquired) = t.acquired {
                let end = t.let_go_ms.unwrap_or(until).min(until);
                holding.extend(running(acquired.at_ms, end, off(t.token.worker)));
            }
        }
        gaps.extend(without(&merged(asking), &merged(holding)));
    }
    merged(gaps).iter().map(|(s, e)| e - s).sum()
}

/// The parts of `[start, end)` outside the sorted, disjoint stretches `off`.
fn running(start: u64, end: u64, off: &[(u64, u64)]) -> Vec<(u64, u64)> {
    without(&[(start, end)], off)
}

/// The parts of the sorted, disjoint stretches `from` outside the sorted, disjoint `cut`.
fn without(from: &[(u64, u64)], cut: &[(u64, u64)]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for &(start, end) in from {
        let mut at = start;
        for &(a, b) in cut.iter().filter(|(a, b)| *b > start && *a < end) {
            if a > at {
                out.push((at, a));
            }
            at = at.max(b);
        }
        if at < end {
            out.push((at, end));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::judge;
    use crate::scenario::ResourceMode;
    use crate::scenario::library::shipped;
    use crate::testkit::{TraceBuilder, scenario};
    use crate::trace::EventKind;

    fn price(t: &TraceBuilder) -> Price {
        judge(&scenario(ResourceMode::Plain), &t.build()).1
    }

    #[test]
    fn latency_runs_from_the_first_request_to_acquired_counting_retries() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b1, b2) = (t.tok("A", 1), t.tok("B", 1), t.tok("B", 2));
        t.started(0, a)
            .acquired(4, a)
            .started(10, b1)
            .failed(14, b1)
            .started(64, b2)
            .let_go(2_000, a)
            .acquired(2_070, b2)
            .let_go(4_000, b2);
        let p = price(&t);
        assert_eq!(p.latencies_ms, vec![4, 2_060]);
        assert_eq!(p.latency_percentile_ms(50), Some(4));
        assert_eq!(p.latency_percentile_ms(99), Some(2_060));
        assert_eq!(p.throughput_per_s, 0.5, "two sections in 4 s");
        // A's first 4 ms of asking, and B's from 2 000 to 2 070 ms, found nobody holding it.
        assert_eq!(p.availability, 1.0 - 74.0 / 20_000.0);
    }

    #[test]
    fn a_wait_cut_by_the_horizon_is_no_acquisition() {
        let mut t = TraceBuilder::single(&["A"]);
        let a = t.tok("A", 1);
        t.started(19_000, a);
        let p = price(&t);
        assert!(p.latencies_ms.is_empty());
        assert_eq!(p.latency_percentile_ms(50), None);
        assert_eq!(p.availability, 1.0 - 1_000.0 / 20_000.0);
    }

    #[test]
    fn a_paused_holder_keeps_the_lock_from_a_running_waiter() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.started(0, a)
            .acquired(2, a)
            .on(1_000, "A", EventKind::Paused { for_ms: 15_000 })
            .started(3_000, b)
            .acquired(10_000, b)
            .let_go(12_000, b)
            .on(16_000, "A", EventKind::Resumed)
            .let_go(16_001, a);
        let p = price(&t);
        assert_eq!(p.latencies_ms, vec![2, 7_000]);
        // B waited 3 000 to 10 000 ms while the only holder was paused (A's first 2 ms, too).
        assert_eq!(p.availability, 1.0 - 7_002.0 / 20_000.0);
    }

    #[test]
    fn a_paused_waiter_is_not_asking() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.started(0, b)
            .on(0, "B", EventKind::Paused { for_ms: 5_000 })
            .on(5_000, "B", EventKind::Resumed)
            .acquired(5_010, b)
            .started(5_000, a)
            .acquired(6_000, a);
        let p = price(&t);
        assert_eq!(p.latencies_ms, vec![1_000, 5_010]);
        // Only B's 10 running ms of asking find the lock with nobody.
        assert_eq!(p.availability, 1.0 - 10.0 / 20_000.0);
    }

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!(nearest_rank(50, 0), None);
        assert_eq!(nearest_rank(50, 1), Some(1));
        assert_eq!(nearest_rank(50, 4), Some(2));
        assert_eq!(nearest_rank(99, 4), Some(4));
        assert_eq!(nearest_rank(0, 4), Some(1));
        assert_eq!(nearest_rank(100, 200), Some(200));
        assert_eq!(nearest_rank(99, 200), Some(198));
    }

    fn shipped_price(path: &str) -> Price {
        let s = shipped(path);
        crate::run(&s, s.seed).price
    }

    #[test]
    fn consensus_costs_latency_a_single_store_does_not() {
        let single = shipped_price("scenarios/step6-single-store-down.toml");
        let consensus = shipped_price("scenarios/step6-consensus-failover.toml");
        assert!(
            consensus.latency_percentile_ms(50) > single.latency_percentile_ms(50),
            "consensus {consensus:?} vs single {single:?}"
        );
    }

    #[test]
    fn record_locks_get_more_done_than_a_table_lock() {
        let record = shipped_price("scenarios/step7-record-locks.toml");
        let table = shipped_price("scenarios/step7-table-lock.toml");
        assert!(
            record.throughput_per_s > table.throughput_per_s,
            "record {record:?} vs table {table:?}"
        );
    }

    #[test]
    fn a_paused_holder_costs_availability() {
        // A pauses for 12 s holding a 10 s lease; B asks from 1 500 ms on.
        let paused = shipped_price("scenarios/step8-leader-by-lock.toml");
        assert!(paused.availability < 0.9, "{paused:?}");
        assert!(paused.availability > 0.0, "{paused:?}");
    }
}
