//! Store nodes: the lock table each node keeps, and the four topologies of DESIGN §2
//! (`single`, `redlock` — a node each, `replicated` in [`replicated`], `consensus` in
//! [`consensus`]).

mod consensus;
pub use consensus::{MAX_APPEND_ENTRIES, MAX_INFLIGHT_APPENDS};
mod replicated;
mod table;

pub use table::{Acquire, LockTable, Release};

use super::msg::{AcquireAnswer, Msg};
use super::{Sim, Timer};
use crate::scenario::{
    Acquire as AcquireSteps, Design, Persistence, Scenario, StoreClock, Topology, Waiting,
};
use crate::trace::{EventKind, KeyId, NodeId, Refusal, Token};
use consensus::Raft;
use replicated::Replication;
use table::Held;

/// `persistence = "everysec"`: how often a node flushes its log, local ms (Redis's
/// `appendfsync everysec`).
const FLUSH_EVERY_MS: i64 = 1_000;

/// A replicated node's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Primary,
    /// Follows `primary` (store index) if known.
    Replica {
        primary: Option<usize>,
    },
}

/// One store node.
pub struct StoreNode {
    pub table: LockTable,
    /// `replicated`: role and epoch.
    pub role: Role,
    pub epoch: u64,
    /// Last time (monotonic local ms) this node heard from its primary or leader.
    pub last_heard: i64,
    /// `replicated`: its place in the replication stream.
    pub repl: Option<Replication>,
    /// `consensus` state.
    pub raft: Option<Raft>,
    /// `persistence = "everysec"`: the table as of the last flush, what a crash leaves.
    pub disk: Option<LockTable>,
}

impl StoreNode {
    pub fn new(index: usize, nodes: usize, keys: usize, sc: &Scenario) -> Self {
        let leader = index == 0;
        StoreNode {
            table: LockTable::new(keys),
            role: if leader || sc.store.topology != Topology::Replicated {
                Role::Primary
            } else {
                Role::Replica { primary: Some(0) }
            },
            epoch: 1,
            last_heard: 0,
            repl: (sc.store.topology == Topology::Replicated)
                .then(|| Replication::new(index, replicated::BACKLOG_COMMANDS)),
            raft: (sc.store.topology == Topology::Consensus).then(|| Raft::new(index, nodes)),
            disk: None,
        }
    }
}

