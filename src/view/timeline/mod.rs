//! The timeline's view model: what a front end draws of one finished run. One lane per node,
//! holding spans (beliefs, leases, faults) and marks (writes, clock jumps, role changes), the
//! messages between lanes, the network's partitions, and the [`index`] a frame needs to find
//! what is in view without reading everything.
//!
//! Free of any UI toolkit, so it is tested on its own and computed once per trace
//! ([`Lanes::build`]); a front end only maps these times to pixels and paints what is in view.
//! [`build`] reads the trace, [`rows`] stacks overlapping bars, [`place`] puts a mark's label
//! where it names only that mark, [`legend`] says what the drawing shows, [`hover`] what each
//! thing is, in the words of [`crate::view::wording`].

mod build;
#[cfg(test)]
mod fixtures;
pub mod hover;
mod index;
pub mod legend;
pub mod place;
mod rows;

pub use index::{BIN_PX, Bin, Instants, Intervals, MIN_GAP_PX, crowded};
pub use legend::{ATTEMPT_NOTE, ATTEMPT_NOTE_UNFENCED, Swatch, attempt_note};

use crate::checker::ViolationKind;
use crate::scenario::DeletedBy;
use crate::trace::{
    DropReason, KeyId, LetGoReason, NodeId, Refusal, RejectReason, Role, SessionEnd, Token,
};

/// Everything the timeline shows of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Lanes {
    /// The end of simulated time, true ms: the horizon, or where the event budget cut the run
    /// short (nothing after it was simulated, so nothing after it is drawn). The right end of
    /// the time axis.
    pub until_ms: u64,
    /// One per node, indexed by [`NodeId`] (workers, then stores, then the resource).
    pub lanes: Vec<Lane>,
    /// Network partitions, in start order.
    pub partitions: Vec<Partition>,
    /// Sorted, distinct true times where something visible changes; the step buttons jump
    /// between them so a student never steps through empty time.
    pub moments: Vec<u64>,
    /// What kinds of thing this run shows, in legend order, each with the true time it first
    /// appears: the legend explains exactly what has been shown so far.
    pub legend: Vec<(Swatch, u64)>,
    /// Whether the run's design issues fencing tokens, so its bars read "fence N".
    pub fenced: bool,
    /// Every message that arrived or was lost within the run, in send order.
    pub messages: Vec<Message>,
    /// The messages' flights, send to arrival, in the same order.
    pub flights: Intervals,
    /// Indexes into `messages` of those TCP held across a cut link: few, and each one matters,
    /// so the timeline draws them even where the others are summed up as haze.
    pub held: Vec<usize>,
    /// The markers of the violations judged as they happen.
    pub markers: Markers,
    /// The markers of those judged only at the end of the run (`stuck`): drawn once the run
    /// is shown to its end, or they would give the verdict away ([`Lanes::markers`]).
    pub markers_at_end: Markers,
}

/// How grave a violation is, which decides its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ViolationClass {
    /// A lock-level anomaly that did no harm by itself.
    Anomaly,
    /// Liveness: stuck or starved.
    Liveness,
    /// The data went wrong.
    Safety,
}

impl ViolationClass {
    /// How many classes there are.
    pub const COUNT: usize = 3;

    /// The class of a violation of `kind`.
    pub fn of(kind: ViolationKind) -> Self {
        if kind.breaks_safety() {
            ViolationClass::Safety
        } else if kind.breaks_liveness() {
            ViolationClass::Liveness
        } else {
            ViolationClass::Anomaly
        }
    }
}

/// One message, drawn as an arrow from its sender's lane to its receiver's.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The sender.
    pub from: NodeId,
    /// The receiver.
    pub to: NodeId,
    /// When it left, true ms.
    pub sent_ms: u64,
    /// When it arrived, or was lost (a message still held at the horizon: the horizon).
    pub end_ms: u64,
    /// Why it was lost; `None` if it arrived.
    pub dropped: Option<DropReason>,
    /// TCP: its link was cut (or a packet lost), so the sender's kernel held it.
    pub held: bool,
    /// When its last transmission left, true ms: `sent_ms`, or the retransmission that got
    /// through after it was held.
    pub left_ms: u64,
    /// What it said, e.g. `acquire A#1`.
    pub what: String,
    /// The events that tell what became of it, as indexes into [`Trace::events`]: TCP
    /// holding it across a cut link, the retransmission that got through, and its arrival
    /// or loss. `None` for what did not happen within the run.
    ///
    /// [`Trace::events`]: crate::trace::Trace::events
    pub held_event: Option<usize>,
    /// The retransmission that got through.
    pub resent_event: Option<usize>,
    /// Its arrival or its loss.
    pub end_event: Option<usize>,
}

