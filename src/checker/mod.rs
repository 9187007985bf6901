//! The checker: reads a trace with ground truth and names what went wrong (ARCHITECTURE.md, "The checker's names").
//!
//! Pure: no I/O, no clock. Each kind of violation has one function in its own module. The
//! trace is read once ([`facts`]), store-held periods and grant order are derived from that
//! ([`grants`]), and every check then works on small per-token vectors.

mod danger;
mod expect;
mod explain;
mod facts;
mod grants;
mod liveness;
mod overlap;
mod price;
mod writes;

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use serde::Serialize;

pub use crate::violation::ViolationKind;
pub use danger::{Exercised, Moment, exercised};
pub use price::{Price, nearest_rank};

use crate::order;
use crate::scenario::{ResourceMode, Scenario};
use crate::trace::{EventKind, KeyId, LetGoReason, NodeId, Token, Trace};

/// One thing that went wrong.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Violation {
    /// Which property it breaks.
    pub kind: ViolationKind,
    /// True time at which it happened (became true), ms.
    pub at_ms: u64,
    /// Nodes involved (workers, store nodes), sorted, no repeats.
    pub nodes: Vec<NodeId>,
    /// Grants involved (their owner tokens).
    pub grants: Vec<Token>,
    /// One sentence a student can read.
    pub explanation: String,
}

/// The checker's answer for one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// No `stale_write`, no `interleaved_writes`: the protected data stayed correct.
    pub safe: bool,
    /// No `stuck`, no `starved`.
    pub live: bool,
    /// Sorted by time, then kind, then grants.
    pub violations: Vec<Violation>,
    /// `Some(t)` when the engine's event budget cut the run short at true time `t` (ms):
    /// nothing from `t` on was simulated, so liveness was judged only up to `t`.
    pub cut_short_at_ms: Option<u64>,
    /// Violations found beyond the first [`MAX_KEPT_PER_KIND`] of a kind, counted but not
    /// kept: (kind, how many more), in [`ViolationKind::ALL`] order, kinds with none left out.
    pub more: Vec<(ViolationKind, u64)>,
    /// The work the lock let through: its price in throughput, not a violation.
    pub work: Work,
}

/// Critical sections finished in a run: a worker did its work and released the lock
/// (`LetGo` with reason `released`). A contended lock serialises them, so a lock that covers
/// more than it must shows here as a lower rate, not as a safety or liveness failure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Work {
    /// Critical sections finished.
    pub completed: u64,
    /// When the last one finished, true ms (`None`: none did).
    pub last_done_ms: Option<u64>,
    /// Critical sections the resource refused part-way (a fenced-off read or write, or a
    /// version that moved): begun, never completed. With fencing, this is what a stale holder
    /// costs: lost work, not corrupted data.
    pub refused: u64,
}

impl Work {
    /// Critical sections finished per simulated second, from time 0 to the last one; 0 when
    /// none finished.
    pub fn per_s(&self) -> f64 {
        match self.last_done_ms {
            Some(t) if t > 0 => self.completed as f64 * 1000.0 / t as f64,
            _ => 0.0,
        }
    }

    /// Counts the finished critical sections of `trace`.
    pub fn of(trace: &Trace) -> Work {
        let mut work = Work::default();
        for e in &trace.events {
            work.count(e.at_ms, &e.kind);
        }
        work
    }

    /// Counts `kind`, at true time `at_ms`, if it finished a critical section.
    fn count(&mut self, at_ms: u64, kind: &EventKind) {
        match kind {
            EventKind::LetGo {
                reason: LetGoReason::Released,
                ..
            } => {
                self.completed += 1;
                self.last_done_ms = Some(at_ms);
            }
            EventKind::LetGo {
                reason: LetGoReason::Rejected | LetGoReason::ReadRejected,
                ..
            } => self.refused += 1,
            _ => {}
        }
    }
}

/// Violations kept per kind: the earliest ones. 64 workers on a `flag` lock overlap in
/// hundreds of thousands of pairs; a person reads the first few, and the rest are counted, so
/// memory and output stay bounded whatever the scenario.
pub const MAX_KEPT_PER_KIND: usize = 100;

/// Collects violations as the checks find them: per kind, the [`MAX_KEPT_PER_KIND`] earliest
/// (by time, then grants), and a count of all.
#[derive(Default)]
pub(crate) struct Found {
    /// Per kind (index in [`ViolationKind::ALL`]), a max-heap of those kept: the latest on top, to go
    /// when an earlier one comes.
    kept: [BinaryHeap<Ranked>; ViolationKind::ALL.len()],
    total: [u64; ViolationKind::ALL.len()],
}

