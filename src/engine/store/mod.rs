//! Store nodes: the lock table each node keeps, and the five topologies
//! (`single`, `redlock`, `multi_primary` — a node each, `replicated` in [`replicated`],
//! `consensus` in [`consensus`]).

mod consensus;
pub use consensus::{MAX_APPEND_ENTRIES, MAX_INFLIGHT_APPENDS};
mod replicated;
mod table;
#[cfg(test)]
mod tests;

pub use table::{Acquire, LockTable, Release};

use std::borrow::Cow;

use super::Timer;
use super::layout::StoreIx;
use super::msg::{AcquireAnswer, Msg};
use super::outbox::{Ctx, Outbox};
use crate::engine::marks::mark;
use crate::scenario::{
    Acquire as AcquireSteps, DeletedBy, Design, Expiry, Lock, Persistence, REPLICA_ACK_EVERY_MS,
    Scenario, StoreClock, Topology, Waiting,
};
use crate::trace::{EventKind, KeyId, NodeId, Refusal, SessionEnd, Token};
use consensus::Raft;
use replicated::{ReplicaRole, Replication};
use table::Held;

/// `persistence = "everysec"`: how often a node flushes its log, local ms (Redis's
/// `appendfsync everysec`).
const FLUSH_EVERY_MS: i64 = 1_000;

/// One store node: a state machine over its lock table, by topology. Handlers take the
/// node's state, one event and a read-only [`Ctx`], and push commands into an [`Outbox`].
pub struct StoreNode {
    /// This node among the store nodes.
    me: StoreIx,
    pub table: LockTable,
    /// `persistence = "everysec"`: the table as of the last flush, what a crash leaves.
    disk: Option<LockTable>,
    /// `replicated` and `consensus`: last time (monotonic local ms) this node heard from its
    /// primary or leader (or, as a candidate, started asking to be one).
    last_heard: i64,
    protocol: Protocol,
}

/// What a store node is besides its lock table.
pub enum Protocol {
    /// `single`, a `redlock` node or a `multi_primary` member: it decides alone, as one Redis
    /// server does (`SET NX PX` and the compare-and-delete script of the Redis docs'
    /// "Distributed Locks with Redis"), and as a Galera member grants `GET_LOCK` from its own
    /// memory without asking the others.
    Table,
    /// `replicated`: a primary or one of its asynchronous replicas with automatic failover
    /// (the Redis docs' "Replication" and Redis Sentinel).
    Replicated(Replication),
    /// `consensus`: a member of a Raft group (Ongaro and Ousterhout 2014), with leases timed
    /// by the leader as etcd's lessor does.
    Consensus(Raft),
}

impl StoreNode {
    /// Store node `me` of `nodes`, with `keys` free keys, as `sc`'s topology has it.
    pub fn new(me: StoreIx, nodes: usize, keys: usize, sc: &Scenario) -> Self {
        let protocol = match sc.store.topology {
            Topology::Single | Topology::Redlock | Topology::MultiPrimary => Protocol::Table,
            Topology::Replicated => {
                Protocol::Replicated(Replication::new(me, replicated::BACKLOG_COMMANDS))
            }
            Topology::Consensus => Protocol::Consensus(Raft::new(me, nodes)),
        };
        StoreNode {
            me,
            table: LockTable::new(keys),
            disk: None,
            last_heard: 0,
            protocol,
        }
    }

    /// `persistence = "everysec"`: the first flush is a second away.
    pub fn start_flushing(&mut self, out: &mut Outbox) {
        out.timer(FLUSH_EVERY_MS, Timer::Flush);
    }

    /// Starts the timers the topology needs (heartbeats, failure detectors, and with
    /// `min_replicas_to_write` each replica's acknowledgements).
    pub fn start_watching(&mut self, cx: &Ctx, out: &mut Outbox) {
        if !matches!(self.protocol, Protocol::Table) {
            out.timer(0, Timer::Heartbeat);
            out.timer(heartbeat_ms(cx), Timer::LeaderCheck);
        }
        if matches!(self.protocol, Protocol::Replicated(_)) && cx.sc.store.min_replicas_to_write > 0
        {
            out.timer(REPLICA_ACK_EVERY_MS as i64, Timer::ReplAck);
        }
    }

