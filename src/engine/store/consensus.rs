//! `consensus`: a Raft-style replicated log (as etcd uses; ZooKeeper's ZAB is alike). A
//! change to the locks is decided only once a majority has logged it; a leader is elected by
//! a majority and only a node whose log holds every decided entry can win, so a new leader
//! knows every grant. A minority side of a partition can neither elect nor decide.
//!
//! Leases are timed by the leader. Like etcd, a new leader restarts every lease's countdown
//! in full, and a leader extends a lease only while a majority has answered it recently.
//!
//! As etcd runs it (CheckQuorum and PreVote): a leader that no majority has answered for
//! `failover_ms` steps down, so a leader cut off from the rest stops answering clients and
//! they try the next node; a node with a live leader ignores bids for a newer term, and a node
//! asks whether it could win before it raises its term, so one that was cut off rejoins
//! without deposing the majority's leader. A refusal says why: "no majority", "held by A#1",
//! "lease gone".
//!
//! `[store] prevote = false` and `check_quorum = false` turn each off, as etcd's raft library
//! leaves them unless its `Config` asks (`PreVote`, `CheckQuorum`): then a node that cannot hear
//! the leader but can reach the others raises its term at each timeout and deposes whoever
//! leads, and under a partial partition the leadership changes hands again and again (the
//! Cloudflare control-plane outage of 2 November 2020, "A Byzantine failure in the real
//! world").

use super::super::Timer;
use super::super::layout::StoreIx;
use super::super::msg::{AcquireAnswer, Command, LogEntry, Msg};
use super::super::outbox::{Ctx, Outbox};
use super::replicated::client_token;
use super::table::{Held, LockTable};
use super::{Protocol, StoreNode, heartbeat_ms, lease_ms, lease_now, store_lease_ms, store_ttl_ms};
use crate::engine::marks::mark;
use crate::scenario::{DeletedBy, Design, Waiting};
use crate::trace::{EventKind, KeyId, NodeId, Refusal, Token};

/// Most log entries one append carries, as etcd's `MaxSizePerMsg` caps the bytes of one (our
/// entries are all one size, so a count does): a follower far behind catches up in batches, and
/// no message grows with the log.
pub const MAX_APPEND_ENTRIES: usize = 256;

/// Most appends with entries a leader sends one follower that has not answered since, as etcd's
/// `MaxInflightMsgs`: past it the leader sends that follower only empty appends (heartbeats), so
/// a paused or cut-off follower's backlog of unread appends stays bounded.
pub const MAX_INFLIGHT_APPENDS: usize = 64;

/// A consensus node's role (the Raft paper's, with etcd's PreVote).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RaftRole {
    Leader,
    /// Asking whether it could win an election before starting one (PreVote).
    PreCandidate,
    Candidate,
    Follower {
        leader: Option<StoreIx>,
    },
}

/// One node's consensus state besides its lock table (the Raft paper's persistent and
/// volatile state, and the leader's per-follower bookkeeping).
pub struct Raft {
    pub(super) me: StoreIx,
    pub(super) term: u64,
    pub(super) voted_for: Option<StoreIx>,
    pub(super) log: Vec<LogEntry>,
    pub(super) commit_len: usize,
    pub(super) applied_len: usize,
    pub(super) role: RaftRole,
    pub(super) votes: u64,
    /// Leader: per node, log length known to match / to send from.
    pub(super) match_len: Vec<usize>,
    pub(super) next_len: Vec<usize>,
    /// Leader: monotonic local ms of each node's last answer.
    pub(super) last_ack: Vec<i64>,
    /// Leader: per node, appends with entries sent since its last answer (flow control).
    pub(super) unanswered: Vec<usize>,
    /// Leader: per node, whether the last append sent stopped short of the log's end at
    /// [`MAX_APPEND_ENTRIES`], so its answer calls for the next batch.
    pub(super) batched: Vec<bool>,
    /// Leader: its own term's first entry is applied, so its lock table is up to date.
    pub(super) ready: bool,
    /// Leases whose lock key an operator deleted: key, holder, expiry (lease clock, local ms).
    /// In etcd a lock is a key attached to the holder's session lease; `etcdctl del` of the
    /// key frees the lock but leaves the lease, which the holder's KeepAlive goes on
    /// refreshing, so its `Session.Done` never fires (etcd `client/v3/concurrency`). One
    /// entry per force-release at most; it goes when the lease expires or its holder
    /// releases.
    pub(super) orphans: Vec<(KeyId, Token, i64)>,
}

impl Raft {
    /// store1 starts as the leader of term 1, so runs begin without an election.
    pub fn new(me: StoreIx, nodes: usize) -> Self {
        let first = me == StoreIx::FIRST;
        Raft {
            me,
            term: 1,
            voted_for: Some(StoreIx::FIRST),
            log: Vec::new(),
            commit_len: 0,
            applied_len: 0,
            role: if first {
                RaftRole::Leader
            } else {
                RaftRole::Follower {
                    leader: Some(StoreIx::FIRST),
                }
            },
            votes: 0,
            match_len: vec![0; nodes],
            next_len: vec![0; nodes],
            last_ack: vec![0; nodes],
            unanswered: vec![0; nodes],
            batched: vec![false; nodes],
            ready: first,
            orphans: Vec::new(),
        }
    }