impl Sim<'_> {
    /// Starts the timers the topology needs (heartbeats, failure detectors).
    pub(super) fn start_stores(&mut self) {
        if self.sc.store.persistence == Persistence::Everysec {
            for i in 0..self.stores.len() {
                self.set_timer(self.store_id(i), FLUSH_EVERY_MS, Timer::Flush);
            }
        }
        match self.topology() {
            Topology::Replicated | Topology::Consensus => {
                for i in 0..self.stores.len() {
                    let id = self.store_id(i);
                    self.set_timer(id, 0, Timer::Heartbeat);
                    self.set_timer(id, self.heartbeat_ms(), Timer::LeaderCheck);
                }
            }
            Topology::Single | Topology::Redlock => {}
        }
    }

    /// Heartbeat period of the primary / leader, local ms.
    fn heartbeat_ms(&self) -> i64 {
        (self.sc.store.failover_ms / 4).max(1) as i64
    }

    /// The clock this store node measures leases on, local ms.
    fn lease_clock(&self, id: NodeId) -> i64 {
        let c = &self.nodes[id as usize].clock;
        match self.sc.store.lease_clock() {
            StoreClock::Monotonic => c.monotonic(self.now),
            StoreClock::Wall => c.wall(self.now),
        }
    }

    fn lease_ms(&self) -> Option<u64> {
        self.sc
            .lock
            .design
            .has_lease()
            .then_some(self.sc.lock.ttl_ms)
    }

    pub(super) fn store_receive(&mut self, me: NodeId, from: NodeId, msg: Msg) {
        match self.topology() {
            Topology::Consensus => self.raft_receive(me, from, msg),
            Topology::Replicated => self.replicated_receive(me, from, msg),
            Topology::Single | Topology::Redlock => self.serve(me, from, msg),
        }
    }

    pub(super) fn store_timer(&mut self, me: NodeId, timer: Timer) {
        if let Timer::Flush = timer {
            let si = self.store_index(me);
            self.stores[si].disk = Some(self.stores[si].table.clone());
            self.set_timer(me, FLUSH_EVERY_MS, Timer::Flush);
            return;
        }
        match (self.topology(), timer) {
            (Topology::Consensus, _) => self.raft_timer(me, timer),
            (_, Timer::Expire { key, token }) => self.on_expire_timer(me, key, token),
            (_, Timer::LockDelayOver { key }) => self.grant_next(me, key),
            (_, Timer::TurnOver { key, token }) => self.turn_over(me, key, token),
            (Topology::Replicated, _) => self.replicated_timer(me, timer),
            _ => {}
        }
    }

    /// Serves a client request on a node that may decide alone (single, Redlock node, primary).
    fn serve(&mut self, me: NodeId, from: NodeId, msg: Msg) {
        let si = self.store_index(me);
        match msg {
            Msg::Acquire {
                key,
                token,
                reenter,
                client_now,
            } => {
                let answer = self.try_acquire(me, key, token, reenter, client_now);
                self.send(me, from, Msg::AcquireReply { key, token, answer });
            }
            Msg::Claim {
                key,
                token,
                stamp_ms,
            } => {
                if self.stores[si].table.claim(key as usize, token, stamp_ms) {
                    self.record(
                        me,
                        EventKind::Claimed {
                            key,
                            token,
                            stamp_ms,
                        },
                    );
                }
                self.send(me, from, Msg::ClaimReply { key, token });
            }
            Msg::ReadClaims { key, token } => {
                let claims = self.stores[si].table.claims(key as usize).to_vec();
                self.send(me, from, Msg::Claims { key, token, claims });
            }
            Msg::Release { key, token } if self.sc.lock.design == Design::Timestamp => {
                // A blind delete of the releaser's own claim: nobody else's.
                if self.stores[si].table.unclaim(key as usize, token) {
                    self.record(me, EventKind::Unclaimed { key, token });
                } else {
                    self.record(me, EventKind::ReleaseIgnored { key, by: token });
                }
                self.send(me, from, Msg::ReleaseReply { key, token });
            }
            Msg::Release { key, token } => {
                self.expire_if_due(me, key);
                self.release(me, key, token);
                self.send(me, from, Msg::ReleaseReply { key, token });
            }
            Msg::Renew {
                key,
                token,
                client_now,
            } => {
                self.expire_if_due(me, key);
                let now = self.lease_clock(me);
                let renewed = self.stores[si].table.renew(
                    &self.sc.lock,
                    key as usize,
                    token,
                    now,
                    client_now,
                );
                if let Some(holder) = renewed {
                    self.lease_extended(me, key, holder);
                    self.replicate(me, key);
                }
                let refused = renewed.is_none().then_some(Refusal::LeaseGone);
                self.answer_renew(me, from, key, token, refused);
            }
            Msg::Expire { key, token } => {
                self.expire_if_due(me, key);
                let ttl = self.sc.lock.ttl_ms;
                let now = self.lease_clock(me);
                let mine = self.stores[si].table.held[key as usize]
                    .as_mut()
                    .filter(|h| h.token == token);
                if let Some(h) = mine {
                    h.expires = Some(now + ttl as i64);
                    self.record(
                        me,
                        EventKind::TtlSet {
                            key,
                            token,
                            lease_ms: ttl,
                        },
                    );
                    self.arm_expiry(me, key, token);
                    self.replicate(me, key);
                }
            }
            Msg::FlagRead { key, token } => {
                let locked = self.stores[si].table.held[key as usize].is_some();
                self.send(me, from, Msg::FlagValue { key, token, locked });
            }
            Msg::FlagSet { key, token } => {
                // No check: the "check" was the earlier read. Whoever writes, gets it.
                match &mut self.stores[si].table.held[key as usize] {
                    Some(h) => h.also_set_by.push(token),
                    slot => *slot = Some(Held::new(token, None)),
                }
                self.record(
                    me,
                    EventKind::Granted {
                        key,
                        token,
                        fence: None,
                        lease_ms: None,
                        took_over: false,
                    },
                );
                self.replicate(me, key);
                let answer = AcquireAnswer::Granted {
                    fence: None,
                    lease_ms: None,
                };
                self.send(me, from, Msg::AcquireReply { key, token, answer });
            }
            _ => {}
        }
    }

    /// Answers a renewal: extended (`refused` is `None`), or refused for a reason, recorded.
    pub(super) fn answer_renew(
        &mut self,
        me: NodeId,
        to: NodeId,
        key: KeyId,
        token: Token,
        refused: Option<Refusal>,
    ) {
        if let Some(why) = refused {
            self.record(me, EventKind::Refused { key, token, why });
        }
        self.send(
            me,
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
        me: NodeId,
        key: KeyId,
        token: Token,
        reenter: bool,
        client_now: i64,
    ) -> AcquireAnswer {
        self.expire_if_due(me, key);
        let si = self.store_index(me);
        let now = self.lease_clock(me);
        let outcome = self.stores[si].table.acquire(
            &self.sc.lock,
            key as usize,
            token,
            reenter,
            now,
            client_now,
        );
        match outcome {
            Acquire::Own { fence, reentered } => {
                if reentered {
                    if self.sc.lock.design.has_lease() {
                        self.lease_extended(me, key, token);
                    }
                    self.replicate(me, key);
                }
                AcquireAnswer::Granted {
                    fence,
                    lease_ms: self.lease_ms(),
                }
            }
            Acquire::Granted { fence, expired } => {
                if let Some(old) = expired {
                    self.record(me, EventKind::Expired { key, token: old });
                }
                self.granted(me, key, token, fence);
                AcquireAnswer::Granted {
                    fence,
                    lease_ms: self.lease_ms(),
                }
            }
            Acquire::Refused {
                why,
                queued,
                expired,
            } => {
                if let Some(old) = expired {
                    self.record(me, EventKind::Expired { key, token: old });
                }
                self.record(me, EventKind::Refused { key, token, why });
                if !queued {
                    return AcquireAnswer::Refused { why };
                }
                if why == Refusal::LockDelay {
                    self.arm_lock_delay(me, key);
                }
                AcquireAnswer::Queued
            }
        }
    }

    /// Records a new grant on this node, arms its expiry and replicates it.
    fn granted(&mut self, me: NodeId, key: KeyId, token: Token, fence: Option<u64>) {
        // Two-step (SETNX, then EXPIRE): the key has no TTL until the EXPIRE arrives.
        let lease_ms = self
            .lease_ms()
            .filter(|_| self.sc.lock.acquire == AcquireSteps::OneStep);
        self.record(
            me,
            EventKind::Granted {
                key,
                token,
                fence,
                lease_ms,
                took_over: false,
            },
        );
        self.arm_expiry(me, key, token);
        self.replicate(me, key);
    }

    /// Release by `by` ([`LockTable::release`]).
    fn release(&mut self, me: NodeId, key: KeyId, by: Token) {
        let si = self.store_index(me);
        if self.stores[si].table.turn[key as usize] == Some(by) {
            // A waiter that gives up its place passes the turn on.
            self.stores[si].table.turn[key as usize] = None;
            self.grant_next(me, key);
        }
        match self.stores[si]
            .table
            .release(&self.sc.lock, key as usize, by)
        {
            Release::Ignored => self.record(me, EventKind::ReleaseIgnored { key, by }),
            Release::Decremented => self.replicate(me, key),
            Release::Removed {
                holder,
                also_set_by,
            } => {
                for holder in std::iter::once(holder).chain(also_set_by) {
                    self.record(me, EventKind::Removed { key, holder, by });
                }
                self.replicate(me, key);
                self.grant_next(me, key);
            }
        }
    }

    /// Expires the key's lease if this node's lease clock says it is over.
    fn expire_if_due(&mut self, me: NodeId, key: KeyId) {
        let si = self.store_index(me);
        let now = self.lease_clock(me);
        let lock = &self.sc.lock;
        let Some(token) = self.stores[si].table.expire_if_due(lock, key as usize, now) else {
            return;
        };
        self.record(me, EventKind::Expired { key, token });
        self.replicate(me, key);
        self.grant_next(me, key);
    }

    /// An operator deletes `key` on this node, whoever holds it (`force_release`). A replica
    /// or follower takes writes only from its primary or leader, so there it does nothing;
    /// the primary's delete reaches its replicas as usual.
    pub(super) fn force_release(&mut self, me: NodeId, key: KeyId) {
        if !self.nodes[me as usize].alive || !self.is_serving(me) {
            return;
        }
        if self.topology() == Topology::Consensus {
            self.raft_force_release(me, key);
            return;
        }
        self.expire_if_due(me, key);
        let si = self.store_index(me);
        if self.sc.lock.design == Design::Timestamp {
            // The operator empties the key's table of claims; the earliest claimant is the
            // one whose lock that deletes.
            let claims = std::mem::take(&mut self.stores[si].table.claims[key as usize]);
            let holder = claims.first().map(|&(t, _)| t);
            self.record(me, EventKind::ForceReleased { key, holder });
            for (token, _) in claims {
                self.record(me, EventKind::Unclaimed { key, token });
            }
            return;
        }
        let held = self.stores[si].table.held[key as usize].take();
        self.record(
            me,
            EventKind::ForceReleased {
                key,
                holder: held.map(|h| h.token),
            },
        );
        self.replicate(me, key);
        self.grant_next(me, key);
    }

    /// Sets a timer for when the key's lease should end on this node.
    fn arm_expiry(&mut self, me: NodeId, key: KeyId, token: Token) {
        let si = self.store_index(me);
        let Some(expires) = self.stores[si].table.held[key as usize]
            .as_ref()
            .and_then(|h| h.expires)
        else {
            return;
        };
        let left = (expires - self.lease_clock(me)).max(0);
        self.set_timer(me, left, Timer::Expire { key, token });
    }

    fn on_expire_timer(&mut self, me: NodeId, key: KeyId, token: Token) {
        if !self.is_serving(me) {
            return;
        }
        let si = self.store_index(me);
        let still = self.stores[si].table.held[key as usize]
            .as_ref()
            .is_some_and(|h| h.token == token);
        if !still {
            return;
        }
        self.expire_if_due(me, key);
        if self.stores[si].table.held[key as usize].is_some() {
            // Extended meanwhile (or the clock stepped back): look again later.
            self.arm_expiry(me, key, token);
        }
    }

    /// `fair` waiting: tells the head of the key's queue it is its turn, if the key is free.
    /// The key waits a lease length for that waiter's acquire, then passes the turn on: as in
    /// ZooKeeper's lock recipe, the next waiter's watch fires and it takes the lock itself, so
    /// its lease counts from its own request, and a waiter that is gone (a lost notification,
    /// a dead client) costs a lease length, not the lock.
    fn grant_next(&mut self, me: NodeId, key: KeyId) {
        if self.sc.lock.waiting != Waiting::Fair || !self.is_serving(me) {
            return;
        }
        let si = self.store_index(me);
        let k = key as usize;
        let table = &self.stores[si].table;
        if table.held[k].is_some() || table.turn[k].is_some() {
            return;
        }
        if table.delay_until[k] > self.lease_clock(me) {
            self.arm_lock_delay(me, key);
            return;
        }
        let Some(next) = self.stores[si].table.queue[k].pop_front() else {
            return;
        };
        self.stores[si].table.turn[k] = Some(next);
        self.tell_turn(me, key, next);
    }

    /// Sends `token` its turn for `key` and waits a lease length for it to claim it.
    fn tell_turn(&mut self, me: NodeId, key: KeyId, token: Token) {
        self.send(me, token.worker, Msg::YourTurn { key, token });
        self.set_timer(
            me,
            self.sc.lock.ttl_ms as i64,
            Timer::TurnOver { key, token },
        );
    }

    /// The waiter told it is its turn did not claim the key in a lease length: the next one's.
    fn turn_over(&mut self, me: NodeId, key: KeyId, token: Token) {
        let si = self.store_index(me);
        let k = key as usize;
        if self.stores[si].table.turn[k] == Some(token) {
            self.stores[si].table.turn[k] = None;
            self.grant_next(me, key);
        }
    }

    /// Records that `token`'s lease on `key` runs a full TTL from now, and re-arms its expiry.
    fn lease_extended(&mut self, me: NodeId, key: KeyId, token: Token) {
        let lease_ms = self.sc.lock.ttl_ms;
        self.record(
            me,
            EventKind::LeaseExtended {
                key,
                token,
                lease_ms,
            },
        );
        self.arm_expiry(me, key, token);
    }

    fn arm_lock_delay(&mut self, me: NodeId, key: KeyId) {
        let si = self.store_index(me);
        let left = self.stores[si].table.delay_until[key as usize] - self.lease_clock(me);
        if left > 0 {
            self.set_timer(me, left, Timer::LockDelayOver { key });
        }
    }

    /// Whether this node decides on its own locks now (not a replica or follower).
    fn is_serving(&self, me: NodeId) -> bool {
        let s = &self.stores[self.store_index(me)];
        match self.topology() {
            Topology::Single | Topology::Redlock => true,
            Topology::Replicated => s.role == Role::Primary,
            Topology::Consensus => s.raft.as_ref().is_some_and(|r| r.is_leader()),
        }
    }

    /// A wall-clock step: a lease timed on the wall clock may be over now.
    pub(super) fn store_clock_jumped(&mut self, me: NodeId) {
        if self.sc.store.lease_clock() != StoreClock::Wall || !self.is_serving(me) {
            return;
        }
        for key in 0..self.keys.len() as KeyId {
            if self.topology() == Topology::Consensus {
                self.raft_expire_if_due(me, key);
            } else {
                self.expire_if_due(me, key);
            }
        }
    }

    /// `everysec`: the node comes back with its table as last flushed; every change since is
    /// lost (recorded per key), and the flushes start again.
    fn reload(&mut self, me: NodeId) {
        let si = self.store_index(me);
        let keys = self.keys.len();
        let disk = self.stores[si]
            .disk
            .clone()
            .unwrap_or_else(|| LockTable::new(keys));
        let before = std::mem::replace(&mut self.stores[si].table, disk);
        for key in 0..keys as KeyId {
            let was = before.claims(key as usize);
            let now = self.stores[si].table.claims(key as usize).to_vec();
            for &(token, _) in was.iter().filter(|c| !now.contains(c)) {
                self.record(me, EventKind::Unclaimed { key, token });
            }
            for &(token, stamp_ms) in now.iter().filter(|c| !was.contains(c)) {
                self.record(
                    me,
                    EventKind::Claimed {
                        key,
                        token,
                        stamp_ms,
                    },
                );
            }
            let now = self.stores[si].table.held[key as usize].as_ref();
            let was = before.held[key as usize].as_ref();
            if now.map(|h| h.token) != was.map(|h| h.token) {
                let holder = now.map(|h| h.token);
                self.record(me, EventKind::Reloaded { key, holder });
            }
        }
        self.set_timer(me, FLUSH_EVERY_MS, Timer::Flush);
    }

    /// A store node comes back: with its locks (fsync) or having forgotten them.
    pub(super) fn store_restarted(&mut self, me: NodeId) {
        let si = self.store_index(me);
        if self.sc.store.persistence == Persistence::Everysec {
            self.reload(me);
        }
        if self.sc.store.persistence == Persistence::None {
            let keys = self.keys.len();
            self.stores[si].table = LockTable::new(keys);
            if let Some(r) = &mut self.stores[si].raft {
                r.forget();
            }
            self.record(me, EventKind::Forgot);
        }
        self.stores[si].last_heard = self.nodes[me as usize].clock.monotonic(self.now);
        if let Some(r) = &mut self.stores[si].raft {
            r.become_follower(None);
        }
        for key in 0..self.keys.len() as KeyId {
            if let Some(t) = self.stores[si].table.held[key as usize]
                .as_ref()
                .map(|h| h.token)
            {
                self.arm_expiry(me, key, t);
            }
        }
        if self.topology() == Topology::Replicated {
            self.replicated_restarted(me);
        }
        if matches!(self.topology(), Topology::Replicated | Topology::Consensus) {
            self.set_timer(me, 0, Timer::Heartbeat);
            self.set_timer(me, self.heartbeat_ms(), Timer::LeaderCheck);
        }
    }
}
