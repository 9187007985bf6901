//! `replicated`: a primary and asynchronous replicas with automatic failover, as Redis with
//! Sentinel.
//!
//! Replication is one ordered stream per replica (Redis docs, "Replication"): every change
//! the primary makes is a command at the next offset of its stream, kept in a bounded
//! backlog, and sent on `replication_lag_ms` later. A replica applies the stream in offset
//! order. One that missed part of it — cut off, restarted, a message lost — asks to resync
//! (PSYNC) with its history id and offset: the primary answers with what it missed, from its
//! backlog (a partial resync), or with a full copy of its data set when its backlog no longer
//! reaches back that far or the histories parted.
//!
//! Failover (Redis Sentinel): a replica that has heard nothing from its primary for
//! `failover_ms` asks the other replicas how far each got; those that have not heard from
//! the primary for as long answer, and each answer is a vote. With the votes of a majority
//! of the replicas (its own included) it promotes the most up-to-date one that answered
//! (ties: lowest index), as Sentinel never fails over in a minority partition; the others
//! follow the new primary when they hear it, and resync. A grant the old primary acknowledged but the promoted replica had not yet
//! received is lost, so the new primary can grant the same lock again (Redis docs). An old
//! primary that hears of a newer one becomes its replica and resyncs: a full copy if it had
//! accepted anything the new primary never saw, which it so drops.

use std::cmp::Reverse;
use std::collections::VecDeque;

use super::super::Timer;
use super::super::layout::StoreIx;
use super::super::msg::{AcquireAnswer, Copy, Msg, ReplEntry, ReplId, SyncAnswer};
use super::super::outbox::{Ctx, Outbox};
use super::table::{Held, LockTable};
use super::{Protocol, StoreNode, heartbeat_ms};
use crate::engine::marks::mark;
use crate::scenario::{Persistence, REPLICA_ACK_EVERY_MS};
use crate::trace::{EventKind, KeyId, NodeId, Refusal};

/// Commands a backlog keeps. Redis's default `repl-backlog-size` is 1 MB: some ten thousand
/// lock commands of about a hundred bytes.
pub const BACKLOG_COMMANDS: usize = 10_000;

/// A replicated node's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplicaRole {
    Primary,
    /// Follows `primary` if known.
    Replica {
        primary: Option<StoreIx>,
    },
}

/// A replicated node's state besides its lock table: its role and epoch, and its place in
/// the replication stream, as primary or replica.
pub struct Replication {
    pub(super) role: ReplicaRole,
    /// The failover epoch this node knows of (Sentinel's configuration epoch).
    pub(super) epoch: u64,
    /// This node.
    pub(super) node: StoreIx,
    /// Histories this node has started so far.
    pub(super) eras: u32,
    /// The history this node's data follows (its own, if it started it).
    pub(super) id: ReplId,
    /// Commands applied (replica) or issued (primary) so far.
    pub(super) offset: u64,
    /// The history this node followed before its promotion, and how far it had got in it:
    /// a replica of that history up to there may still resync partially (Redis PSYNC2).
    pub(super) prev: Option<(ReplId, u64)>,
    /// The last commands, oldest first: offsets `offset - len + 1 ..= offset`.
    pub(super) backlog: VecDeque<ReplEntry>,
    pub(super) capacity: usize,
    /// Primary: the offset sent to the replicas so far.
    pub(super) sent: u64,
    /// Replica: whether the stream from its primary continues its own data.
    pub(super) synced: bool,
    /// Replica: the resync request it waits for, and when it asked (monotonic local ms).
    pub(super) asked: Option<(u32, i64)>,
    pub(super) requests: u32,
    /// Replica: the failover this node is running, if any.
    pub(super) round: Option<Round>,
    /// Highest epoch this node has proposed in a failover.
    pub(super) proposed: u64,
    /// Primary, with `min_replicas_to_write`: when each store node's last acknowledgement
    /// arrived, monotonic local ms, by index (a node not listed: at the start, when every
    /// replica was in sync).
    pub(super) acked: Vec<i64>,
}

/// A failover in progress: the offsets of the replicas that answered so far.
pub(super) struct Round {
    pub(super) epoch: u64,
    pub(super) asked: usize,
    pub(super) reports: Vec<(StoreIx, u64)>,
}

/// What a replica should do with commands `start + 1 ..= start + n` of its history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fit {
    /// Apply them after skipping the first `skip`, which it already has.
    Apply { skip: usize },
    /// It lacks commands before `start + 1`: it must resync.
    Gap,
}