    pub fn is_leader(&self) -> bool {
        self.role == RaftRole::Leader
    }

    /// Without persistence a restarted node lost its log and vote.
    pub fn forget(&mut self) {
        self.log.clear();
        self.commit_len = 0;
        self.applied_len = 0;
        self.voted_for = None;
    }

    pub fn become_follower(&mut self, leader: Option<StoreIx>) {
        self.role = RaftRole::Follower { leader };
        self.ready = false;
    }

    /// Extends the lease of `token`, whose key was force-released, to `until` if it is
    /// still alive at `now` (lease clock, local ms); drops the leases that ran out. Returns
    /// whether it was alive.
    fn renew_orphan(&mut self, key: KeyId, token: Token, now: i64, until: i64) -> bool {
        self.orphans.retain(|&(_, _, expires)| expires > now);
        let lease = self
            .orphans
            .iter_mut()
            .find(|(k, t, _)| *k == key && *t == token);
        lease.map(|(_, _, expires)| *expires = until).is_some()
    }

    fn last_term(&self) -> u64 {
        self.log.last().map_or(0, |e| e.term)
    }
}

impl StoreNode {
    fn raft(&mut self) -> &mut Raft {
        match &mut self.protocol {
            Protocol::Consensus(r) => r,
            _ => unreachable!("only a consensus node runs Raft handlers"),
        }
    }

    pub(super) fn raft_receive(&mut self, cx: &Ctx, out: &mut Outbox, from: NodeId, msg: Msg) {
        match msg {
            Msg::Append {
                term,
                prev_len,
                prev_term,
                entries,
                commit_len,
                sent_ms,
            } => self.on_append(
                cx,
                out,
                from,
                (term, prev_len, prev_term, commit_len, sent_ms),
                entries,
            ),
            Msg::AppendReply {
                term,
                ok,
                len,
                echo_ms,
            } => self.on_append_reply(cx, out, from, (term, ok, len, echo_ms)),
            Msg::Vote {
                term,
                last_len,
                last_term,
                pre,
            } => self.on_vote(cx, out, from, (term, last_len, last_term), pre),
            Msg::VoteReply { term, granted, pre } => {
                self.on_vote_reply(cx, out, from, term, granted, pre)
            }
            _ => self.raft_client(cx, out, from, msg),
        }
    }

    fn raft_client(&mut self, cx: &Ctx, out: &mut Outbox, from: NodeId, msg: Msg) {
        let Some(token) = client_token(&msg) else {
            return;
        };
        let role = self.raft().role;
        if role != RaftRole::Leader {
            let leader = match role {
                RaftRole::Follower { leader } => leader,
                _ => None,
            };
            out.send(from, Msg::NotLeader { token, leader });
            return;
        }
        match msg {
            Msg::Acquire { key, reenter, .. } => {
                let k = key.index();
                let table = &self.table;
                let holder = table.held[k].as_ref().map(|h| h.token);
                // Lock-delay after an expiry: committed as `delayed` until the leader ends it.
                let delayed = table.delayed[k];
                let retry_mode = cx.sc.lock.waiting == Waiting::Retry;
                // A refusal needs no agreement: a stale leader refusing is still safe. One
                // that has not heard from a majority lately says so rather than guess.
                // A queued waiter's repeated ask is its heartbeat: the leader renews its place
                // itself, as etcd's leader renews a lease on a keepalive without a log entry.
                let now = lease_now(cx);
                // Any ask is also its session's heartbeat, which keeps alive the worker's
                // other places, turn and grant on the key (a forgotten attempt's too): the
                // leader renews them itself, as it renews places, once it speaks for the store.
                if self.raft().ready && self.leader_has_quorum(cx) {
                    self.session_heartbeat(cx, out, key, token);
                }
                let table = &self.table;
                let waiting = table.waits(k, token, now)
                    && (holder.is_some() || table.turn[k].is_some() || delayed);
                if waiting && self.leader_has_quorum(cx) {
                    let until = LockTable::place_until(store_ttl_ms(cx), now);
                    self.table.enqueue(k, token, now, until);
                    let answer = AcquireAnswer::Queued;
                    out.send(from, Msg::AcquireReply { key, token, answer });
                    return;
                }
                let why = if !retry_mode {
                    None
                } else if !self.leader_has_quorum(cx) {
                    mark!("refused_for_no_majority");
                    Some(Refusal::NoMajority)
                } else if delayed {
                    Some(Refusal::LockDelay)
                } else {
                    holder
                        .filter(|&h| h != token)
                        .map(|holder| Refusal::Held { holder })
                };
                if let Some(why) = why {
                    out.record(EventKind::Refused { key, token, why });
                    let answer = AcquireAnswer::Refused { why };
                    out.send(from, Msg::AcquireReply { key, token, answer });
                    return;
                }
                self.propose(
                    cx,
                    out,
                    Command::Acquire {
                        key,
                        token,
                        reenter,
                    },
                );
            }
            Msg::Release { key, .. } => self.propose(cx, out, Command::Release { key, token }),
            Msg::Renew { key, .. } => {
                let now = lease_now(cx);
                // A lease already due is not revived: its expiry may be on its way to a
                // majority. A leader that has not caught up may still hold a released lock,
                // and one a majority has not answered lately may have been deposed.
                let ready = self.raft().ready;
                let held = self.table.held[key.index()]
                    .as_ref()
                    .is_some_and(|h| h.token == token && h.expires.is_some_and(|e| e > now));
                let refused = if !ready || !self.leader_has_quorum(cx) {
                    mark!("refused_for_no_majority");
                    Some(Refusal::NoMajority)
                } else if held {
                    None
                } else if self
                    .raft()
                    .renew_orphan(key, token, now, now + cx.sc.lock.ttl_ms as i64)
                {
                    // The key is gone, the lease lives on: KeepAlive succeeds.
                    self.answer_renew(out, from, key, token, None);
                    return;
                } else {
                    Some(Refusal::LeaseGone)
                };
                if refused.is_none() {
                    let ttl = store_ttl_ms(cx);
                    if let Some(h) = self.table.held[key.index()].as_mut() {
                        h.expires = Some(now + ttl as i64);
                    }
                    self.lease_extended(cx, out, key, token);
                }
                self.answer_renew(out, from, key, token, refused);
            }
            _ => {}
        }
    }