    /// Whether this node decides on its own locks now (not a replica or follower).
    pub fn is_serving(&self) -> bool {
        match &self.protocol {
            Protocol::Table => true,
            Protocol::Replicated(r) => r.role == ReplicaRole::Primary,
            Protocol::Consensus(r) => r.is_leader(),
        }
    }
}

/// Heartbeat period of the primary / leader, local ms.
fn heartbeat_ms(cx: &Ctx) -> i64 {
    (cx.sc.store.failover_ms / 4).max(1) as i64
}

/// The clock store nodes measure leases on, local ms.
fn lease_now(cx: &Ctx) -> i64 {
    match cx.sc.store.lease_clock() {
        StoreClock::Monotonic => cx.monotonic(),
        StoreClock::Wall => cx.wall(),
    }
}

/// The store took the lock from `holder` because `asker`'s clock, reading `asker_ms` when it
/// asked, found the lease over: past the `until_ms` that `holder` wrote (`expiry = "client"`),
/// or a lease length after the asker first saw the record unchanged at `until_ms`
/// (`expiry = "observed"`).
fn client_expired(
    cx: &Ctx,
    key: KeyId,
    holder: Token,
    until_ms: i64,
    asker: Token,
    asker_ms: i64,
) -> EventKind {
    if cx.sc.lock.expiry == Expiry::Observed {
        return EventKind::ExpiredUnchanged {
            key,
            token: holder,
            seen_ms: until_ms,
            asker,
            asker_ms,
        };
    }
    EventKind::ExpiredByClient {
        key,
        token: holder,
        until_ms,
        asker,
        asker_ms,
    }
}

/// The lease a grant carries as its client is told, ms (`None`: the design has no lease).
fn lease_ms(cx: &Ctx) -> Option<u64> {
    cx.sc.lock.design.has_lease().then_some(cx.sc.lock.ttl_ms)
}

/// How long the store itself keeps a lease before it ends it, ms: the TTL the client asked
/// for, times `store.ttl_multiplier`. Consul arms each session's timer for the TTL times its
/// `SessionTTLMultiplier` (2): its session docs promise the TTL only as a lower bound on
/// invalidation, so a holder that died is let go up to twice the TTL later, and lock-delay
/// comes on top. The client still counts the TTL alone.
fn store_ttl_ms(cx: &Ctx) -> u64 {
    cx.sc.lock.ttl_ms * u64::from(cx.sc.store.ttl_multiplier)
}

/// [`store_ttl_ms`] for a grant (`None`: the design has no lease).
fn store_lease_ms(cx: &Ctx) -> Option<u64> {
    lease_ms(cx).map(|_| store_ttl_ms(cx))
}

/// The lock's settings as the store applies them to its table: its own lease length,
/// [`store_ttl_ms`]. Borrowed unless a multiplier is set.
fn store_lock<'a>(cx: &Ctx<'a>) -> Cow<'a, Lock> {
    let lock = &cx.sc.lock;
    if cx.sc.store.ttl_multiplier == 1 {
        return Cow::Borrowed(lock);
    }
    Cow::Owned(Lock {
        ttl_ms: store_ttl_ms(cx),
        ..lock.clone()
    })
}

impl StoreNode {
    /// A message reached this node.
    pub fn on_msg(&mut self, cx: &Ctx, out: &mut Outbox, from: NodeId, msg: Msg) {
        match self.protocol {
            Protocol::Consensus(_) => self.raft_receive(cx, out, from, msg),
            Protocol::Replicated(_) => self.replicated_receive(cx, out, from, msg),
            Protocol::Table => self.serve(cx, out, from, msg),
        }
    }