impl Replication {
    /// Every node starts on store1's history at offset 0, in sync: all start empty, and
    /// store1 is the primary of epoch 1.
    pub fn new(node: StoreIx, capacity: usize) -> Self {
        Replication {
            role: if node == StoreIx::FIRST {
                ReplicaRole::Primary
            } else {
                ReplicaRole::Replica {
                    primary: Some(StoreIx::FIRST),
                }
            },
            epoch: 1,
            node,
            eras: 0,
            id: ReplId {
                node: StoreIx::FIRST,
                era: 0,
            },
            offset: 0,
            prev: None,
            backlog: VecDeque::new(),
            capacity,
            sent: 0,
            synced: true,
            asked: None,
            requests: 0,
            round: None,
            proposed: 0,
            acked: Vec::new(),
        }
    }

    /// How many other nodes acknowledged this primary at most `max_lag_ms` before `now`
    /// (monotonic local ms), of `nodes` store nodes.
    fn good_replicas(&self, nodes: usize, now: i64, max_lag_ms: u64) -> u32 {
        let fresh = (0..nodes)
            .filter(|&i| i != self.node.index())
            .filter(|&i| now - self.acked.get(i).copied().unwrap_or(0) <= max_lag_ms as i64)
            .count();
        u32::try_from(fresh).unwrap_or(u32::MAX)
    }

    /// Offset of the last command before the backlog.
    fn base(&self) -> u64 {
        self.offset - self.backlog.len() as u64
    }

    /// Adds the next command of this node's history.
    fn push(&mut self, entry: ReplEntry) {
        if self.backlog.len() == self.capacity {
            self.backlog.pop_front();
        }
        self.backlog.push_back(entry);
        self.offset += 1;
    }

    /// The commands after `offset` (which the backlog must reach back to).
    fn since(&self, offset: u64) -> Vec<ReplEntry> {
        let skip = (offset - self.base()) as usize;
        self.backlog.iter().skip(skip).copied().collect()
    }

    /// PSYNC from a replica at `offset` of history `id`: the commands it lacks, if this
    /// node's history continues the replica's and the backlog still holds them; else `None`,
    /// a full copy.
    fn partial_for(&self, id: ReplId, offset: u64) -> Option<Vec<ReplEntry>> {
        let shared = if id == self.id {
            offset <= self.offset
        } else {
            self.prev.is_some_and(|(p, upto)| p == id && offset <= upto)
        };
        (shared && offset >= self.base()).then(|| self.since(offset))
    }

    /// Where commands `start + 1 ..= start + n` of this node's history fit.
    fn fit(&self, start: u64, n: usize) -> Fit {
        if start > self.offset {
            return Fit::Gap;
        }
        Fit::Apply {
            skip: ((self.offset - start) as usize).min(n),
        }
    }

    /// Starts a new history that continues the current one (a promotion).
    fn new_history(&mut self) {
        self.prev = Some((self.id, self.offset));
        self.eras += 1;
        self.id = ReplId {
            node: self.node,
            era: self.eras,
        };
    }

    /// Starts over empty, on a history of its own (a restart without persistence).
    fn forget(&mut self) {
        self.eras += 1;
        self.id = ReplId {
            node: self.node,
            era: self.eras,
        };
        self.offset = 0;
        self.prev = None;
        self.backlog.clear();
    }

    /// Takes a full copy's place in history `id` at `offset`.
    fn reset(&mut self, id: ReplId, offset: u64) {
        self.id = id;
        self.offset = offset;
        self.prev = None;
        self.backlog.clear();
    }
}

/// Votes a failover needs among `stores` store nodes: a majority of the replicas, the
/// candidate's own included (see `choose_primary`).
pub(super) fn failover_votes(stores: usize) -> usize {
    crate::scenario::majority(stores.saturating_sub(1))
}

impl StoreNode {
    fn repl(&mut self) -> &mut Replication {
        match &mut self.protocol {
            Protocol::Replicated(r) => r,
            _ => unreachable!("only a replicated node runs replication handlers"),
        }
    }

