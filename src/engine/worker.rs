//! Workers: clients that acquire the lock, read the record, work, write and release.
//!
//! A worker's *belief* (the `Acquired` … `LetGo` span) is what the checker compares with the
//! store's ground truth. Work advances in the worker's own running time: a pause or a stall
//! freezes it, so a paused holder resumes exactly where it was — still believing.

use rand::RngExt;

use super::msg::{AcquireAnswer, Msg};
use super::{Ev, Sim, Timer};
use crate::scenario::{Acquire, Design, LeaseClock, OnLockLoss, Renewal, Topology};
use crate::trace::{EventKind, KeyId, LetGoReason, NodeId, Refusal, Token};

/// Whether the nested section took the lock and has not yet released it.
fn inner_open(h: &Hold) -> bool {
    h.nested_done && !h.inner_released && (h.count > 1 || h.inner.is_some())
}

/// Running time at which the nested section ends: it begins halfway through the outer
/// section and lasts a quarter of it.
fn inner_end_ms(work_ms: u64) -> u64 {
    work_ms / 2 + work_ms / 4
}

/// How many times a worker sends again a release that got no answer from a single store node.
const RELEASE_RESENDS: u32 = 2;

/// What a worker is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Acquiring,
    /// Reading the record at the start of its critical section.
    Reading,
    Working,
    /// Checked its lease; the write follows 1 ms of running time later.
    CheckedLease,
    Writing,
    /// Acquiring the same lock again from inside its critical section.
    Nesting,
    Releasing,
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OpKind {
    FlagRead,
    FlagSet,
    /// `timestamp`: record a claim stamped `stamp` (the worker's wall clock when it asked).
    Claim {
        stamp: i64,
    },
    /// `timestamp`: read the key's claims to see whose stamp is earliest.
    ReadClaims,
    Acquire {
        reenter: bool,
    },
    Release,
    Renew,
}

/// What a worker can be waiting for a reply to, each with its own deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    /// An acquire or release at the store.
    Op = 0,
    Renew = 1,
    /// A read or write at the resource.
    Resource = 2,
}

impl Wait {
    const ALL: [Wait; 3] = [Wait::Op, Wait::Renew, Wait::Resource];
}

/// A request to the store in flight (to one node, or to all of them for Redlock).
#[derive(Clone, Copy, Debug)]
struct Op {
    req: u32,
    kind: OpKind,
    token: Token,
    /// Store index the request went to (unicast).
    target: usize,
    tries: u32,
    /// When the request was first sent, on the worker's lease clock (local ms): a lease
    /// counts from here, not from the reply.
    started_local: i64,
    replies: u32,
    oks: u32,
    /// `fair`: the store put this acquire in its queue; the worker waits for its turn.
    queued: bool,
}

/// The lock as the worker believes it holds it.
#[derive(Clone, Copy, Debug)]
struct Hold {
    token: Token,
    fence: Option<u64>,
    /// When it believes the lease ends, on its lease clock, local ms (`None`: no lease).
    lease_until: Option<i64>,
    count: u32,
    /// A second token from a non-reentrant nested acquire.
    inner: Option<Token>,
    nested_done: bool,
    /// The nested (inner) section ended and released its hold.
    inner_released: bool,
    /// Running time spent on the critical section so far, ms.
    work_done: u64,
    /// True time the work last resumed, if it is advancing now.
    running_since: Option<u64>,
    writes_done: u32,
    /// The record as last read or written by this holder.
    value: u64,
    version: u64,
    /// `progress` renewal: work done at the last renewal.
    renew_mark: u64,
}

/// One worker's state.
pub struct Worker {
    key: KeyId,
    retry_ms: i64,
    /// Acquisitions left (`None`: until the horizon).
    left: Option<u32>,
    seq: u32,
    pub stalled: bool,
    phase: Phase,
    op: Option<Op>,
    renew: Option<Op>,
    hold: Option<Hold>,
    /// Store index believed to be the primary / leader.
    leader: usize,
    /// `timestamp`: the attempt whose claim the store acknowledged; the worker reads the
    /// claims until that stamp is the earliest.
    claimed: Option<Token>,
    next_req: u32,
    generation: u32,
    resource_req: u32,
    /// Per [`Wait`]: the pending deadline (true ms) and the request it is for.
    deadlines: [Option<(u64, u32)>; 3],
    /// Per [`Wait`]: the true time of the one timer in the queue for it, if any. Requests come
    /// far more often than timeouts: one timer, re-armed when it finds a later deadline, keeps
    /// the queue small where a timer per request would fill it with dead ones.
    armed: [Option<u64>; 3],
}

impl Worker {
    pub fn new(
        _id: NodeId,
        key: KeyId,
        spec: &crate::scenario::Worker,
        default_retry_ms: u64,
    ) -> Self {
        Worker {
            key,
            retry_ms: spec.retry_ms.unwrap_or(default_retry_ms) as i64,
            left: (spec.repeat > 0).then_some(spec.repeat),
            seq: 0,
            stalled: false,
            phase: Phase::Idle,
            op: None,
            renew: None,
            hold: None,
            leader: 0,
            claimed: None,
            next_req: 0,
            generation: 0,
            resource_req: 0,
            deadlines: [None; 3],
            armed: [None; 3],
        }
    }
}