    /// A timer of this node's fired.
    pub fn on_timer(&mut self, cx: &Ctx, out: &mut Outbox, timer: Timer) {
        if let Timer::Flush = timer {
            self.disk = Some(self.table.clone());
            out.timer(FLUSH_EVERY_MS, Timer::Flush);
            return;
        }
        match (&self.protocol, timer) {
            (Protocol::Consensus(_), _) => self.raft_timer(cx, out, timer),
            (_, Timer::Expire { key, token }) => self.on_expire_timer(cx, out, key, token),
            (_, Timer::LockDelayOver { key }) => self.grant_next(cx, out, key),
            (_, Timer::TurnOver { key, token }) => self.turn_over(cx, out, key, token),
            (Protocol::Replicated(_), _) => self.replicated_timer(cx, out, timer),
            _ => {}
        }
    }

    /// Serves a client request on a node that may decide alone (single, Redlock node, primary).
    fn serve(&mut self, cx: &Ctx, out: &mut Outbox, from: NodeId, msg: Msg) {
        match msg {
            Msg::Acquire {
                key,
                token,
                reenter,
                client_now,
            } => {
                let answer = self.try_acquire(cx, out, key, token, reenter, client_now);
                out.send(from, Msg::AcquireReply { key, token, answer });
            }
            Msg::Claim {
                key,
                token,
                stamp_ms,
            } => {
                if self.table.claim(key.index(), token, stamp_ms) {
                    out.record(EventKind::Claimed {
                        key,
                        token,
                        stamp_ms,
                    });
                }
                out.send(from, Msg::ClaimReply { key, token });
            }
            Msg::ReadClaims { key, token } => {
                let claims = self.table.claims(key.index()).to_vec();
                out.send(from, Msg::Claims { key, token, claims });
            }
            Msg::Release { key, token } if cx.sc.lock.design == Design::Timestamp => {
                // A blind delete of the releaser's own claim: nobody else's.
                if self.table.unclaim(key.index(), token) {
                    out.record(EventKind::Unclaimed { key, token });
                } else {
                    out.record(EventKind::ReleaseIgnored { key, by: token });
                }
                out.send(from, Msg::ReleaseReply { key, token });
            }
            Msg::Release { key, token } => {
                self.expire_if_due(cx, out, key);
                self.release(cx, out, key, token);
                out.send(from, Msg::ReleaseReply { key, token });
            }
            Msg::Evict { key, holder, by } => {
                self.expire_if_due(cx, out, key);
                self.evict(cx, out, key, holder, by);
            }
            Msg::Renew {
                key,
                token,
                client_now,
            } => {
                self.expire_if_due(cx, out, key);
                let now = lease_now(cx);
                let renewed =
                    self.table
                        .renew(&store_lock(cx), key.index(), token, now, client_now);
                if let Some(holder) = renewed {
                    self.lease_extended(cx, out, key, holder);
                    self.replicate(cx, out, key);
                }
                let refused = renewed.is_none().then_some(Refusal::LeaseGone);
                self.answer_renew(out, from, key, token, refused);
            }
            Msg::Expire { key, token } => {
                self.expire_if_due(cx, out, key);
                let ttl = store_ttl_ms(cx);
                let now = lease_now(cx);
                let mine = self.table.held[key.index()]
                    .as_mut()
                    .filter(|h| h.token == token);
                if let Some(h) = mine {
                    h.expires = Some(now + ttl as i64);
                    out.record(EventKind::TtlSet {
                        key,
                        token,
                        lease_ms: ttl,
                    });
                    self.arm_expiry(cx, out, key, token);
                    self.replicate(cx, out, key);
                }
            }
            Msg::FlagRead { key, token } => {
                let locked = self.table.held[key.index()].is_some();
                out.send(from, Msg::FlagValue { key, token, locked });
            }
            Msg::FlagSet { key, token } => {
                // No check: the "check" was the earlier read. Whoever writes, gets it.
                match &mut self.table.held[key.index()] {
                    Some(h) => {
                        mark!("flag_set_while_set");
                        h.also_set_by.push(token);
                    }
                    slot => *slot = Some(Held::new(token, None)),
                }
                out.record(EventKind::Granted {
                    key,
                    token,
                    fence: None,
                    lease_ms: None,
                    took_over: false,
                });
                self.replicate(cx, out, key);
                let answer = AcquireAnswer::Granted {
                    fence: None,
                    lease_ms: None,
                };
                out.send(from, Msg::AcquireReply { key, token, answer });
            }
            _ => {}
        }
    }