    /// Whether a majority (this leader included) answered within `failover_ms`.
    fn leader_has_quorum(&mut self, cx: &Ctx) -> bool {
        let now = cx.monotonic();
        let window = cx.sc.store.failover_ms as i64;
        let majority = cx.layout.majority();
        let r = self.raft();
        let fresh = (0..r.last_ack.len())
            .filter(|&i| i == r.me.index() || now - r.last_ack[i] <= window)
            .count();
        fresh >= majority
    }

    fn propose(&mut self, cx: &Ctx, out: &mut Outbox, cmd: Command) {
        let r = self.raft();
        let term = r.term;
        r.log.push(LogEntry { term, cmd });
        let len = r.log.len();
        r.match_len[r.me.index()] = len;
        self.advance_commit(cx, out);
        self.broadcast_append(cx, out);
    }

    fn broadcast_append(&mut self, cx: &Ctx, out: &mut Outbox) {
        for other in cx.layout.store_ixs() {
            if other != self.me {
                self.send_append(cx, out, other);
            }
        }
    }

    fn send_append(&mut self, cx: &Ctx, out: &mut Outbox, peer: StoreIx) {
        let sent_ms = cx.monotonic();
        let to = peer.index();
        let r = self.raft();
        let prev_len = r.next_len[to].min(r.log.len());
        let prev_term = if prev_len == 0 {
            0
        } else {
            r.log[prev_len - 1].term
        };
        // Flow control: a follower that has left this many appends unanswered gets heartbeats
        // only, until it answers.
        let end = if r.unanswered[to] >= MAX_INFLIGHT_APPENDS {
            prev_len
        } else {
            r.log.len().min(prev_len + MAX_APPEND_ENTRIES)
        };
        if end > prev_len {
            r.unanswered[to] += 1;
            r.batched[to] = end < r.log.len();
        }
        let msg = Msg::Append {
            term: r.term,
            prev_len,
            prev_term,
            entries: r.log[prev_len..end].to_vec(),
            commit_len: r.commit_len,
            sent_ms,
        };
        out.send(cx.layout.store_id(peer), msg);
    }

    /// `head`: the append's term, previous length and term, commit length and send time.
    fn on_append(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        from: NodeId,
        head: (u64, usize, u64, usize, i64),
        entries: Vec<LogEntry>,
    ) {
        let (term, prev_len, prev_term, commit_len, echo_ms) = head;
        let Some(leader) = cx.layout.store_ix(from) else {
            return;
        };
        let mono = cx.monotonic();
        let r = self.raft();
        if term < r.term {
            let reply = Msg::AppendReply {
                term: r.term,
                ok: false,
                len: r.log.len(),
                echo_ms,
            };
            out.send(from, reply);
            return;
        }
        let was_leader = r.role == RaftRole::Leader;
        if term > r.term {
            r.voted_for = None;
        }
        r.term = term;
        r.role = RaftRole::Follower {
            leader: Some(leader),
        };
        if was_leader {
            out.record(EventKind::SteppedDown { term });
        }
        self.last_heard = mono;
        let r = self.raft();
        let matches =
            prev_len <= r.log.len() && (prev_len == 0 || r.log[prev_len - 1].term == prev_term);
        if !matches {
            let len = r.log.len().min(prev_len.saturating_sub(1));
            out.send(
                from,
                Msg::AppendReply {
                    term,
                    ok: false,
                    len,
                    echo_ms,
                },
            );
            return;
        }
        let end = prev_len + entries.len();
        let mut logged = Vec::new();
        for (j, e) in entries.into_iter().enumerate() {
            let idx = prev_len + j;
            let new = idx >= r.log.len() || r.log[idx].term != e.term;
            if !new {
                continue;
            }
            r.log.truncate(idx);
            if let Command::Acquire { key, token, .. } = e.cmd {
                logged.push((key, token, idx as u64 + 1));
            }
            r.log.push(e);
        }
        for (key, token, index) in logged {
            out.record(EventKind::Logged { key, token, index });
        }
        let r = self.raft();
        r.commit_len = r.commit_len.max(commit_len.min(end));
        self.apply_committed(cx, out);
        out.send(
            from,
            Msg::AppendReply {
                term,
                ok: true,
                len: end,
                echo_ms,
            },
        );
    }

