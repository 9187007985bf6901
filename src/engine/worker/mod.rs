//! Workers: clients that acquire the lock, read the record, work, write and release.
//!
//! Each worker is a state machine ([`Worker`], its lifecycle one [`state::State`]): the
//! engine hands it one event at a time — a message, a timer, a fault [`Notice`] — with a
//! read-only [`Ctx`], and it answers with commands in an
//! [`Outbox`].
//!
//! A worker's *belief* (the `Acquired` … `LetGo` span) is what the checker compares with the
//! store's ground truth. Work advances in the worker's own running time: a pause or a stall
//! freezes it, so a paused holder resumes exactly where it was — still believing.

mod health_check;
mod requests;
mod state;
mod work;

#[cfg(test)]
mod tests;

pub use state::Worker;

use super::Timer;
use super::msg::{AcquireAnswer, Msg};
use super::outbox::{Ctx, Outbox};
use crate::scenario::{Acquire, LeaseClock, OnTimeout};
use crate::trace::{EventKind, NodeId, Refusal, Token};
use state::{Attempt, OpKind, Phase, Slot, State};

/// What a fault did to a worker's process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    Paused,
    Resumed,
    /// Its process runs but makes no progress (a `stall` fault).
    Stalled,
    Unstalled,
    Crashed,
    Restarted,
}

impl Worker {
    /// The clock the worker times its own lease on, local ms: monotonic, as real clients
    /// measure elapsed time (the Redis docs' Redlock client takes the time before and after
    /// acquiring; Redisson and etcd's clients use monotonic timers), unless `lease_clock = "wall"`.
    pub(super) fn lease_now(&self, cx: &Ctx) -> i64 {
        match cx.sc.workers[self.id.index()].lease_clock {
            LeaseClock::Monotonic => cx.monotonic(),
            LeaseClock::Wall => cx.wall(),
        }
    }

    /// Whether it forgets an acquire it stopped waiting for (`on_timeout = "forget"`).
    fn forgets(&self, cx: &Ctx) -> bool {
        cx.sc.workers[self.id.index()].on_timeout == OnTimeout::Forget
    }

    /// This worker's token number `seq`.
    fn token(&self, seq: u32) -> Token {
        Token {
            worker: self.id,
            seq,
        }
    }

    /// A fault changed what the worker's process can do.
    pub fn on_notice(&mut self, cx: &Ctx, out: &mut Outbox, notice: Notice) {
        match notice {
            Notice::Paused => self.freeze(cx.now),
            Notice::Resumed => self.thaw(cx, out),
            Notice::Stalled => {
                self.stalled = true;
                self.freeze(cx.now);
            }
            Notice::Unstalled => {
                self.stalled = false;
                self.thaw(cx, out);
            }
            Notice::Crashed => self.crashed(out),
            Notice::Restarted => {
                if self.left != Some(0) {
                    out.timer(0, Timer::Start);
                }
            }
        }
    }

    /// A timer of this worker's fired.
    pub fn on_timer(&mut self, cx: &Ctx, out: &mut Outbox, timer: Timer) {
        match timer {
            Timer::Start | Timer::Retry => match self.state {
                State::Acquiring(Attempt {
                    claimed: Some(_), ..
                })
                | State::Nesting {
                    attempt:
                        Attempt {
                            claimed: Some(_), ..
                        },
                    ..
                } => self.read_claims(cx, out),
                State::Idle | State::Acquiring(_) => self.start_attempt(cx, out),
                State::Nesting { .. } => self.nested_attempt(cx, out),
                _ => {}
            },
            Timer::Deadline { wait, at_ms } => self.deadline_reached(cx, out, wait, at_ms),
            Timer::RenewTick => self.renew_tick(cx, out),
            Timer::PingTimeout { holder } => self.ping_unanswered(cx, out, holder),
            Timer::LeaseCheck { token } => self.lease_check(cx, out, token),
            Timer::WorkPoint { generation } if self.generation == generation => {
                self.work_point(cx, out)
            }
            Timer::WriteNow { generation }
                if self.generation == generation
                    && self.state.step() == Some(Phase::CheckedLease) =>
            {
                self.send_write(cx, out)
            }
            _ => {}
        }
    }