    /// Answers a renewal: extended (`refused` is `None`), or refused for a reason, recorded.
    pub(super) fn answer_renew(
        &mut self,
        out: &mut Outbox,
        to: NodeId,
        key: KeyId,
        token: Token,
        refused: Option<Refusal>,
    ) {
        if let Some(why) = refused {
            out.record(EventKind::Refused { key, token, why });
        }
        out.send(
            to,
            Msg::RenewReply {
                key,
                token,
                refused,
            },
        );
    }

    /// The atomic acquire of every design from `setnx` up ([`LockTable::acquire`]), after
    /// expiring a lapsed lease.
    fn try_acquire(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        key: KeyId,
        token: Token,
        reenter: bool,
        client_now: i64,
    ) -> AcquireAnswer {
        self.expire_if_due(cx, out, key);
        self.session_heartbeat(cx, out, key, token);
        let now = lease_now(cx);
        // A waiter's repeated ask is its heartbeat: it renews its place, refused as before.
        let heartbeat = self.table.waits(key.index(), token, now);
        let outcome = self.table.acquire(
            &store_lock(cx),
            key.index(),
            token,
            reenter,
            now,
            client_now,
        );
        match outcome {
            Acquire::Own { fence, reentered } => {
                if reentered {
                    if cx.sc.lock.design.has_lease() {
                        self.lease_extended(cx, out, key, token);
                    }
                    self.replicate(cx, out, key);
                }
                AcquireAnswer::Granted {
                    fence,
                    lease_ms: lease_ms(cx),
                }
            }
            Acquire::Granted { fence, expired } => {
                if let Some((old, until)) = expired {
                    out.record(client_expired(cx, key, old, until, token, client_now));
                }
                self.granted(cx, out, key, token, fence);
                AcquireAnswer::Granted {
                    fence,
                    lease_ms: lease_ms(cx),
                }
            }
            Acquire::Refused {
                why,
                queued,
                expired,
            } => {
                if let Some((old, until)) = expired {
                    out.record(client_expired(cx, key, old, until, token, client_now));
                }
                if !(queued && heartbeat) {
                    out.record(EventKind::Refused { key, token, why });
                }
                if !queued {
                    return AcquireAnswer::Refused { why };
                }
                if why == Refusal::LockDelay {
                    self.arm_lock_delay(cx, out, key);
                }
                AcquireAnswer::Queued
            }
        }
    }

    /// Records a new grant on this node, arms its expiry and replicates it.
    fn granted(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        key: KeyId,
        token: Token,
        fence: Option<u64>,
    ) {
        // Two-step (SETNX, then EXPIRE): the key has no TTL until the EXPIRE arrives.
        let lease_ms = store_lease_ms(cx).filter(|_| cx.sc.lock.acquire == AcquireSteps::OneStep);
        self.announce_grant(cx, out, key, token, fence, lease_ms);
        self.replicate(cx, out, key);
    }

    /// Release by `by` ([`LockTable::release`]).
    fn release(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, by: Token) {
        if self.table.turn[key.index()] == Some(by) {
            // A waiter that gives up its place passes the turn on.
            self.table.turn[key.index()] = None;
            self.grant_next(cx, out, key);
        }
        match self.table.release(&cx.sc.lock, key.index(), by) {
            Release::Ignored => out.record(EventKind::ReleaseIgnored { key, by }),
            Release::Decremented => self.replicate(cx, out, key),
            Release::Removed {
                holder,
                also_set_by,
            } => {
                for holder in std::iter::once(holder).chain(also_set_by) {
                    out.record(EventKind::Removed { key, holder, by });
                }
                self.replicate(cx, out, key);
                self.grant_next(cx, out, key);
            }
        }
    }