/// One node's row of the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The node's name, e.g. `store1`.
    pub name: String,
    /// What part the node plays.
    pub role: Role,
    /// Sorted by start time.
    pub spans: Vec<Span>,
    /// Sorted by time.
    pub marks: Vec<Mark>,
    /// How many bar rows the lane needs so that overlapping bars (several keys, or a
    /// double grant on one node) sit one above the other instead of on top of each other.
    pub rows: u32,
    /// Every span in exactly one track: shadings first, then waits, then each bar row, so
    /// painting the tracks in order puts bars on top.
    pub tracks: Vec<Track>,
    /// The marks' times, classed by [`MarkClass`], in the same order as `marks`.
    pub mark_times: Instants<{ MarkClass::COUNT }>,
}

/// Spans of one lane that never overlap one another, in time order: what a frame culls to the
/// view and thins where they are too dense to see.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// Indexes into the lane's `spans`.
    pub spans: Vec<usize>,
    /// Their start and end, in the same order.
    pub times: Intervals,
}

/// Something that lasts on one lane, in true ms.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    /// True ms; `end_ms` is the horizon if it never ended.
    pub start_ms: u64,
    /// When it ended, true ms (the horizon if it never did).
    pub end_ms: u64,
    /// What it stands for.
    pub kind: SpanKind,
    /// Short text drawn on the span when it fits, e.g. `A#1 · fence 1`.
    pub label: String,
    /// How it ended, drawn at its end once the playhead is past it, e.g. `expired` or
    /// `removed by B#1`; empty if it lasted to the horizon or is a shading.
    pub end_label: String,
    /// The event that ended it, as an index into [`Trace::events`]; `None` if no event did
    /// (it lasted to the horizon, or its lease ran out unobserved).
    ///
    /// [`Trace::events`]: crate::trace::Trace::events
    pub end_event: Option<usize>,
}

/// What a span stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum SpanKind {
    /// A worker believes it holds `key` (its own view).
    Belief {
        /// The lock key.
        key: KeyId,
        /// The grant (its owner token).
        token: Token,
        /// Its fencing token, if the design issues one.
        fence: Option<u64>,
        /// Bar row within the lane.
        row: u32,
        /// Why the belief ended; `None` if it lasted to the horizon.
        let_go: Option<LetGoReason>,
        /// When the store side stopped holding this grant while the worker still believed
        /// it did — the lesson of steps 3 to 5.
        lease_lost: Option<LeaseLost>,
    },
    /// A store node holds `key` for `token` (the store's view).
    Lease {
        /// The lock key.
        key: KeyId,
        /// The grant (its owner token).
        token: Token,
        /// Its fencing token, if the design issues one.
        fence: Option<u64>,
        /// Bar row within the lane.
        row: u32,
        /// Grant time plus the promised lease, moved by extensions; `None`: no expiry.
        promised_end_ms: Option<u64>,
        /// How the lease ended.
        end: LeaseEnd,
        /// A new consensus leader took this lease over from its log (etcd's lessor
        /// `Promote`) rather than granting it.
        took_over: bool,
        /// The node is down: the grant is only on its disk, frozen, granting nothing and
        /// answering no one until the node restarts.
        on_disk: bool,
    },
    /// `consensus`: this follower has logged `token`'s acquire of `key` as log entry `index`
    /// (Raft §5.3): its copy counts towards the majority that decides the grant. Lasts until
    /// the grant ends, the node becomes the leader and takes it over, or forgets its log.
    Logged {
        /// The lock key.
        key: KeyId,
        /// The grant (its owner token).
        token: Token,
        /// The log entry, 1-based.
        index: u64,
        /// Bar row within the lane.
        row: u32,
    },
    /// The worker is trying to get `key` and does not have it yet.
    Waiting {
        /// The lock key it wants.
        key: KeyId,
        /// How many attempts it made while waiting.
        attempts: u32,
        /// Each time a store refused it for another reason (or another node refused it), in
        /// time order: the wait's story in a few lines, however long the retry loop.
        refusals: Vec<Refused>,
    },
    /// The process was frozen (a GC pause, a VM stall).
    Paused,
    /// The worker's work stopped advancing while the process lived.
    Stalled,
    /// The node was down.
    Crashed,
    /// Messages from this node to `to` took `extra_ms` longer.
    SlowLink {
        /// The receiving node.
        to: NodeId,
        /// The added delay, ms.
        extra_ms: u64,
    },
}