    pub(super) fn replicated_receive(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        from: NodeId,
        msg: Msg,
    ) {
        match msg {
            Msg::Heartbeat { epoch, id, offset } => {
                if !self.heard_from_primary(cx, out, from, epoch) {
                    return;
                }
                let r = self.repl();
                if r.id != id || offset > r.offset {
                    // Commands it never got, or another history: the stream does not go on
                    // from what it has.
                    r.synced = false;
                }
                if !r.synced {
                    self.ask_resync(cx, out, from);
                }
            }
            Msg::Stream {
                epoch,
                id,
                start,
                entries,
            } => {
                if !self.heard_from_primary(cx, out, from, epoch) {
                    return;
                }
                let r = self.repl();
                let fit = if r.synced && r.id == id {
                    r.fit(start, entries.len())
                } else {
                    Fit::Gap
                };
                match fit {
                    Fit::Apply { skip } => self.apply_commands(out, &entries[skip..]),
                    Fit::Gap => {
                        self.repl().synced = false;
                        self.ask_resync(cx, out, from);
                    }
                }
            }
            Msg::SyncRequest { req, id, offset } => {
                if self.repl().role == ReplicaRole::Primary {
                    let answer = self.sync_answer(id, offset);
                    let epoch = self.repl().epoch;
                    out.send(from, Msg::SyncReply { req, epoch, answer });
                }
            }
            Msg::SyncReply { req, epoch, answer } => {
                if !self.heard_from_primary(cx, out, from, epoch) {
                    return;
                }
                let r = self.repl();
                if r.asked.is_none_or(|(asked, _)| asked != req) {
                    return;
                }
                r.asked = None;
                self.resync(out, from, answer);
            }
            Msg::OffsetQuery { epoch } => {
                // A Sentinel votes for a failover only if it too finds the primary down
                // (`is-master-down-by-addr` answers with its own view); the report is the vote.
                let silent = cx.monotonic() - self.last_heard >= cx.sc.store.failover_ms as i64;
                if self.repl().role != ReplicaRole::Primary && silent {
                    let offset = self.repl().offset;
                    out.send(from, Msg::OffsetReport { epoch, offset });
                }
            }
            Msg::OffsetReport { epoch, offset } => {
                let Some(from_index) = cx.layout.store_ix(from) else {
                    return;
                };
                let Some(round) = self.repl().round.as_mut().filter(|r| r.epoch == epoch) else {
                    return;
                };
                round.reports.push((from_index, offset));
                if round.reports.len() >= round.asked {
                    self.choose_primary(cx, out, epoch);
                }
            }
            Msg::Promote { epoch } => {
                let s = self.repl();
                if s.role != ReplicaRole::Primary && epoch > s.epoch {
                    self.promote(cx, out, epoch);
                }
            }
            Msg::ReplAck { .. } => {
                let (Some(i), now) = (cx.layout.store_ix(from), cx.monotonic()) else {
                    return;
                };
                let r = self.repl();
                if r.role == ReplicaRole::Primary {
                    if r.acked.len() <= i.index() {
                        r.acked.resize(i.index() + 1, 0);
                    }
                    r.acked[i.index()] = now;
                }
            }
            _ => {
                let role = self.repl().role;
                match role {
                    ReplicaRole::Primary if self.refuses_writes(cx) && is_write(&msg) => {
                        self.refuse_write(out, from, msg);
                    }
                    ReplicaRole::Primary => self.serve(cx, out, from, msg),
                    ReplicaRole::Replica { primary } => {
                        if let Some(token) = client_token(&msg) {
                            let leader = primary;
                            out.send(from, Msg::NotLeader { token, leader });
                        }
                    }
                }
            }
        }
    }

    /// `min_replicas_to_write` (Redis docs, "Replication", "Allow writes only with N attached
    /// replicas"): a primary that fewer than that many replicas acknowledged within
    /// `min_replicas_max_lag_ms` takes no write, so a primary cut off from its replicas stops
    /// granting within the lag, before a failover can promote one of them (Redis Sentinel docs,
    /// "Example 2"). Without the setting it never refuses.
    fn refuses_writes(&mut self, cx: &Ctx) -> bool {
        let store = &cx.sc.store;
        let need = store.min_replicas_to_write;
        let (nodes, now, lag) = (
            cx.layout.stores(),
            cx.monotonic(),
            store.min_replicas_max_lag_ms,
        );
        need > 0 && self.repl().good_replicas(nodes, now, lag) < need
    }