impl Found {
    pub(crate) fn push(&mut self, v: Violation) {
        let i = ViolationKind::ALL
            .iter()
            .position(|&k| k == v.kind)
            .unwrap_or(0);
        self.total[i] += 1;
        let heap = &mut self.kept[i];
        heap.push(Ranked(v));
        if heap.len() > MAX_KEPT_PER_KIND {
            heap.pop();
        }
    }

    /// Every violation kept, sorted by time, then kind, then grants; and the counts of the rest.
    fn finish(self) -> (Vec<Violation>, Vec<(ViolationKind, u64)>) {
        let mut more = Vec::new();
        let mut violations = Vec::new();
        for ((kind, heap), total) in ViolationKind::ALL.iter().zip(self.kept).zip(self.total) {
            if total > heap.len() as u64 {
                more.push((*kind, total - heap.len() as u64));
            }
            violations.extend(heap.into_iter().map(|r| r.0));
        }
        order::sort_by(&mut violations, |a, b| {
            (a.at_ms, a.kind)
                .cmp(&(b.at_ms, b.kind))
                .then_with(|| a.grants.cmp(&b.grants))
        });
        (violations, more)
    }
}

/// A violation ordered by when it happened, then its grants, nodes and text: a total order,
/// so which ones are kept never depends on the order the checks found them.
struct Ranked(Violation);

impl Ranked {
    fn rank(&self) -> (u64, &[Token], &[NodeId], &str) {
        let v = &self.0;
        (v.at_ms, &v.grants, &v.nodes, &v.explanation)
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.rank() == other.rank()
    }
}

impl Eq for Ranked {}

impl Verdict {
    /// How many violations of `kind` were found, kept or not.
    pub fn count(&self, kind: ViolationKind) -> u64 {
        let kept = self.violations.iter().filter(|v| v.kind == kind).count() as u64;
        kept + self
            .more
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|(_, n)| n)
            .sum::<u64>()
    }

    /// Whether at least one violation of `kind` was found.
    pub fn has(&self, kind: ViolationKind) -> bool {
        self.violations.iter().any(|v| v.kind == kind)
    }

    /// Whether the lock itself misbehaved (`overlap`, `double_grant`, `foreign_release`),
    /// whatever reached the resource.
    pub fn lock_misbehaved(&self) -> bool {
        self.violations
            .iter()
            .any(|v| v.kind.is_lock_misbehaviour())
    }
}

/// Checks a trace. `scenario` supplies thresholds (`check.starve_after_ms`) and the resource
/// mode (only in `plain` mode are resource-level violations reported: see [`writes`]); the
/// store topology is
/// read from the trace. A run cut short by the engine's event budget is judged only up to the
/// cut ([`Trace::simulated_until_ms`]). Never panics, whatever the trace holds.
pub fn check(scenario: &Scenario, trace: &Trace) -> Verdict {
    judge(scenario, trace).0
}

/// Checks a trace as [`check`] does, and measures what the lock cost in it ([`Price`]) from
/// the same facts. The price stays beside the verdict, not in it: a verdict says what went
/// wrong, and its JSON is what `run --json` prints and the determinism hashes pin.
pub fn judge(scenario: &Scenario, trace: &Trace) -> (Verdict, Price) {
    let facts = facts::Facts::gather(trace);
    judge_facts(scenario, trace, &facts, Work::of(trace))
}

/// The checker fed a run's events one at a time, as the engine records them, so a run made
/// only to be judged never keeps its trace (`locksim check`, the sweeps, the search). Its
/// state is the facts the checks read (per token, per lease, per write), not the events.
/// Gives the verdict and price [`judge`] gives on the whole trace.
pub struct Stream {
    gatherer: facts::Gatherer,
    work: Work,
    events: usize,
}

impl Stream {
    /// A checker for the run whose trace, before it starts, is `trace` (nodes, keys, horizon;
    /// no events).
    pub fn new(trace: &Trace) -> Stream {
        Stream {
            // Seqs from the engine count real attempts: every one gets a dense number.
            gatherer: facts::Gatherer::new(trace, usize::MAX),
            work: Work::default(),
            events: 0,
        }
    }

    /// Reads the run's next event, given as its parts: `kind` at `node`, true time `at_ms`
    /// (what the engine hands a recorder, so the event is never copied whole).
    pub fn happened(&mut self, at_ms: u64, node: NodeId, kind: &EventKind) {
        self.gatherer.event(self.events, at_ms, node, kind);
        self.work.count(at_ms, kind);
        self.events += 1;
    }

    /// Events read so far.
    pub fn events(&self) -> u64 {
        self.events as u64
    }