    /// A health check's delete (`ping_timeout_ms`): removes the key if `holder` still has it,
    /// as `DEL` guarded by the value the waiter saw; `by` is the waiter's attempt.
    fn evict(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, holder: Token, by: Token) {
        if self.table.holder(key.index()) != Some(holder) {
            out.record(EventKind::ReleaseIgnored { key, by });
            return;
        }
        self.table.held[key.index()] = None;
        out.record(EventKind::Removed { key, holder, by });
        self.replicate(cx, out, key);
        self.grant_next(cx, out, key);
    }

    /// Expires the key's lease if this node's lease clock says it is over.
    fn expire_if_due(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId) {
        let now = lease_now(cx);
        let lock = &cx.sc.lock;
        let Some(token) = self.table.expire_if_due(lock, key.index(), now) else {
            return;
        };
        out.record(EventKind::Expired { key, token });
        self.replicate(cx, out, key);
        self.grant_next(cx, out, key);
    }

    /// `by` deletes `key` on this node, whoever holds it (`force_release`): an operator, an
    /// eviction or a flush, which the engine applies to every key. A replica or follower takes
    /// writes only from its primary or leader, so there it does nothing; the primary's delete
    /// reaches its replicas as usual (a primary sends its evictions to its replicas as `DEL`s
    /// too, and replicas do not evict on their own: Redis docs, "Key eviction" and
    /// `replica-ignore-maxmemory`).
    pub fn force_release(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, by: DeletedBy) {
        if !self.is_serving() {
            return;
        }
        if let Protocol::Consensus(_) = self.protocol {
            self.raft_force_release(cx, out, key, by);
            return;
        }
        self.expire_if_due(cx, out, key);
        if cx.sc.lock.design == Design::Timestamp {
            // The operator empties the key's table of claims; the earliest claimant is the
            // one whose lock that deletes.
            let claims = std::mem::take(&mut self.table.claims[key.index()]);
            let holder = claims.first().map(|&(t, _)| t);
            out.record(EventKind::ForceReleased { key, holder, by });
            for (token, _) in claims {
                out.record(EventKind::Unclaimed { key, token });
            }
            return;
        }
        let held = self.table.held[key.index()].take();
        out.record(EventKind::ForceReleased {
            key,
            holder: held.map(|h| h.token),
            by,
        });
        self.replicate(cx, out, key);
        self.grant_next(cx, out, key);
    }

    /// Records a new grant of `key` to `token` and arms its expiry: what every topology does
    /// once its grant takes effect on this node.
    fn announce_grant(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        lease_ms: Option<u64>,
    ) {
        out.record(EventKind::Granted {
            key,
            token,
            fence,
            lease_ms,
            took_over: false,
        });
        self.arm_expiry(cx, out, key, token);
    }

    /// Sets a timer for when the key's lease should end on this node.
    fn arm_expiry(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, token: Token) {
        let Some(expires) = self.table.held[key.index()]
            .as_ref()
            .and_then(|h| h.expires)
        else {
            return;
        };
        let left = (expires - lease_now(cx)).max(0);
        out.timer(left, Timer::Expire { key, token });
    }

    fn on_expire_timer(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, token: Token) {
        if !self.is_serving() {
            return;
        }
        let still = self.table.held[key.index()]
            .as_ref()
            .is_some_and(|h| h.token == token);
        if !still {
            return;
        }
        self.expire_if_due(cx, out, key);
        if self.table.held[key.index()].is_some() {
            // Extended meanwhile (or the clock stepped back): look again later.
            self.arm_expiry(cx, out, key, token);
        }
    }