    /// Answers a write with Redis's `-NOREPLICAS`: nothing changes, and the refusal is recorded.
    fn refuse_write(&mut self, out: &mut Outbox, from: NodeId, msg: Msg) {
        let why = Refusal::NoReplicas;
        match msg {
            Msg::Acquire { key, token, .. } => {
                out.record(EventKind::Refused { key, token, why });
                let answer = AcquireAnswer::Refused { why };
                out.send(from, Msg::AcquireReply { key, token, answer });
            }
            Msg::Renew { key, token, .. } => self.answer_renew(out, from, key, token, Some(why)),
            Msg::Release { key, token } => {
                out.record(EventKind::Refused { key, token, why });
                out.send(from, Msg::ReleaseReply { key, token });
            }
            Msg::Expire { key, token } => out.record(EventKind::Refused { key, token, why }),
            _ => {}
        }
    }

    /// A message from a primary of `epoch`: follow it if it is current. Returns whether it is.
    fn heard_from_primary(&mut self, cx: &Ctx, out: &mut Outbox, from: NodeId, epoch: u64) -> bool {
        let Some(from_index) = cx.layout.store_ix(from) else {
            return false;
        };
        let me = self.me;
        let s = self.repl();
        // Two primaries of one epoch (two replicas promoted at once): the lower index wins.
        let newer = epoch > s.epoch || (epoch == s.epoch && from_index < me);
        let follows = match s.role {
            ReplicaRole::Primary if !newer => return false,
            ReplicaRole::Primary => {
                out.record(EventKind::SteppedDown { term: epoch });
                false
            }
            ReplicaRole::Replica { .. } if epoch < s.epoch => return false,
            ReplicaRole::Replica { primary: Some(p) } if epoch == s.epoch && from_index > p => {
                return false;
            }
            ReplicaRole::Replica { primary } => primary == Some(from_index),
        };
        self.last_heard = cx.monotonic();
        let r = self.repl();
        r.role = ReplicaRole::Replica {
            primary: Some(from_index),
        };
        r.epoch = epoch;
        r.round = None;
        if !follows {
            // A new primary: whether its stream continues this node's data, PSYNC tells.
            r.synced = false;
            r.asked = None;
        }
        true
    }

    /// Asks the primary `to` for what this replica lacks, unless a request is still due.
    fn ask_resync(&mut self, cx: &Ctx, out: &mut Outbox, to: NodeId) {
        let mono = cx.monotonic();
        let patience = heartbeat_ms(cx);
        let r = self.repl();
        if r.asked.is_some_and(|(_, at)| mono - at < patience) {
            return;
        }
        r.requests += 1;
        let req = r.requests;
        r.asked = Some((req, mono));
        let (id, offset) = (r.id, r.offset);
        out.send(to, Msg::SyncRequest { req, id, offset });
    }

    /// The primary's answer to a PSYNC: partial from the backlog, or a full copy.
    fn sync_answer(&mut self, id: ReplId, offset: u64) -> SyncAnswer {
        let r = self.repl();
        let own = r.id;
        if let Some(entries) = r.partial_for(id, offset) {
            return SyncAnswer::Partial {
                id: own,
                from: offset,
                entries,
            };
        }
        let offset = r.offset;
        let keys = KeyId::all(self.table.keys())
            .map(|key| self.entry(key))
            .collect();
        SyncAnswer::Full {
            id: own,
            offset,
            keys,
        }
    }

    /// Applies a resync answer from the primary `from`.
    fn resync(&mut self, out: &mut Outbox, from: NodeId, answer: SyncAnswer) {
        match answer {
            SyncAnswer::Partial {
                id,
                from: at,
                entries,
            } => {
                let r = self.repl();
                let Fit::Apply { skip } = r.fit(at, entries.len()) else {
                    return;
                };
                r.id = id;
                r.synced = true;
                self.apply_commands(out, &entries[skip..]);
                let offset = self.repl().offset;
                out.record(EventKind::Resynced {
                    from,
                    full: false,
                    offset,
                });
            }
            SyncAnswer::Full { id, offset, keys } => {
                let mut table = LockTable::new(self.table.keys());
                for e in &keys {
                    set_key(&mut table, e);
                }
                self.table = table;
                let r = self.repl();
                r.reset(id, offset);
                r.synced = true;
                out.record(EventKind::Resynced {
                    from,
                    full: true,
                    offset,
                });
            }
        }
    }