    /// The verdict and price of the run, given its trace as it ended (`trace`'s events are not
    /// read). `None` when the event budget cut the run short: a lease with no expiry lasts to
    /// the horizon, which the pass could only assume was the scenario's, so such a run must
    /// be judged from its recorded trace ([`judge`]).
    pub fn finish(self, scenario: &Scenario, trace: &Trace) -> Option<(Verdict, Price)> {
        if trace.cut_short_at_ms.is_some() {
            return None;
        }
        let facts = self.gatherer.finish();
        Some(judge_facts(scenario, trace, &facts, self.work))
    }

    /// [`Stream::finish`], and the dangers the run went through ([`exercised`]), given the
    /// run's [`Moment`]s in order.
    pub fn finish_exercised(
        self,
        scenario: &Scenario,
        trace: &Trace,
        moments: &[Moment],
    ) -> Option<(Verdict, Price, Exercised)> {
        if trace.cut_short_at_ms.is_some() {
            return None;
        }
        let facts = self.gatherer.finish();
        let exercised = danger::exercised_from(&facts, trace.simulated_until_ms(), moments);
        let (verdict, price) = judge_facts(scenario, trace, &facts, self.work);
        Some((verdict, price, exercised))
    }
}

/// [`judge`] from the facts of `trace`'s events and the work they counted.
fn judge_facts(
    scenario: &Scenario,
    trace: &Trace,
    facts: &facts::Facts,
    work: Work,
) -> (Verdict, Price) {
    let grants = grants::Grants::compute(trace, facts);
    let mut violations = Found::default();
    if scenario.resource.mode == ResourceMode::Plain {
        writes::stale_write(trace, facts, &grants, &mut violations);
        writes::interleaved_writes(trace, facts, &mut violations);
    }
    overlap::overlap(trace, facts, &mut violations);
    grants::double_grant(trace, facts, &grants, &mut violations);
    grants::foreign_release(trace, facts, &mut violations);
    liveness::stuck(trace, facts, &mut violations);
    liveness::starved(
        trace,
        facts,
        scenario.check.starve_after_ms,
        &mut violations,
    );
    let (violations, more) = violations.finish();
    let price = Price::of(trace, facts, &work);
    let verdict = Verdict {
        safe: !violations.iter().any(|v| v.kind.breaks_safety()),
        live: !violations.iter().any(|v| v.kind.breaks_liveness()),
        violations,
        cut_short_at_ms: trace.cut_short_at_ms,
        more,
        work,
    };
    (verdict, price)
}

/// Calls `found(earlier, later)` once for every two items of `items` (sorted by key, then
/// start) on the same key whose spans overlap: `a.start < b.end && b.start < a.end`, true ms.
/// For non-empty half-open intervals the later start is the first instant of the overlap, so
/// a pair is found at its earliest instant. Linear in items times those still open.
fn for_overlapping<T: Copy>(
    items: &[T],
    span: impl Fn(T) -> (KeyId, u64, u64),
    mut found: impl FnMut(T, T),
) {
    let mut open: Vec<T> = Vec::new();
    for &b in items {
        let (key, start, end) = span(b);
        // Sorted by start: what ended by now cannot overlap this item or any later one.
        open.retain(|&a| {
            let (akey, _, aend) = span(a);
            akey == key && aend > start
        });
        for &a in &open {
            let (_, astart, _) = span(a);
            if astart < end {
                found(a, b);
            }
        }
        open.push(b);
    }
}

#[cfg(test)]
mod tests {
    use super::{Stream, ViolationKind, check, judge};
    use crate::scenario::{ResourceMode, Topology};
    use crate::testkit::{TraceBuilder, scenario};
    use crate::trace::{EventKind, KeyId, NodeId, Token, Trace};

    /// The trace before its run, as the engine hands it to a [`Stream`]: no events, not cut.
    fn before_the_run(trace: &crate::trace::Trace) -> crate::trace::Trace {
        crate::trace::Trace {
            events: Vec::new(),
            cut_short_at_ms: None,
            ..trace.clone()
        }
    }