    /// `reply`: the reply's term, whether it matched, the follower's log length and the
    /// send time it echoes.
    fn on_append_reply(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        from: NodeId,
        reply: (u64, bool, usize, i64),
    ) {
        let (term, ok, len, echo_ms) = reply;
        let Some(peer) = cx.layout.store_ix(from) else {
            return;
        };
        let p = peer.index();
        let r = self.raft();
        if term > r.term {
            self.step_down(out, term);
            return;
        }
        if r.role != RaftRole::Leader || term < r.term {
            return;
        }
        // Fresh as of when the leader sent what this answers, not when it arrived: a reply
        // that waited out a pause says nothing about now.
        r.last_ack[p] = r.last_ack[p].max(echo_ms);
        r.unanswered[p] = 0;
        if ok {
            r.match_len[p] = r.match_len[p].max(len);
            r.next_len[p] = len;
            let next_batch = r.batched[p] && len < r.log.len();
            self.advance_commit(cx, out);
            if next_batch {
                self.send_append(cx, out, peer);
            }
        } else {
            r.next_len[p] = len;
            self.send_append(cx, out, peer);
        }
    }

    /// CheckQuorum (etcd): a leader no majority has answered for `failover_ms` may have been
    /// replaced on the other side of a partition, so it stops leading. Its clients, told it
    /// is not the leader, try the next node.
    fn lost_quorum(&mut self, cx: &Ctx, out: &mut Outbox) {
        mark!("leader_stepped_down_without_majority");
        self.last_heard = cx.monotonic();
        let r = self.raft();
        r.become_follower(None);
        let term = r.term;
        out.record(EventKind::SteppedDown { term });
    }

    fn step_down(&mut self, out: &mut Outbox, term: u64) {
        let r = self.raft();
        let was_leader = r.role == RaftRole::Leader;
        r.term = term;
        r.voted_for = None;
        r.role = RaftRole::Follower { leader: None };
        if was_leader {
            out.record(EventKind::SteppedDown { term });
        }
    }

    /// Decides every entry of this term that a majority has, and applies it.
    fn advance_commit(&mut self, cx: &Ctx, out: &mut Outbox) {
        let majority = cx.layout.majority();
        let r = self.raft();
        for n in (r.commit_len + 1..=r.log.len()).rev() {
            // Only entries of the leader's own term are decided by counting (Raft §5.4.2).
            if r.log[n - 1].term != r.term {
                break;
            }
            if r.match_len.iter().filter(|&&m| m >= n).count() >= majority {
                r.commit_len = n;
                break;
            }
        }
        self.apply_committed(cx, out);
    }

    fn apply_committed(&mut self, cx: &Ctx, out: &mut Outbox) {
        loop {
            let r = self.raft();
            if r.applied_len >= r.commit_len {
                return;
            }
            let index = r.applied_len + 1;
            let cmd = r.log[index - 1].cmd;
            r.applied_len = index;
            // Only a leader a majority has recently answered speaks for the store; one that
            // may have been deposed applies silently, promising nothing.
            let leader = r.role == RaftRole::Leader && self.leader_has_quorum(cx);
            self.apply(cx, out, index as u64, cmd, leader);
        }
    }