    /// Applies stream commands in order, keeping them in this node's own backlog too (a
    /// promoted replica serves partial resyncs from it).
    fn apply_commands(&mut self, out: &mut Outbox, entries: &[ReplEntry]) {
        for e in entries {
            set_key(&mut self.table, e);
            self.repl().push(*e);
            out.record(EventKind::Replicated {
                key: e.key,
                holder: e.value.map(|c| c.token),
            });
        }
    }

    pub(super) fn replicated_timer(&mut self, cx: &Ctx, out: &mut Outbox, timer: Timer) {
        match timer {
            Timer::Heartbeat => {
                if self.repl().role != ReplicaRole::Primary {
                    return;
                }
                let epoch = self.repl().epoch;
                let r = self.repl();
                let (id, offset) = (r.id, r.sent);
                for other in cx.layout.store_ixs() {
                    if other != self.me {
                        let to = cx.layout.store_id(other);
                        out.send(to, Msg::Heartbeat { epoch, id, offset });
                    }
                }
                out.timer(heartbeat_ms(cx), Timer::Heartbeat);
            }
            Timer::LeaderCheck => {
                out.timer(heartbeat_ms(cx), Timer::LeaderCheck);
                if self.repl().role == ReplicaRole::Primary || self.repl().round.is_some() {
                    return;
                }
                let mono = cx.monotonic();
                // Lower-numbered replicas give up first, so one runs the failover.
                let patience =
                    cx.sc.store.failover_ms as i64 + self.me.index() as i64 * heartbeat_ms(cx);
                if mono - self.last_heard >= patience {
                    self.start_failover(cx, out);
                }
            }
            Timer::ReplAck => {
                // Redis's replicas send `REPLCONF ACK <offset>` once a second.
                let r = self.repl();
                if let ReplicaRole::Replica {
                    primary: Some(primary),
                } = r.role
                {
                    let offset = r.offset;
                    out.send(cx.layout.store_id(primary), Msg::ReplAck { offset });
                }
                out.timer(REPLICA_ACK_EVERY_MS as i64, Timer::ReplAck);
            }
            Timer::ChoosePrimary { epoch } => self.choose_primary(cx, out, epoch),
            Timer::Replicate { up_to } => self.send_stream(cx, out, up_to),
            _ => {}
        }
    }

    /// The primary has been silent too long: ask every other replica how far it got.
    fn start_failover(&mut self, cx: &Ctx, out: &mut Outbox) {
        let ReplicaRole::Replica { primary } = self.repl().role else {
            return;
        };
        let current = self.repl().epoch;
        let r = self.repl();
        let epoch = current.max(r.proposed) + 1;
        r.proposed = epoch;
        let me = self.me;
        let others: Vec<StoreIx> = cx
            .layout
            .store_ixs()
            .filter(|&i| i != me && Some(i) != primary)
            .collect();
        self.repl().round = Some(Round {
            epoch,
            asked: others.len(),
            reports: Vec::new(),
        });
        if others.is_empty() {
            self.choose_primary(cx, out, epoch);
            return;
        }
        for i in others {
            let to = cx.layout.store_id(i);
            out.send(to, Msg::OffsetQuery { epoch });
        }
        // A replica that has not answered within a heartbeat period counts as unreachable.
        out.timer(heartbeat_ms(cx), Timer::ChoosePrimary { epoch });
    }

    /// Promotes the most up-to-date replica that answered (ties: lowest index), as Sentinel
    /// chooses, if the answers and this node's own vote make a majority of the replicas.
    ///
    /// Redis docs, Sentinel, "Configuring Sentinel": a failover needs a Sentinel elected
    /// "with the vote of the majority of the Sentinel processes", so there is "no failover
    /// in the minority partition". Each replica's box stands for one Sentinel. The primary's
    /// box has no say: with an odd number of store nodes a majority of the replicas is a
    /// majority of all the boxes, and a primary with one replica still fails over when it
    /// dies, as with a third Sentinel on a client box (Sentinel docs, "Example 3"). Without
    /// the votes the round ends, and the next leader check tries again.
    fn choose_primary(&mut self, cx: &Ctx, out: &mut Outbox, epoch: u64) {
        let me = self.me;
        let r = self.repl();
        let Some(round) = r.round.take_if(|round| round.epoch == epoch) else {
            return;
        };
        if round.reports.len() + 1 < failover_votes(cx.layout.stores()) {
            return;
        }
        let own = (me, r.offset);
        let (best, _) = round
            .reports
            .into_iter()
            .chain([own])
            .max_by_key(|&(i, offset)| (offset, Reverse(i)))
            .unwrap_or(own);
        // The new primary gets a full failover period to make itself heard.
        self.last_heard = cx.monotonic();
        if best == self.me {
            self.promote(cx, out, epoch);
        } else {
            let to = cx.layout.store_id(best);
            out.send(to, Msg::Promote { epoch });
        }
    }

