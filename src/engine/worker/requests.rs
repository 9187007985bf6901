//! A worker's requests to the store: acquire, release and renew, their deadlines, retries and
//! redirects, and Redlock's fan-out to every node.

use super::super::Timer;
use super::super::layout::StoreIx;
use super::super::msg::Msg;
use super::super::outbox::{Ctx, Outbox};
use super::Worker;
use super::state::{Attempt, Op, OpKind, Slot, State, Wait};
use crate::engine::marks::mark;
use crate::scenario::{Design, Expiry, LeaseFrom, OnTimeout, Renewal, Waiting};
use crate::trace::{EventKind, NodeId, Token};

/// How many times a worker sends again a release that got no answer from a single store node.
pub(super) const RELEASE_RESENDS: u32 = 2;

impl Worker {
    /// Redlock: every request goes to every store node.
    pub(super) fn fans_out(&self, cx: &Ctx) -> bool {
        cx.sc.store.topology.fans_out()
    }

    /// The node a unicast request tries after `from` failed it: the next one, or for a client
    /// pinned to a multi-primary member that member again (the others hold other locks).
    pub(super) fn after(&self, cx: &Ctx, from: StoreIx) -> StoreIx {
        self.pinned.unwrap_or_else(|| from.next(cx.layout.stores()))
    }