/// A store node refusing a waiting worker, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// When, true ms.
    pub at_ms: u64,
    /// The store node that refused.
    pub node: NodeId,
    /// Why.
    pub why: Refusal,
    /// The refusal, as an index into [`Trace::events`].
    ///
    /// [`Trace::events`]: crate::trace::Trace::events
    pub event: usize,
}

/// The part of a belief the store no longer backed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseLost {
    /// When the store stopped backing the belief, true ms.
    pub at_ms: u64,
    /// How the store's last backing lease ended; `None` if the store never held the grant
    /// while the worker believed in it.
    pub cause: Option<LeaseEnd>,
    /// Drawn on the hatched part, e.g. `lease expired`, `overwritten by A#1`.
    pub label: String,
}

/// How a lease bar ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaseEnd {
    /// The store's clock said the lease was over.
    Expired,
    /// A release from `by` removed it (a foreign release when `by` is not the holder).
    Removed {
        /// The attempt whose release removed it.
        by: Token,
    },
    /// The node restarted without persistence and forgot it.
    Forgot,
    /// The node crashed before its log was flushed with the grant (`everysec`): the crash
    /// lost it, so nothing of it stays on disk.
    Unflushed,
    /// Someone deleted the key from outside the protocol (`force_release`): an operator, an
    /// eviction, a flush.
    Forced(DeletedBy),
    /// `session`: the holder's session ended, for the reason given, and the lock with it.
    SessionEnded(SessionEnd),
    /// The node granted the key to `by` over it.
    Replaced {
        /// The grant that replaced it.
        by: Token,
    },
    /// The promised lease ran out with no event (e.g. client-side expiry).
    RanOut,
    /// Still held at the horizon.
    Horizon,
    /// The node crashed: the grant goes on as an on-disk bar.
    NodeDown,
    /// The node restarted with the grant on disk: it goes on as a live bar.
    NodeUp,
    /// The node restarted as a follower (`consensus`) or replica (`replicated`): a newer
    /// leader or primary decides now, so this node's copy grants nothing.
    BackAsFollower,
}

/// Something that happens at one instant on one lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// When, true ms.
    pub at_ms: u64,
    /// What it stands for.
    pub kind: MarkKind,
    /// Short text drawn next to the mark.
    pub label: String,
    /// The event it shows, as an index into [`Trace::events`]; `None` for a role held from
    /// the start, which no event records.
    ///
    /// [`Trace::events`]: crate::trace::Trace::events
    pub event: Option<usize>,
}

/// What a mark stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum MarkKind {
    /// The resource received a write.
    Write {
        /// The lock key.
        key: KeyId,
        /// The grant (its owner token).
        token: Token,
        /// Its fencing token, if the design issues one.
        fence: Option<u64>,
        /// What became of it.
        outcome: WriteOutcome,
    },
    /// The node's wall clock stepped.
    ClockJump {
        /// The step, ms (negative: back).
        delta_ms: i64,
    },
    /// The store node became the primary (`replicated`, `term` is the epoch) or the leader
    /// (`consensus`). `at_start`: it is so from the start of the run, with no event.
    BecameLeader {
        /// The term (consensus) or epoch (replicated).
        term: u64,
        /// Whether it held the role from the start of the run.
        at_start: bool,
    },
    /// The store node stepped down to replica or follower.
    SteppedDown {
        /// The term (consensus) or epoch (replicated).
        term: u64,
    },
    /// `timestamp`: the store node recorded `token`'s claim on `key`, stamped `stamp_ms` by
    /// the claimant's wall clock, or (`None`) deleted it.
    Claim {
        /// The lock key.
        key: KeyId,
        /// The grant (its owner token).
        token: Token,
        /// The claimant's wall-clock stamp, ms; `None`: the claim was deleted.
        stamp_ms: Option<i64>,
    },
    /// A reentrant worker took `token`'s lock again from nested code (`entered`), or its
    /// nested section let one hold go: its hold count is now `count`.
    Hold {
        /// The lock key.
        key: KeyId,
        /// The grant (its owner token).
        token: Token,
        /// The hold count now.
        count: u32,
        /// Whether nested code took it again (`true`) or let one hold go.
        entered: bool,
    },
}