    /// A message reached the worker.
    pub fn on_msg(&mut self, cx: &Ctx, out: &mut Outbox, from: NodeId, msg: Msg) {
        let op = self.state.op();
        let op_for = |t: Token| op.filter(|o| o.token == t);
        let fans_out = self.fans_out(cx);
        match msg {
            Msg::AcquireReply { key, token, answer } => {
                let pending = op_for(token)
                    .filter(|o| matches!(o.kind, OpKind::Acquire { .. } | OpKind::FlagSet));
                let fresh = pending.is_some_and(|o| o.kind == OpKind::Acquire { reenter: false });
                if fresh
                    && cx.sc.lock.acquire == Acquire::TwoStep
                    && matches!(answer, AcquireAnswer::Granted { .. })
                {
                    // SETNX succeeded on this node: now EXPIRE, the second command.
                    out.send(from, Msg::Expire { key, token });
                }
                match (pending, answer) {
                    (Some(_), _) if fans_out => {
                        let granted = matches!(answer, AcquireAnswer::Granted { .. });
                        self.fan_out_reply(cx, out, Slot::Main, granted);
                    }
                    (Some(op), AcquireAnswer::Granted { fence, lease_ms }) => {
                        self.take_pending(Slot::Main);
                        let start = self.lease_start(cx, &op);
                        let until = lease_ms.map(|l| start + l as i64);
                        self.acquired(cx, out, token, fence, until, from);
                    }
                    (Some(o), AcquireAnswer::Refused { why }) => {
                        // A node that cannot reach a majority may no longer lead: like an
                        // unanswered request, the next attempt goes to the next node.
                        if why == Refusal::NoMajority {
                            self.leader = self.after(cx, o.target);
                        }
                        match why {
                            Refusal::Held { holder } if self.checks_health_of(cx, holder) => {
                                self.take_pending(Slot::Main);
                                out.record(EventKind::AcquireFailed { key, token });
                                self.ping(cx, out, holder);
                            }
                            _ => self.op_failed(cx, out, Slot::Main),
                        }
                    }
                    (Some(op), AcquireAnswer::Queued) => {
                        // Wait for our turn, asking again every third of a lease: each ask
                        // keeps the place alive, as a ZooKeeper client pings its session a
                        // third of its timeout into silence and etcd's client sends a
                        // keepalive every TTL/3 (`client/v3/lease.go`); a waiter that stops
                        // asking (it died) loses its place a lease length after its last ask.
                        // A lost notification so costs a third of a lease, never forever.
                        let req = self.new_req();
                        if let Some(o) = self.state.op_mut() {
                            o.req = req;
                            o.queued = true;
                            o.heard = true;
                        }
                        if !op.queued {
                            out.record(EventKind::Queued { key, token });
                        }
                        let patience = (cx.sc.lock.ttl_ms / 3) as i64;
                        self.set_deadline(cx, out, state::Wait::Op, patience, req);
                    }
                    (None, AcquireAnswer::Granted { .. }) => {
                        // A repeated answer for a lock it holds (a new leader answering
                        // again) changes nothing; a grant for an attempt already given up is
                        // handed back at once, unless the client dropped the connection it
                        // came on and so never reads it, or forgot the attempt (`forget`).
                        let hands_back =
                            cx.sc.workers[self.id.index()].on_timeout == OnTimeout::HandBack;
                        if hands_back && !self.state.hold().is_some_and(|h| h.has(token)) {
                            out.send(from, Msg::Release { key, token });
                        }
                    }
                    (None, _) => {}
                }
            }
            Msg::FlagValue { token, locked, .. }
                if op_for(token).is_some_and(|o| o.kind == OpKind::FlagRead) =>
            {
                if locked {
                    self.op_failed(cx, out, Slot::Main);
                } else {
                    let req = self.new_req();
                    if let Some(o) = self.state.op_mut() {
                        o.kind = OpKind::FlagSet;
                        o.req = req;
                    }
                    self.send_op(cx, out, Slot::Main);
                }
            }
            Msg::ClaimReply { token, .. }
                if op_for(token).is_some_and(|o| matches!(o.kind, OpKind::Claim { .. })) =>
            {
                // Recorded: let other claims made at about the same time arrive, then read.
                if let Some(a) = self.state.attempt_mut() {
                    a.op = None;
                    a.claimed = Some(token);
                }
                out.timer(cx.sc.lock.settle_ms as i64, Timer::Retry);
            }
            Msg::Claims { token, claims, .. }
                if op_for(token).is_some_and(|o| o.kind == OpKind::ReadClaims) =>
            {
                self.judge_claims(cx, out, token, &claims, from);
            }
            Msg::YourTurn { key, token } => {
                let holds = self.state.hold().is_some_and(|h| h.has(token));
                if op_for(token).is_some_and(|o| o.queued && !fans_out) {
                    // Its turn: it sends its acquire now, and its lease counts from this send,
                    // to the node that told it (the one that leads now).
                    if let Some(ix) = cx.layout.store_ix(from) {
                        self.leader = ix;
                    }
                    self.ask_in_turn(cx, out, token);
                } else if !holds && !self.forgets(cx) {
                    // An attempt it gave up on: hand the turn back rather than hold up the
                    // queue for a lease length. One that forgot the attempt (`forget`) has
                    // nothing waiting for this turn: it goes unanswered, and its session keeps
                    // the turn alive.
                    out.send(from, Msg::Release { key, token });
                }
            }
            Msg::Ping { key, holder } => out.send(from, Msg::Pong { key, holder }),
            Msg::Pong { holder, .. } => self.pong(cx, out, holder),
            Msg::NotLeader { token, leader } => {
                if op_for(token).is_some() {
                    self.redirect(cx, out, Slot::Main, leader);
                } else if self.renewal.is_some_and(|o| o.token == token) {
                    self.redirect(cx, out, Slot::Renewal, leader);
                }
            }
            Msg::ReleaseReply { token, .. }
                if op_for(token).is_some_and(|o| o.kind == OpKind::Release) =>
            {
                if fans_out {
                    self.fan_out_reply(cx, out, Slot::Main, true);
                } else {
                    self.take_pending(Slot::Main);
                    self.after_release(out);
                }
            }
            Msg::RenewReply { token, refused, .. }
                if self.renewal.is_some_and(|o| o.token == token) =>
            {
                if fans_out {
                    self.fan_out_reply(cx, out, Slot::Renewal, refused.is_none());
                } else if refused.is_none()
                    && let Some(op) = self.renewal.take()
                {
                    self.renewed(cx, out, op, None);
                } else {
                    self.op_failed(cx, out, Slot::Renewal);
                    self.lock_lost(cx, out, token);
                }
            }
            Msg::ReadReply {
                token,
                ok,
                value,
                version,
                ..
            } => {
                if let State::Holding {
                    hold,
                    step: Phase::Reading,
                } = &mut self.state
                    && hold.token == token
                {
                    if ok {
                        hold.value = value;
                        hold.version = version;
                        self.start_work(cx, out);
                    } else {
                        self.resource_req += 1;
                        // Fenced off at its first request: it learns it no longer holds the lock.
                        self.let_go(cx, out, crate::trace::LetGoReason::ReadRejected);
                    }
                }
            }
            Msg::WriteReply {
                token, ok, version, ..
            } => {
                let State::Holding {
                    hold,
                    step: Phase::Writing,
                } = &mut self.state
                else {
                    return;
                };
                if hold.token != token {
                    return;
                }
                if ok {
                    hold.value += 1;
                    hold.version = version;
                    hold.writes_done += 1;
                    self.resource_req += 1;
                    self.state.set_step(Phase::Working);
                    self.continue_work(cx, out);
                } else {
                    self.resource_req += 1;
                    // Fenced off (or the version moved): it learns it no longer holds the lock.
                    self.let_go(cx, out, crate::trace::LetGoReason::Rejected);
                }
            }
            _ => {}
        }
    }

    /// The process died: every belief and request goes with it.
    fn crashed(&mut self, out: &mut Outbox) {
        let hold = self.state.hold().copied();
        self.renewal = None;
        self.pinging = None;
        self.stalled = false;
        self.generation += 1;
        self.state = State::Idle;
        self.deadlines = state::Deadlines::default();
        if let Some(h) = hold {
            for token in h.inner.into_iter().chain([h.token]) {
                out.record(EventKind::LetGo {
                    key: self.key,
                    token,
                    reason: crate::trace::LetGoReason::Crashed,
                });
            }
        }
    }
}