    /// `fair` waiting: tells the head of the key's queue it is its turn, if the key is free.
    /// The key waits a lease length for that waiter's acquire, then passes the turn on: as in
    /// ZooKeeper's lock recipe, the next waiter's watch fires and it takes the lock itself, so
    /// its lease counts from its own request, and a waiter that is gone (a lost notification,
    /// a dead client) costs a lease length, not the lock. A waiter that died further back in
    /// line costs nothing: its place lapsed a lease length after its last ask and it is
    /// skipped ([`LockTable::next_alive`]).
    fn grant_next(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId) {
        if cx.sc.lock.waiting != Waiting::Fair || !self.is_serving() {
            return;
        }
        let k = key.index();
        let table = &self.table;
        if table.held[k].is_some() || table.turn[k].is_some() {
            return;
        }
        if table.delay_until[k] > lease_now(cx) {
            self.arm_lock_delay(cx, out, key);
            return;
        }
        let Some(next) = self.table.next_alive(k, lease_now(cx)) else {
            return;
        };
        self.table.give_turn(k, next);
        self.tell_turn(cx, out, key, next);
    }

    /// Sends `token` its turn for `key` and waits a lease length for it to claim it.
    fn tell_turn(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, token: Token) {
        self.table.turn_until[key.index()] = i64::MIN;
        out.send(token.worker, Msg::YourTurn { key, token });
        out.timer(cx.sc.lock.ttl_ms as i64, Timer::TurnOver { key, token });
    }

    /// The waiter told it is its turn did not claim the key in a lease length: the next one's,
    /// unless the waiter's session renewed the turn meanwhile ([`LockTable::heartbeat`]); then
    /// it waits until that runs out. Returns whether the turn is over.
    fn turn_lapsed(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, token: Token) -> bool {
        let now = lease_now(cx);
        match self.table.turn_renewed_until(key.index(), token, now) {
            Some(until) => {
                out.timer(until - now, Timer::TurnOver { key, token });
                false
            }
            None => self.table.turn[key.index()] == Some(token),
        }
    }

    /// The waiter told it is its turn did not claim the key in a lease length: the next one's.
    fn turn_over(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, token: Token) {
        if self.turn_lapsed(cx, out, key, token) {
            self.table.turn[key.index()] = None;
            self.grant_next(cx, out, key);
        }
    }

    /// `fair`: an ask of `asker`'s is a heartbeat of its worker's session
    /// ([`LockTable::heartbeat`]): every place, turn and grant of the worker's on `key` lives
    /// a lease length (the store's own, [`store_ttl_ms`], simulated ms) from now. A grant it
    /// renews is recorded as extended and re-armed (and on a primary, replicated).
    fn session_heartbeat(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, asker: Token) {
        if cx.sc.lock.waiting != Waiting::Fair {
            return;
        }
        let now = lease_now(cx);
        let until = LockTable::place_until(store_ttl_ms(cx), now);
        if let Some(holder) = self.table.heartbeat(key.index(), asker, now, until) {
            mark!("session_renewed_another_attempts_grant");
            self.lease_extended(cx, out, key, holder);
            if !matches!(self.protocol, Protocol::Consensus(_)) {
                self.replicate(cx, out, key);
            }
        }
    }

    /// Records that `token`'s lease on `key` runs a full TTL from now (the store's own,
    /// [`store_ttl_ms`]), and re-arms its expiry.
    fn lease_extended(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId, token: Token) {
        let lease_ms = store_ttl_ms(cx);
        out.record(EventKind::LeaseExtended {
            key,
            token,
            lease_ms,
        });
        self.arm_expiry(cx, out, key, token);
    }

    fn arm_lock_delay(&mut self, cx: &Ctx, out: &mut Outbox, key: KeyId) {
        let left = self.table.delay_until[key.index()] - lease_now(cx);
        if left > 0 {
            out.timer(left, Timer::LockDelayOver { key });
        }
    }

    /// A wall-clock step: a lease timed on the wall clock may be over now.
    pub fn clock_jumped(&mut self, cx: &Ctx, out: &mut Outbox) {
        if cx.sc.store.lease_clock() != StoreClock::Wall || !self.is_serving() {
            return;
        }
        for key in KeyId::all(self.table.keys()) {
            if let Protocol::Consensus(_) = self.protocol {
                self.raft_expire_if_due(cx, out, key);
            } else {
                self.expire_if_due(cx, out, key);
            }
        }
    }