    /// Redlock: the store nodes this client asks, its own `stores` or every node.
    pub(super) fn known_stores<'a>(&'a self, cx: &Ctx) -> impl Iterator<Item = StoreIx> + 'a {
        let all = if self.view.is_empty() {
            cx.layout.stores()
        } else {
            0
        };
        self.view
            .iter()
            .copied()
            .chain(cx.layout.store_ixs().take(all))
    }

    /// Redlock: how many nodes make this client's majority, of the nodes it knows.
    fn majority(&self, cx: &Ctx) -> u32 {
        crate::scenario::majority(self.known_stores(cx).count()) as u32
    }

    pub(super) fn new_req(&mut self) -> u32 {
        self.next_req += 1;
        self.next_req
    }

    /// Retries after the worker's back-off plus a uniform random `0..=jitter`, so clients that
    /// failed together do not ask together again (the Redis docs' Redlock retry advice).
    pub(super) fn retry_later(&self, cx: &Ctx, out: &mut Outbox) {
        let jitter = cx
            .sc
            .lock
            .retry_jitter_ms
            .unwrap_or(self.retry_ms as u64 / 2);
        out.jittered(self.retry_ms, jitter, Timer::Retry);
    }

    /// Begins a fresh acquisition attempt with a new owner token.
    pub(super) fn start_attempt(&mut self, cx: &Ctx, out: &mut Outbox) {
        if self.left == Some(0) {
            self.state = State::Done;
            return;
        }
        self.seq += 1;
        self.state = State::Acquiring(Attempt::default());
        let token = self.token(self.seq);
        if cx.sc.lock.design == Design::None {
            self.enter(cx, out, token, None, None);
            return;
        }
        out.record(EventKind::AcquireStarted {
            key: self.key,
            token,
        });
        let kind = match cx.sc.lock.design {
            Design::Flag => OpKind::FlagRead,
            Design::Timestamp => OpKind::Claim { stamp: cx.wall() },
            _ => OpKind::Acquire { reenter: false },
        };
        self.begin_op(cx, out, kind, token, Slot::Main);
    }

    /// `timestamp`: asks the store for the key's claims under the acknowledged claim's token.
    pub(super) fn read_claims(&mut self, cx: &Ctx, out: &mut Outbox) {
        if let Some(token) = self.state.attempt().and_then(|a| a.claimed) {
            self.begin_op(cx, out, OpKind::ReadClaims, token, Slot::Main);
        }
    }

    /// `timestamp`: the claims as the store read them, earliest first. The worker goes in if
    /// its own stamp heads them: it asks nobody else, and its stamp is only as right as its
    /// wall clock (Lamport 1978 needs logical clocks and a reply from every process).
    pub(super) fn judge_claims(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        token: Token,
        claims: &[(Token, i64)],
        store: NodeId,
    ) {
        let first = claims.first().is_some_and(|&(first, _)| first == token);
        // The store lost the claim (a restart): the next try claims afresh.
        let lost = !claims.iter().any(|&(t, _)| t == token);
        if let Some(a) = self.state.attempt_mut() {
            a.op = None;
            if first || lost {
                a.claimed = None;
            }
        }
        if first {
            self.acquired(cx, out, token, None, None, store);
            return;
        }
        out.record(EventKind::AcquireFailed {
            key: self.key,
            token,
        });
        self.retry_later(cx, out);
    }

    /// Acquires the lock again from inside the critical section (a recursive call).
    pub(super) fn nested_attempt(&mut self, cx: &Ctx, out: &mut Outbox) {
        let Some(hold) = self.state.hold().copied() else {
            return;
        };
        if cx.sc.lock.reentrant {
            let kind = OpKind::Acquire { reenter: true };
            self.begin_op(cx, out, kind, hold.token, Slot::Main);
            return;
        }
        // Not reentrant: to the store this is just another client asking for the lock.
        self.seq += 1;
        let token = self.token(self.seq);
        out.record(EventKind::AcquireStarted {
            key: self.key,
            token,
        });
        let kind = match cx.sc.lock.design {
            Design::Timestamp => OpKind::Claim { stamp: cx.wall() },
            _ => OpKind::Acquire { reenter: false },
        };
        self.begin_op(cx, out, kind, token, Slot::Main);
    }

    /// A new request of `kind` under `token`, to the node believed to lead.
    pub(super) fn new_op(&mut self, cx: &Ctx, kind: OpKind, token: Token) -> Op {
        let req = self.new_req();
        Op {
            req,
            kind,
            token,
            target: self.leader,
            tries: 0,
            started_local: self.lease_now(cx),
            replies: 0,
            oks: 0,
            queued: false,
            heard: false,
        }
    }

    pub(super) fn begin_op(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        kind: OpKind,
        token: Token,
        slot: Slot,
    ) {
        let op = self.new_op(cx, kind, token);
        self.put_pending(slot, op);
        self.send_op(cx, out, slot);
    }

    /// (Re)sends the op to its target, or to every store node for Redlock, with a timeout.
    pub(super) fn send_op(&mut self, cx: &Ctx, out: &mut Outbox, slot: Slot) {
        let Some(op) = self.pending(slot) else {
            return;
        };
        let key = self.key;
        let token = op.token;
        // What the store compares for a contender: its wall clock against the holder's "held
        // until", or its own lease clock against when it first saw the record.
        let client_now = match cx.sc.lock.expiry {
            Expiry::Observed => self.lease_now(cx),
            _ => cx.wall(),
        };
        let msg = match op.kind {
            OpKind::FlagRead => Msg::FlagRead { key, token },
            OpKind::FlagSet => Msg::FlagSet { key, token },
            OpKind::Claim { stamp } => Msg::Claim {
                key,
                token,
                stamp_ms: stamp,
            },
            OpKind::ReadClaims => Msg::ReadClaims { key, token },
            OpKind::Acquire { reenter } => Msg::Acquire {
                key,
                token,
                reenter,
                client_now,
            },
            OpKind::Release => Msg::Release { key, token },
            OpKind::Renew => Msg::Renew {
                key,
                token,
                client_now,
            },
        };
        if self.fans_out(cx) {
            for ix in self.known_stores(cx) {
                out.send(cx.layout.store_id(ix), msg.clone());
            }
        } else {
            out.send(cx.layout.store_id(op.target), msg);
        }
        let timeout = cx.sc.network.timeout_ms as i64;
        self.set_deadline(cx, out, Wait::of(slot), timeout, op.req);
    }

    /// `fair`: (re)sends a queued waiter's acquire under the same token, so it keeps its place
    /// in the queue; its lease, if granted, counts from this send.
    pub(super) fn ask_in_turn(&mut self, cx: &Ctx, out: &mut Outbox, token: Token) {
        let kind = OpKind::Acquire { reenter: false };
        self.begin_op(cx, out, kind, token, Slot::Main);
        if let Some(o) = self.state.op_mut() {
            o.queued = true;
        }
    }

    /// Moves a unicast op to another store node (`to`, or the next one), with a new request id.
    pub(super) fn redirect(&mut self, cx: &Ctx, out: &mut Outbox, slot: Slot, to: Option<StoreIx>) {
        let n = cx.layout.stores();
        let req = self.new_req();
        let Some(op) = self.pending_mut(slot) else {
            return;
        };
        op.tries += 1;
        // Each node twice at most: then the store is unreachable for this request.
        if op.tries as usize >= 2 * n {
            self.op_failed(cx, out, slot);
            return;
        }
        op.target = to.unwrap_or(op.target.next(n));
        op.req = req;
        self.leader = op.target;
        self.send_op(cx, out, slot);
    }

    /// Expects a reply to request `req` within `local_ms` of the worker's clock.
    pub(super) fn set_deadline(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        wait: Wait,
        local_ms: i64,
        req: u32,
    ) {
        let at_ms = cx.true_after(local_ms);
        self.deadlines.due[wait as usize] = Some((at_ms, req));
        if self.deadlines.armed[wait as usize].is_none_or(|armed| armed > at_ms) {
            self.arm(out, wait, at_ms);
        }
    }

    fn arm(&mut self, out: &mut Outbox, wait: Wait, at_ms: u64) {
        self.deadlines.armed[wait as usize] = Some(at_ms);
        let wait = wait as u8;
        out.timer_at(at_ms, Timer::Deadline { wait, at_ms });
    }

    pub(super) fn deadline_reached(&mut self, cx: &Ctx, out: &mut Outbox, wait: u8, at_ms: u64) {
        let Some(&wait) = Wait::ALL.get(wait as usize) else {
            return;
        };
        let d = &mut self.deadlines;
        if d.armed[wait as usize] != Some(at_ms) {
            return;
        }
        d.armed[wait as usize] = None;
        let Some((due, req)) = d.due[wait as usize] else {
            return;
        };
        if due > cx.now {
            // A later request moved the deadline: wait for that one.
            self.arm(out, wait, due);
            return;
        }
        d.due[wait as usize] = None;
        match wait {
            Wait::Op if self.state.op().is_some_and(|o| o.req == req) => {
                self.op_timed_out(cx, out, Slot::Main)
            }
            Wait::Renew if self.renewal.is_some_and(|o| o.req == req) => {
                self.op_timed_out(cx, out, Slot::Renewal)
            }
            Wait::Resource if self.resource_req == req => self.resource_timed_out(cx, out),
            _ => {}
        }
    }

    fn op_timed_out(&mut self, cx: &Ctx, out: &mut Outbox, slot: Slot) {
        let n = cx.layout.stores();
        let op = self.pending(slot);
        if let Some(o) = op.filter(|o| o.queued && slot == Slot::Main) {
            // A queued waiter that heard nothing asks again, keeping its place: the store
            // answers "queued" again, or grants it if its turn came. If its node did not even
            // answer the last ask (down, or cut off), it asks the next node, as a ZooKeeper
            // client moves its session to another server of the ensemble and etcd's client
            // to another endpoint: its place lives in the replicated queue, not on one node.
            if !o.heard {
                self.leader = self.after(cx, o.target);
            }
            self.ask_in_turn(cx, out, o.token);
            return;
        }
        // An unanswered acquire may still have been granted: trying it elsewhere under the
        // same token could make one token two grants. It fails instead, and the next attempt
        // (a fresh token) goes to the next node. Releases and renewals must keep their token.
        let acquiring = op.is_some_and(|o| {
            matches!(
                o.kind,
                OpKind::Acquire { reenter: false }
                    | OpKind::FlagRead
                    | OpKind::FlagSet
                    | OpKind::Claim { .. }
                    | OpKind::ReadClaims
            )
        });
        let releasing = op.is_some_and(|o| o.kind == OpKind::Release);
        if self.fans_out(cx) {
            self.fan_out_done(cx, out, slot);
        } else if n > 1 && self.pinned.is_none() && !acquiring {
            self.redirect(cx, out, slot, None);
        } else if releasing && op.is_some_and(|o| o.tries < RELEASE_RESENDS) {
            // Compare-and-delete is safe to repeat: a client asks again rather than leave its
            // lock to expire.
            if let Some(o) = self.state.op_mut() {
                o.tries += 1;
            }
            self.send_op(cx, out, Slot::Main);
        } else {
            if let Some(o) = op {
                if o.kind == (OpKind::Acquire { reenter: false }) && self.deletes_unanswered(cx) {
                    // In a fair queue the create may have landed, as a place or a grant its
                    // session would keep alive: delete it (a later message on the same link),
                    // so the next attempt does not wait behind its own ghost.
                    let (key, token) = (self.key, o.token);
                    out.send(cx.layout.store_id(o.target), Msg::Release { key, token });
                }
                self.leader = self.after(cx, o.target);
            }
            self.op_failed(cx, out, slot);
        }
    }

    /// `fair` with `on_timeout = "hand_back"`: whether an acquire that went unanswered is
    /// deleted before the next attempt, as Apache Curator's "protection mode" finds the
    /// client's own node after a failed create instead of leaving it in the queue
    /// (ZOOKEEPER-1262). `forget` leaves it there; `drop_connection` models redis-py, which
    /// keeps no queue.
    fn deletes_unanswered(&self, cx: &Ctx) -> bool {
        cx.sc.lock.waiting == Waiting::Fair
            && cx.sc.workers[self.id.index()].on_timeout == OnTimeout::HandBack
    }

    pub(super) fn op_failed(&mut self, cx: &Ctx, out: &mut Outbox, slot: Slot) {
        let key = self.key;
        let Some(op) = self.take_pending(slot) else {
            return;
        };
        let token = op.token;
        match op.kind {
            OpKind::Renew => out.record(EventKind::RenewFailed { key, token }),
            OpKind::Release => self.after_release(out),
            // The claim stays; the next read may find it earliest.
            OpKind::ReadClaims => self.retry_later(cx, out),
            OpKind::Claim { .. } => {
                // The claim may have landed: delete it (a later message on the same link), so
                // an abandoned stamp does not block everyone, then claim afresh.
                out.record(EventKind::AcquireFailed { key, token });
                out.send(cx.layout.store_id(op.target), Msg::Release { key, token });
                self.retry_later(cx, out);
            }
            OpKind::FlagRead | OpKind::FlagSet | OpKind::Acquire { .. } => {
                out.record(EventKind::AcquireFailed { key, token });
                self.retry_later(cx, out);
            }
        }
    }

    /// Redlock: one more node answered. When all have (or on timeout) decide.
    pub(super) fn fan_out_reply(&mut self, cx: &Ctx, out: &mut Outbox, slot: Slot, ok: bool) {
        let n = self.known_stores(cx).count() as u32;
        let Some(op) = self.pending_mut(slot) else {
            return;
        };
        op.replies += 1;
        op.oks += u32::from(ok);
        if op.replies >= n {
            self.fan_out_done(cx, out, slot);
        }
    }

    /// Redlock's rule (Redis docs): the lock is held if a majority granted it and the
    /// validity left — TTL minus the time spent acquiring minus a clock-drift allowance of
    /// 1 % of the TTL plus 2 ms — is positive. Otherwise unlock every node.
    fn fan_out_done(&mut self, cx: &Ctx, out: &mut Outbox, slot: Slot) {
        let majority = self.majority(cx);
        let ttl = cx.sc.lock.ttl_ms as i64;
        let now = self.lease_now(cx);
        let key = self.key;
        let Some(op) = self.take_pending(slot) else {
            return;
        };
        let token = op.token;
        let validity = ttl - (now - op.started_local) - (ttl / 100 + 2);
        let won = op.oks >= majority && validity > 0;
        match op.kind {
            OpKind::Release => self.after_release(out),
            OpKind::Renew if won => self.renewed(cx, out, op, Some(validity)),
            OpKind::Renew => {
                out.record(EventKind::RenewFailed { key, token });
                // Refused by a majority, the extension cannot succeed (Redis docs, Redlock,
                // "Extending the lock": it needs a majority; go-redsync's `Extend` returns
                // `ErrExtendFailed`): the lease is gone. Mere silence proves nothing; the
                // worker's own count decides then.
                if op.replies - op.oks >= majority {
                    self.lock_lost(cx, out, token);
                }
            }
            _ if won => {
                let to = cx.layout.store_id(StoreIx::FIRST);
                self.acquired(cx, out, token, None, Some(now + validity), to);
            }
            _ => {
                out.record(EventKind::AcquireFailed { key, token });
                for ix in self.known_stores(cx) {
                    out.send(cx.layout.store_id(ix), Msg::Release { key, token });
                }
                self.retry_later(cx, out);
            }
        }
    }

    /// A release nobody waits for.
    pub(super) fn send_release(&self, cx: &Ctx, out: &mut Outbox, token: Token) {
        let key = self.key;
        if self.fans_out(cx) {
            for ix in self.known_stores(cx) {
                out.send(cx.layout.store_id(ix), Msg::Release { key, token });
            }
        } else {
            out.send(cx.layout.store_id(self.leader), Msg::Release { key, token });
        }
    }

    /// The release is done (or given up): the next acquisition, if any are left.
    pub(super) fn after_release(&mut self, out: &mut Outbox) {
        self.left = self.left.map(|l| l.saturating_sub(1));
        if self.left == Some(0) {
            self.state = State::Done;
            return;
        }
        self.state = State::Idle;
        out.timer(self.retry_ms, Timer::Retry);
    }

    /// Renewal timer: a watchdog renews while the process lives; `progress` only if the work
    /// moved since the last renewal.
    pub(super) fn renew_tick(&mut self, cx: &Ctx, out: &mut Outbox) {
        let now = cx.now;
        let progress_only = cx.sc.lock.renewal == Renewal::Progress;
        let busy = self.renewal.is_some();
        let Some(h) = self.state.hold_mut() else {
            return;
        };
        let token = h.token;
        let done = h.work_done + h.running_since.map_or(0, |s| now - s);
        let moved = done > h.renew_mark;
        h.renew_mark = done;
        out.timer(cx.sc.lock.renew_period_ms() as i64, Timer::RenewTick);
        if busy || (progress_only && !moved) {
            return;
        }
        if cx.sc.lock.renewal == Renewal::Watchdog {
            mark!("watchdog_renewal_sent");
        }
        self.begin_op(cx, out, OpKind::Renew, token, Slot::Renewal);
    }

    /// Where the worker counts the lease `op` won from, lease clock, local ms: the request's
    /// send, or now, as the reply arrives (`lease_from = "reply"`, etcd's client).
    pub(super) fn lease_start(&self, cx: &Ctx, op: &Op) -> i64 {
        match cx.sc.workers[self.id.index()].lease_from {
            LeaseFrom::Request => op.started_local,
            LeaseFrom::Reply => self.lease_now(cx),
        }
    }

    /// The renewal `op` succeeded: the lease runs `validity` from now (Redlock: what is left
    /// of the TTL after the time the renewal took and the drift allowance), or a TTL from when
    /// the renewal was sent.
    pub(super) fn renewed(&mut self, cx: &Ctx, out: &mut Outbox, op: Op, validity: Option<i64>) {
        let ttl = cx.sc.lock.ttl_ms as i64;
        let now = self.lease_now(cx);
        let key = self.key;
        let start = self.lease_start(cx, &op);
        let Some(h) = self.state.hold_mut().filter(|h| h.token == op.token) else {
            return;
        };
        let until = validity.map_or(start + ttl, |v| now + v);
        h.lease_until = Some(until);
        let lease_ms = (until - now).max(0) as u64;
        out.record(EventKind::Renewed {
            key,
            token: op.token,
            lease_ms,
        });
    }
}