    fn promote(&mut self, cx: &Ctx, out: &mut Outbox, epoch: u64) {
        mark!("replica_promoted");
        let r = self.repl();
        r.role = ReplicaRole::Primary;
        r.epoch = epoch;
        r.new_history();
        r.sent = r.offset;
        r.synced = true;
        r.asked = None;
        r.round = None;
        out.record(EventKind::BecameLeader { term: epoch });
        for key in KeyId::all(self.table.keys()) {
            if let Some(t) = self.table.held[key.index()].as_ref().map(|h| h.token) {
                self.arm_expiry(cx, out, key, t);
            }
        }
        out.timer(0, Timer::Heartbeat);
    }

    /// Issues the key's new state as the next command of the stream and sends it
    /// `replication_lag_ms` later (a no-op outside `replicated`).
    pub(super) fn replicate(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId) {
        if !matches!(&self.protocol, Protocol::Replicated(r) if r.role == ReplicaRole::Primary) {
            return;
        }
        let entry = self.entry(key);
        let r = self.repl();
        r.push(entry);
        let up_to = r.offset;
        let lag = cx.sc.store.replication_lag_ms as i64;
        if lag == 0 {
            self.send_stream(cx, out, up_to);
        } else {
            out.timer(lag, Timer::Replicate { up_to });
        }
    }

    /// Sends the replicas every command not yet sent, up to offset `up_to`.
    fn send_stream(&mut self, cx: &Ctx, out: &mut Outbox, up_to: u64) {
        if self.repl().role != ReplicaRole::Primary {
            return;
        }
        let epoch = self.repl().epoch;
        let r = self.repl();
        let up_to = up_to.min(r.offset);
        // Commands the backlog dropped unsent are missing for good: replicas resync.
        let start = r.sent.max(r.base());
        if up_to <= start {
            return;
        }
        let id = r.id;
        let entries: Vec<ReplEntry> = r
            .since(start)
            .into_iter()
            .take((up_to - start) as usize)
            .collect();
        r.sent = up_to;
        for other in cx.layout.store_ixs() {
            if other != self.me {
                let to = cx.layout.store_id(other);
                let entries = entries.clone();
                out.send(
                    to,
                    Msg::Stream {
                        epoch,
                        id,
                        start,
                        entries,
                    },
                );
            }
        }
    }

    /// The stream command that sets `key` to what this node holds now.
    fn entry(&self, key: KeyId) -> ReplEntry {
        let table = &self.table;
        ReplEntry {
            key,
            value: table.held[key.index()].as_ref().map(|h| Copy {
                token: h.token,
                fence: h.fence,
                expires_at: h.expires,
                client_until: h.client_until,
                count: h.count,
            }),
            fence_counter: table.fence_counter[key.index()],
        }
    }

    /// A store node of `replicated` comes back: the connection to its primary died with it,
    /// so a replica resyncs at once (Redis reconnects on start); a primary's unsent commands
    /// are in its backlog, and its replicas ask for them when its heartbeat shows the gap.
    pub(super) fn replicated_restarted(&mut self, cx: &Ctx, out: &mut Outbox) {
        // A restart that lost changes (no persistence, or the last second of `everysec`) no
        // longer matches its stream offset: it starts a new history and resyncs in full.
        let forgot = cx.sc.store.persistence != Persistence::Fsync;
        let r = self.repl();
        if forgot {
            r.forget();
        }
        r.round = None;
        r.asked = None;
        match self.repl().role {
            ReplicaRole::Primary => {
                let r = self.repl();
                r.sent = r.offset;
            }
            ReplicaRole::Replica { primary } => {
                self.repl().synced = false;
                if let Some(p) = primary {
                    let to = cx.layout.store_id(p);
                    self.ask_resync(cx, out, to);
                }
            }
        }
    }
}

/// Sets one key of `table` as a stream command says.
fn set_key(table: &mut LockTable, e: &ReplEntry) {
    let k = e.key.index();
    table.held[k] = e.value.map(|c| {
        let mut h = Held::new(c.token, c.fence);
        h.count = c.count;
        h.expires = c.expires_at;
        h.client_until = c.client_until;
        h
    });
    table.fence_counter[k] = e.fence_counter;
}