    /// Applies one decided entry to the lock table. Every node does the same; only the
    /// leader records it and answers clients. `index` is the entry's log position, used as
    /// the fencing token (like etcd's revision).
    fn apply(&mut self, cx: &Ctx, out: &mut Outbox, index: u64, cmd: Command, leader: bool) {
        let design = cx.sc.lock.design;
        let lease_ms = lease_ms(cx);
        match cmd {
            Command::Noop if leader => self.caught_up(cx, out),
            Command::Noop => {}
            Command::GrantNext { key } => {
                self.table.delayed[key.index()] = false;
                self.raft_grant_next(cx, out, key, leader);
            }
            Command::SkipTurn { key, token } => {
                let table = &mut self.table;
                if table.turn[key.index()] == Some(token) {
                    table.turn[key.index()] = None;
                    self.raft_grant_next(cx, out, key, leader);
                }
            }
            Command::ForceRelease { key, by } => {
                let held = self.table.held[key.index()].take();
                if let Some((token, Some(expires))) = held.as_ref().map(|h| (h.token, h.expires)) {
                    self.raft().orphans.push((key, token, expires));
                }
                if leader {
                    let holder = held.map(|h| h.token);
                    out.record(EventKind::ForceReleased { key, holder, by });
                }
                self.raft_grant_next(cx, out, key, leader);
            }
            Command::Acquire {
                key,
                token,
                reenter,
            } => {
                let k = key.index();
                let counts = cx.sc.lock.reentrant && cx.sc.lock.hold_count;
                let table = &mut self.table;
                let refusal = match (&table.held[k], table.turn[k]) {
                    (Some(h), _) if h.token == token => None,
                    (Some(h), _) => Some(Refusal::Held { holder: h.token }),
                    (None, _) if table.delayed[k] => Some(Refusal::LockDelay),
                    (None, Some(next)) if next != token => Some(Refusal::Turn { next }),
                    (None, _) => None,
                };
                let answer = match (refusal, &mut table.held[k]) {
                    (Some(why), _) => {
                        let answer = if cx.sc.lock.waiting == Waiting::Fair {
                            let now = lease_now(cx);
                            let until = LockTable::place_until(store_ttl_ms(cx), now);
                            table.enqueue(k, token, now, until);
                            AcquireAnswer::Queued
                        } else {
                            AcquireAnswer::Refused { why }
                        };
                        if leader {
                            out.record(EventKind::Refused { key, token, why });
                        }
                        answer
                    }
                    (None, Some(h)) => {
                        // Its own lock: a reentrant call (counted, unless `hold_count` is off)
                        // or a repeated request.
                        if reenter && counts {
                            h.count += 1;
                        }
                        AcquireAnswer::Granted {
                            fence: h.fence,
                            lease_ms,
                        }
                    }
                    (None, None) => {
                        table.turn[k] = None;
                        let fence = self.raft_grant(cx, out, key, token, index, leader);
                        AcquireAnswer::Granted { fence, lease_ms }
                    }
                };
                if leader {
                    out.send(token.worker, Msg::AcquireReply { key, token, answer });
                }
            }
            Command::Release { key, token } => {
                let k = key.index();
                // Unlocking ends the session's use of its lease.
                self.raft()
                    .orphans
                    .retain(|&(ok, ot, _)| (ok, ot) != (key, token));
                let table = &mut self.table;
                table.queue[k].retain(|(t, _)| *t != token);
                if table.turn[k] == Some(token) {
                    // A waiter that gives up its place passes the turn on.
                    table.turn[k] = None;
                    self.raft_grant_next(cx, out, key, leader);
                }
                let table = &mut self.table;
                let mine = table.held[k].as_ref().is_some_and(|h| h.token == token);
                let blind = !design.checks_owner();
                match &mut table.held[k] {
                    Some(h) if mine && h.count > 1 => h.count -= 1,
                    Some(h) if mine || blind => {
                        let holder = h.token;
                        table.held[k] = None;
                        if leader {
                            out.record(EventKind::Removed {
                                key,
                                holder,
                                by: token,
                            });
                        }
                        self.raft_grant_next(cx, out, key, leader);
                    }
                    _ => {
                        if leader {
                            out.record(EventKind::ReleaseIgnored { key, by: token });
                        }
                    }
                }
                if leader {
                    out.send(token.worker, Msg::ReleaseReply { key, token });
                }
            }
            Command::Expire { key, token } => {
                let k = key.index();
                let table = &mut self.table;
                if table.held[k].as_ref().is_some_and(|h| h.token == token) {
                    table.held[k] = None;
                    let delay = cx.sc.lock.lock_delay_ms as i64;
                    if leader {
                        out.record(EventKind::Expired { key, token });
                    }
                    if delay == 0 {
                        self.raft_grant_next(cx, out, key, leader);
                    } else {
                        // Lock-delay: no grant until a later entry, proposed by the leader once
                        // the delay is over, ends it.
                        self.table.delayed[k] = true;
                        if leader {
                            out.timer(delay, Timer::LockDelayOver { key });
                        }
                    }
                }
            }
        }
    }

    fn raft_grant(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        key: KeyId,
        token: Token,
        index: u64,
        leader: bool,
    ) -> Option<u64> {
        let fence = (cx.sc.lock.design == Design::Fencing).then_some(index);
        let mut held = Held::new(token, fence);
        let lease_ms = store_lease_ms(cx);
        if leader && let Some(ttl) = lease_ms {
            held.expires = Some(lease_now(cx) + ttl as i64);
        }
        self.table.held[key.index()] = Some(held);
        // A new leader still applying its predecessors' entries takes their leases over
        // once it has caught up ([`Sim::caught_up`]); only its own term's grants are new.
        if leader && self.raft().ready {
            self.announce_grant(cx, out, key, token, fence, lease_ms);
        }
        fence
    }