    /// `everysec`: the node comes back with its table as last flushed; every change since is
    /// lost (recorded per key), and the flushes start again.
    fn reload(&mut self, out: &mut Outbox) {
        let keys = self.table.keys();
        let disk = self.disk.clone().unwrap_or_else(|| LockTable::new(keys));
        let before = std::mem::replace(&mut self.table, disk);
        for key in KeyId::all(keys) {
            let was = before.claims(key.index());
            let now = self.table.claims(key.index()).to_vec();
            for &(token, _) in was.iter().filter(|c| !now.contains(c)) {
                out.record(EventKind::Unclaimed { key, token });
            }
            for &(token, stamp_ms) in now.iter().filter(|c| !was.contains(c)) {
                out.record(EventKind::Claimed {
                    key,
                    token,
                    stamp_ms,
                });
            }
            let now = self.table.held[key.index()].as_ref();
            let was = before.held[key.index()].as_ref();
            if now.map(|h| h.token) != was.map(|h| h.token) {
                let holder = now.map(|h| h.token);
                out.record(EventKind::Reloaded { key, holder });
            }
        }
        out.timer(FLUSH_EVERY_MS, Timer::Flush);
    }

    /// `session`: `worker`'s session on this node ends, for `why`; each lock it held is let
    /// go, recorded, and passed on as a release would be ([`LockTable::end_session`]).
    pub fn end_session(&mut self, cx: &Ctx, out: &mut Outbox, worker: NodeId, why: SessionEnd) {
        for (key, holder) in self.table.end_session(worker) {
            let key = KeyId::from_index(key);
            out.record(EventKind::SessionEnded { key, holder, why });
            self.replicate(cx, out, key);
            self.grant_next(cx, out, key);
        }
    }

    /// The node crashes now. `session`: every session ends with the server, and its locks
    /// with them. `everysec`: each grant its table holds that its last flush did not is lost
    /// with it (Redis's `appendfsync everysec` loses up to the last second).
    pub fn crashing(&mut self, cx: &Ctx, out: &mut Outbox) {
        if cx.sc.lock.design == Design::Session {
            for key in KeyId::all(self.table.keys()) {
                if let Some(holder) = self.table.holder(key.index()) {
                    let why = SessionEnd::ServerStopped;
                    out.record(EventKind::SessionEnded { key, holder, why });
                }
            }
            self.table = LockTable::new(self.table.keys());
            self.disk = None;
            return;
        }
        if cx.sc.store.persistence != Persistence::Everysec {
            return;
        }
        for key in KeyId::all(self.table.keys()) {
            let held = self.table.held[key.index()].as_ref().map(|h| h.token);
            let on_disk = self
                .disk
                .as_ref()
                .and_then(|d| d.held[key.index()].as_ref())
                .map(|h| h.token);
            if let Some(token) = held.filter(|&t| on_disk != Some(t)) {
                out.record(EventKind::Unflushed { key, token });
            }
        }
    }

    /// A store node comes back: with its locks (fsync) or having forgotten them.
    pub fn restarted(&mut self, cx: &Ctx, out: &mut Outbox) {
        if cx.sc.store.persistence == Persistence::Everysec {
            self.reload(out);
        }
        if cx.sc.store.persistence == Persistence::None {
            let keys = self.table.keys();
            self.table = LockTable::new(keys);
            if let Protocol::Consensus(r) = &mut self.protocol {
                r.forget();
            }
            out.record(EventKind::Forgot);
        }
        self.last_heard = cx.monotonic();
        if let Protocol::Consensus(r) = &mut self.protocol {
            r.become_follower(None);
        }
        for key in KeyId::all(self.table.keys()) {
            if let Some(t) = self.table.held[key.index()].as_ref().map(|h| h.token) {
                self.arm_expiry(cx, out, key, t);
            }
        }
        if let Protocol::Replicated(_) = self.protocol {
            self.replicated_restarted(cx, out);
        }
        self.start_watching(cx, out);
    }
}
