//! `replicated`: a primary copies each change to its replicas asynchronously, after
//! `replication_lag_ms`; a replica that hears nothing from the primary for `failover_ms`
//! promotes itself (as Redis Sentinel does). A grant acknowledged but not yet copied is lost
//! in a failover, so the new primary can grant the same lock again (Redis docs).

use super::super::msg::{Copy, Msg};
use super::super::{Sim, Timer};
use super::Role;
use super::table::Held;
use crate::trace::{EventKind, KeyId, NodeId};

impl Sim<'_> {
    pub(super) fn replicated_receive(&mut self, me: NodeId, from: NodeId, msg: Msg) {
        let si = self.store_index(me);
        match msg {
            Msg::Heartbeat { epoch } => {
                self.heard_from_primary(me, from, epoch);
            }
            Msg::Replicate {
                epoch,
                key,
                copy,
                fence_counter,
            } => {
                if !self.heard_from_primary(me, from, epoch) {
                    return;
                }
                let now = self.lease_clock(me);
                let table = &mut self.stores[si].table;
                table.held[key as usize] = copy.map(|c| {
                    let mut h = Held::new(c.token, c.fence);
                    h.count = c.count;
                    h.expires = c.left_ms.map(|left| now + left);
                    h
                });
                table.fence_counter[key as usize] = fence_counter;
                self.record(
                    me,
                    EventKind::Replicated {
                        key,
                        holder: copy.map(|c| c.token),
                    },
                );
            }
            _ => match self.stores[si].role {
                Role::Primary => self.serve(me, from, msg),
                Role::Replica { primary } => {
                    let leader = primary.map(|p| self.store_id(p));
                    if let Some(token) = client_token(&msg) {
                        self.send(me, from, Msg::NotLeader { token, leader });
                    }
                }
            },
        }
    }

    /// A message from a primary of `epoch`: follow it if it is current. Returns whether it is.
    fn heard_from_primary(&mut self, me: NodeId, from: NodeId, epoch: u64) -> bool {
        let si = self.store_index(me);
        let from_index = self.store_index(from);
        let s = &self.stores[si];
        // Equal epochs can only mean two replicas promoted at once: the lower index wins.
        let newer = epoch > s.epoch || (epoch == s.epoch && from_index < si);
        match s.role {
            Role::Primary if !newer => return false,
            Role::Primary => {
                // A primary that learns of a newer one resyncs from it: its own data is dropped.
                let keys = self.keys.len();
                self.stores[si].table = super::LockTable::new(keys);
                self.record(me, EventKind::SteppedDown { term: epoch });
            }
            Role::Replica { .. } if epoch < s.epoch => return false,
            Role::Replica { .. } => {}
        }
        let mono = self.nodes[me as usize].clock.monotonic(self.now);
        let s = &mut self.stores[si];
        s.role = Role::Replica {
            primary: Some(from_index),
        };
        s.epoch = epoch;
        s.last_heard = mono;
        true
    }

    pub(super) fn replicated_timer(&mut self, me: NodeId, timer: Timer) {
        let si = self.store_index(me);
        match timer {
            Timer::Heartbeat => {
                if self.stores[si].role != Role::Primary {
                    return;
                }
                let epoch = self.stores[si].epoch;
                for other in 0..self.stores.len() {
                    if other != si {
                        let to = self.store_id(other);
                        self.send(me, to, Msg::Heartbeat { epoch });
                    }
                }
                self.set_timer(me, self.heartbeat_ms(), Timer::Heartbeat);
            }
            Timer::LeaderCheck => {
                self.set_timer(me, self.heartbeat_ms(), Timer::LeaderCheck);
                if self.stores[si].role == Role::Primary {
                    return;
                }
                let mono = self.nodes[me as usize].clock.monotonic(self.now);
                // Lower-numbered replicas give up first, so one promotes and the rest follow it.
                let patience = self.sc.store.failover_ms as i64 + si as i64 * self.heartbeat_ms();
                if mono - self.stores[si].last_heard < patience {
                    return;
                }
                let s = &mut self.stores[si];
                s.role = Role::Primary;
                s.epoch += 1;
                let epoch = s.epoch;
                self.record(me, EventKind::BecameLeader { term: epoch });
                for key in 0..self.keys.len() as KeyId {
                    if let Some(t) = self.stores[si].table.held[key as usize]
                        .as_ref()
                        .map(|h| h.token)
                    {
                        self.arm_expiry(me, key, t);
                    }
                }
                self.set_timer(me, 0, Timer::Heartbeat);
            }
            Timer::ReplicateKey { key } => self.send_copies(me, key),
            _ => {}
        }
    }

    /// Schedules copying `key` to the replicas (a no-op outside `replicated`).
    pub(super) fn replicate(&mut self, me: NodeId, key: KeyId) {
        if self.topology() != crate::scenario::Topology::Replicated {
            return;
        }
        let lag = self.sc.store.replication_lag_ms as i64;
        if lag == 0 {
            self.send_copies(me, key);
        } else {
            self.set_timer(me, lag, Timer::ReplicateKey { key });
        }
    }

    fn send_copies(&mut self, me: NodeId, key: KeyId) {
        let si = self.store_index(me);
        if self.stores[si].role != Role::Primary {
            return;
        }
        let now = self.lease_clock(me);
        let s = &self.stores[si];
        let copy = s.table.held[key as usize].as_ref().map(|h| Copy {
            token: h.token,
            fence: h.fence,
            left_ms: h.expires.map(|e| e - now),
            count: h.count,
        });
        let epoch = s.epoch;
        let fence_counter = s.table.fence_counter[key as usize];
        for other in 0..self.stores.len() {
            if other != si {
                let to = self.store_id(other);
                self.send(
                    me,
                    to,
                    Msg::Replicate {
                        epoch,
                        key,
                        copy,
                        fence_counter,
                    },
                );
            }
        }
    }
}

/// The token a client request concerns, if `msg` is a client request.
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