    /// `fair`: if the key is free, the head of its queue is told it is its turn (ZooKeeper's
    /// lock recipe: its watch fires and it takes the lock with its own request). Every node
    /// records the turn; the leader sends the notification and gives it a lease length.
    fn raft_grant_next(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, leader: bool) {
        let k = key.index();
        let table = &mut self.table;
        if table.held[k].is_some() || table.turn[k].is_some() || table.delayed[k] {
            return;
        }
        let Some((next, lapsed)) = table.pop_next(k, lease_now(cx)) else {
            return;
        };
        table.give_turn(k, next);
        // A waiter whose place lapsed (it died in line) is passed over at once, through the
        // log so that every node passes it over: its turn is over before it began.
        match (leader, lapsed) {
            (true, true) => out.timer(0, Timer::TurnOver { key, token: next }),
            (true, false) => self.tell_turn(cx, out, key, next),
            (false, _) => {}
        }
    }

    /// Someone (`by`) deletes `key`: proposed on the leader, applied by every node.
    pub(super) fn raft_force_release(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        key: KeyId,
        by: DeletedBy,
    ) {
        if self.raft().role == RaftRole::Leader {
            self.propose(cx, out, Command::ForceRelease { key, by });
        }
    }

    /// The leader's lease clock says the lease is over: propose its expiry.
    pub(super) fn raft_expire_if_due(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId) {
        let now = lease_now(cx);
        let due = self.table.held[key.index()]
            .as_ref()
            .filter(|h| h.expires.is_some_and(|e| e <= now))
            .map(|h| h.token);
        if let Some(token) = due {
            self.propose(cx, out, Command::Expire { key, token });
            // If the expiry is not decided (no majority), propose it again later.
            out.timer(cx.sc.store.failover_ms as i64, Timer::Expire { key, token });
        }
    }

    pub(super) fn raft_timer(&mut self, cx: &Ctx, out: &mut Outbox, timer: Timer) {
        match timer {
            Timer::Heartbeat if self.raft().role == RaftRole::Leader => {
                self.broadcast_append(cx, out);
                out.timer(heartbeat_ms(cx), Timer::Heartbeat);
            }
            Timer::LeaderCheck => {
                out.timer(heartbeat_ms(cx), Timer::LeaderCheck);
                if self.raft().role == RaftRole::Leader {
                    if cx.sc.store.check_quorum && !self.leader_has_quorum(cx) {
                        self.lost_quorum(cx, out);
                    }
                    return;
                }
                let patience =
                    cx.sc.store.failover_ms as i64 + self.me.index() as i64 * heartbeat_ms(cx);
                if cx.monotonic() - self.last_heard >= patience {
                    self.campaign(cx, out, cx.sc.store.prevote);
                }
            }
            Timer::LockDelayOver { key } if self.raft().role == RaftRole::Leader => {
                self.propose(cx, out, Command::GrantNext { key });
            }
            Timer::TurnOver { key, token }
                if self.raft().role == RaftRole::Leader
                    && self.turn_lapsed(cx, out, key, token) =>
            {
                self.propose(cx, out, Command::SkipTurn { key, token });
            }
            Timer::Expire { key, token } => {
                let still = self.raft().role == RaftRole::Leader
                    && self.table.held[key.index()]
                        .as_ref()
                        .is_some_and(|h| h.token == token);
                if still {
                    let before = self.table.held[key.index()]
                        .as_ref()
                        .and_then(|h| h.expires);
                    let now = lease_now(cx);
                    if before.is_some_and(|e| e <= now) {
                        self.raft_expire_if_due(cx, out, key);
                    } else {
                        self.arm_expiry(cx, out, key, token);
                    }
                }
            }
            _ => {}
        }
    }

    /// Asks every other node for its vote in the next term. A pre-vote first asks whether it
    /// would win, without raising its own term (etcd's PreVote; Raft thesis §9.6): a node cut
    /// off from the majority never wins one, so when it comes back its term has not grown
    /// past the majority's and it cannot depose their leader.
    fn campaign(&mut self, cx: &Ctx, out: &mut Outbox, pre: bool) {
        let mono = cx.monotonic();
        self.last_heard = mono;
        let r = self.raft();
        if pre {
            r.role = RaftRole::PreCandidate;
        } else {
            r.term += 1;
            r.role = RaftRole::Candidate;
            r.voted_for = Some(r.me);
        }
        r.votes = 1 << r.me.index();
        let msg = Msg::Vote {
            term: r.term + u64::from(pre),
            last_len: r.log.len(),
            last_term: r.last_term(),
            pre,
        };
        for other in cx.layout.store_ixs() {
            if other != self.me {
                let to = cx.layout.store_id(other);
                out.send(to, msg.clone());
            }
        }
    }