/// The token a client request concerns, if `msg` is a client request.
/// Whether a client's request changes the data set: what `min_replicas_to_write` refuses.
fn is_write(msg: &Msg) -> bool {
    matches!(
        msg,
        Msg::Acquire { .. } | Msg::Renew { .. } | Msg::Release { .. } | Msg::Expire { .. }
    )
}

pub(super) fn client_token(msg: &Msg) -> Option<crate::trace::Token> {
    match msg {
        Msg::Acquire { token, .. }
        | Msg::Release { token, .. }
        | Msg::Renew { token, .. }
        | Msg::FlagRead { token, .. }
        | Msg::FlagSet { token, .. } => Some(*token),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Token, Trace};

    fn entry(key: KeyId, seq: u32) -> ReplEntry {
        ReplEntry {
            key,
            value: Some(Copy {
                token: Token {
                    worker: NodeId::new(0),
                    seq,
                },
                fence: None,
                expires_at: None,
                client_until: None,
                count: 1,
            }),
            fence_counter: 0,
        }
    }

    /// A node that has issued `n` commands, keeping at most `capacity`.
    fn primary_with(n: u32, capacity: usize) -> Replication {
        let mut r = Replication::new(StoreIx::FIRST, capacity);
        for seq in 1..=n {
            r.push(entry(KeyId::new(0), seq));
        }
        r
    }

    #[test]
    fn a_replica_applies_the_stream_in_order_and_skips_what_it_has() {
        let r = primary_with(3, 10);
        assert_eq!(r.fit(3, 2), Fit::Apply { skip: 0 });
        // Commands 2..=4 when it has 3: the first two are repeats.
        assert_eq!(r.fit(1, 3), Fit::Apply { skip: 2 });
        assert_eq!(r.fit(0, 2), Fit::Apply { skip: 2 });
        // Command 5 before command 4 arrived: it must resync.
        assert_eq!(r.fit(4, 1), Fit::Gap);
    }

    #[test]
    fn psync_is_partial_while_the_backlog_reaches_back_and_full_beyond() {
        let r = primary_with(5, 3);
        let id = r.id;
        assert_eq!(r.base(), 2);
        let partial = r.partial_for(id, 3).expect("offset 3 is in the backlog");
        assert_eq!(
            partial,
            vec![entry(KeyId::new(0), 4), entry(KeyId::new(0), 5)]
        );
        assert_eq!(r.partial_for(id, 5), Some(Vec::new()));
        assert_eq!(r.partial_for(id, 2).map(|e| e.len()), Some(3));
        assert_eq!(r.partial_for(id, 1), None, "command 2 left the backlog");
        let other = ReplId {
            node: StoreIx::new(1),
            era: 1,
        };
        assert_eq!(r.partial_for(other, 5), None, "another history");
        assert_eq!(r.partial_for(id, 6), None, "ahead of this node");
    }

    #[test]
    fn a_promoted_replica_resyncs_its_old_primarys_replicas_partially_up_to_the_fork() {
        let mut r = primary_with(4, 10);
        let old = r.id;
        r.node = StoreIx::new(2);
        r.new_history();
        assert_ne!(r.id, old);
        r.push(entry(KeyId::new(0), 5));
        assert_eq!(r.partial_for(old, 2).map(|e| e.len()), Some(3));
        assert_eq!(r.partial_for(old, 4), Some(vec![entry(KeyId::new(0), 5)]));
        // The old primary accepted a fifth command the new one never saw: it must drop it.
        assert_eq!(r.partial_for(old, 5), None);
    }

    #[test]
    fn a_node_that_forgets_starts_a_history_of_its_own_and_a_full_copy_replaces_it() {
        let mut r = primary_with(4, 10);
        let old = r.id;
        r.node = StoreIx::new(1);
        r.forget();
        assert_eq!((r.offset, r.backlog.len()), (0, 0));
        assert_ne!(r.id, old);
        r.reset(old, 4);
        assert_eq!((r.id, r.offset, r.base()), (old, 4, 4));
        assert_eq!(r.fit(4, 1), Fit::Apply { skip: 0 });
    }

    use crate::engine::run_src as run;

    /// What happened at the node called `name`, in order.
    fn at<'t>(trace: &'t Trace, name: &str) -> Vec<&'t EventKind> {
        trace
            .events
            .iter()
            .filter(|e| trace.node_name(e.node) == name)
            .map(|e| &e.kind)
            .collect()
    }

    const TWO_NODES: &str = r#"
        version = 1
        name = "replica restart"
        seed = 1
        until_ms = 3000
        [network]
        delay_ms = [2, 2]
        [lock]
        ttl_ms = 10000
        [store]
        topology = "replicated"
        nodes = 2
        persistence = "PERSISTENCE"
        [[worker]]
        name = "A"
        start_ms = 500
        work_ms = 2000
        [[fault]]
        at_ms = 200
        kind = "crash"
        node = "store2"
        [[fault]]
        at_ms = 700
        kind = "restart"
        node = "store2"
    "#;

    fn resyncs(trace: &Trace, name: &str) -> Vec<(bool, u64)> {
        at(trace, name)
            .into_iter()
            .filter_map(|k| match k {
                EventKind::Resynced { full, offset, .. } => Some((*full, *offset)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_restarted_replica_that_kept_its_data_catches_up_from_the_backlog() {
        let trace = run(&TWO_NODES.replace("PERSISTENCE", "fsync"));
        assert_eq!(resyncs(&trace, "store2"), vec![(false, 1)]);
        let a1 = Token {
            worker: NodeId::new(0),
            seq: 1,
        };
        assert!(at(&trace, "store2").contains(&&EventKind::Replicated {
            key: KeyId::new(0),
            holder: Some(a1)
        }));
    }

    #[test]
    fn a_restarted_replica_that_forgot_everything_takes_a_full_copy() {
        let trace = run(&TWO_NODES.replace("PERSISTENCE", "none"));
        assert_eq!(resyncs(&trace, "store2"), vec![(true, 1)]);
    }

    #[test]
    fn failover_promotes_the_replica_that_got_furthest_and_the_other_follows_it() {
        // store2 gets nothing from store1 for 3 s; store1 crashes after granting A#1, which
        // only store3 received. store2 gives up on store1 first but promotes store3.
        let trace = run(r#"
            version = 1
            name = "promotion choice"
            seed = 1
            until_ms = 6000
            [network]
            delay_ms = [2, 2]
            [lock]
            ttl_ms = 10000
            [store]
            topology = "replicated"
            nodes = 3
            [[worker]]
            name = "A"
            work_ms = 5000
            [[fault]]
            at_ms = 0
            kind = "delay"
            from = "store1"
            to = "store2"
            extra_ms = 3000
            for_ms = 1000
            [[fault]]
            at_ms = 1000
            kind = "crash"
            node = "store1"
        "#);
        let promoted = |name| {
            at(&trace, name)
                .iter()
                .any(|k| matches!(k, EventKind::BecameLeader { .. }))
        };
        assert!(promoted("store3"));
        assert!(!promoted("store2"));
        // store3's history continues store1's, so store2 catches up from its backlog.
        assert_eq!(resyncs(&trace, "store2"), vec![(false, 1)]);
    }

    #[test]
    fn an_old_primary_that_comes_back_drops_what_it_accepted_meanwhile() {
        // store1 and A are cut off from store2 and B; store2 takes over, and A's grant on
        // store1 exists nowhere else. After the heal store1 follows store2 with a full copy.
        let trace = run(r#"
            version = 1
            name = "old primary returns"
            seed = 1
            until_ms = 6000
            [network]
            delay_ms = [2, 2]
            [lock]
            ttl_ms = 10000
            [store]
            topology = "replicated"
            nodes = 2
            [[worker]]
            name = "A"
            start_ms = 1500
            work_ms = 3000
            [[fault]]
            at_ms = 100
            kind = "partition"
            groups = [["store1", "A"], ["store2"]]
            for_ms = 3000
        "#);
        let store1 = at(&trace, "store1");
        assert!(store1.contains(&&EventKind::SteppedDown { term: 2 }));
        let (full, _) = resyncs(&trace, "store1")[0];
        assert!(full, "store1 accepted commands store2 never saw");
        // A, done after the heal, finds its grant gone from the store: it was never copied.
        let a1 = Token {
            worker: NodeId::new(0),
            seq: 1,
        };
        assert!(at(&trace, "store2").contains(&&EventKind::ReleaseIgnored {
            key: KeyId::new(0),
            by: a1
        }));
    }
}