/// What a mark is, for summing up marks too close together to draw one by one. Later
/// classes are graver: a summary takes the colour of the gravest write it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MarkClass {
    /// [`MarkKind::Claim`].
    Claim,
    /// [`MarkKind::Hold`].
    Hold,
    /// [`MarkKind::ClockJump`].
    ClockJump,
    /// [`MarkKind::BecameLeader`].
    Leader,
    /// [`MarkKind::SteppedDown`].
    SteppedDown,
    /// A write the resource applied.
    Accepted,
    /// A write the resource refused.
    Rejected,
    /// A write the verdict names as a safety violation.
    Violating,
}

impl MarkClass {
    /// How many classes there are.
    pub const COUNT: usize = 8;
    /// Every class, in order.
    pub const ALL: [MarkClass; MarkClass::COUNT] = [
        MarkClass::Claim,
        MarkClass::Hold,
        MarkClass::ClockJump,
        MarkClass::Leader,
        MarkClass::SteppedDown,
        MarkClass::Accepted,
        MarkClass::Rejected,
        MarkClass::Violating,
    ];
}

impl MarkKind {
    /// Its class.
    pub fn class(&self) -> MarkClass {
        match self {
            MarkKind::Write { outcome, .. } => match outcome {
                WriteOutcome::Accepted => MarkClass::Accepted,
                WriteOutcome::Rejected { .. } => MarkClass::Rejected,
                WriteOutcome::Violating(_) => MarkClass::Violating,
            },
            MarkKind::ClockJump { .. } => MarkClass::ClockJump,
            MarkKind::BecameLeader { .. } => MarkClass::Leader,
            MarkKind::SteppedDown { .. } => MarkClass::SteppedDown,
            MarkKind::Claim { .. } => MarkClass::Claim,
            MarkKind::Hold { .. } => MarkClass::Hold,
        }
    }
}

/// What became of a write at the resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteOutcome {
    /// Applied.
    Accepted,
    /// Accepted, and the verdict names it as the violation `kind` (the data went wrong here).
    Violating(ViolationKind),
    /// Refused; `highest_fence` is the highest fence the resource had accepted for the key.
    Rejected {
        /// Why it was refused.
        reason: RejectReason,
        /// The highest fence the resource had accepted for the key.
        highest_fence: Option<u64>,
    },
}

/// A cut in the network, drawn as a band.
#[derive(Clone, Debug, PartialEq)]
pub struct Partition {
    /// When the cut started, true ms.
    pub start_ms: u64,
    /// When it ended, true ms (the horizon if it lasted).
    pub end_ms: u64,
    /// Node ids on each side.
    pub groups: Vec<Vec<NodeId>>,
    /// E.g. `A | store1 store2`.
    pub label: String,
    /// The events that started and ended it, as indexes into [`Trace::events`]; no end if
    /// it lasted to the horizon.
    ///
    /// [`Trace::events`]: crate::trace::Trace::events
    pub start_event: usize,
    /// The event that ended it; `None` if it lasted to the horizon.
    pub end_event: Option<usize>,
}

impl Span {
    fn new(start_ms: u64, end_ms: u64, kind: SpanKind, label: String) -> Self {
        Span {
            start_ms,
            end_ms,
            kind,
            label,
            end_label: String::new(),
            end_event: None,
        }
    }
}

impl SpanKind {
    /// The bar row of a belief or lease; `None` for shadings that fill the whole lane.
    pub fn bar_row(&self) -> Option<u32> {
        match *self {
            SpanKind::Belief { row, .. }
            | SpanKind::Lease { row, .. }
            | SpanKind::Logged { row, .. } => Some(row),
            SpanKind::Waiting { .. }
            | SpanKind::Paused
            | SpanKind::Stalled
            | SpanKind::Crashed
            | SpanKind::SlowLink { .. } => None,
        }
    }
}