impl Worker {
    /// The store request in flight: the renewal's, or the acquire/release one.
    fn slot(&mut self, renew: bool) -> &mut Option<Op> {
        if renew { &mut self.renew } else { &mut self.op }
    }

    fn pending(&self, renew: bool) -> Option<Op> {
        if renew { self.renew } else { self.op }
    }
}

impl Sim<'_> {
    fn w(&mut self, w: NodeId) -> &mut Worker {
        &mut self.workers[w as usize]
    }

    /// The clock the worker times its own lease on, local ms: monotonic, as real clients
    /// measure elapsed time (the Redis docs' Redlock client takes the time before and after
    /// acquiring; Redisson and etcd's clients use monotonic timers), unless `lease_clock = "wall"`.
    fn lease_now(&self, w: NodeId) -> i64 {
        let clock = &self.nodes[w as usize].clock;
        match self.sc.workers[w as usize].lease_clock {
            LeaseClock::Monotonic => clock.monotonic(self.now),
            LeaseClock::Wall => clock.wall(self.now),
        }
    }

    /// Retries after the worker's back-off plus a uniform random `0..=jitter`, so clients that
    /// failed together do not ask together again (the Redis docs' Redlock retry advice).
    fn retry_later(&mut self, w: NodeId) {
        let retry = self.workers[w as usize].retry_ms;
        let jitter = self.sc.lock.retry_jitter_ms.unwrap_or(retry as u64 / 2);
        let extra = if jitter > 0 {
            self.rng.random_range(0..=jitter) as i64
        } else {
            0
        };
        self.set_timer(w, retry + extra, Timer::Retry);
    }

    fn fans_out(&self) -> bool {
        self.topology() == Topology::Redlock
    }

    fn new_req(&mut self, w: NodeId) -> u32 {
        let worker = self.w(w);
        worker.next_req += 1;
        worker.next_req
    }

    pub(super) fn worker_timer(&mut self, w: NodeId, timer: Timer) {
        match timer {
            Timer::Start | Timer::Retry => match self.workers[w as usize].phase {
                Phase::Acquiring | Phase::Nesting if self.workers[w as usize].claimed.is_some() => {
                    self.read_claims(w)
                }
                Phase::Idle | Phase::Acquiring => self.start_attempt(w),
                Phase::Nesting => self.nested_attempt(w),
                _ => {}
            },
            Timer::Deadline { wait, at_ms } => self.deadline_reached(w, wait, at_ms),
            Timer::RenewTick => self.renew_tick(w),
            Timer::LeaseCheck { token } => self.lease_check(w, token),
            Timer::WorkPoint { generation }
                if self.workers[w as usize].generation == generation =>
            {
                self.work_point(w)
            }
            Timer::WriteNow { generation }
                if self.workers[w as usize].generation == generation
                    && self.workers[w as usize].phase == Phase::CheckedLease =>
            {
                self.send_write(w)
            }
            _ => {}
        }
    }

    /// Begins a fresh acquisition attempt with a new owner token.
    fn start_attempt(&mut self, w: NodeId) {
        let worker = self.w(w);
        if worker.left == Some(0) {
            worker.phase = Phase::Done;
            return;
        }
        worker.seq += 1;
        worker.phase = Phase::Acquiring;
        let token = Token {
            worker: w,
            seq: worker.seq,
        };
        let key = worker.key;
        self.record(w, EventKind::AcquireStarted { key, token });
        let kind = match self.sc.lock.design {
            Design::Flag => OpKind::FlagRead,
            Design::Timestamp => OpKind::Claim {
                stamp: self.wall(w),
            },
            _ => OpKind::Acquire { reenter: false },
        };
        self.begin_op(w, kind, token, false);
    }

    /// `timestamp`: asks the store for the key's claims under the acknowledged claim's token.
    fn read_claims(&mut self, w: NodeId) {
        if let Some(token) = self.workers[w as usize].claimed {
            self.begin_op(w, OpKind::ReadClaims, token, false);
        }
    }

    /// `timestamp`: the claims as the store read them, earliest first. The worker goes in if
    /// its own stamp heads them: it asks nobody else, and its stamp is only as right as its
    /// wall clock (Lamport 1978 needs logical clocks and a reply from every process).
    fn judge_claims(&mut self, w: NodeId, token: Token, claims: &[(Token, i64)], store: NodeId) {
        let key = self.workers[w as usize].key;
        self.w(w).op = None;
        if claims.first().is_some_and(|&(first, _)| first == token) {
            self.w(w).claimed = None;
            self.acquired(w, token, None, None, store);
            return;
        }
        if !claims.iter().any(|&(t, _)| t == token) {
            // The store lost the claim (a restart): the next try claims afresh.
            self.w(w).claimed = None;
        }
        self.record(w, EventKind::AcquireFailed { key, token });
        self.retry_later(w);
    }

    /// Acquires the lock again from inside the critical section (a recursive call).
    fn nested_attempt(&mut self, w: NodeId) {
        let Some(hold) = self.workers[w as usize].hold else {
            return;
        };
        if self.sc.lock.reentrant {
            self.begin_op(w, OpKind::Acquire { reenter: true }, hold.token, false);
            return;
        }
        // Not reentrant: to the store this is just another client asking for the lock.
        let worker = self.w(w);
        worker.seq += 1;
        let token = Token {
            worker: w,
            seq: worker.seq,
        };
        let key = worker.key;
        self.record(w, EventKind::AcquireStarted { key, token });
        let kind = match self.sc.lock.design {
            Design::Timestamp => OpKind::Claim {
                stamp: self.wall(w),
            },
            _ => OpKind::Acquire { reenter: false },
        };
        self.begin_op(w, kind, token, false);
    }

    fn begin_op(&mut self, w: NodeId, kind: OpKind, token: Token, renew: bool) {
        let req = self.new_req(w);
        let started_local = self.lease_now(w);
        let worker = self.w(w);
        let op = Op {
            req,
            kind,
            token,
            target: worker.leader,
            tries: 0,
            started_local,
            replies: 0,
            oks: 0,
            queued: false,
        };
        *worker.slot(renew) = Some(op);
        self.send_op(w, renew);
    }

    /// (Re)sends the op to its target, or to every store node for Redlock, with a timeout.
    fn send_op(&mut self, w: NodeId, renew: bool) {
        let worker = &self.workers[w as usize];
        let Some(op) = worker.pending(renew) else {
            return;
        };
        let key = worker.key;
        let client_now = self.wall(w);
        let msg = match op.kind {
            OpKind::FlagRead => Msg::FlagRead {
                key,
                token: op.token,
            },
            OpKind::FlagSet => Msg::FlagSet {
                key,
                token: op.token,
            },
            OpKind::Claim { stamp } => Msg::Claim {
                key,
                token: op.token,
                stamp_ms: stamp,
            },
            OpKind::ReadClaims => Msg::ReadClaims {
                key,
                token: op.token,
            },
            OpKind::Acquire { reenter } => Msg::Acquire {
                key,
                token: op.token,
                reenter,
                client_now,
            },
            OpKind::Release => Msg::Release {
                key,
                token: op.token,
            },
            OpKind::Renew => Msg::Renew {
                key,
                token: op.token,
                client_now,
            },
        };
        if self.fans_out() {
            for i in 0..self.stores.len() {
                let to = self.store_id(i);
                self.send(w, to, msg.clone());
            }
        } else {
            let to = self.store_id(op.target);
            self.send(w, to, msg);
        }
        let timeout = self.sc.network.timeout_ms as i64;
        let wait = if renew { Wait::Renew } else { Wait::Op };
        self.set_deadline(w, wait, timeout, op.req);
    }

    /// `fair`: (re)sends a queued waiter's acquire under the same token, so it keeps its place
    /// in the queue; its lease, if granted, counts from this send.
    fn ask_in_turn(&mut self, w: NodeId, token: Token) {
        self.begin_op(w, OpKind::Acquire { reenter: false }, token, false);
        if let Some(o) = self.w(w).op.as_mut() {
            o.queued = true;
        }
    }

    /// Moves a unicast op to another store node, with a new request id.
    fn redirect(&mut self, w: NodeId, renew: bool, to: Option<usize>) {
        let n = self.stores.len();
        let req = self.new_req(w);
        let worker = self.w(w);
        let Some(op) = worker.slot(renew) else {
            return;
        };
        op.tries += 1;
        // Each node twice at most: then the store is unreachable for this request.
        if op.tries as usize >= 2 * n {
            self.op_failed(w, renew);
            return;
        }
        op.target = to.unwrap_or((op.target + 1) % n);
        op.req = req;
        worker.leader = op.target;
        self.send_op(w, renew);
    }

    /// Expects a reply to request `req` within `local_ms` of the worker's clock.
    fn set_deadline(&mut self, w: NodeId, wait: Wait, local_ms: i64, req: u32) {
        let at_ms = self.now + self.nodes[w as usize].clock.true_span(local_ms);
        let worker = self.w(w);
        worker.deadlines[wait as usize] = Some((at_ms, req));
        if worker.armed[wait as usize].is_none_or(|armed| armed > at_ms) {
            self.arm(w, wait, at_ms);
        }
    }

    fn arm(&mut self, w: NodeId, wait: Wait, at_ms: u64) {
        let incarnation = self.nodes[w as usize].incarnation;
        self.w(w).armed[wait as usize] = Some(at_ms);
        let timer = Timer::Deadline {
            wait: wait as u8,
            at_ms,
        };
        self.queue.push(
            at_ms,
            Ev::Timer {
                node: w,
                incarnation,
                timer,
            },
        );
    }

    fn deadline_reached(&mut self, w: NodeId, wait: u8, at_ms: u64) {
        let Some(&wait) = Wait::ALL.get(wait as usize) else {
            return;
        };
        let now = self.now;
        let worker = self.w(w);
        if worker.armed[wait as usize] != Some(at_ms) {
            return;
        }
        worker.armed[wait as usize] = None;
        let Some((due, req)) = worker.deadlines[wait as usize] else {
            return;
        };
        if due > now {
            // A later request moved the deadline: wait for that one.
            self.arm(w, wait, due);
            return;
        }
        worker.deadlines[wait as usize] = None;
        let worker = &self.workers[w as usize];
        match wait {
            Wait::Op if worker.op.is_some_and(|o| o.req == req) => self.op_timed_out(w, false),
            Wait::Renew if worker.renew.is_some_and(|o| o.req == req) => self.op_timed_out(w, true),
            Wait::Resource if worker.resource_req == req => self.resource_timed_out(w),
            _ => {}
        }
    }

    fn op_timed_out(&mut self, w: NodeId, renew: bool) {
        let n = self.stores.len();
        let worker = self.w(w);
        let op = worker.pending(renew);
        if let Some(o) = op.filter(|o| o.queued && !renew) {
            // A queued waiter that heard nothing asks again, keeping its place: the store
            // answers "queued" again, or grants it if its turn came.
            self.ask_in_turn(w, o.token);
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
        if self.fans_out() {
            self.fan_out_done(w, renew);
        } else if n > 1 && !acquiring {
            self.redirect(w, renew, None);
        } else if releasing && op.is_some_and(|o| o.tries < RELEASE_RESENDS) {
            // Compare-and-delete is safe to repeat: a client asks again rather than leave its
            // lock to expire.
            if let Some(o) = self.w(w).op.as_mut() {
                o.tries += 1;
            }
            self.send_op(w, false);
        } else {
            if let Some(o) = op {
                self.w(w).leader = (o.target + 1) % n;
            }
            self.op_failed(w, renew);
        }
    }

    fn op_failed(&mut self, w: NodeId, renew: bool) {
        let worker = self.w(w);
        let key = worker.key;
        let Some(op) = worker.slot(renew).take() else {
            return;
        };
        match op.kind {
            OpKind::Renew => self.record(
                w,
                EventKind::RenewFailed {
                    key,
                    token: op.token,
                },
            ),
            OpKind::Release => self.after_release(w),
            // The claim stays; the next read may find it earliest.
            OpKind::ReadClaims => self.retry_later(w),
            OpKind::Claim { .. } => {
                // The claim may have landed: delete it (a later message on the same link), so
                // an abandoned stamp does not block everyone, then claim afresh.
                self.record(
                    w,
                    EventKind::AcquireFailed {
                        key,
                        token: op.token,
                    },
                );
                let to = self.store_id(op.target);
                self.send(
                    w,
                    to,
                    Msg::Release {
                        key,
                        token: op.token,
                    },
                );
                self.retry_later(w);
            }
            OpKind::FlagRead | OpKind::FlagSet | OpKind::Acquire { .. } => {
                self.record(
                    w,
                    EventKind::AcquireFailed {
                        key,
                        token: op.token,
                    },
                );
                self.retry_later(w);
            }
        }
    }

    pub(super) fn worker_receive(&mut self, w: NodeId, from: NodeId, msg: Msg) {
        let worker = &self.workers[w as usize];
        let op = worker.op;
        let op_for = |t: Token| op.filter(|o| o.token == t);
        match msg {
            Msg::AcquireReply { key, token, answer } => {
                let pending = op_for(token)
                    .filter(|o| matches!(o.kind, OpKind::Acquire { .. } | OpKind::FlagSet));
                let fresh = pending.is_some_and(|o| o.kind == OpKind::Acquire { reenter: false });
                if fresh
                    && self.sc.lock.acquire == Acquire::TwoStep
                    && matches!(answer, AcquireAnswer::Granted { .. })
                {
                    // SETNX succeeded on this node: now EXPIRE, the second command.
                    self.send(w, from, Msg::Expire { key, token });
                }
                match (pending, answer) {
                    (Some(_), _) if self.fans_out() => {
                        let granted = matches!(answer, AcquireAnswer::Granted { .. });
                        self.fan_out_reply(w, false, granted);
                    }
                    (Some(op), AcquireAnswer::Granted { fence, lease_ms }) => {
                        self.w(w).op = None;
                        let until = lease_ms.map(|l| op.started_local + l as i64);
                        self.acquired(w, token, fence, until, from);
                    }
                    (Some(o), AcquireAnswer::Refused { why }) => {
                        // A node that cannot reach a majority may no longer lead: like an
                        // unanswered request, the next attempt goes to the next node.
                        if why == Refusal::NoMajority {
                            self.w(w).leader = (o.target + 1) % self.stores.len();
                        }
                        self.op_failed(w, false);
                    }
                    (Some(op), AcquireAnswer::Queued) => {
                        // Wait for our turn; after a lease length of silence, ask again (a
                        // ZooKeeper client re-registers its watch, a Redisson waiter re-polls),
                        // so a lost notification costs time, never forever.
                        let req = self.new_req(w);
                        if let Some(o) = self.w(w).op.as_mut() {
                            o.req = req;
                            o.queued = true;
                        }
                        if !op.queued {
                            self.record(w, EventKind::Queued { key, token });
                        }
                        let patience = self.sc.lock.ttl_ms as i64;
                        self.set_deadline(w, Wait::Op, patience, req);
                    }
                    (None, AcquireAnswer::Granted { .. }) => {
                        // A repeated answer for a lock it holds (a new leader answering
                        // again) changes nothing; a grant for an attempt already given up is
                        // handed back at once.
                        let held = self.workers[w as usize]
                            .hold
                            .is_some_and(|h| h.token == token || h.inner == Some(token));
                        if !held {
                            self.send(w, from, Msg::Release { key, token });
                        }
                    }
                    (None, _) => {}
                }
            }
            Msg::FlagValue { token, locked, .. }
                if op_for(token).is_some_and(|o| o.kind == OpKind::FlagRead) =>
            {
                if locked {
                    self.op_failed(w, false);
                } else {
                    let req = self.new_req(w);
                    if let Some(o) = self.w(w).op.as_mut() {
                        o.kind = OpKind::FlagSet;
                        o.req = req;
                    }
                    self.send_op(w, false);
                }
            }
            Msg::ClaimReply { token, .. }
                if op_for(token).is_some_and(|o| matches!(o.kind, OpKind::Claim { .. })) =>
            {
                // Recorded: let other claims made at about the same time arrive, then read.
                let worker = self.w(w);
                worker.op = None;
                worker.claimed = Some(token);
                self.set_timer(w, self.sc.lock.settle_ms as i64, Timer::Retry);
            }
            Msg::Claims { token, claims, .. }
                if op_for(token).is_some_and(|o| o.kind == OpKind::ReadClaims) =>
            {
                self.judge_claims(w, token, &claims, from);
            }
            Msg::YourTurn { key, token } => {
                let holds = self.workers[w as usize]
                    .hold
                    .is_some_and(|h| h.token == token || h.inner == Some(token));
                if op_for(token).is_some_and(|o| o.queued && !self.fans_out()) {
                    // Its turn: it sends its acquire now, and its lease counts from this send.
                    self.ask_in_turn(w, token);
                } else if !holds {
                    // An attempt it gave up on: hand the turn back rather than hold up the
                    // queue for a lease length.
                    self.send(w, from, Msg::Release { key, token });
                }
            }
            Msg::NotLeader { token, leader } => {
                let to = leader.map(|l| self.store_index(l));
                if op_for(token).is_some() {
                    self.redirect(w, false, to);
                } else if self.workers[w as usize]
                    .renew
                    .is_some_and(|o| o.token == token)
                {
                    self.redirect(w, true, to);
                }
            }
            Msg::ReleaseReply { token, .. }
                if op_for(token).is_some_and(|o| o.kind == OpKind::Release) =>
            {
                if self.fans_out() {
                    self.fan_out_reply(w, false, true);
                } else {
                    self.w(w).op = None;
                    self.after_release(w);
                }
            }
            Msg::RenewReply { token, refused, .. }
                if self.workers[w as usize]
                    .renew
                    .is_some_and(|o| o.token == token) =>
            {
                if self.fans_out() {
                    self.fan_out_reply(w, true, refused.is_none());
                } else if refused.is_none() {
                    self.renewed(w, None);
                } else {
                    self.op_failed(w, true);
                    self.lock_lost(w, token);
                }
            }
            Msg::ReadReply {
                token,
                value,
                version,
                ..
            } => {
                let worker = self.w(w);
                if worker.phase == Phase::Reading
                    && let Some(h) = worker.hold.as_mut().filter(|h| h.token == token)
                {
                    h.value = value;
                    h.version = version;
                    self.start_work(w);
                }
            }
            Msg::WriteReply {
                token, ok, version, ..
            } => {
                let worker = self.w(w);
                let mine = worker.hold.is_some_and(|h| h.token == token);
                if worker.phase != Phase::Writing || !mine {
                    return;
                }
                worker.resource_req += 1;
                if ok {
                    if let Some(h) = worker.hold.as_mut() {
                        h.value += 1;
                        h.version = version;
                        h.writes_done += 1;
                    }
                    worker.phase = Phase::Working;
                    self.continue_work(w);
                } else {
                    // Fenced off (or the version moved): it learns it no longer holds the lock.
                    self.let_go(w, LetGoReason::Rejected);
                }
            }
            _ => {}
        }
    }

    /// Redlock: one more node answered. When all have (or on timeout) decide.
    fn fan_out_reply(&mut self, w: NodeId, renew: bool, ok: bool) {
        let n = self.stores.len() as u32;
        let worker = self.w(w);
        let Some(op) = worker.slot(renew) else {
            return;
        };
        op.replies += 1;
        op.oks += u32::from(ok);
        if op.replies >= n {
            self.fan_out_done(w, renew);
        }
    }

    /// Redlock's rule (Redis docs): the lock is held if a majority granted it and the
    /// validity left — TTL minus the time spent acquiring minus a clock-drift allowance of
    /// 1 % of the TTL plus 2 ms — is positive. Otherwise unlock every node.
    fn fan_out_done(&mut self, w: NodeId, renew: bool) {
        let majority = self.majority() as u32;
        let ttl = self.sc.lock.ttl_ms as i64;
        let now = self.lease_now(w);
        let worker = self.w(w);
        let Some(op) = worker.slot(renew).take() else {
            return;
        };
        let key = worker.key;
        let validity = ttl - (now - op.started_local) - (ttl / 100 + 2);
        let won = op.oks >= majority && validity > 0;
        match op.kind {
            OpKind::Release => self.after_release(w),
            OpKind::Renew if won => self.renewed(w, Some(validity)),
            OpKind::Renew => self.record(
                w,
                EventKind::RenewFailed {
                    key,
                    token: op.token,
                },
            ),
            _ if won => {
                let to = self.store_id(0);
                self.acquired(w, op.token, None, Some(now + validity), to);
            }
            _ => {
                self.record(
                    w,
                    EventKind::AcquireFailed {
                        key,
                        token: op.token,
                    },
                );
                for i in 0..self.stores.len() {
                    let to = self.store_id(i);
                    self.send(
                        w,
                        to,
                        Msg::Release {
                            key,
                            token: op.token,
                        },
                    );
                }
                self.retry_later(w);
            }
        }
    }

    /// The worker now believes it holds the lock (or, nested, holds it once more) until
    /// `lease_until` on its lease clock. A grant whose lease, counted from the request, is
    /// already over when the reply comes is a failed attempt: it is handed back to `store`
    /// (Redlock: to every node) at once.
    fn acquired(
        &mut self,
        w: NodeId,
        token: Token,
        fence: Option<u64>,
        lease_until: Option<i64>,
        store: NodeId,
    ) {
        let now = self.lease_now(w);
        let lease_ms = lease_until.map(|until| (until - now).max(0) as u64);
        let key = self.workers[w as usize].key;
        if lease_until.is_some_and(|until| until <= now) {
            self.record(w, EventKind::AcquireFailed { key, token });
            if self.fans_out() {
                self.send_release(w, token);
            } else {
                self.send(w, store, Msg::Release { key, token });
            }
            self.retry_later(w);
            return;
        }
        let worker = self.w(w);
        if worker.phase == Phase::Nesting {
            let Some(h) = worker.hold.as_mut() else {
                return;
            };
            if h.token == token {
                h.count += 1;
                let count = h.count;
                self.record(w, EventKind::Reentered { key, token, count });
            } else {
                h.inner = Some(token);
                self.record(
                    w,
                    EventKind::Acquired {
                        key,
                        token,
                        fence,
                        lease_ms,
                    },
                );
            }
            self.w(w).phase = Phase::Working;
            self.worker_thaw(w);
            return;
        }
        if worker.phase != Phase::Acquiring {
            return;
        }
        worker.hold = Some(Hold {
            token,
            fence,
            lease_until,
            count: 1,
            inner: None,
            nested_done: false,
            inner_released: false,
            work_done: 0,
            running_since: None,
            writes_done: 0,
            value: 0,
            version: 0,
            renew_mark: 0,
        });
        worker.phase = Phase::Reading;
        worker.resource_req += 1;
        let req = worker.resource_req;
        self.record(
            w,
            EventKind::Acquired {
                key,
                token,
                fence,
                lease_ms,
            },
        );
        let resource = self.resource_id;
        self.send(w, resource, Msg::Read { key, token });
        let timeout = self.sc.workers[w as usize].write_timeout_ms as i64;
        self.set_deadline(w, Wait::Resource, timeout, req);
        if self.sc.lock.renewal != Renewal::None {
            self.set_timer(w, self.sc.lock.renew_period_ms() as i64, Timer::RenewTick);
        }
        self.arm_lease_check(w);
    }

    fn start_work(&mut self, w: NodeId) {
        let worker = self.w(w);
        worker.resource_req += 1;
        worker.phase = Phase::Working;
        self.worker_thaw(w);
    }

    fn resource_timed_out(&mut self, w: NodeId) {
        let worker = self.w(w);
        match worker.phase {
            Phase::Reading => self.start_work(w),
            Phase::Writing => {
                // No answer: the worker goes on as if the write happened.
                let key = worker.key;
                let Some(h) = worker.hold.as_mut() else {
                    return;
                };
                h.writes_done += 1;
                let token = h.token;
                worker.phase = Phase::Working;
                self.record(w, EventKind::WriteTimedOut { key, token });
                self.continue_work(w);
            }
            _ => {}
        }
    }

    /// Stops the work clock (pause, stall, or waiting on a reply).
    pub(super) fn worker_freeze(&mut self, w: NodeId) {
        let now = self.now;
        let worker = self.w(w);
        if let Some(h) = worker.hold.as_mut()
            && let Some(since) = h.running_since.take()
        {
            h.work_done += now - since;
            worker.generation += 1;
        }
    }

    /// Restarts the work clock if nothing holds it back.
    pub(super) fn worker_thaw(&mut self, w: NodeId) {
        let now = self.now;
        let paused = self.nodes[w as usize].paused;
        let worker = self.w(w);
        if worker.phase != Phase::Working || worker.stalled || paused {
            return;
        }
        let Some(h) = worker.hold.as_mut() else {
            return;
        };
        if h.running_since.is_some() {
            return;
        }
        h.running_since = Some(now);
        self.schedule_work_point(w);
    }

    /// Running time at which the next thing happens in the critical section.
    fn next_point(&self, w: NodeId) -> Option<u64> {
        let worker = &self.workers[w as usize];
        let spec = &self.sc.workers[w as usize];
        let h = worker.hold.as_ref()?;
        let nested = (spec.nested && !h.nested_done).then_some(spec.work_ms / 2);
        let inner_end = inner_open(h).then_some(inner_end_ms(spec.work_ms));
        let write = (h.writes_done < spec.writes)
            .then(|| spec.work_ms * u64::from(h.writes_done + 1) / u64::from(spec.writes));
        Some(
            [nested, inner_end, write]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(spec.work_ms),
        )
    }

    fn schedule_work_point(&mut self, w: NodeId) {
        let Some(point) = self.next_point(w) else {
            return;
        };
        let worker = &self.workers[w as usize];
        let Some(h) = worker.hold else { return };
        let left = point.saturating_sub(h.work_done);
        let at = self.now + left;
        let generation = worker.generation;
        let incarnation = self.nodes[w as usize].incarnation;
        // Work runs in true time while running: a pause or stall freezes it instead.
        self.queue.push(
            at,
            Ev::Timer {
                node: w,
                incarnation,
                timer: Timer::WorkPoint { generation },
            },
        );
    }

    fn work_point(&mut self, w: NodeId) {
        self.worker_freeze(w);
        let spec = &self.sc.workers[w as usize];
        let (work_ms, writes, nested, check_lease) =
            (spec.work_ms, spec.writes, spec.nested, spec.check_lease);
        let now_local = self.lease_now(w);
        let Some(h) = self.workers[w as usize].hold else {
            return;
        };
        if nested && !h.nested_done && h.work_done >= work_ms / 2 {
            let worker = self.w(w);
            if let Some(h) = worker.hold.as_mut() {
                h.nested_done = true;
            }
            worker.phase = Phase::Nesting;
            self.nested_attempt(w);
            return;
        }
        if inner_open(&h) && h.work_done >= inner_end_ms(work_ms) {
            self.end_inner_section(w);
        }
        let point = work_ms * u64::from(h.writes_done + 1) / u64::from(writes);
        if h.writes_done < writes && h.work_done >= point {
            if !check_lease {
                self.send_write(w);
            } else if h.lease_until.is_some_and(|until| until <= now_local) {
                self.let_go(w, LetGoReason::LeaseOver);
            } else {
                // The check passed; the write is a separate step a pause can delay.
                let worker = self.w(w);
                worker.phase = Phase::CheckedLease;
                let generation = worker.generation;
                self.set_timer(w, 1, Timer::WriteNow { generation });
            }
            return;
        }
        self.continue_work(w);
    }

    /// The nested call returns and releases what it took: one count of a reentrant hold (the
    /// store counts it down, or — uncounted — frees the lock), or a second token.
    fn end_inner_section(&mut self, w: NodeId) {
        let worker = self.w(w);
        let key = worker.key;
        let Some(h) = worker.hold.as_mut() else {
            return;
        };
        h.inner_released = true;
        if let Some(inner) = h.inner.take() {
            self.record(
                w,
                EventKind::LetGo {
                    key,
                    token: inner,
                    reason: LetGoReason::Released,
                },
            );
            self.send_release(w, inner);
        } else if h.count > 1 {
            h.count -= 1;
            let (token, count) = (h.token, h.count);
            self.record(w, EventKind::LeftNested { key, token, count });
            self.send_release(w, token);
        }
    }

    /// After a write (or a point with nothing to do): finish, or run on to the next point.
    fn continue_work(&mut self, w: NodeId) {
        let spec = &self.sc.workers[w as usize];
        let done = self.workers[w as usize]
            .hold
            .is_some_and(|h| h.writes_done >= spec.writes && h.work_done >= spec.work_ms);
        if done {
            self.let_go(w, LetGoReason::Released);
        } else {
            self.worker_thaw(w);
        }
    }

    fn send_write(&mut self, w: NodeId) {
        let worker = self.w(w);
        let Some(h) = worker.hold else { return };
        worker.phase = Phase::Writing;
        worker.resource_req += 1;
        let req = worker.resource_req;
        let key = worker.key;
        let resource = self.resource_id;
        // Read-modify-write: the new value is computed from what this holder last saw.
        self.send(
            w,
            resource,
            Msg::Write {
                key,
                token: h.token,
                fence: h.fence,
                expected_version: h.version,
                value: h.value + 1,
            },
        );
        let timeout = self.sc.workers[w as usize].write_timeout_ms as i64;
        self.set_deadline(w, Wait::Resource, timeout, req);
    }

    /// The worker stops believing it holds the lock, and releases it.
    fn let_go(&mut self, w: NodeId, reason: LetGoReason) {
        let worker = self.w(w);
        let Some(h) = worker.hold.take() else { return };
        let key = worker.key;
        worker.generation += 1;
        if let Some(inner) = h.inner {
            self.record(
                w,
                EventKind::LetGo {
                    key,
                    token: inner,
                    reason,
                },
            );
            self.send_release(w, inner);
        }
        // A reentrant holder releases once per acquire; the store counts down.
        for _ in 1..h.count {
            self.send_release(w, h.token);
        }
        self.record(
            w,
            EventKind::LetGo {
                key,
                token: h.token,
                reason,
            },
        );
        self.w(w).phase = Phase::Releasing;
        self.begin_op(w, OpKind::Release, h.token, false);
    }

    /// A release nobody waits for.
    fn send_release(&mut self, w: NodeId, token: Token) {
        let key = self.workers[w as usize].key;
        if self.fans_out() {
            for i in 0..self.stores.len() {
                let to = self.store_id(i);
                self.send(w, to, Msg::Release { key, token });
            }
        } else {
            let to = self.store_id(self.workers[w as usize].leader);
            self.send(w, to, Msg::Release { key, token });
        }
    }

    fn after_release(&mut self, w: NodeId) {
        let worker = self.w(w);
        worker.op = None;
        worker.left = worker.left.map(|l| l.saturating_sub(1));
        if worker.left == Some(0) {
            worker.phase = Phase::Done;
            return;
        }
        worker.phase = Phase::Idle;
        let retry = worker.retry_ms;
        self.set_timer(w, retry, Timer::Retry);
    }

    /// Renewal timer: a watchdog renews while the process lives; `progress` only if the work
    /// moved since the last renewal.
    fn renew_tick(&mut self, w: NodeId) {
        let now = self.now;
        let progress_only = self.sc.lock.renewal == Renewal::Progress;
        let worker = self.w(w);
        let Some(h) = worker.hold.as_mut() else {
            return;
        };
        let token = h.token;
        let done = h.work_done + h.running_since.map_or(0, |s| now - s);
        let moved = done > h.renew_mark;
        h.renew_mark = done;
        let busy = worker.renew.is_some();
        self.set_timer(w, self.sc.lock.renew_period_ms() as i64, Timer::RenewTick);
        if busy || (progress_only && !moved) {
            return;
        }
        self.begin_op(w, OpKind::Renew, token, true);
    }

    /// `on_lock_loss = "stop"`: arms a check for when the worker's own count of its lease runs
    /// out (renewals move that moment on; the check then looks again).
    fn arm_lease_check(&mut self, w: NodeId) {
        if self.sc.workers[w as usize].on_lock_loss != OnLockLoss::Stop {
            return;
        }
        let now = self.lease_now(w);
        let Some(h) = self.workers[w as usize].hold else {
            return;
        };
        if let Some(until) = h.lease_until {
            let token = h.token;
            self.set_timer(w, until - now, Timer::LeaseCheck { token });
        }
    }

    fn lease_check(&mut self, w: NodeId, token: Token) {
        let now = self.lease_now(w);
        let Some(h) = self.workers[w as usize].hold.filter(|h| h.token == token) else {
            return;
        };
        match h.lease_until {
            Some(until) if until <= now => self.lock_lost(w, token),
            Some(_) => self.arm_lease_check(w),
            None => {}
        }
    }

    /// The worker learned that its lock `token` is gone: with `on_lock_loss = "stop"` it
    /// stops before its next step (etcd's `Session.Done`, client-go's `OnStoppedLeading`).
    fn lock_lost(&mut self, w: NodeId, token: Token) {
        let stops = self.sc.workers[w as usize].on_lock_loss == OnLockLoss::Stop;
        if stops
            && self.workers[w as usize]
                .hold
                .is_some_and(|h| h.token == token)
        {
            self.let_go(w, LetGoReason::LockLost);
        }
    }

    fn renewed(&mut self, w: NodeId, validity: Option<i64>) {
        let ttl = self.sc.lock.ttl_ms as i64;
        let now = self.lease_now(w);
        let worker = self.w(w);
        let Some(op) = worker.renew.take() else {
            return;
        };
        let key = worker.key;
        let Some(h) = worker.hold.as_mut().filter(|h| h.token == op.token) else {
            return;
        };
        let until = validity.map_or(op.started_local + ttl, |v| now + v);
        h.lease_until = Some(until);
        let lease_ms = (until - now).max(0) as u64;
        self.record(
            w,
            EventKind::Renewed {
                key,
                token: op.token,
                lease_ms,
            },
        );
    }

    pub(super) fn worker_crashed(&mut self, w: NodeId) {
        let worker = self.w(w);
        let hold = worker.hold.take();
        let key = worker.key;
        worker.op = None;
        worker.renew = None;
        worker.claimed = None;
        worker.stalled = false;
        worker.generation += 1;
        worker.phase = Phase::Idle;
        worker.deadlines = [None; 3];
        worker.armed = [None; 3];
        if let Some(h) = hold {
            for token in h.inner.into_iter().chain([h.token]) {
                self.record(
                    w,
                    EventKind::LetGo {
                        key,
                        token,
                        reason: LetGoReason::Crashed,
                    },
                );
            }
        }
    }

    pub(super) fn worker_restarted(&mut self, w: NodeId) {
        if self.workers[w as usize].left != Some(0) {
            self.set_timer(w, 0, Timer::Start);
        }
    }
}