    /// `bid`: the term asked for, and the length and last term of the candidate's log.
    fn on_vote(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        from: NodeId,
        bid: (u64, usize, u64),
        pre: bool,
    ) {
        let (term, last_len, last_term) = bid;
        let Some(candidate) = cx.layout.store_ix(from) else {
            return;
        };
        let mono = cx.monotonic();
        let window = cx.sc.store.failover_ms as i64;
        let heard = mono - self.last_heard < window;
        let r = self.raft();
        // CheckQuorum's other half (etcd raft's `inLease`): a node that has a live leader
        // ignores a bid for a newer term, so a node that was cut off cannot depose it.
        let in_lease = cx.sc.store.check_quorum
            && match r.role {
                RaftRole::Leader => true,
                RaftRole::Follower { leader: Some(_) } => heard,
                _ => false,
            };
        if term > r.term && in_lease {
            return;
        }
        // Only a candidate whose log is at least as complete may win (Raft §5.4.1).
        let up_to_date = (last_term, last_len) >= (r.last_term(), r.log.len());
        if pre {
            let granted = term > r.term && up_to_date;
            let reply = Msg::VoteReply {
                term: if granted { term } else { r.term },
                granted,
                pre,
            };
            out.send(from, reply);
            return;
        }
        if term > r.term {
            self.step_down(out, term);
        }
        let r = self.raft();
        let granted = term == r.term && r.voted_for.is_none_or(|v| v == candidate) && up_to_date;
        if granted {
            r.voted_for = Some(candidate);
        }
        let reply = Msg::VoteReply {
            term: r.term,
            granted,
            pre,
        };
        if granted {
            self.last_heard = mono;
        }
        out.send(from, reply);
    }

    fn on_vote_reply(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        from: NodeId,
        term: u64,
        granted: bool,
        pre: bool,
    ) {
        let Some(voter) = cx.layout.store_ix(from) else {
            return;
        };
        let majority = cx.layout.majority();
        let r = self.raft();
        if pre {
            if r.role != RaftRole::PreCandidate {
                return;
            }
            if !granted {
                if term > r.term {
                    self.step_down(out, term);
                }
                return;
            }
            if term != r.term + 1 {
                return;
            }
            r.votes |= 1 << voter.index();
            if r.votes.count_ones() as usize >= majority {
                self.campaign(cx, out, false);
            }
            return;
        }
        if term > r.term {
            self.step_down(out, term);
            return;
        }
        if r.role != RaftRole::Candidate || term != r.term || !granted {
            return;
        }
        r.votes |= 1 << voter.index();
        if (r.votes.count_ones() as usize) < majority {
            return;
        }
        self.become_leader(cx, out);
    }

    /// The new leader's first entry is applied: its lock table now holds every decided
    /// change. It takes over every lease in it, and as it cannot know how much of each is
    /// left, it restarts them in full (etcd's lessor `Promote`).
    fn caught_up(&mut self, cx: &Ctx, out: &mut Outbox) {
        self.raft().ready = true;
        // What the old leader's timers were waiting for, the new one waits for again in full.
        for key in KeyId::all(self.table.keys()) {
            let table = &self.table;
            let (delayed, turn) = (table.delayed[key.index()], table.turn[key.index()]);
            if delayed {
                let delay = cx.sc.lock.lock_delay_ms as i64;
                out.timer(delay, Timer::LockDelayOver { key });
            }
            if let Some(token) = turn {
                self.tell_turn(cx, out, key, token);
            }
        }
        // Every waiter's place, too, restarts in full.
        let until = LockTable::place_until(store_ttl_ms(cx), lease_now(cx));
        for place in self.table.queue.iter_mut().flatten() {
            place.1 = until;
        }
        let lease_ms = store_lease_ms(cx);
        let now = lease_now(cx);
        for key in KeyId::all(self.table.keys()) {
            if let Some(h) = self.table.held[key.index()].as_mut() {
                h.expires = lease_ms.map(|ttl| now + ttl as i64);
                let (token, fence) = (h.token, h.fence);
                out.record(EventKind::Granted {
                    key,
                    token,
                    fence,
                    lease_ms,
                    took_over: true,
                });
                self.arm_expiry(cx, out, key, token);
            }
        }
    }

