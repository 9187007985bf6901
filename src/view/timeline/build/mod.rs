//! Reads a trace into [`Lanes`]: one pass over the events, opening a span where something
//! starts and closing it where it ends, then the row packing, the legend and the moments.
//! [`leases`] follows the store side's grants: crashes, restarts, logs and who lost what.

mod leases;
mod marks;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap, HashSet};

use leases::lease_lost_from;

use super::legend::first_shown;
use super::rows::{assign_rows, tracks};
use super::{
    Instants, Intervals, Lane, Lanes, LeaseEnd, Mark, MarkKind, Markers, Message, Partition,
    Refused, Span, SpanKind, WriteOutcome,
};
use crate::checker::{Verdict, ViolationKind};
use crate::scenario::{DeletedBy, Design};
use crate::text::{fmt_clock_ms, fmt_ms};
use crate::trace::{DropReason, EventKind, KeyId, LetGoReason, MsgId, NodeId, Role, Token, Trace};

impl Lanes {
    /// Lays out `trace`; `verdict` marks the writes that broke safety.
    pub fn build(trace: &Trace, verdict: &Verdict) -> Lanes {
        let mut b = Builder::new(trace, verdict);
        for (i, event) in trace.events.iter().enumerate() {
            b.current = i;
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
    /// The event being read, as an index into `trace.events`: what a span it ends or a mark
    /// it makes points back to.
    current: usize,
    /// A store node that restarted at this instant (and the restart's event): its on-disk
    /// leases come back to life once the restart's persistence events (forgot, reloaded)
    /// have been read.
    restarting: Option<(NodeId, u64, usize)>,
    /// (worker, key) → index of the waiting span; closed when the worker gets the key.
    waiting: BTreeMap<(NodeId, KeyId), usize>,
    /// (node, which fault) → index of the fault span; closed by Resumed, Unstalled, Restarted.
    faults: BTreeMap<(NodeId, FaultSlot), usize>,
    /// Highest fence the resource accepted, per key, to explain a rejection.
    highest_fence: BTreeMap<KeyId, u64>,
    /// (true ms, token) of an accepted write → the safety violation the verdict names there.
    violating: HashMap<(u64, Token), ViolationKind>,
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
            if let (ViolationKind::StaleWrite, Some(&old)) = (v.kind, v.grants.first()) {
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
            current: 0,
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

    fn push_span(&mut self, node: NodeId, span: Span) -> usize {
        let spans = &mut self.lanes[node.index()].spans;
        spans.push(span);
        spans.len() - 1
    }

    fn span_mut(&mut self, node: NodeId, index: usize) -> &mut Span {
        &mut self.lanes[node.index()].spans[index]
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
            let event = self.current;
            let span = self.span_mut(node, index);
            span.end_ms = at;
            span.end_event = Some(event);
            if slot == FaultSlot::Pause {
                span.label = format!("paused {}", fmt_ms(at - span.start_ms));
            }
        }
    }

    fn event(&mut self, at: u64, node: NodeId, kind: &EventKind) {
        let horizon = self.trace.simulated_until_ms();
        if let Some((n, t, restart)) = self.restarting {
            let persistence = matches!(kind, EventKind::Forgot | EventKind::Reloaded { .. });
            if !(n == node && t == at && persistence) {
                self.restarted(n, t, restart);
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
                if self.trace.nodes[node.index()].role == Role::Store {
                    self.restarting = Some((node, at, self.current));
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
                self.lanes[node.index()].marks.push(Mark {
                    at_ms: at,
                    kind: MarkKind::ClockJump { delta_ms },
                    label: format!("clock {sign}{}", fmt_ms(delta_ms.unsigned_abs())),
                    event: Some(self.current),
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
                    start_event: self.current,
                    end_event: None,
                });
            }
            EventKind::Healed => {
                for p in self.partitions.iter_mut().filter(|p| p.end_ms == horizon) {
                    p.end_ms = at;
                    p.end_event = Some(self.current);
                }
            }
            EventKind::PartitionEnded { ref groups } => {
                if let Some(p) = self
                    .partitions
                    .iter_mut()
                    .find(|p| p.end_ms == horizon && p.groups == *groups)
                {
                    p.end_ms = at;
                    p.end_event = Some(self.current);
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
                let event = self.current;
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
                        event,
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
                    let event = self.current;
                    let span = self.span_mut(node, index);
                    span.end_ms = at;
                    span.end_event = Some(event);
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
                self.close_lease(
                    at,
                    node,
                    key,
                    LeaseEnd::Replaced { by: token },
                    Some(self.current),
                );
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
            EventKind::Unflushed { key, .. } => {
                self.close_lease(at, node, key, LeaseEnd::Unflushed, Some(self.current));
            }
            EventKind::Reloaded { key, holder } => {
                // `everysec`: the log as last flushed lacked the latest change to `key`.
                self.close_lease(at, node, key, LeaseEnd::Forgot, Some(self.current));
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
                    self.close_lease(at, node, key, LeaseEnd::Removed { by }, Some(self.current));
                }
            }
            EventKind::ForceReleased {
                key,
                holder: Some(holder),
                by,
            } => {
                self.grant_ended(at, key, holder);
                if self.lease_holder(node, key) == Some(holder) {
                    self.close_lease(at, node, key, LeaseEnd::Forced(by), Some(self.current));
                }
            }
            EventKind::SessionEnded { key, holder, why } => {
                self.grant_ended(at, key, holder);
                if self.lease_holder(node, key) == Some(holder) {
                    let end = LeaseEnd::SessionEnded(why);
                    self.close_lease(at, node, key, end, Some(self.current));
                }
            }
            EventKind::Expired { key, token }
            | EventKind::ExpiredByClient { key, token, .. }
            | EventKind::ExpiredUnchanged { key, token, .. } => {
                self.grant_ended(at, key, token);
                if self.lease_holder(node, key) == Some(token) {
                    self.close_lease(at, node, key, LeaseEnd::Expired, Some(self.current));
                }
            }
            EventKind::Forgot => {
                for key in Self::keys_of(&self.leases, node) {
                    self.close_lease(at, node, key, LeaseEnd::Forgot, Some(self.current));
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
                self.lanes[node.index()].marks.push(Mark {
                    at_ms: at,
                    kind: MarkKind::Hold {
                        key,
                        token,
                        count,
                        entered,
                    },
                    label: match (self.trace.uncounted_reentry, entered) {
                        (false, _) => format!("holds ×{count}"),
                        (true, true) => "in again, uncounted".to_string(),
                        (true, false) => "released: lock free".to_string(),
                    },
                    event: Some(self.current),
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
            EventKind::Read {
                key,
                fence: Some(f),
                ..
            } => {
                let highest = self.highest_fence.entry(key).or_insert(f);
                *highest = (*highest).max(f);
            }
            EventKind::WriteRejected {
                key,
                token,
                fence,
                reason,
            }
            | EventKind::ReadRejected {
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
                    what: self.trace.label_text(what),
                    held_event: None,
                    resent_event: None,
                    end_event: None,
                });
            }
            EventKind::Held { msg, .. } => {
                if let Some(&i) = self.in_flight.get(&msg) {
                    let m = &mut self.messages[i];
                    m.held = true;
                    m.held_event.get_or_insert(self.current);
                }
            }
            EventKind::Retransmitted { msg, .. } => {
                if let Some(&i) = self.in_flight.get(&msg) {
                    let m = &mut self.messages[i];
                    m.left_ms = at;
                    m.resent_event = Some(self.current);
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

    /// Message `msg` arrived (or was lost, for `reason`) at `at`.
    fn land(&mut self, msg: MsgId, at: u64, reason: Option<DropReason>) {
        if let Some(i) = self.in_flight.remove(&msg) {
            let m = &mut self.messages[i];
            m.end_ms = at;
            m.dropped = reason;
            m.end_event = Some(self.current);
        }
    }

    fn close_waiting(&mut self, at: u64, node: NodeId, key: KeyId) {
        if let Some(index) = self.waiting.remove(&(node, key)) {
            let event = self.current;
            let span = self.span_mut(node, index);
            span.end_ms = at;
            span.end_event = Some(event);
        }
    }

    fn finish(mut self) -> Lanes {
        let horizon = self.trace.simulated_until_ms();
        if let Some((node, at, restart)) = self.restarting {
            self.restarted(node, at, restart);
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
            crate::order::sort_by_key(&mut lane.spans, |s| s.start_ms);
            crate::order::sort_by_key(&mut lane.marks, |m| m.at_ms);
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
        let legend = first_shown(&self.lanes, &self.partitions, &self.messages);
        let mut messages = std::mem::take(&mut self.messages);
        // Sends are recorded in time order; the sort only makes that a checked promise.
        crate::order::sort_by_key(&mut messages, |m| m.sent_ms);
        let flights = Intervals::new(messages.iter().map(|m| (m.sent_ms, m.end_ms)).collect());
        let held = (0..messages.len()).filter(|&i| messages[i].held).collect();
        let mut violations: Vec<usize> = (0..self.verdict.violations.len()).collect();
        crate::order::sort_by_key(&mut violations, |&i| self.verdict.violations[i].at_ms);
        let (at_end, as_they_happen): (Vec<usize>, Vec<usize>) = violations
            .into_iter()
            .partition(|&i| self.verdict.violations[i].kind.judged_at_end());
        Lanes {
            until_ms: horizon,
            lanes: self.lanes,
            partitions: self.partitions,
            moments,
            legend,
            fenced: self.trace.design == Design::Fencing,
            messages,
            flights,
            held,
            markers: Markers::new(self.verdict, as_they_happen),
            markers_at_end: Markers::new(self.verdict, at_end),
        }
    }

    fn moments(&self) -> Vec<u64> {
        let horizon = self.trace.simulated_until_ms();
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
        crate::order::sort(&mut moments);
        moments.dedup();
        moments
    }
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
            LetGoReason::ReadRejected => "read rejected",
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
            LeaseEnd::Unflushed => "lost: not yet on disk".to_string(),
            LeaseEnd::Forced(DeletedBy::Operator) => "force-released".to_string(),
            LeaseEnd::Forced(DeletedBy::Eviction) => "evicted".to_string(),
            LeaseEnd::Forced(DeletedBy::Flush) => "flushed".to_string(),
            LeaseEnd::SessionEnded(_) => "session ended".to_string(),
            LeaseEnd::Replaced { by } => format!("overwritten by {}", trace.token_name(by)),
            LeaseEnd::RanOut => "ran out".to_string(),
            LeaseEnd::BackAsFollower => "back, not leading".to_string(),
            // The bar goes on in the other style at once.
            LeaseEnd::Horizon | LeaseEnd::NodeDown | LeaseEnd::NodeUp => String::new(),
        },
        _ => String::new(),
    }
}
