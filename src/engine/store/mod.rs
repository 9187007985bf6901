//! Store nodes: the lock table each node keeps, and the four topologies of DESIGN §2
//! (`single`, `redlock` — a node each, `replicated` in [`replicated`], `consensus` in
//! [`consensus`]).

mod consensus;
mod replicated;
mod table;

pub use table::{Acquire, LockTable, Release};

use super::msg::{AcquireAnswer, Msg};
use super::{Sim, Timer};
use crate::scenario::{Persistence, Scenario, StoreClock, Topology, Waiting};
use crate::trace::{EventKind, KeyId, NodeId, Token};
use consensus::Raft;
use table::Held;

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
    /// `consensus` state.
    pub raft: Option<Raft>,
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
            raft: (sc.store.topology == Topology::Consensus).then(|| Raft::new(index, nodes)),
        }
    }
}

impl Sim<'_> {
    /// Starts the timers the topology needs (heartbeats, failure detectors).
    pub(super) fn start_stores(&mut self) {
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
        match self.sc.store.clock {
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
        match (self.topology(), timer) {
            (Topology::Consensus, _) => self.raft_timer(me, timer),
            (_, Timer::Expire { key, token }) => self.on_expire_timer(me, key, token),
            (_, Timer::LockDelayOver { key }) => self.grant_next(me, key),
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
                let ok = renewed.is_some();
                self.send(me, from, Msg::RenewReply { key, token, ok });
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
                holder,
                queued,
                expired,
            } => {
                if let Some(old) = expired {
                    self.record(me, EventKind::Expired { key, token: old });
                }
                self.record(me, EventKind::Refused { key, token, holder });
                if !queued {
                    return AcquireAnswer::Held;
                }
                if holder.is_none() {
                    self.arm_lock_delay(me, key);
                }
                AcquireAnswer::Queued
            }
        }
    }

    /// Records a new grant on this node, arms its expiry and replicates it.
    fn granted(&mut self, me: NodeId, key: KeyId, token: Token, fence: Option<u64>) {
        self.record(
            me,
            EventKind::Granted {
                key,
                token,
                fence,
                lease_ms: self.lease_ms(),
            },
        );
        self.arm_expiry(me, key, token);
        self.replicate(me, key);
    }

    /// Release by `by` ([`LockTable::release`]).
    fn release(&mut self, me: NodeId, key: KeyId, by: Token) {
        let si = self.store_index(me);
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

    /// `fair` waiting: grants the key to the head of its queue, if it is free.
    fn grant_next(&mut self, me: NodeId, key: KeyId) {
        if self.sc.lock.waiting != Waiting::Fair || !self.is_serving(me) {
            return;
        }
        let si = self.store_index(me);
        let k = key as usize;
        if self.stores[si].table.held[k].is_some() {
            return;
        }
        if self.stores[si].table.delay_until[k] > self.lease_clock(me) {
            self.arm_lock_delay(me, key);
            return;
        }
        let Some(next) = self.stores[si].table.queue[k].pop_front() else {
            return;
        };
        let client_now = self.wall(next.worker);
        let now = self.lease_clock(me);
        let fence = self.stores[si]
            .table
            .grant(&self.sc.lock, k, next, now, client_now);
        self.granted(me, key, next, fence);
        self.send_queued_grant(me, key, next, fence);
    }

    /// Tells a queued waiter it has been granted `key` in its turn.
    fn send_queued_grant(&mut self, me: NodeId, key: KeyId, token: Token, fence: Option<u64>) {
        let answer = AcquireAnswer::Granted {
            fence,
            lease_ms: self.lease_ms(),
        };
        self.send(me, token.worker, Msg::AcquireReply { key, token, answer });
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
        if self.sc.store.clock != StoreClock::Wall || !self.is_serving(me) {
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

    /// A store node comes back: with its locks (fsync) or having forgotten them.
    pub(super) fn store_restarted(&mut self, me: NodeId) {
        let si = self.store_index(me);
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
        if matches!(self.topology(), Topology::Replicated | Topology::Consensus) {
            self.set_timer(me, 0, Timer::Heartbeat);
            self.set_timer(me, self.heartbeat_ms(), Timer::LeaderCheck);
        }
    }
}
