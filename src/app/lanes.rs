//! Turns a finished trace into what the timeline draws: one lane per node, holding spans
//! (beliefs, leases, faults) and marks (writes, clock jumps, role changes), and the messages
//! between lanes.
//!
//! Pure and free of egui, so it is tested on its own and computed once per trace, with the
//! [`index`] a frame needs to find what is in view without reading everything; the
//! per-frame code only maps these times to pixels and paints what is in view.

mod index;

use std::collections::{BTreeMap, HashMap, HashSet};

pub use index::{Bin, Instants, Intervals};

use crate::checker::{Kind, Verdict};
use crate::scenario::{Design, Topology};
use crate::text::{fmt_clock_ms, fmt_ms};
use crate::trace::{
    DropReason, EventKind, KeyId, LetGoReason, MsgId, NodeId, Refusal, RejectReason, Role, Token,
    Trace,
};

/// Everything the timeline shows of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Lanes {
    /// The horizon, true ms: the right end of the time axis.
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
    /// Every message that arrived or was lost within the run, in send order.
    pub messages: Vec<Message>,
    /// The messages' flights, send to arrival, in the same order.
    pub flights: Intervals,
    /// Indexes into `messages` of those TCP held across a cut link: few, and each one matters,
    /// so the timeline draws them even where the others are summed up as haze.
    pub held: Vec<usize>,
    /// The verdict's violations in time order, as indexes into `Verdict::violations`.
    pub violations: Vec<usize>,
    /// Their times, classed by [`ViolationClass`], in the same order.
    pub violation_times: Instants<{ ViolationClass::COUNT }>,
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
    pub fn of(kind: Kind) -> Self {
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
}

/// One entry of the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Swatch {
    Belief,
    Lease,
    TookOver,
    OnDisk,
    Logged,
    LeaseLost,
    Waiting,
    Paused,
    Stalled,
    Crashed,
    SlowLink,
    Partition,
    ClockJump,
    Leader,
    SteppedDown,
    Claim,
    Hold,
    Accepted,
    Rejected,
    Violating,
    Message,
    Held,
    Dropped,
}

/// One node's row of the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The node's name, e.g. `store1`.
    pub name: String,
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
    pub end_ms: u64,
    pub kind: SpanKind,
    /// Short text drawn on the span when it fits, e.g. `A#1 · fence 1`.
    pub label: String,
    /// How it ended, drawn at its end once the playhead is past it, e.g. `expired` or
    /// `removed by B#1`; empty if it lasted to the horizon or is a shading.
    pub end_label: String,
}

/// What a span stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum SpanKind {
    /// A worker believes it holds `key` (its own view).
    Belief {
        key: KeyId,
        token: Token,
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
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        row: u32,
        /// Grant time plus the promised lease, moved by extensions; `None`: no expiry.
        promised_end_ms: Option<u64>,
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
        key: KeyId,
        token: Token,
        index: u64,
        row: u32,
    },
    /// The worker is trying to get `key` and does not have it yet.
    Waiting {
        key: KeyId,
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
    SlowLink { to: NodeId, extra_ms: u64 },
}

/// A store node refusing a waiting worker, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub at_ms: u64,
    pub node: NodeId,
    pub why: Refusal,
}

/// The part of a belief the store no longer backed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseLost {
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
    Removed { by: Token },
    /// The node restarted without persistence and forgot it.
    Forgot,
    /// An operator deleted the key (`force_release`).
    Forced,
    /// The node granted the key to `by` over it.
    Replaced { by: Token },
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
    pub at_ms: u64,
    pub kind: MarkKind,
    /// Short text drawn next to the mark.
    pub label: String,
}

/// What a mark stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum MarkKind {
    /// The resource received a write.
    Write {
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        outcome: WriteOutcome,
    },
    /// The node's wall clock stepped.
    ClockJump { delta_ms: i64 },
    /// The store node became the primary (`replicated`, `term` is the epoch) or the leader
    /// (`consensus`). `at_start`: it is so from the start of the run, with no event.
    BecameLeader { term: u64, at_start: bool },
    /// The store node stepped down to replica or follower.
    SteppedDown { term: u64 },
    /// `timestamp`: the store node recorded `token`'s claim on `key`, stamped `stamp_ms` by
    /// the claimant's wall clock, or (`None`) deleted it.
    Claim {
        key: KeyId,
        token: Token,
        stamp_ms: Option<i64>,
    },
    /// A reentrant worker took `token`'s lock again from nested code (`entered`), or its
    /// nested section let one hold go: its hold count is now `count`.
    Hold {
        key: KeyId,
        token: Token,
        count: u32,
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
    Accepted,
    /// Accepted, and the verdict names it as the violation `kind` (the data went wrong here).
    Violating(Kind),
    /// Refused; `highest_fence` is the highest fence the resource had accepted for the key.
    Rejected {
        reason: RejectReason,
        highest_fence: Option<u64>,
    },
}

/// A cut in the network, drawn as a band.
#[derive(Clone, Debug, PartialEq)]
pub struct Partition {
    pub start_ms: u64,
    pub end_ms: u64,
    /// Node ids on each side.
    pub groups: Vec<Vec<NodeId>>,
    /// E.g. `A | store1 store2`.
    pub label: String,
}