    #[test]
    fn a_stream_of_events_is_judged_as_the_whole_trace_is_unless_the_run_was_cut_short() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        t.started(0, a)
            .granted(1, 1, a, None)
            .acquired(2, a)
            .started(3, b)
            .granted(4, 1, b, Some(1_000))
            .acquired(5, b)
            .write(6, a)
            .write(7, b);
        let sc = scenario(ResourceMode::Plain);
        for cut in [false, true] {
            if cut {
                t.cut_short(10);
            }
            let trace = t.build();
            let mut stream = Stream::new(&before_the_run(&trace));
            for e in &trace.events {
                stream.happened(e.at_ms, e.node, &e.kind);
            }
            assert_eq!(stream.events(), trace.events.len() as u64);
            let streamed = stream.finish(
                &sc,
                &Trace {
                    events: Vec::new(),
                    ..trace.clone()
                },
            );
            if cut {
                assert!(streamed.is_none(), "a run cut short needs its trace");
            } else {
                assert_eq!(streamed, Some(judge(&sc, &trace)));
            }
        }
    }

    #[test]
    fn violations_are_sorted_by_time_then_kind() {
        let mut t = TraceBuilder::single(&["A", "B"]);
        let (a, b) = (t.tok("A", 1), t.tok("B", 1));
        // A's lease ran out at 1 000 ms while it was paused; B got the lock; A woke, wrote.
        t.started(0, a)
            .granted(1, 1, a, Some(1_000))
            .acquired(2, a)
            .read(3, a)
            .on(10, "A", EventKind::Paused { for_ms: 5_000 })
            .started(1_500, b)
            .granted(1_501, 1, b, None)
            .acquired(1_502, b)
            .read(1_503, b)
            .write(1_600, b)
            .on(5_010, "A", EventKind::Resumed)
            .write(5_011, a)
            .let_go(5_012, a)
            .removed(5_013, 1, b, a);
        let v = t.check();
        let got: Vec<(u64, ViolationKind)> =
            v.violations.iter().map(|x| (x.at_ms, x.kind)).collect();
        assert_eq!(
            got,
            vec![
                (1_502, ViolationKind::Overlap),
                // A's write, from its read before B's write, is where both go wrong.
                (5_011, ViolationKind::StaleWrite),
                (5_011, ViolationKind::InterleavedWrites),
                (5_013, ViolationKind::ForeignRelease),
            ]
        );
        assert!(!v.safe);
        assert!(v.live);
    }

    #[test]
    fn only_the_earliest_of_a_kind_are_kept_and_the_rest_counted() {
        use super::{Found, MAX_KEPT_PER_KIND, Violation};
        let mut found = Found::default();
        let total = MAX_KEPT_PER_KIND as u64 * 3 + 7;
        // Latest first, so keeping the first ones found would keep the wrong ones.
        for at_ms in (0..total).rev() {
            found.push(Violation {
                kind: ViolationKind::ForeignRelease,
                at_ms,
                nodes: Vec::new(),
                grants: Vec::new(),
                explanation: String::new(),
            });
        }
        found.push(Violation {
            kind: ViolationKind::Stuck,
            at_ms: 5,
            nodes: Vec::new(),
            grants: Vec::new(),
            explanation: String::new(),
        });
        let (kept, more) = found.finish();
        let releases: Vec<u64> = kept
            .iter()
            .filter(|v| v.kind == ViolationKind::ForeignRelease)
            .map(|v| v.at_ms)
            .collect();
        assert_eq!(releases, (0..MAX_KEPT_PER_KIND as u64).collect::<Vec<_>>());
        assert_eq!(kept.len(), MAX_KEPT_PER_KIND + 1);
        assert_eq!(
            more,
            vec![(
                ViolationKind::ForeignRelease,
                total - MAX_KEPT_PER_KIND as u64
            )]
        );
    }

    #[test]
    fn an_empty_trace_is_safe_and_live() {
        let v = TraceBuilder::single(&["A"]).check();
        assert!(v.safe && v.live && v.violations.is_empty());
    }

    #[test]
    fn malformed_traces_do_not_panic() {
        let mut t = TraceBuilder::new(&["A", "B"], 3, Topology::Redlock);
        let ghost = Token {
            worker: NodeId::new(77),
            seq: u32::MAX,
        };
        let a = t.tok("A", u32::MAX);
        let store1 = t.store(1);
        t.at(5, NodeId::new(99), EventKind::Crashed)
            .at(
                5,
                store1,
                EventKind::Granted {
                    key: KeyId::new(42),
                    token: ghost,
                    fence: None,
                    lease_ms: Some(u64::MAX),
                    took_over: false,
                },
            )
            .granted(3, 2, ghost, None)
            .granted(3, 3, ghost, Some(0))
            .acquired(1, a)
            .at(
                0,
                NodeId::new(77),
                EventKind::AcquireStarted {
                    key: KeyId::new(42),
                    token: ghost,
                },
            )
            .write(2, ghost)
            .write(1, a)
            .removed(4, 2, ghost, a)
            .let_go(0, a);
        let mut trace = t.build();
        // Out of time order, and a horizon before the events.
        trace.events.reverse();
        trace.until_ms = 0;
        let v = check(&scenario(ResourceMode::Plain), &trace);
        for x in &v.violations {
            assert!(!x.explanation.is_empty());
        }
        trace.until_ms = u64::MAX;
        check(&scenario(ResourceMode::Cas), &trace);
    }
}