    fn become_leader(&mut self, cx: &Ctx, out: &mut Outbox) {
        let mono = cx.monotonic();
        let r = self.raft();
        r.role = RaftRole::Leader;
        r.ready = false;
        let len = r.log.len();
        r.next_len.iter_mut().for_each(|n| *n = len);
        r.match_len.iter_mut().for_each(|m| *m = 0);
        r.last_ack.iter_mut().for_each(|a| *a = mono);
        r.unanswered.iter_mut().for_each(|u| *u = 0);
        r.batched.iter_mut().for_each(|b| *b = false);
        let term = r.term;
        out.record(EventKind::BecameLeader { term });
        self.propose(cx, out, Command::Noop);
        out.timer(heartbeat_ms(cx), Timer::Heartbeat);
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::{Event, EventKind, Label, NodeId, Refusal, Token, Trace};

    use crate::engine::run_src as run;

    fn at<'t>(trace: &'t Trace, name: &str) -> Vec<&'t Event> {
        trace
            .events
            .iter()
            .filter(|e| trace.node_name(e.node) == name)
            .collect()
    }

    fn refusals(trace: &Trace, name: &str) -> Vec<(u64, Refusal)> {
        at(trace, name)
            .into_iter()
            .filter_map(|e| match e.kind {
                EventKind::Refused { why, .. } => Some((e.at_ms, why)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_leader_cut_off_from_the_majority_says_so_then_steps_down() {
        let trace = run(include_str!(
            "../../../assets/cases/isolated-leader-steps-down.toml"
        ));
        let stepped = at(&trace, "store1")
            .into_iter()
            .find(|e| matches!(e.kind, EventKind::SteppedDown { .. }))
            .map(|e| e.at_ms)
            .expect("store1 steps down");
        // Partition at 100 ms, failover_ms 1000, checked every 250 ms; the heal is at 15 100.
        assert!(
            (1100..=1350).contains(&stepped),
            "stepped down at {stepped}"
        );
        let refused = refusals(&trace, "store1");
        let a1 = Token {
            worker: NodeId::new(0),
            seq: 1,
        };
        assert!(refused.contains(&(1002, Refusal::Held { holder: a1 })));
        assert!(refused.iter().any(|&(_, why)| why == Refusal::NoMajority));
        // Once it has stepped down it refuses nothing: it is no leader and says so.
        assert!(refused.iter().all(|&(t, _)| t < stepped), "{refused:?}");
    }

    #[test]
    fn a_node_that_was_cut_off_rejoins_without_deposing_the_majority_s_leader() {
        let trace = run(include_str!(
            "../../../assets/cases/isolated-leader-steps-down.toml"
        ));
        let changes = |name| -> Vec<&EventKind> {
            at(&trace, name)
                .into_iter()
                .map(|e| &e.kind)
                .filter(|k| {
                    matches!(
                        k,
                        EventKind::SteppedDown { .. } | EventKind::BecameLeader { .. }
                    )
                })
                .collect()
        };
        // store1's pre-votes find no majority, so its term stays 1 and the heal at 15 100 ms
        // changes nothing: store2 leads from its election to the end.
        assert_eq!(changes("store2"), [&EventKind::BecameLeader { term: 2 }]);
        assert_eq!(changes("store1"), [&EventKind::SteppedDown { term: 1 }]);
        assert!(changes("store3").is_empty());
    }

    #[test]
    fn a_renewal_a_cut_off_leader_cannot_promise_is_refused_for_no_majority() {
        let trace = run(r#"
            version = 1
            name = "renewal without a majority"
            seed = 1
            until_ms = 4000
            [network]
            delay_ms = [2, 2]
            [lock]
            ttl_ms = 3000
            renewal = "watchdog"
            [store]
            topology = "consensus"
            nodes = 3
            [[worker]]
            name = "A"
            work_ms = 3500
            [[fault]]
            at_ms = 100
            kind = "partition"
            groups = [["store1", "A"], ["store2", "store3"]]
        "#);
        let why: Vec<Refusal> = refusals(&trace, "store1")
            .into_iter()
            .map(|(_, w)| w)
            .collect();
        assert_eq!(why, vec![Refusal::NoMajority]);
    }

    /// The appends store1 sent store2, as (true ms, entries carried).
    fn appends_to_store2(trace: &Trace) -> Vec<(u64, usize)> {
        let store2 = trace.node_id("store2");
        at(trace, "store1")
            .into_iter()
            .filter_map(|e| match &e.kind {
                EventKind::Send {
                    to,
                    what: Label::Append { count },
                    ..
                } if Some(*to) == store2 => Some((e.at_ms, *count as usize)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_paused_follower_is_sent_a_bounded_backlog_and_catches_up_in_batches() {
        let trace = run("version = 1\nname = \"p\"\nuntil_ms = 60000\n\
             [store]\ntopology = \"consensus\"\nnodes = 3\n\
             [[worker]]\nname = \"A\"\nrepeat = 0\nwork_ms = 1\n\
             [[fault]]\nat_ms = 1000\nkind = \"pause\"\nnode = \"store2\"\nfor_ms = 40000\n");
        let appends = appends_to_store2(&trace);
        assert!(appends.iter().all(|&(_, n)| n <= super::MAX_APPEND_ENTRIES));
        let during = appends
            .iter()
            .filter(|&&(t, n)| (1_000..41_000).contains(&t) && n > 0)
            .count();
        assert!(
            (1..=super::MAX_INFLIGHT_APPENDS).contains(&during),
            "{during} appends with entries while paused"
        );
        // The log grew by thousands meanwhile: store2 gets it back in full batches.
        let full = appends
            .iter()
            .filter(|&&(t, n)| t >= 41_000 && n == super::MAX_APPEND_ENTRIES)
            .count();
        assert!(full > 2, "{full} full batches after the pause");
    }
}