/// Violation markers on the axis: some of the verdict's violations, in time order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Markers {
    /// Indexes into `Verdict::violations`, in time order.
    pub violations: Vec<usize>,
    /// Their times, classed by [`ViolationClass`], in the same order.
    pub times: Instants<{ ViolationClass::COUNT }>,
}

impl Lanes {
    /// The violation markers to draw with the run shown up to `shown_until_ms` (true ms):
    /// those judged as they happen and, once the whole run is shown, those judged at its end.
    pub fn markers(&self, shown_until_ms: f64) -> impl Iterator<Item = &Markers> {
        let to_the_end = shown_until_ms >= self.until_ms as f64;
        std::iter::once(&self.markers).chain(to_the_end.then_some(&self.markers_at_end))
    }
}

impl Markers {
    /// The markers of `violations` (indexes into `verdict.violations`, in time order).
    fn new(verdict: &crate::checker::Verdict, violations: Vec<usize>) -> Self {
        let times = Instants::new(violations.iter().map(|&i| {
            let v = &verdict.violations[i];
            (v.at_ms, ViolationClass::of(v.kind) as usize)
        }));
        Markers { violations, times }
    }

    /// A marker over `bin` (positions in [`Markers::violations`]): the violation it stands
    /// for, which a click selects ([`Markers::gravest_violation`]), and the name beside it —
    /// its kind, or `×3` for three summed up.
    pub fn marker(&self, verdict: &crate::checker::Verdict, bin: &index::Bin) -> (usize, String) {
        let first = self.gravest_violation(verdict, bin);
        let name = match bin.items.len() {
            1 => verdict.violations[first].kind.as_str().to_string(),
            n => format!("×{n}"),
        };
        (first, name)
    }

    /// The violation a marker over `bin` (positions in [`Markers::violations`]) stands for:
    /// the first of the gravest class among them, as an index into `Verdict::violations`.
    fn gravest_violation(&self, verdict: &crate::checker::Verdict, bin: &index::Bin) -> usize {
        let counts = self.times.count(bin.items.clone());
        let gravest = [
            ViolationClass::Safety,
            ViolationClass::Liveness,
            ViolationClass::Anomaly,
        ]
        .into_iter()
        .find(|&k| counts[k as usize] > 0)
        .unwrap_or(ViolationClass::Anomaly);
        bin.items
            .clone()
            .map(|k| self.violations[k])
            .find(|&i| ViolationClass::of(verdict.violations[i].kind) == gravest)
            .unwrap_or(self.violations[bin.items.start])
    }
}

/// A round step (1, 2 or 5 × 10ⁿ ms) for time-axis ticks that leaves at least 90 px between
/// them over `view_ms` drawn `width_px` wide.
pub fn tick_step(view_ms: f64, width_px: f32) -> f64 {
    let raw = view_ms * 90.0 / f64::from(width_px.max(1.0));
    let mut decade = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if decade * m >= raw {
                return decade * m;
            }
        }
        decade *= 10.0;
    }
}

/// A tick's label: `12 s`, `12.5 s` once ticks are a second or more apart, else `10 004 ms`.
pub fn tick_label(t: f64, step: f64) -> String {
    if step >= 1000.0 {
        let s = t / 1000.0;
        if s.fract() == 0.0 {
            format!("{s:.0} s")
        } else {
            format!("{s} s")
        }
    } else {
        crate::text::fmt_ms(t.round() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_not_crowded() {
        assert_eq!(tick_step(20_000.0, 1000.0), 2_000.0);
        assert_eq!(tick_step(20_000.0, 400.0), 5_000.0);
        assert_eq!(tick_step(100.0, 1000.0), 10.0);
        assert_eq!(tick_step(3.0, 1000.0), 1.0);
    }

    #[test]
    fn tick_labels_switch_to_seconds() {
        assert_eq!(tick_label(12_000.0, 2_000.0), "12 s");
        assert_eq!(tick_label(2_500.0, 500.0), "2 500 ms");
        assert_eq!(tick_label(12_500.0, 2_500.0), "12.5 s");
    }
}