impl Span {
    fn new(start_ms: u64, end_ms: u64, kind: SpanKind, label: String) -> Self {
        Span {
            start_ms,
            end_ms,
            kind,
            label,
            end_label: String::new(),
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

impl Lanes {
    /// Lays out `trace`; `verdict` marks the writes that broke safety.
    pub fn build(trace: &Trace, verdict: &Verdict) -> Lanes {
        let mut b = Builder::new(trace, verdict);
        for event in &trace.events {
            b.event(event.at_ms, event.node, &event.kind);
        }
        b.finish()
    }
}

/// Open spans while the events are read, keyed so their closing event finds them.
struct Builder<'a> {
    trace: &'a Trace,
    verdict: &'a Verdict,
    lanes: Vec<Lane>,
    partitions: Vec<Partition>,
    /// (worker, key, token) → index of the belief span in the worker's lane.
    beliefs: BTreeMap<(NodeId, KeyId, Token), usize>,
    /// (store node, key) → index of the lease span in the store's lane. A store node holds
    /// at most one lock per key.
    leases: BTreeMap<(NodeId, KeyId), usize>,
    /// (follower, key) → index of the span of the acquire it logged last (`consensus`).
    logged: BTreeMap<(NodeId, KeyId), usize>,
    /// Grants the store side has ended (released, expired, refused, deleted): a follower
    /// that logs one again while catching up holds nothing worth drawing.
    ended: HashSet<Token>,
    /// A store node that restarted at this instant: its on-disk leases come back to life
    /// once the restart's persistence events (forgot, reloaded) have been read.
    restarting: Option<(NodeId, u64)>,
    /// (worker, key) → index of the waiting span; closed when the worker gets the key.
    waiting: BTreeMap<(NodeId, KeyId), usize>,
    /// (node, which fault) → index of the fault span; closed by Resumed, Unstalled, Restarted.
    faults: BTreeMap<(NodeId, FaultSlot), usize>,
    /// Highest fence the resource accepted, per key, to explain a rejection.
    highest_fence: BTreeMap<KeyId, u64>,
    /// (true ms, token) of an accepted write → the safety violation the verdict names there.
    violating: HashMap<(u64, Token), Kind>,
    /// Older grant of a `stale_write` → the first stale write the verdict names. The checker
    /// reports one violation per pair of grants; every later write of that grant also lands
    /// after the newer grant's write, so each one is stale too.
    stale_from: HashMap<Token, u64>,
    messages: Vec<Message>,
    /// Messages sent and not yet arrived or lost → index in `messages`.
    in_flight: HashMap<MsgId, usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum FaultSlot {
    Pause,
    Stall,
    Crash,
}

impl<'a> Builder<'a> {
    fn new(trace: &'a Trace, verdict: &'a Verdict) -> Self {
        let lanes = trace
            .nodes
            .iter()
            .map(|n| Lane {
                name: n.name.clone(),
                role: n.role,
                spans: Vec::new(),
                marks: Vec::new(),
                rows: 1,
                tracks: Vec::new(),
                mark_times: Instants::default(),
            })
            .collect();
        let mut violating = HashMap::new();
        let mut stale_from: HashMap<Token, u64> = HashMap::new();
        for v in verdict.violations.iter().filter(|v| v.kind.breaks_safety()) {
            for &token in &v.grants {
                // The first the verdict lists wins, as it does in the verdict panel.
                violating.entry((v.at_ms, token)).or_insert(v.kind);
            }
            if let (Kind::StaleWrite, Some(&old)) = (v.kind, v.grants.first()) {
                let first = stale_from.entry(old).or_insert(v.at_ms);
                *first = (*first).min(v.at_ms);
            }
        }
        let mut b = Builder {
            trace,
            verdict,
            lanes,
            partitions: Vec::new(),
            beliefs: BTreeMap::new(),
            leases: BTreeMap::new(),
            logged: BTreeMap::new(),
            ended: HashSet::new(),
            restarting: None,
            waiting: BTreeMap::new(),
            faults: BTreeMap::new(),
            highest_fence: BTreeMap::new(),
            violating,
            stale_from,
            messages: Vec::new(),
            in_flight: HashMap::new(),
        };
        b.initial_leader();
        b
    }

    /// `replicated` and `consensus` start with store1 as primary or leader of term 1, which
    /// the trace does not record: mark it, so the first role change has something before it.
    fn initial_leader(&mut self) {
        if !matches!(
            self.trace.topology,
            Topology::Replicated | Topology::Consensus
        ) {
            return;
        }
        if let Some(first) = self.trace.nodes.iter().position(|n| n.role == Role::Store) {
            self.push_role(0, first as NodeId, true, 1, true);
        }
    }

    /// Marks a store node becoming (`up`) or ceasing to be the primary or leader.
    fn push_role(&mut self, at: u64, node: NodeId, up: bool, term: u64, at_start: bool) {
        let (label, kind) = match (self.trace.topology, up) {
            (Topology::Replicated, true) => (
                format!("primary · epoch {term}"),
                MarkKind::BecameLeader { term, at_start },
            ),
            (Topology::Replicated, false) => {
                ("now a replica".to_string(), MarkKind::SteppedDown { term })
            }
            (_, true) => (
                format!("leader · term {term}"),
                MarkKind::BecameLeader { term, at_start },
            ),
            (_, false) => ("now a follower".to_string(), MarkKind::SteppedDown { term }),
        };
        self.lanes[node as usize].marks.push(Mark {
            at_ms: at,
            kind,
            label,
        });
    }

    fn push_span(&mut self, node: NodeId, span: Span) -> usize {
        let spans = &mut self.lanes[node as usize].spans;
        spans.push(span);
        spans.len() - 1
    }

    fn span_mut(&mut self, node: NodeId, index: usize) -> &mut Span {
        &mut self.lanes[node as usize].spans[index]
    }

    /// `A#1 · fence 1`, with the key's name in front when the run has several keys.
    fn grant_label(&self, key: KeyId, token: Token, fence: Option<u64>) -> String {
        let mut label = String::new();
        if self.trace.keys.len() > 1 {
            label.push_str(self.trace.key_name(key));
            label.push(' ');
        }
        label.push_str(&self.trace.token_name(token));
        if let Some(f) = fence {
            label.push_str(&format!(" · fence {f}"));
        }
        label
    }

    fn open_fault(&mut self, at: u64, node: NodeId, slot: FaultSlot, until: u64, span: SpanKind) {
        let label = match slot {
            FaultSlot::Pause => format!("paused {}", fmt_ms(until - at)),
            FaultSlot::Stall => format!("stalled {}", fmt_ms(until - at)),
            FaultSlot::Crash => "crashed".to_string(),
        };
        let index = self.push_span(node, Span::new(at, until, span, label));
        self.faults.insert((node, slot), index);
    }

    fn close_fault(&mut self, at: u64, node: NodeId, slot: FaultSlot) {
        if let Some(index) = self.faults.remove(&(node, slot)) {
            let span = self.span_mut(node, index);
            span.end_ms = at;
            if slot == FaultSlot::Pause {
                span.label = format!("paused {}", fmt_ms(at - span.start_ms));
            }
        }
    }

    fn close_lease(&mut self, at: u64, node: NodeId, key: KeyId, end: LeaseEnd) {
        if let Some(index) = self.leases.remove(&(node, key)) {
            let span = self.span_mut(node, index);
            let SpanKind::Lease {
                promised_end_ms, ..
            } = span.kind
            else {
                return;
            };
            // A grant over a lease that had already run out does not replace it: the
            // lease ended on its own, earlier.
            match (end, promised_end_ms) {
                (LeaseEnd::Replaced { .. }, Some(p)) if p < at => {
                    span.end_ms = p;
                    set_lease_end(span, LeaseEnd::RanOut);
                }
                _ => {
                    span.end_ms = at;
                    set_lease_end(span, end);
                }
            }
        }
    }

    fn event(&mut self, at: u64, node: NodeId, kind: &EventKind) {
        let horizon = self.trace.until_ms;
        if let Some((n, t)) = self.restarting {
            let persistence = matches!(kind, EventKind::Forgot | EventKind::Reloaded { .. });
            if !(n == node && t == at && persistence) {
                self.restarted(n, t);
            }
        }
        match *kind {
            EventKind::Paused { for_ms } => {
                let until = (at + for_ms).min(horizon);
                self.open_fault(at, node, FaultSlot::Pause, until, SpanKind::Paused);
            }
            EventKind::Resumed => self.close_fault(at, node, FaultSlot::Pause),
            EventKind::Stalled { for_ms } => {
                let until = (at + for_ms).min(horizon);
                self.open_fault(at, node, FaultSlot::Stall, until, SpanKind::Stalled);
            }
            EventKind::Unstalled => self.close_fault(at, node, FaultSlot::Stall),
            EventKind::Crashed => {
                self.open_fault(at, node, FaultSlot::Crash, horizon, SpanKind::Crashed);
                self.freeze_leases(at, node);
                // A crashed worker wants nothing any more.
                let keys: Vec<KeyId> = self
                    .waiting
                    .keys()
                    .filter(|(n, _)| *n == node)
                    .map(|&(_, k)| k)
                    .collect();
                for key in keys {
                    self.close_waiting(at, node, key);
                }
            }
            EventKind::Restarted => {
                self.close_fault(at, node, FaultSlot::Crash);
                if self.trace.nodes[node as usize].role == Role::Store {
                    self.restarting = Some((node, at));
                }
            }
            EventKind::DelayStarted {
                to,
                extra_ms,
                for_ms,
            } => {
                let label = format!(
                    "slow link to {} (+{})",
                    self.trace.node_name(to),
                    fmt_ms(extra_ms)
                );
                self.push_span(
                    node,
                    Span::new(
                        at,
                        (at + for_ms).min(horizon),
                        SpanKind::SlowLink { to, extra_ms },
                        label,
                    ),
                );
            }
            EventKind::ClockJumped { delta_ms } => {
                let sign = if delta_ms < 0 { "−" } else { "+" };
                self.lanes[node as usize].marks.push(Mark {
                    at_ms: at,
                    kind: MarkKind::ClockJump { delta_ms },
                    label: format!("clock {sign}{}", fmt_ms(delta_ms.unsigned_abs())),
                });
            }
            EventKind::PartitionStarted { ref groups } => {
                let label = groups
                    .iter()
                    .map(|g| {
                        g.iter()
                            .map(|&n| self.trace.node_name(n))
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect::<Vec<_>>()
                    .join(" | ");
                self.partitions.push(Partition {
                    start_ms: at,
                    end_ms: horizon,
                    groups: groups.clone(),
                    label,
                });
            }
            EventKind::Healed => {
                for p in self.partitions.iter_mut().filter(|p| p.end_ms == horizon) {
                    p.end_ms = at;
                }
            }
            EventKind::PartitionEnded { ref groups } => {
                if let Some(p) = self
                    .partitions
                    .iter_mut()
                    .find(|p| p.end_ms == horizon && p.groups == *groups)
                {
                    p.end_ms = at;
                }
            }
            EventKind::AcquireStarted { key, .. } => match self.waiting.get(&(node, key)) {
                Some(&index) => {
                    if let SpanKind::Waiting { attempts, .. } = &mut self.span_mut(node, index).kind
                    {
                        *attempts += 1;
                    }
                }
                None => {
                    let kind = SpanKind::Waiting {
                        key,
                        attempts: 1,
                        refusals: Vec::new(),
                    };
                    let index =
                        self.push_span(node, Span::new(at, horizon, kind, "waiting".to_string()));
                    self.waiting.insert((node, key), index);
                }
            },
            EventKind::Refused { key, token, why } => {
                // A logged acquire the store decided to refuse ends the followers' copies.
                self.grant_ended(at, key, token);
                if let Some(&index) = self.waiting.get(&(token.worker, key))
                    && let SpanKind::Waiting { refusals, .. } =
                        &mut self.span_mut(token.worker, index).kind
                    && refusals
                        .last()
                        .is_none_or(|r| (r.node, r.why) != (node, why))
                {
                    refusals.push(Refused {
                        at_ms: at,
                        node,
                        why,
                    });
                }
            }
            EventKind::Acquired {
                key, token, fence, ..
            } => {
                self.close_waiting(at, node, key);
                let label = self.grant_label(key, token, fence);
                let index = self.push_span(
                    node,
                    Span::new(
                        at,
                        horizon,
                        SpanKind::Belief {
                            key,
                            token,
                            fence,
                            row: 0,
                            let_go: None,
                            lease_lost: None,
                        },
                        label,
                    ),
                );
                self.beliefs.insert((node, key, token), index);
            }
            EventKind::LetGo { key, token, reason } => {
                if let Some(index) = self.beliefs.remove(&(node, key, token)) {
                    let span = self.span_mut(node, index);
                    span.end_ms = at;
                    if let SpanKind::Belief { let_go, .. } = &mut span.kind {
                        *let_go = Some(reason);
                    }
                }
            }
            EventKind::Granted {
                key,
                token,
                fence,
                lease_ms,
                took_over,
            } => {
                self.close_lease(at, node, key, LeaseEnd::Replaced { by: token });
                self.close_logged(at, node, key);
                let lease = SpanKind::Lease {
                    key,
                    token,
                    fence,
                    row: 0,
                    promised_end_ms: lease_ms.map(|l| at + l),
                    end: LeaseEnd::Horizon,
                    took_over,
                    on_disk: false,
                };
                self.open_lease(at, node, lease);
            }
            EventKind::Logged { key, token, index } if !self.ended.contains(&token) => {
                self.close_logged(at, node, key);
                let label = format!("logged {}", self.trace.token_name(token));
                let kind = SpanKind::Logged {
                    key,
                    token,
                    index,
                    row: 0,
                };
                let i = self.push_span(node, Span::new(at, horizon, kind, label));
                self.logged.insert((node, key), i);
            }
            EventKind::Reloaded { key, holder } => {
                // `everysec`: the log as last flushed lacked the latest change to `key`.
                self.close_lease(at, node, key, LeaseEnd::Forgot);
                if let Some(token) = holder {
                    self.reopen_from_disk(at, node, key, token);
                }
            }
            EventKind::LeaseExtended {
                key,
                token,
                lease_ms,
            } => {
                if let Some(&index) = self.leases.get(&(node, key)) {
                    let span = self.span_mut(node, index);
                    if let SpanKind::Lease {
                        token: held,
                        promised_end_ms,
                        ..
                    } = &mut span.kind
                        && *held == token
                    {
                        *promised_end_ms = Some(at + lease_ms);
                    }
                }
            }
            EventKind::Removed { key, holder, by } => {
                self.grant_ended(at, key, holder);
                if self.lease_holder(node, key) == Some(holder) {
                    self.close_lease(at, node, key, LeaseEnd::Removed { by });
                }
            }
            EventKind::ForceReleased {
                key,
                holder: Some(holder),
            } => {
                self.grant_ended(at, key, holder);
                if self.lease_holder(node, key) == Some(holder) {
                    self.close_lease(at, node, key, LeaseEnd::Forced);
                }
            }
            EventKind::Expired { key, token } => {
                self.grant_ended(at, key, token);
                if self.lease_holder(node, key) == Some(token) {
                    self.close_lease(at, node, key, LeaseEnd::Expired);
                }
            }
            EventKind::Forgot => {
                for key in Self::keys_of(&self.leases, node) {
                    self.close_lease(at, node, key, LeaseEnd::Forgot);
                }
                for key in Self::keys_of(&self.logged, node) {
                    self.close_logged(at, node, key);
                }
            }
            EventKind::Claimed {
                key,
                token,
                stamp_ms,
            } => {
                let label = format!(
                    "claim {} @{}",
                    self.trace.token_name(token),
                    fmt_clock_ms(stamp_ms)
                );
                self.push_claim(at, node, key, token, Some(stamp_ms), label);
            }
            EventKind::Reentered { key, token, count }
            | EventKind::LeftNested { key, token, count } => {
                let entered = matches!(kind, EventKind::Reentered { .. });
                self.lanes[node as usize].marks.push(Mark {
                    at_ms: at,
                    kind: MarkKind::Hold {
                        key,
                        token,
                        count,
                        entered,
                    },
                    label: format!("holds ×{count}"),
                });
            }
            EventKind::Unclaimed { key, token } => {
                let label = format!("{}'s claim deleted", self.trace.token_name(token));
                self.push_claim(at, node, key, token, None, label);
            }
            EventKind::WriteAccepted {
                key, token, fence, ..
            } => {
                let outcome = match self.violation_at(at, token) {
                    Some(kind) => WriteOutcome::Violating(kind),
                    None => WriteOutcome::Accepted,
                };
                if let Some(f) = fence {
                    let highest = self.highest_fence.entry(key).or_insert(f);
                    *highest = (*highest).max(f);
                }
                self.push_write(at, node, key, token, fence, outcome);
            }
            EventKind::WriteRejected {
                key,
                token,
                fence,
                reason,
            } => {
                let outcome = WriteOutcome::Rejected {
                    reason,
                    highest_fence: self.highest_fence.get(&key).copied(),
                };
                self.push_write(at, node, key, token, fence, outcome);
            }
            EventKind::Send { msg, to, ref what } => {
                self.in_flight.insert(msg, self.messages.len());
                self.messages.push(Message {
                    from: node,
                    to,
                    sent_ms: at,
                    end_ms: at,
                    dropped: None,
                    held: false,
                    left_ms: at,
                    what: what.clone(),
                });
            }
            EventKind::Held { msg, .. } => {
                if let Some(&i) = self.in_flight.get(&msg) {
                    self.messages[i].held = true;
                }
            }
            EventKind::Retransmitted { msg, .. } => {
                if let Some(&i) = self.in_flight.get(&msg) {
                    self.messages[i].left_ms = at;
                }
            }
            EventKind::Deliver { msg, .. } => self.land(msg, at, None),
            EventKind::Drop { msg, reason, .. } => self.land(msg, at, Some(reason)),
            EventKind::BecameLeader { term } => self.push_role(at, node, true, term, false),
            EventKind::SteppedDown { term } => self.push_role(at, node, false, term, false),
            // Attempts, renewals and store bookkeeping change nothing the lanes draw: their
            // effects arrive as the events above.
            _ => {}
        }
    }

    /// The keys `node` has an open span for in `open`.
    fn keys_of(open: &BTreeMap<(NodeId, KeyId), usize>, node: NodeId) -> Vec<KeyId> {
        open.keys()
            .filter(|(n, _)| *n == node)
            .map(|&(_, k)| k)
            .collect()
    }

    /// Opens a lease bar on `node` from `at`, labelled for what it is.
    fn open_lease(&mut self, at: u64, node: NodeId, kind: SpanKind) {
        let SpanKind::Lease {
            key,
            token,
            fence,
            took_over,
            on_disk,
            ..
        } = kind
        else {
            return;
        };
        let grant = self.grant_label(key, token, fence);
        let label = if on_disk {
            format!("on disk, node down: {grant}")
        } else if took_over {
            format!("took over {grant} from the log")
        } else {
            grant
        };
        let index = self.push_span(node, Span::new(at, self.trace.until_ms, kind, label));
        self.leases.insert((node, key), index);
    }

    /// A store node crashed: each grant it held stops being live and goes on as what its
    /// disk holds.
    fn freeze_leases(&mut self, at: u64, node: NodeId) {
        for key in Self::keys_of(&self.leases, node) {
            let index = self.leases[&(node, key)];
            let mut kind = self.lanes[node as usize].spans[index].kind.clone();
            self.close_lease(at, node, key, LeaseEnd::NodeDown);
            if let SpanKind::Lease {
                on_disk, took_over, ..
            } = &mut kind
            {
                *on_disk = true;
                *took_over = false;
            }
            self.open_lease(at, node, kind);
        }
    }

    /// The restart of `node` at `at` is read, persistence events included: what is still
    /// on its disk is live again — on a single node or a Redlock node. A consensus or
    /// replicated node comes back as a follower or replica, which grants nothing: a
    /// consensus follower's log still holds the entry.
    fn restarted(&mut self, node: NodeId, at: u64) {
        self.restarting = None;
        let follows = matches!(
            self.trace.topology,
            Topology::Consensus | Topology::Replicated
        );
        for key in Self::keys_of(&self.leases, node) {
            let index = self.leases[&(node, key)];
            let mut kind = self.lanes[node as usize].spans[index].kind.clone();
            let SpanKind::Lease {
                token,
                fence,
                on_disk: true,
                ..
            } = kind
            else {
                continue;
            };
            if !follows {
                self.close_lease(at, node, key, LeaseEnd::NodeUp);
                if let SpanKind::Lease { on_disk, .. } = &mut kind {
                    *on_disk = false;
                }
                self.open_lease(at, node, kind);
                continue;
            }
            self.close_lease(at, node, key, LeaseEnd::BackAsFollower);
            // The fence of a consensus grant is its log index.
            if self.trace.topology == Topology::Consensus {
                let label = format!("logged {}", self.trace.token_name(token));
                let kind = SpanKind::Logged {
                    key,
                    token,
                    index: fence.unwrap_or(0),
                    row: 0,
                };
                let i = self.push_span(node, Span::new(at, self.trace.until_ms, kind, label));
                self.logged.insert((node, key), i);
            }
        }
    }

    /// `everysec`: the node came back holding `key` for `token` from an older flush: live
    /// again, with the fence and promise its last bar for `token` had.
    fn reopen_from_disk(&mut self, at: u64, node: NodeId, key: KeyId, token: Token) {
        let before = self.lanes[node as usize]
            .spans
            .iter()
            .rev()
            .find_map(|s| match s.kind {
                SpanKind::Lease {
                    key: k,
                    token: t,
                    fence,
                    promised_end_ms,
                    ..
                } if (k, t) == (key, token) => Some((fence, promised_end_ms)),
                _ => None,
            });
        let (fence, promised_end_ms) = before.unwrap_or((None, None));
        let kind = SpanKind::Lease {
            key,
            token,
            fence,
            row: 0,
            promised_end_ms,
            end: LeaseEnd::Horizon,
            took_over: false,
            on_disk: false,
        };
        self.open_lease(at, node, kind);
    }

    /// The store side ended `token`'s grant of `key`: the followers' logged copies of it
    /// end too.
    fn grant_ended(&mut self, at: u64, key: KeyId, token: Token) {
        self.ended.insert(token);
        let copies: Vec<NodeId> = self
            .logged
            .iter()
            .filter(|&(&(n, k), &i)| {
                k == key
                    && matches!(self.lanes[n as usize].spans[i].kind,
                        SpanKind::Logged { token: t, .. } if t == token)
            })
            .map(|(&(n, _), _)| n)
            .collect();
        for node in copies {
            self.close_logged(at, node, key);
        }
    }

    fn close_logged(&mut self, at: u64, node: NodeId, key: KeyId) {
        if let Some(index) = self.logged.remove(&(node, key)) {
            self.span_mut(node, index).end_ms = at;
        }
    }

    /// Message `msg` arrived (or was lost, for `reason`) at `at`.
    fn land(&mut self, msg: MsgId, at: u64, reason: Option<DropReason>) {
        if let Some(i) = self.in_flight.remove(&msg) {
            let m = &mut self.messages[i];
            m.end_ms = at;
            m.dropped = reason;
        }
    }

    fn close_waiting(&mut self, at: u64, node: NodeId, key: KeyId) {
        if let Some(index) = self.waiting.remove(&(node, key)) {
            self.span_mut(node, index).end_ms = at;
        }
    }

    fn lease_holder(&self, node: NodeId, key: KeyId) -> Option<Token> {
        let index = *self.leases.get(&(node, key))?;
        match self.lanes[node as usize].spans[index].kind {
            SpanKind::Lease { token, .. } => Some(token),
            _ => None,
        }
    }

    /// The safety violation the verdict reports for a write of `token` accepted at `at`.
    fn violation_at(&self, at: u64, token: Token) -> Option<Kind> {
        self.violating.get(&(at, token)).copied().or_else(|| {
            self.stale_from
                .get(&token)
                .filter(|&&first| first <= at)
                .map(|_| Kind::StaleWrite)
        })
    }

    fn push_claim(
        &mut self,
        at: u64,
        node: NodeId,
        key: KeyId,
        token: Token,
        stamp_ms: Option<i64>,
        label: String,
    ) {
        self.lanes[node as usize].marks.push(Mark {
            at_ms: at,
            kind: MarkKind::Claim {
                key,
                token,
                stamp_ms,
            },
            label,
        });
    }

    fn push_write(
        &mut self,
        at: u64,
        node: NodeId,
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        outcome: WriteOutcome,
    ) {
        let what = match outcome {
            WriteOutcome::Accepted => "accepted".to_string(),
            WriteOutcome::Violating(kind) => format!("accepted: {kind}"),
            WriteOutcome::Rejected { .. } => "rejected".to_string(),
        };
        let label = format!("{} {what}", self.grant_label(key, token, fence));
        self.lanes[node as usize].marks.push(Mark {
            at_ms: at,
            kind: MarkKind::Write {
                key,
                token,
                fence,
                outcome,
            },
            label,
        });
    }

    fn finish(mut self) -> Lanes {
        let horizon = self.trace.until_ms;
        if let Some((node, at)) = self.restarting {
            self.restarted(node, at);
        }
        // Messages still in flight at the horizon had nothing happen to them within the run,
        // except those held by TCP: they wait, drawn up to the horizon.
        let mut in_flight: HashSet<usize> = HashSet::new();
        for &i in self.in_flight.values() {
            let m = &mut self.messages[i];
            if m.held {
                m.end_ms = horizon;
            } else {
                in_flight.insert(i);
            }
        }
        self.messages = std::mem::take(&mut self.messages)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !in_flight.contains(i))
            .map(|(_, m)| m)
            .collect();
        // Leases nobody ended: they ran out when promised, or are still held.
        for ((node, _), index) in std::mem::take(&mut self.leases) {
            let span = self.span_mut(node, index);
            if let SpanKind::Lease {
                promised_end_ms: Some(p),
                end,
                ..
            } = &mut span.kind
                && *p < horizon
            {
                span.end_ms = *p;
                *end = LeaseEnd::RanOut;
            }
        }
        let needed = self.holders_needed();
        let held = self.lease_intervals();
        // `timestamp`: the store grants nothing, so no belief is backed or unbacked by it.
        let backed = self.trace.design != Design::Timestamp;
        for lane in &mut self.lanes {
            lane.spans.sort_by_key(|s| s.start_ms);
            lane.marks.sort_by_key(|m| m.at_ms);
            lane.rows = assign_rows(&mut lane.spans);
            lane.tracks = tracks(&lane.spans);
            lane.mark_times = Instants::new(
                lane.marks
                    .iter()
                    .map(|m| (m.at_ms, m.kind.class() as usize)),
            );
            for span in &mut lane.spans {
                span.end_label = end_label(self.trace, &span.kind);
                if let SpanKind::Belief {
                    token, lease_lost, ..
                } = &mut span.kind
                    && backed
                {
                    let leases = held.get(token).map(Vec::as_slice).unwrap_or(&[]);
                    *lease_lost =
                        lease_lost_from(self.trace, leases, needed, span.start_ms, span.end_ms);
                }
            }
        }
        let moments = self.moments();
        let legend = self.legend();
        let mut messages = std::mem::take(&mut self.messages);
        // Sends are recorded in time order; the sort only makes that a checked promise.
        messages.sort_by_key(|m| m.sent_ms);
        let flights = Intervals::new(messages.iter().map(|m| (m.sent_ms, m.end_ms)).collect());
        let held = (0..messages.len()).filter(|&i| messages[i].held).collect();
        let mut violations: Vec<usize> = (0..self.verdict.violations.len()).collect();
        violations.sort_by_key(|&i| self.verdict.violations[i].at_ms);
        let violation_times = Instants::new(violations.iter().map(|&i| {
            let v = &self.verdict.violations[i];
            (v.at_ms, ViolationClass::of(v.kind) as usize)
        }));
        Lanes {
            until_ms: horizon,
            lanes: self.lanes,
            partitions: self.partitions,
            moments,
            legend,
            messages,
            flights,
            held,
            violations,
            violation_times,
        }
    }

    fn legend(&self) -> Vec<(Swatch, u64)> {
        let spans = self.lanes.iter().flat_map(|l| &l.spans).flat_map(|s| {
            let lost = match &s.kind {
                SpanKind::Belief {
                    lease_lost: Some(l),
                    ..
                } => Some((Swatch::LeaseLost, l.at_ms)),
                _ => None,
            };
            let swatch = match s.kind {
                SpanKind::Belief { .. } => Swatch::Belief,
                SpanKind::Lease { on_disk: true, .. } => Swatch::OnDisk,
                SpanKind::Lease {
                    took_over: true, ..
                } => Swatch::TookOver,
                SpanKind::Lease { .. } => Swatch::Lease,
                SpanKind::Logged { .. } => Swatch::Logged,
                SpanKind::Waiting { .. } => Swatch::Waiting,
                SpanKind::Paused => Swatch::Paused,
                SpanKind::Stalled => Swatch::Stalled,
                SpanKind::Crashed => Swatch::Crashed,
                SpanKind::SlowLink { .. } => Swatch::SlowLink,
            };
            std::iter::once((swatch, s.start_ms)).chain(lost)
        });
        let marks = self.lanes.iter().flat_map(|l| &l.marks).map(|m| {
            let swatch = match m.kind.class() {
                MarkClass::Accepted => Swatch::Accepted,
                MarkClass::Rejected => Swatch::Rejected,
                MarkClass::Violating => Swatch::Violating,
                MarkClass::ClockJump => Swatch::ClockJump,
                MarkClass::Leader => Swatch::Leader,
                MarkClass::SteppedDown => Swatch::SteppedDown,
                MarkClass::Claim => Swatch::Claim,
                MarkClass::Hold => Swatch::Hold,
            };
            (swatch, m.at_ms)
        });
        let partitions = self
            .partitions
            .iter()
            .map(|p| (Swatch::Partition, p.start_ms));
        // The first message and the first loss are enough: the legend needs no more.
        let sent = self.messages.first().map(|m| (Swatch::Message, m.sent_ms));
        let held = self
            .messages
            .iter()
            .filter(|m| m.held)
            .map(|m| (Swatch::Held, m.sent_ms))
            .min_by_key(|&(_, at)| at);
        let lost = self
            .messages
            .iter()
            .filter(|m| m.dropped.is_some())
            .map(|m| (Swatch::Dropped, m.end_ms))
            .min_by_key(|&(_, at)| at);
        let mut legend: Vec<(Swatch, u64)> = spans
            .chain(marks)
            .chain(partitions)
            .chain(sent)
            .chain(held)
            .chain(lost)
            .collect();
        // Sorting by swatch, then time, puts each swatch's first appearance first.
        legend.sort_unstable();
        legend.dedup_by_key(|(swatch, _)| *swatch);
        legend
    }

    /// How many store nodes must hold a grant for it to be held: a majority of N independent
    /// nodes for Redlock; one otherwise (a consensus store records a grant only once its
    /// leader committed it, a replicated one on its primary).
    fn holders_needed(&self) -> usize {
        match self.trace.topology {
            Topology::Redlock => self.trace.store_nodes() / 2 + 1,
            Topology::Single | Topology::Replicated | Topology::Consensus => 1,
        }
    }

    /// Every store node's leases, per token: (start, end, how it ended).
    fn lease_intervals(&self) -> BTreeMap<Token, Vec<(u64, u64, LeaseEnd)>> {
        let mut held: BTreeMap<Token, Vec<(u64, u64, LeaseEnd)>> = BTreeMap::new();
        for span in self.lanes.iter().flat_map(|l| &l.spans) {
            if let SpanKind::Lease { token, end, .. } = span.kind {
                held.entry(token)
                    .or_default()
                    .push((span.start_ms, span.end_ms, end));
            }
        }
        held
    }

    fn moments(&self) -> Vec<u64> {
        let horizon = self.trace.until_ms;
        let mut moments: Vec<u64> = self
            .lanes
            .iter()
            .flat_map(|l| {
                let spans = l.spans.iter().flat_map(|s| [s.start_ms, s.end_ms]);
                spans.chain(l.marks.iter().map(|m| m.at_ms))
            })
            .chain(self.partitions.iter().flat_map(|p| [p.start_ms, p.end_ms]))
            .chain(self.verdict.violations.iter().map(|v| v.at_ms))
            .filter(|&t| t < horizon)
            .collect();
        moments.sort_unstable();
        moments.dedup();
        moments
    }
}

fn set_lease_end(span: &mut Span, new_end: LeaseEnd) {
    if let SpanKind::Lease { end, .. } = &mut span.kind {
        *end = new_end;
    }
}

/// When, within a belief from `start` to `end`, fewer than `needed` store nodes held its grant,
/// and why: the lease of the grant that ended last before that moment.
fn lease_lost_from(
    trace: &Trace,
    leases: &[(u64, u64, LeaseEnd)],
    needed: usize,
    start: u64,
    end: u64,
) -> Option<LeaseLost> {
    let intervals: Vec<(u64, u64)> = leases.iter().map(|&(s, e, _)| (s, e)).collect();
    let at_ms = lost_at(&intervals, needed, start, end)?;
    let cause = leases
        .iter()
        .filter(|&&(_, e, _)| e <= at_ms)
        .max_by_key(|&&(_, e, _)| e)
        .map(|&(_, _, how)| how);
    let label = match cause {
        Some(LeaseEnd::Expired) => "lease expired".to_string(),
        Some(LeaseEnd::RanOut) => "lease ran out".to_string(),
        Some(LeaseEnd::Removed { by }) => format!("removed by {}", trace.token_name(by)),
        Some(LeaseEnd::Forgot) => "store forgot it".to_string(),
        Some(LeaseEnd::Forced) => "an operator deleted it".to_string(),
        Some(LeaseEnd::Replaced { by }) => format!("overwritten by {}", trace.token_name(by)),
        Some(LeaseEnd::BackAsFollower) => "its node came back as a follower".to_string(),
        Some(LeaseEnd::Horizon | LeaseEnd::NodeDown | LeaseEnd::NodeUp) | None => {
            "not held by the store".to_string()
        }
    };
    Some(LeaseLost {
        at_ms,
        cause,
        label,
    })
}

/// How a span ended, in a word or three.
fn end_label(trace: &Trace, kind: &SpanKind) -> String {
    match *kind {
        SpanKind::Belief {
            let_go: Some(reason),
            ..
        } => match reason {
            LetGoReason::Released => "released",
            LetGoReason::Rejected => "write rejected",
            LetGoReason::LeaseOver => "saw lease over",
            LetGoReason::Crashed => "crashed",
            LetGoReason::LockLost => "stopped: lock lost",
        }
        .to_string(),
        SpanKind::Lease { token, end, .. } => match end {
            LeaseEnd::Expired => "expired".to_string(),
            LeaseEnd::Removed { by } if by == token => "released".to_string(),
            LeaseEnd::Removed { by } => format!("removed by {}", trace.token_name(by)),
            LeaseEnd::Forgot => "forgotten".to_string(),
            LeaseEnd::Forced => "force-released".to_string(),
            LeaseEnd::Replaced { by } => format!("overwritten by {}", trace.token_name(by)),
            LeaseEnd::RanOut => "ran out".to_string(),
            LeaseEnd::BackAsFollower => "back, not leading".to_string(),
            // The bar goes on in the other style at once.
            LeaseEnd::Horizon | LeaseEnd::NodeDown | LeaseEnd::NodeUp => String::new(),
        },
        _ => String::new(),
    }
}

/// Puts each belief or lease bar on the first row free at its start; returns the row count.
/// `spans` must be sorted by start.
fn assign_rows(spans: &mut [Span]) -> u32 {
    let bars: Vec<usize> = (0..spans.len())
        .filter(|&i| spans[i].kind.bar_row().is_some())
        .collect();
    let rows = pack(spans, bars);
    for (r, members) in rows.iter().enumerate() {
        for &i in members {
            if let SpanKind::Belief { row, .. }
            | SpanKind::Lease { row, .. }
            | SpanKind::Logged { row, .. } = &mut spans[i].kind
            {
                *row = r as u32;
            }
        }
    }
    rows.len().max(1) as u32
}

/// Puts each of the spans `ids` (sorted by start) into the first row that is free at its
/// start, so no row holds two that overlap; returns the rows.
fn pack(spans: &[Span], ids: impl IntoIterator<Item = usize>) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for i in ids {
        let free = rows.iter().position(|row| {
            row.last()
                .is_some_and(|&j| spans[j].end_ms <= spans[i].start_ms)
        });
        match free {
            Some(r) => rows[r].push(i),
            None => rows.push(vec![i]),
        }
    }
    rows
}

/// Splits a lane's spans (sorted by start, rows assigned) into tracks: the shadings, then
/// the waits, then one per bar row, each packed so that none overlaps another.
fn tracks(spans: &[Span]) -> Vec<Track> {
    let of = |keep: &dyn Fn(&SpanKind) -> bool| {
        pack(spans, (0..spans.len()).filter(|&i| keep(&spans[i].kind)))
    };
    let shadings = of(&|k| {
        matches!(
            k,
            SpanKind::Paused | SpanKind::Stalled | SpanKind::Crashed | SpanKind::SlowLink { .. }
        )
    });
    let waits = of(&|k| matches!(k, SpanKind::Waiting { .. }));
    let rows = spans.iter().filter_map(|s| s.kind.bar_row()).max();
    let bars = (0..rows.map_or(0, |r| r + 1)).map(|r| {
        (0..spans.len())
            .filter(|&i| spans[i].kind.bar_row() == Some(r))
            .collect::<Vec<_>>()
    });
    shadings
        .into_iter()
        .chain(waits)
        .chain(bars)
        .map(|ids| Track {
            times: Intervals::new(
                ids.iter()
                    .map(|&i| (spans[i].start_ms, spans[i].end_ms))
                    .collect(),
            ),
            spans: ids,
        })
        .collect()
}

/// The first time in `[start, end)` at which fewer than `needed` of `intervals` (half-open)
/// cover it, if any.
fn lost_at(intervals: &[(u64, u64)], needed: usize, start: u64, end: u64) -> Option<u64> {
    let holders_at = |t: u64| intervals.iter().filter(|&&(s, e)| s <= t && t < e).count();
    // The count only drops at an interval's end, so checking those (and the start) suffices.
    let mut candidates: Vec<u64> = intervals.iter().map(|&(_, e)| e).collect();
    candidates.push(start);
    candidates.sort_unstable();
    candidates
        .into_iter()
        .filter(|&t| start <= t && t < end)
        .find(|&t| holders_at(t) < needed)
}

impl Span {
    /// The hover text: what the span is, when, and how it ended — as far as a student
    /// watching at `now_ms` may know: nothing after it is told.
    pub fn details(&self, trace: &Trace, node: NodeId, now_ms: u64) -> String {
        let who = trace.node_name(node);
        let ended = self.end_ms <= now_ms;
        let when = if ended {
            format!(
                "from {} to {} ({})",
                fmt_ms(self.start_ms),
                fmt_ms(self.end_ms),
                fmt_ms(self.end_ms - self.start_ms)
            )
        } else {
            format!(
                "since {} ({} so far)",
                fmt_ms(self.start_ms),
                fmt_ms(now_ms.saturating_sub(self.start_ms))
            )
        };
        match self.kind {
            SpanKind::Belief {
                key,
                token,
                fence,
                let_go,
                ref lease_lost,
                ..
            } => {
                let mut text = format!(
                    "{who} believes it holds \"{}\" as {}{}\n{when}",
                    trace.key_name(key),
                    trace.token_name(token),
                    fence
                        .map(|f| format!(" with fence {f}"))
                        .unwrap_or_default()
                );
                if ended {
                    text.push_str(match let_go {
                        Some(LetGoReason::Released) => "\nthen it finished and released the lock",
                        Some(LetGoReason::Rejected) => "\nthen the resource rejected its write",
                        Some(LetGoReason::LeaseOver) => "\nthen it saw its lease had run out",
                        Some(LetGoReason::Crashed) => "\nthen it crashed",
                        Some(LetGoReason::LockLost) => {
                            "\nthen it learned its lease was gone and stopped"
                        }
                        None => "\nand still does at the end of the run",
                    });
                }
                if let Some(lost) = lease_lost.as_ref().filter(|l| l.at_ms <= now_ms) {
                    text.push_str(&format!(
                        "\nBut the store stopped holding it at {} ({}): {} believing in a lock it no longer had.",
                        fmt_ms(lost.at_ms),
                        lost.label,
                        fmt_ms(self.end_ms.min(now_ms) - lost.at_ms)
                    ));
                }
                text
            }
            SpanKind::Lease {
                key,
                token,
                fence,
                promised_end_ms,
                end,
                took_over,
                on_disk,
                ..
            } => {
                let grant = format!(
                    "\"{}\" for {}{}",
                    trace.key_name(key),
                    trace.token_name(token),
                    fence.map(|f| format!(" (fence {f})")).unwrap_or_default()
                );
                let mut text = if on_disk {
                    format!(
                        "{who} is down {when}.\nOn its disk it still has {grant}, frozen: a \
                         down node grants nothing and answers no one."
                    )
                } else if took_over {
                    format!(
                        "{who} holds {grant}\n{when}\nAs the new leader it took this lease \
                         over from its log, where an earlier leader had decided it, and \
                         restarted its countdown in full (as etcd does): not a new grant."
                    )
                } else {
                    format!("{who} holds {grant}\n{when}")
                };
                match promised_end_ms {
                    Some(p) => text.push_str(&format!("\nlease promised until {}", fmt_ms(p))),
                    None => text.push_str("\nno expiry"),
                }
                if !ended {
                    return text;
                }
                text.push_str(&match end {
                    LeaseEnd::Expired => "\nended: the lease expired".to_string(),
                    LeaseEnd::Removed { by } if by == token => {
                        "\nended: its holder released it".to_string()
                    }
                    LeaseEnd::Removed { by } => format!(
                        "\nended: removed by {}'s release — not its owner",
                        trace.token_name(by)
                    ),
                    LeaseEnd::Forgot => "\nended: the node restarted and forgot it".to_string(),
                    LeaseEnd::Forced => "\nended: an operator deleted the key".to_string(),
                    LeaseEnd::Replaced { by } => {
                        format!("\nended: granted to {} over it", trace.token_name(by))
                    }
                    LeaseEnd::RanOut => "\nended: the lease ran out".to_string(),
                    LeaseEnd::Horizon if on_disk => {
                        "\nstill down at the end of the run".to_string()
                    }
                    LeaseEnd::Horizon => "\nstill held at the end of the run".to_string(),
                    LeaseEnd::NodeDown => "\nthen the node crashed".to_string(),
                    LeaseEnd::NodeUp => {
                        "\nthen the node restarted with it on disk: it holds it again".to_string()
                    }
                    LeaseEnd::BackAsFollower => format!(
                        "\nthen the node restarted as {}: a newer one decides now",
                        if trace.topology == Topology::Replicated {
                            "a replica"
                        } else {
                            "a follower"
                        }
                    ),
                });
                text
            }
            SpanKind::Logged {
                key, token, index, ..
            } => {
                let mut text = format!(
                    "{who} has logged {}'s acquire of \"{}\" (log entry {index}) {when}.\nA \
                     follower's copy: the leader decides a grant once a majority of the nodes \
                     has logged it, so a new leader is sure to know it (Raft §5.3–5.4).",
                    trace.token_name(token),
                    trace.key_name(key)
                );
                if ended && self.end_ms < trace.until_ms {
                    text.push_str("\nIt ended when the grant did, or this node took it over.");
                }
                text
            }
            SpanKind::Waiting {
                key,
                attempts,
                ref refusals,
            } => {
                let mut text = format!("{who} wants \"{}\" {when}", trace.key_name(key));
                if let Some(r) = refusals.iter().rev().find(|r| r.at_ms <= now_ms) {
                    text.push_str(&format!(
                        "\nrefused by {} since {}: {}",
                        trace.node_name(r.node),
                        fmt_ms(r.at_ms),
                        r.why.phrase(|t| trace.token_name(t))
                    ));
                }
                if ended {
                    text.push_str(&format!(
                        "\n{attempts} attempt{} until it got it",
                        if attempts == 1 { "" } else { "s" }
                    ));
                }
                text
            }
            SpanKind::Paused => format!(
                "{who} is paused (like a long GC pause) {when}:\nit handles nothing; its timers fire late"
            ),
            SpanKind::Stalled => format!(
                "{who} is stalled {when}:\nthe process lives, but its work does not advance"
            ),
            SpanKind::Crashed => format!("{who} is down {when}"),
            SpanKind::SlowLink { to, extra_ms } => format!(
                "messages from {who} to {} take {} longer {when}",
                trace.node_name(to),
                fmt_ms(extra_ms)
            ),
        }
    }
}

impl Mark {
    /// The hover text.
    pub fn details(&self, trace: &Trace, node: NodeId) -> String {
        let at = fmt_ms(self.at_ms);
        match self.kind {
            MarkKind::Write {
                key,
                token,
                fence,
                outcome,
            } => {
                let from = format!(
                    "a write to \"{}\" from {}{}",
                    trace.key_name(key),
                    trace.token_name(token),
                    fence
                        .map(|f| format!(" with fence {f}"))
                        .unwrap_or_default()
                );
                match outcome {
                    WriteOutcome::Accepted => format!("At {at} the resource accepted {from}."),
                    WriteOutcome::Violating(kind) => format!(
                        "At {at} the resource accepted {from}.\nThe checker reports it as {kind}: the data is now wrong."
                    ),
                    WriteOutcome::Rejected {
                        reason: RejectReason::StaleToken,
                        highest_fence,
                    } => format!(
                        "At {at} the resource rejected {from}:\nit had already accepted fence {}.",
                        highest_fence.map_or("?".to_string(), |h| h.to_string())
                    ),
                    WriteOutcome::Rejected {
                        reason: RejectReason::VersionMoved,
                        ..
                    } => format!(
                        "At {at} the resource rejected {from}:\nthe record changed since the writer read it."
                    ),
                }
            }
            MarkKind::Claim {
                key,
                token,
                stamp_ms: Some(stamp),
            } => format!(
                "At {at} {} recorded {}'s claim on \"{}\", stamped {} by {}'s own clock.\n\
                 The store decides nothing: each claimant reads the claims and goes in if its \
                 stamp is the earliest.",
                trace.node_name(node),
                trace.token_name(token),
                trace.key_name(key),
                fmt_clock_ms(stamp),
                trace.node_name(token.worker)
            ),
            MarkKind::Claim {
                key,
                token,
                stamp_ms: None,
            } => format!(
                "At {at} {} deleted {}'s claim on \"{}\".",
                trace.node_name(node),
                trace.token_name(token),
                trace.key_name(key)
            ),
            MarkKind::Hold {
                key,
                token,
                count,
                entered: true,
            } => format!(
                "At {at} {} took \"{}\" again from nested code, as {}: the lock is reentrant, \
                 so it goes straight in, and its hold count is now {count}.",
                trace.node_name(node),
                trace.key_name(key),
                trace.token_name(token),
            ),
            MarkKind::Hold {
                key,
                token,
                count,
                entered: false,
            } => format!(
                "At {at} {}'s nested section released \"{}\" once ({}): its hold count is now \
                 {count}, and the lock stays {}'s until the count is zero.",
                trace.node_name(node),
                trace.key_name(key),
                trace.token_name(token),
                trace.node_name(node),
            ),
            MarkKind::ClockJump { .. } => {
                format!(
                    "At {at} the wall clock of {} stepped: {}",
                    trace.node_name(node),
                    self.label
                )
            }
            MarkKind::BecameLeader { term, at_start } => {
                let who = trace.node_name(node);
                let (what, round) = match trace.topology {
                    Topology::Replicated => ("primary", "epoch"),
                    _ => ("leader", "term"),
                };
                if at_start {
                    format!(
                        "{who} is the {what} from the start ({round} {term}): it decides the \
                         grants, and the others copy them"
                    )
                } else {
                    format!("At {at} {who} became the {what} ({round} {term})")
                }
            }
            MarkKind::SteppedDown { term } => {
                let (what, to) = match trace.topology {
                    Topology::Replicated => ("primary", "a replica"),
                    _ => ("leader", "a follower"),
                };
                format!(
                    "At {at} {} stopped being the {what} and became {to}: it saw a newer \
                     {} ({term})",
                    trace.node_name(node),
                    if trace.topology == Topology::Replicated {
                        "epoch"
                    } else {
                        "term"
                    }
                )
            }
        }
    }
}

impl Message {
    /// The hover text: who sent what to whom, and what became of it, as far as a student
    /// watching at `now_ms` may know.
    pub fn details(&self, trace: &Trace, now_ms: u64) -> String {
        // Worded, not "A → B": the default fonts have no arrow glyph.
        let head = format!(
            "from {} to {}: \"{}\"\nsent at {}",
            trace.node_name(self.from),
            trace.node_name(self.to),
            self.what,
            fmt_ms(self.sent_ms)
        );
        let head = if self.held && self.left_ms > self.sent_ms && self.left_ms <= now_ms {
            format!(
                "{head}; its link was cut, so TCP held it and sent it again at {}",
                fmt_ms(self.left_ms)
            )
        } else if self.held {
            format!("{head}; its link is cut, so TCP holds it and keeps retransmitting")
        } else {
            head
        };
        let arrived = self.dropped.is_none() && (!self.held || self.left_ms > self.sent_ms);
        if self.end_ms > now_ms || (self.dropped.is_none() && !arrived) {
            return format!("{head}, still on its way");
        }
        let took = fmt_ms(self.end_ms - self.sent_ms);
        match self.dropped {
            None => format!("{head}, arrived at {} ({took} later)", fmt_ms(self.end_ms)),
            Some(reason) => {
                let why = match reason {
                    DropReason::Loss => "the network lost it",
                    DropReason::Partition => "a partition cut the link",
                    DropReason::Crashed => "the receiver was down",
                    DropReason::Reset => "its sender crashed before it got through",
                    DropReason::GaveUp => "TCP gave up on it and dropped the connection",
                };
                format!("{head}, lost at {}: {why}", fmt_ms(self.end_ms))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Violation;
    use crate::scenario;

    /// Step 5 of the course: A pauses past its lease, B takes over, the fence turns A away.
    const STEP5: &str = include_str!("../../assets/scenarios/step5-fencing-token.toml");

    /// The engine's run of [`STEP5`], and the checker's verdict on it.
    fn step5_run() -> (Trace, Verdict) {
        let scenario = scenario::parse(STEP5).expect("the step-5 scenario parses");
        let crate::Run { trace, verdict } = crate::run(&scenario, scenario.seed);
        (trace, verdict)
    }

    const A: NodeId = 0;
    const B: NodeId = 1;
    const STORE1: NodeId = 2;
    const RESOURCE: NodeId = 3;

    const B1: Token = Token { worker: B, seq: 1 };

    fn token(worker: NodeId) -> Token {
        Token { worker, seq: 1 }
    }

    fn step5() -> Lanes {
        let (trace, verdict) = step5_run();
        Lanes::build(&trace, &verdict)
    }

    fn spans(lanes: &Lanes, node: NodeId) -> Vec<(u64, u64, &str)> {
        lanes.lanes[node as usize]
            .spans
            .iter()
            .map(|s| (s.start_ms, s.end_ms, s.label.as_str()))
            .collect()
    }

    #[test]
    fn one_lane_per_node_in_trace_order() {
        let lanes = step5();
        let names: Vec<_> = lanes.lanes.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "store1", "resource"]);
        assert_eq!(lanes.lanes[STORE1 as usize].role, Role::Store);
        assert_eq!(lanes.until_ms, 20_000);
    }

    #[test]
    fn a_believes_long_after_its_lease_expired() {
        let lanes = step5();
        assert_eq!(
            spans(&lanes, A),
            [
                (0, 3, "waiting"),
                (3, 17_008, "A#1 · fence 1"),
                (1_000, 16_000, "paused 15 000 ms")
            ]
        );
        let a = &lanes.lanes[A as usize].spans[1];
        assert_eq!(
            a.kind,
            SpanKind::Belief {
                key: 0,
                token: token(A),
                fence: Some(1),
                row: 0,
                let_go: Some(LetGoReason::Rejected),
                lease_lost: Some(LeaseLost {
                    at_ms: 10_002,
                    cause: Some(LeaseEnd::Expired),
                    label: "lease expired".to_string(),
                }),
            }
        );
        assert_eq!(a.end_label, "write rejected");
        assert!(matches!(
            lanes.lanes[A as usize].spans[2].kind,
            SpanKind::Paused
        ));
    }

    #[test]
    fn b_lets_go_before_its_lease_ends() {
        let lanes = step5();
        assert_eq!(
            spans(&lanes, B),
            [
                (10_100, 10_104, "waiting"),
                (10_104, 11_113, "B#1 · fence 2")
            ]
        );
        let SpanKind::Belief { lease_lost, .. } = &lanes.lanes[B as usize].spans[1].kind else {
            panic!("B's second span is a belief");
        };
        assert_eq!(*lease_lost, None);
    }

    #[test]
    fn store_leases_end_by_expiry_and_release() {
        let lanes = step5();
        assert_eq!(
            spans(&lanes, STORE1),
            [
                (2, 10_002, "A#1 · fence 1"),
                (10_101, 11_115, "B#1 · fence 2")
            ]
        );
        let ends: Vec<_> = lanes.lanes[STORE1 as usize]
            .spans
            .iter()
            .map(|s| match s.kind {
                SpanKind::Lease {
                    end,
                    promised_end_ms,
                    row,
                    ..
                } => (end, promised_end_ms, row),
                _ => panic!("store lanes hold leases"),
            })
            .collect();
        assert_eq!(
            ends,
            [
                (LeaseEnd::Expired, Some(10_002), 0),
                (LeaseEnd::Removed { by: token(B) }, Some(20_101), 0)
            ]
        );
        assert_eq!(lanes.lanes[STORE1 as usize].rows, 1);
        let end_labels: Vec<_> = lanes.lanes[STORE1 as usize]
            .spans
            .iter()
            .map(|s| s.end_label.as_str())
            .collect();
        assert_eq!(end_labels, ["expired", "released"]);
    }

    #[test]
    fn resource_marks_accepted_and_fenced_off_writes() {
        let lanes = step5();
        let marks: Vec<_> = lanes.lanes[RESOURCE as usize]
            .marks
            .iter()
            .map(|m| (m.at_ms, m.kind.clone(), m.label.as_str()))
            .collect();
        assert_eq!(
            marks,
            [
                (
                    11_110,
                    MarkKind::Write {
                        key: 0,
                        token: token(B),
                        fence: Some(2),
                        outcome: WriteOutcome::Accepted
                    },
                    "B#1 · fence 2 accepted"
                ),
                (
                    17_007,
                    MarkKind::Write {
                        key: 0,
                        token: token(A),
                        fence: Some(1),
                        outcome: WriteOutcome::Rejected {
                            reason: RejectReason::StaleToken,
                            highest_fence: Some(2)
                        }
                    },
                    "A#1 · fence 1 rejected"
                ),
            ]
        );
    }

    #[test]
    fn the_legend_lists_what_the_run_shows() {
        use Swatch::*;
        assert_eq!(
            step5().legend,
            [
                (Belief, 3),
                (Lease, 2),
                (LeaseLost, 10_002),
                (Waiting, 0),
                (Paused, 1_000),
                (Accepted, 11_110),
                (Rejected, 17_007),
                (Message, 0)
            ]
        );
    }

    #[test]
    fn a_write_the_verdict_names_is_violating() {
        let (trace, mut verdict) = step5_run();
        verdict.violations.push(Violation {
            kind: Kind::StaleWrite,
            at_ms: 11_110,
            nodes: vec![B],
            grants: vec![token(B)],
            explanation: String::new(),
        });
        let lanes = Lanes::build(&trace, &verdict);
        let MarkKind::Write { outcome, .. } = lanes.lanes[RESOURCE as usize].marks[0].kind else {
            panic!("a write");
        };
        assert_eq!(outcome, WriteOutcome::Violating(Kind::StaleWrite));
    }

    #[test]
    fn a_lock_removed_by_another_names_who_removed_it() {
        let (mut trace, verdict) = step5_run();
        for event in &mut trace.events {
            if let EventKind::Expired { key, token } = event.kind {
                event.kind = EventKind::Removed {
                    key,
                    holder: token,
                    by: B1,
                };
            }
        }
        let lanes = Lanes::build(&trace, &verdict);
        assert_eq!(
            lanes.lanes[STORE1 as usize].spans[0].end_label,
            "removed by B#1"
        );
        let SpanKind::Belief { lease_lost, .. } = &lanes.lanes[A as usize].spans[1].kind else {
            panic!("A's second span is a belief");
        };
        assert_eq!(
            lease_lost.as_ref().map(|l| l.label.as_str()),
            Some("removed by B#1")
        );
    }

    #[test]
    fn moments_are_the_times_something_changes() {
        assert_eq!(
            step5().moments,
            [
                0, 2, 3, 1_000, 10_002, 10_100, 10_101, 10_104, 11_110, 11_113, 11_115, 16_000,
                17_007, 17_008
            ]
        );
    }

    #[test]
    fn hover_text_tells_the_lesson() {
        let lanes = step5();
        let (trace, _) = step5_run();
        let a = lanes.lanes[A as usize].spans[1].details(&trace, A, 20_000);
        assert!(
            a.contains("stopped holding it at 10 002 ms (lease expired): 7 006 ms"),
            "{a}"
        );
        assert!(a.contains("rejected its write"), "{a}");
        let rejected = lanes.lanes[RESOURCE as usize].marks[1].details(&trace, RESOURCE);
        assert!(rejected.contains("already accepted fence 2"), "{rejected}");
    }

    #[test]
    fn hover_text_tells_nothing_past_the_playhead() {
        let lanes = step5();
        let (trace, _) = step5_run();
        let a = lanes.lanes[A as usize].spans[1].details(&trace, A, 12_000);
        assert!(a.contains("since 3 ms (11 997 ms so far)"), "{a}");
        assert!(a.contains("(lease expired): 1 998 ms"), "{a}");
        assert!(!a.contains("17 008") && !a.contains("rejected"), "{a}");
        let lease = lanes.lanes[STORE1 as usize].spans[1].details(&trace, STORE1, 11_000);
        assert!(!lease.contains("ended"), "{lease}");
        let early = lanes.lanes[A as usize].spans[1].details(&trace, A, 9_000);
        assert!(!early.contains("stopped holding"), "{early}");
    }

    #[test]
    fn overlapping_bars_get_their_own_rows() {
        let bar = |start_ms, end_ms| Span {
            start_ms,
            end_ms,
            kind: SpanKind::Lease {
                key: 0,
                token: token(A),
                fence: None,
                row: 9,
                promised_end_ms: None,
                end: LeaseEnd::Horizon,
                took_over: false,
                on_disk: false,
            },
            label: String::new(),
            end_label: String::new(),
        };
        let mut bars = [bar(0, 10), bar(5, 20), bar(10, 30), bar(20, 25)];
        assert_eq!(assign_rows(&mut bars), 2);
        let rows: Vec<_> = bars
            .iter()
            .map(|s| match s.kind {
                SpanKind::Lease { row, .. } => row,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(rows, [0, 1, 0, 1]);
    }

    #[test]
    fn redlock_grant_is_lost_when_the_majority_goes() {
        // Held on three of five nodes; the first to go leaves two, below the majority of three.
        let held = [(0, 50), (0, 80), (0, 100)];
        assert_eq!(lost_at(&held, 3, 10, 200), Some(50));
        assert_eq!(lost_at(&held, 1, 10, 200), Some(100));
        assert_eq!(lost_at(&held, 1, 10, 90), None);
        assert_eq!(lost_at(&[], 1, 10, 90), Some(10));
    }

    /// The lanes of a scenario from the library, as the engine and the checker make them.
    fn engine_run(source: &str) -> (Trace, Lanes) {
        let scenario = crate::scenario::parse(source).expect("a valid scenario");
        let crate::Run { trace, verdict } = crate::run(&scenario, scenario.seed);
        let lanes = Lanes::build(&trace, &verdict);
        (trace, lanes)
    }

    const CONSENSUS: &str = include_str!("../../assets/scenarios/step6-consensus-failover.toml");

    #[test]
    fn a_reentrant_holder_shows_its_hold_count_rise_and_fall() {
        let (trace, lanes) = engine_run(include_str!(
            "../../assets/scenarios/step7-nested-reentrant.toml"
        ));
        let a = trace.nodes.iter().position(|n| n.name == "A").unwrap();
        let holds: Vec<(u32, bool, &str)> = lanes.lanes[a]
            .marks
            .iter()
            .filter_map(|m| match m.kind {
                MarkKind::Hold { count, entered, .. } => Some((count, entered, m.label.as_str())),
                _ => None,
            })
            .collect();
        assert_eq!(holds, [(2, true, "holds ×2"), (1, false, "holds ×1")]);
        let first = lanes.lanes[a]
            .marks
            .iter()
            .find(|m| matches!(m.kind, MarkKind::Hold { .. }))
            .unwrap();
        assert!(
            first
                .details(&trace, a as NodeId)
                .contains("hold count is now 2")
        );
        assert!(lanes.legend.iter().any(|(s, _)| *s == Swatch::Hold));
    }

    #[test]
    fn a_write_held_by_tcp_waits_then_lands_and_its_partition_ends() {
        let (trace, lanes) = engine_run(include_str!(
            "../../assets/cases/partition-holds-write-until-heal.toml"
        ));
        let held: Vec<&Message> = lanes.held.iter().map(|&i| &lanes.messages[i]).collect();
        let write = held
            .iter()
            .find(|m| m.what.starts_with("write"))
            .expect("A's write is held");
        // Sent at 1 008 ms into the cut, sent again at + 12 600 ms, after the heal at 8 990.
        assert_eq!((write.sent_ms, write.left_ms), (1_008, 13_608));
        assert!(write.end_ms > write.left_ms && write.dropped.is_none());
        assert!(write.details(&trace, 20_000).contains("TCP held it"));
        assert_eq!(
            lanes.partitions[0].end_ms, 8_990,
            "the cut ends when it heals"
        );
    }

    #[test]
    fn messages_fly_from_send_to_arrival_or_loss() {
        let (trace, lanes) = engine_run(CONSENSUS);
        let store1 = trace.nodes.iter().position(|n| n.name == "store1").unwrap() as NodeId;
        assert!(lanes.messages.is_sorted_by_key(|m| m.sent_ms));
        assert!(lanes.messages.iter().all(|m| m.end_ms >= m.sent_ms));
        // store1 crashes at 50 ms: what is sent to it afterwards is lost.
        let lost = lanes
            .messages
            .iter()
            .find(|m| m.to == store1 && m.sent_ms > 50)
            .expect("messages to the crashed leader");
        assert_eq!(lost.dropped, Some(DropReason::Crashed));
        let swatches: Vec<Swatch> = lanes.legend.iter().map(|&(s, _)| s).collect();
        assert!(swatches.contains(&Swatch::Message) && swatches.contains(&Swatch::Dropped));
    }

    #[test]
    fn a_wait_tells_why_the_store_refuses_as_far_as_the_playhead() {
        let (trace, lanes) = engine_run(include_str!(
            "../../assets/cases/isolated-leader-steps-down.toml"
        ));
        let b = trace.nodes.iter().position(|n| n.name == "B").expect("B") as NodeId;
        let wait = lanes.lanes[b as usize]
            .spans
            .iter()
            .find(|s| matches!(s.kind, SpanKind::Waiting { .. }))
            .expect("B waits");
        let hover = |now_ms| wait.details(&trace, b, now_ms);
        assert!(!hover(1_001).contains("refused"), "{}", hover(1_001));
        assert!(hover(1_010).contains("refused by store1 since 1 002 ms: held by A#1"));
        // Cut off from the majority, store1 says so until it steps down; then the new
        // leader refuses B while A's lease lasts.
        assert!(hover(1_200).contains("refused by store1 since 1 066 ms: no majority"));
        assert!(
            hover(6_000).contains("refused by store2"),
            "{}",
            hover(6_000)
        );
        assert!(hover(6_000).ends_with("held by A#1"), "{}", hover(6_000));
    }

    #[test]
    fn store_lanes_mark_who_leads() {
        let (trace, lanes) = engine_run(CONSENSUS);
        let roles = |name: &str| -> Vec<(u64, String)> {
            let lane = lanes.lanes.iter().find(|l| l.name == name).unwrap();
            lane.marks
                .iter()
                .filter(|m| m.kind.class() == MarkClass::Leader)
                .map(|m| (m.at_ms, m.label.clone()))
                .collect()
        };
        assert_eq!(roles("store1"), [(0, "leader · term 1".to_string())]);
        let store2 = roles("store2");
        assert_eq!(store2.len(), 1, "{store2:?}");
        assert_eq!(store2[0].1, "leader · term 2");
        let store1 = trace.nodes.iter().position(|n| n.name == "store1").unwrap();
        let first = &lanes.lanes[store1].marks[0];
        assert!(
            first
                .details(&trace, store1 as NodeId)
                .contains("from the start")
        );
    }

    /// The outcome of each write the resource received, in time order, with its writer.
    fn write_outcomes(trace: &Trace, lanes: &Lanes) -> Vec<(u64, String, WriteOutcome)> {
        let resource = trace.nodes.iter().position(|n| n.role == Role::Resource);
        lanes.lanes[resource.expect("a resource")]
            .marks
            .iter()
            .filter_map(|m| match m.kind {
                MarkKind::Write { token, outcome, .. } => {
                    Some((m.at_ms, trace.node_name(token.worker).to_string(), outcome))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_write_of_an_older_grant_after_a_newer_grants_write_is_red() {
        // store1 dies before its copy of A's grant reaches store2, which grants B: B writes
        // once, then A writes twice. Both of A's writes land after B's: both are stale.
        let (trace, lanes) = engine_run(include_str!(
            "../../assets/scenarios/step6-async-failover.toml"
        ));
        use WriteOutcome::*;
        assert_eq!(
            write_outcomes(&trace, &lanes),
            [
                (2_516, "B".to_string(), Accepted),
                (5_009, "A".to_string(), Violating(Kind::StaleWrite)),
                (10_013, "A".to_string(), Violating(Kind::StaleWrite)),
            ]
        );
    }

    #[test]
    fn interleaved_writes_are_marked_on_the_write_that_loses_an_update() {
        // A read at 5 ms and, paused, wrote at 17 007 ms; B read and wrote in between. B's
        // write was sound; A's overwrote it with a value computed from its old read. Both
        // violations name A's write; the stale write comes first, as in the verdict panel.
        let (trace, lanes) = engine_run(include_str!(
            "../../assets/scenarios/step5-pause-unfenced.toml"
        ));
        use WriteOutcome::*;
        assert_eq!(
            write_outcomes(&trace, &lanes),
            [
                (11_110, "B".to_string(), Accepted),
                (17_007, "A".to_string(), Violating(Kind::StaleWrite)),
            ]
        );
    }

    /// A store lane's bars: (start, end, label), in time order.
    fn bars(trace: &Trace, lanes: &Lanes, name: &str) -> Vec<(u64, u64, String)> {
        let node = trace.nodes.iter().position(|n| n.name == name).expect(name);
        lanes.lanes[node]
            .spans
            .iter()
            .filter(|s| s.kind.bar_row().is_some())
            .map(|s| (s.start_ms, s.end_ms, s.label.clone()))
            .collect()
    }

    #[test]
    fn a_crashed_leaders_grant_is_frozen_on_its_disk_not_live() {
        // store1 grants A and crashes at 50 ms, never to come back.
        let (trace, lanes) = engine_run(CONSENSUS);
        assert_eq!(
            bars(&trace, &lanes, "store1"),
            [
                (5, 50, "A#1 · fence 1".to_string()),
                (50, 25_000, "on disk, node down: A#1 · fence 1".to_string()),
            ]
        );
        let store1 = trace.nodes.iter().position(|n| n.name == "store1").unwrap();
        let frozen = &lanes.lanes[store1]
            .spans
            .iter()
            .find(|s| s.start_ms == 50 && s.kind.bar_row().is_some())
            .unwrap();
        let hover = frozen.details(&trace, store1 as NodeId, 25_000);
        assert!(hover.starts_with("store1 is down"), "{hover}");
        assert!(
            hover.contains("On its disk it still has \"lock\" for A#1 (fence 1)"),
            "{hover}"
        );
        // Frozen is still held: A's belief is not drawn as lost while store1 is down.
        let SpanKind::Belief { lease_lost, .. } = &lanes.lanes[A as usize].spans[1].kind else {
            panic!("A's second span is a belief");
        };
        assert_eq!(*lease_lost, None);
    }

    #[test]
    fn a_single_store_comes_back_live_with_what_its_disk_holds() {
        // fsync: the restarted node still holds A's grant, so its bar is live again.
        let source = r#"
            version = 1
            name = "crash and restart with fsync"
            seed = 1
            until_ms = 8000
            [lock]
            design = "token"
            ttl_ms = 30000
            [store]
            persistence = "fsync"
            [[worker]]
            name = "A"
            work_ms = 6000
            [[fault]]
            at_ms = 1000
            kind = "crash"
            node = "store1"
            [[fault]]
            at_ms = 3000
            kind = "restart"
            node = "store1"
        "#;
        let (trace, lanes) = engine_run(source);
        let store = bars(&trace, &lanes, "store1");
        assert_eq!(store[0].1, 1_000, "{store:?}");
        assert_eq!((store[1].0, store[1].1), (1_000, 3_000), "{store:?}");
        assert!(store[1].2.starts_with("on disk, node down"), "{store:?}");
        assert_eq!(store[2].0, 3_000, "{store:?}");
        assert_eq!(store[2].2, "A#1", "{store:?}");
    }

    #[test]
    fn an_everysec_restart_that_lost_the_grant_ends_the_frozen_bar_as_forgotten() {
        let (trace, lanes) = engine_run(include_str!(
            "../../assets/scenarios/step6-aof-everysec-restart.toml"
        ));
        let store = bars(&trace, &lanes, "store1");
        assert!(
            store[1].2.starts_with("on disk, node down: A#1"),
            "{store:?}"
        );
        let node = trace.nodes.iter().position(|n| n.name == "store1").unwrap();
        let frozen = &lanes.lanes[node]
            .spans
            .iter()
            .filter(|s| s.kind.bar_row().is_some())
            .nth(1)
            .unwrap();
        assert_eq!(frozen.end_label, "forgotten", "{store:?}");
        assert!(
            !store[2].2.starts_with("A#1"),
            "no live bar for A after the restart: {store:?}"
        );
    }

    #[test]
    fn followers_show_the_acquire_they_logged_and_the_new_leader_takes_it_over() {
        let (trace, lanes) = engine_run(CONSENSUS);
        // Both followers logged A's acquire before store1 decided it at 5 ms: a majority.
        // store2's copy lasts until it takes the lease over as the new leader at 1 510 ms.
        let store2 = bars(&trace, &lanes, "store2");
        assert_eq!(store2[0], (4, 1_510, "logged A#1".to_string()));
        assert_eq!(store2[1].0, 1_510);
        assert_eq!(store2[1].2, "took over A#1 · fence 1 from the log");
        let store3 = bars(&trace, &lanes, "store3");
        assert_eq!(
            store3[0],
            (5, 10_227, "logged A#1".to_string()),
            "ends with A's release"
        );
        let swatches: Vec<Swatch> = lanes.legend.iter().map(|&(s, _)| s).collect();
        for s in [Swatch::Logged, Swatch::TookOver, Swatch::OnDisk] {
            assert!(swatches.contains(&s), "{s:?} in {swatches:?}");
        }
        let node = trace.nodes.iter().position(|n| n.name == "store2").unwrap();
        let took = lanes.lanes[node]
            .spans
            .iter()
            .find(|s| s.start_ms == 1_510 && s.kind.bar_row().is_some())
            .unwrap();
        let hover = took.details(&trace, node as NodeId, 2_000);
        assert!(
            hover.contains("took this lease over from its log"),
            "{hover}"
        );
    }

    #[test]
    fn every_span_is_in_one_track_and_tracks_never_overlap() {
        let sources = [
            CONSENSUS,
            include_str!("../../assets/scenarios/step7-nested-not-reentrant.toml"),
            include_str!("../../assets/scenarios/step6-async-failover.toml"),
        ];
        for source in sources {
            let (_, lanes) = engine_run(source);
            for lane in &lanes.lanes {
                let mut seen: Vec<usize> =
                    lane.tracks.iter().flat_map(|t| t.spans.clone()).collect();
                seen.sort_unstable();
                assert_eq!(
                    seen,
                    (0..lane.spans.len()).collect::<Vec<_>>(),
                    "{}",
                    lane.name
                );
                for track in &lane.tracks {
                    for pair in track.spans.windows(2) {
                        let (a, b) = (&lane.spans[pair[0]], &lane.spans[pair[1]]);
                        assert!(
                            a.end_ms <= b.start_ms,
                            "{}: {a:?} overlaps {b:?}",
                            lane.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn times_group_thousands() {
        assert_eq!(fmt_ms(0), "0 ms");
        assert_eq!(fmt_ms(999), "999 ms");
        assert_eq!(fmt_ms(10_004), "10 004 ms");
        assert_eq!(fmt_ms(1_234_567), "1 234 567 ms");
    }
}
