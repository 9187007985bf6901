//! Injecting the scenario's faults, and what each does to a node.

use super::worker::Notice;
use super::{Ev, Sim};
use crate::scenario::{DeletedBy, Design, FaultKind, Transport};
use crate::trace::{DropReason, EventKind, IgnoredWhy, KeyId, NodeId, SessionEnd};

impl<const EVENTS: bool> Sim<'_, EVENTS> {
    /// Starts fault number `i` of the scenario.
    pub(super) fn fault(&mut self, i: usize) {
        let kind = self.sc.faults[i].kind.clone();
        match kind {
            FaultKind::Pause { node, for_ms } => {
                let Some(id) = self.node_id(&node) else {
                    return;
                };
                let state = &self.nodes[id.index()];
                if !state.alive {
                    return self.ignored(id, i, IgnoredWhy::Down);
                }
                if state.paused {
                    return self.ignored(id, i, IgnoredWhy::Paused);
                }
                self.record(id, EventKind::Paused { for_ms });
                self.nodes[id.index()].paused = true;
                if self.is_worker(id) {
                    self.notify_worker(id, Notice::Paused);
                }
                self.queue.push(self.now + for_ms, Ev::Resume(id));
            }
            FaultKind::Stall { node, for_ms } => {
                let Some(id) = self.node_id(&node) else {
                    return;
                };
                if !self.is_worker(id) {
                    return;
                }
                if self.workers[id.index()].stalled() {
                    return self.ignored(id, i, IgnoredWhy::Stalled);
                }
                self.record(id, EventKind::Stalled { for_ms });
                self.notify_worker(id, Notice::Stalled);
                self.queue.push(self.now + for_ms, Ev::Unstall(id));
            }
            FaultKind::Crash { node } => match self.node_id(&node) {
                Some(id) if !self.nodes[id.index()].alive => self.ignored(id, i, IgnoredWhy::Down),
                Some(id) => self.crash(id),
                None => {}
            },
            FaultKind::Restart { node } => match self.node_id(&node) {
                Some(id) if self.nodes[id.index()].alive => self.ignored(id, i, IgnoredWhy::Up),
                Some(id) => self.restart(id),
                None => {}
            },
            FaultKind::KillStore { for_ms } => {
                // Every store node ends up down: one already down is no fault ignored.
                for ix in self.layout.store_ixs() {
                    let id = self.layout.store_id(ix);
                    self.crash(id);
                    if let Some(ms) = for_ms {
                        self.queue.push(self.now + ms, Ev::Restart(id));
                    }
                }
            }
            FaultKind::Partition { groups, for_ms } => {
                let ids: Vec<Vec<NodeId>> = groups
                    .iter()
                    .map(|g| g.iter().filter_map(|n| self.node_id(n)).collect())
                    .collect();
                let cut = self.net.cut(&ids);
                self.record(
                    NodeId::NETWORK_EVENTS,
                    EventKind::PartitionStarted { groups: ids },
                );
                if let Some(ms) = for_ms {
                    self.queue.push(self.now + ms, Ev::EndCut(cut));
                }
            }
            FaultKind::Heal => {
                self.net.heal();
                self.record(NodeId::NETWORK_EVENTS, EventKind::Healed);
            }
            FaultKind::ClockJump { node, delta_ms } => {
                let Some(id) = self.node_id(&node) else {
                    return;
                };
                self.nodes[id.index()].clock.jumped_ms += delta_ms;
                self.record(id, EventKind::ClockJumped { delta_ms });
                if !self.is_worker(id) && id != self.layout.resource() {
                    self.with_store(id, |s, cx, out| s.clock_jumped(cx, out));
                }
            }
            FaultKind::Delay {
                from,
                to,
                extra_ms,
                for_ms,
            } => {
                let (Some(f), Some(t)) = (self.node_id(&from), self.node_id(&to)) else {
                    return;
                };
                self.net.slow(f, t, extra_ms, self.now + for_ms);
                self.record(
                    f,
                    EventKind::DelayStarted {
                        to: t,
                        extra_ms,
                        for_ms,
                    },
                );
            }
            FaultKind::ForceRelease { key, node, by } => {
                // A flush empties the node: every key goes, in key order.
                let keys: Vec<KeyId> = if by == DeletedBy::Flush {
                    KeyId::all(self.keys.len()).collect()
                } else {
                    let Some(key) = self.keys.iter().position(|k| *k == key) else {
                        return;
                    };
                    vec![KeyId::from_index(key)]
                };
                let aimed = node.is_some();
                let targets: Vec<NodeId> = match node {
                    Some(name) => self.node_id(&name).into_iter().collect(),
                    None => self
                        .layout
                        .store_ixs()
                        .map(|ix| self.layout.store_id(ix))
                        .collect(),
                };
                for id in targets {
                    let serving = self
                        .layout
                        .store_ix(id)
                        .is_some_and(|ix| self.stores[ix.index()].is_serving());
                    // A crashed node deletes nothing; what it kept on disk stays.
                    if !self.nodes[id.index()].alive {
                        self.ignored(id, i, IgnoredWhy::Down);
                    } else if aimed && !serving {
                        // A replica refuses writes from clients (Redis answers `-READONLY`),
                        // a follower sends them to its leader: the delete did nothing there.
                        self.ignored(id, i, IgnoredWhy::ReadOnly);
                    } else {
                        for &key in &keys {
                            self.with_store(id, |s, cx, out| s.force_release(cx, out, key, by));
                        }
                    }
                }
            }
            FaultKind::ConnectionReset { from, to } => {
                let (Some(f), Some(t)) = (self.node_id(&from), self.node_id(&to)) else {
                    return;
                };
                // A connection needs both ends: with one down there is none to reset.
                if let Some(down) = [f, t].into_iter().find(|n| !self.nodes[n.index()].alive) {
                    return self.ignored(down, i, IgnoredWhy::Down);
                }
                self.record(f, EventKind::ConnectionReset { to: t });
                if self.sc.network.transport == Transport::Tcp {
                    for (a, b) in [(f, t), (t, f)] {
                        for lost in self.net.kill(a, b) {
                            self.dropped(a, b, lost, DropReason::ConnectionReset);
                        }
                    }
                }
                self.connection_died(f, t, SessionEnd::Reset);
            }
        }
    }

    /// `session`: the connection between `a` and `b` (either order) is gone, for `why`; if
    /// one is a worker and the other a live store node, the worker's session there ends.
    pub(super) fn connection_died(&mut self, a: NodeId, b: NodeId, why: SessionEnd) {
        if self.sc.lock.design != Design::Session {
            return;
        }
        let (store, worker) = if self.is_worker(a) { (b, a) } else { (a, b) };
        let serves = self.layout.store_ix(store).is_some() && self.nodes[store.index()].alive;
        if serves && self.is_worker(worker) {
            self.with_store(store, |s, cx, out| s.end_session(cx, out, worker, why));
        }
    }

    /// Records that fault number `i` of the scenario found node `id` as `why` says and did
    /// nothing.
    fn ignored(&mut self, id: NodeId, i: usize, why: IgnoredWhy) {
        let fault = self.sc.faults[i].kind.name();
        self.record(id, EventKind::FaultIgnored { fault, why });
    }

    /// Tells worker `id` what a fault did to it.
    fn notify_worker(&mut self, id: NodeId, notice: Notice) {
        self.with_worker(id, |w, cx, out| w.on_notice(cx, out, notice));
    }

    /// A paused node wakes: what arrived meanwhile is handled now, in arrival order.
    pub(super) fn resume(&mut self, id: NodeId) {
        let node = &mut self.nodes[id.index()];
        if !node.paused {
            return;
        }
        node.paused = false;
        let backlog = std::mem::take(&mut node.backlog);
        self.record(id, EventKind::Resumed);
        for ev in backlog {
            self.queue.push(self.now, ev);
        }
        if self.is_worker(id) {
            self.notify_worker(id, Notice::Resumed);
        }
    }

    pub(super) fn unstall(&mut self, id: NodeId) {
        if !self.workers[id.index()].stalled() {
            return;
        }
        self.record(id, EventKind::Unstalled);
        self.notify_worker(id, Notice::Unstalled);
    }

    fn crash(&mut self, id: NodeId) {
        if !self.nodes[id.index()].alive {
            return;
        }
        // A store node's unflushed grants go with it: told while it can still say so.
        self.with_store(id, |s, cx, out| s.crashing(cx, out));
        let node = &mut self.nodes[id.index()];
        node.alive = false;
        node.paused = false;
        // What arrived while it was paused is lost with it.
        for ev in std::mem::take(&mut node.backlog) {
            if let Ev::Receive { msg, .. } = ev {
                self.mail.take(msg);
            }
        }
        node.incarnation += 1;
        self.record(id, EventKind::Crashed);
        if self.sc.network.transport == Transport::Tcp {
            for (from, to, msg) in self.net.crash(id) {
                let reason = if to == id {
                    DropReason::Crashed
                } else {
                    DropReason::Reset
                };
                self.dropped(from, to, msg, reason);
            }
        }
        if self.is_worker(id) {
            self.notify_worker(id, Notice::Crashed);
            // A killed process's kernel closes its sockets: each server ends its session.
            for ix in self.layout.store_ixs() {
                let store = self.layout.store_id(ix);
                self.connection_died(store, id, SessionEnd::HolderCrashed);
            }
        }
    }

    pub(super) fn restart(&mut self, id: NodeId) {
        let node = &mut self.nodes[id.index()];
        if node.alive {
            return;
        }
        node.alive = true;
        self.record(id, EventKind::Restarted);
        if self.is_worker(id) {
            self.notify_worker(id, Notice::Restarted);
        } else if id != self.layout.resource() {
            // The resource's records are durable; only a store node has state to restore.
            self.with_store(id, |s, cx, out| s.restarted(cx, out));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::DeletedBy;
    use crate::trace::{EventKind, IgnoredWhy};

    /// One row per `by` and topology: the keys the fault deletes, each with its holder and who
    /// deleted it, as the trace records them. A holds `lock` and B holds `other` when the
    /// fault strikes at 1 000 ms.
    #[test]
    fn a_force_release_says_who_deleted_which_keys() {
        type Deleted = (&'static str, Option<&'static str>, DeletedBy);
        let rows: [(&str, &str, &str, Vec<Deleted>); 5] = [
            (
                "single",
                "",
                "",
                vec![("lock", Some("A#1"), DeletedBy::Operator)],
            ),
            (
                "single",
                "",
                "by = \"eviction\"",
                vec![("lock", Some("A#1"), DeletedBy::Eviction)],
            ),
            // A flush empties the node: both keys go, in key order, whichever was named.
            (
                "single",
                "",
                "by = \"flush\"",
                vec![
                    ("lock", Some("A#1"), DeletedBy::Flush),
                    ("other", Some("B#1"), DeletedBy::Flush),
                ],
            ),
            // The primary's eviction reaches the replica as a delete; the replica records
            // nothing of its own (it never evicts).
            (
                "replicated",
                "nodes = 2",
                "by = \"eviction\"",
                vec![("lock", Some("A#1"), DeletedBy::Eviction)],
            ),
            // On consensus the delete is committed through the leader, which records it.
            (
                "consensus",
                "nodes = 3",
                "by = \"flush\"",
                vec![
                    ("lock", Some("A#1"), DeletedBy::Flush),
                    ("other", Some("B#1"), DeletedBy::Flush),
                ],
            ),
        ];
        for (topology, nodes, by, expected) in rows {
            let key = if by.contains("flush") {
                String::new()
            } else {
                "key = \"lock\"\n".to_string()
            };
            let src = format!(
                "version = 1\nname = \"t\"\nuntil_ms = 3000\n\
                 [lock]\nttl_ms = 30000\n\
                 [store]\ntopology = \"{topology}\"\n{nodes}\n\
                 [[worker]]\nname = \"A\"\nwork_ms = 2000\n\
                 [[worker]]\nname = \"B\"\nwork_ms = 2000\nkey = \"other\"\n\
                 [[fault]]\nat_ms = 1000\nkind = \"force_release\"\n{key}{by}\n"
            );
            let trace = super::super::run_src(&src);
            let deleted: Vec<(String, Option<String>, DeletedBy)> = trace
                .events
                .iter()
                .filter_map(|e| match e.kind {
                    EventKind::ForceReleased { key, holder, by } => Some((
                        trace.key_name(key).to_string(),
                        holder.map(|t| trace.token_name(t)),
                        by,
                    )),
                    _ => None,
                })
                .collect();
            let expected: Vec<(String, Option<String>, DeletedBy)> = expected
                .into_iter()
                .map(|(k, h, b)| (k.to_string(), h.map(str::to_string), b))
                .collect();
            assert_eq!(deleted, expected, "{topology} {by}");
        }
    }

    /// A fault ignored: the node it is recorded at, the fault's kind, why.
    type Ignored<'a> = (&'a str, &'static str, IgnoredWhy);

    /// A fault that finds nothing to act on is recorded as ignored, at the node it named; one
    /// that can act, or a `kill_store` finding a node already down, is not.
    #[test]
    fn a_fault_that_cannot_act_is_recorded_as_ignored() {
        let fault = |at: u64, body: &str| format!("[[fault]]\nat_ms = {at}\n{body}\n");
        let pause = |at, node: &str, ms: u64| {
            fault(
                at,
                &format!("kind = \"pause\"\nnode = \"{node}\"\nfor_ms = {ms}"),
            )
        };
        let on = |kind: &str, node: &str| format!("kind = \"{kind}\"\nnode = \"{node}\"");
        let rows: Vec<(String, Vec<Ignored>)> = vec![
            (
                fault(500, &on("restart", "A")),
                vec![("A", "restart", IgnoredWhy::Up)],
            ),
            (
                fault(500, &on("crash", "A")) + &fault(600, &on("crash", "A")),
                vec![("A", "crash", IgnoredWhy::Down)],
            ),
            (
                fault(500, &on("crash", "B")) + &pause(600, "B", 100),
                vec![("B", "pause", IgnoredWhy::Down)],
            ),
            (
                pause(500, "A", 1_000) + &pause(600, "A", 5_000),
                vec![("A", "pause", IgnoredWhy::Paused)],
            ),
            (
                fault(
                    300,
                    &on("stall", "A").replace("\"A\"", "\"A\"\nfor_ms = 2000"),
                ) + &fault(
                    400,
                    &on("stall", "A").replace("\"A\"", "\"A\"\nfor_ms = 50"),
                ),
                vec![("A", "stall", IgnoredWhy::Stalled)],
            ),
            (
                fault(100, &on("crash", "store1")) + &fault(200, &on("force_release", "store1")),
                vec![("store1", "force_release", IgnoredWhy::Down)],
            ),
            (
                "[store]\ntopology = \"replicated\"\nnodes = 2\n".to_string()
                    + &fault(200, &on("force_release", "store2")),
                vec![("store2", "force_release", IgnoredWhy::ReadOnly)],
            ),
            // Each can act: the second crash comes after a restart, the second pause after
            // the first ended.
            (
                fault(500, &on("crash", "A"))
                    + &fault(600, &on("restart", "A"))
                    + &fault(700, &on("crash", "A"))
                    + &pause(800, "B", 100)
                    + &pause(1_000, "B", 100),
                vec![],
            ),
            (
                fault(50, &on("crash", "store1"))
                    + &fault(100, "kind = \"kill_store\"\nfor_ms = 500"),
                vec![],
            ),
        ];
        for (faults, expected) in rows {
            let src = format!(
                "version = 1\nname = \"t\"\nuntil_ms = 5000\n\
                 [[worker]]\nname = \"A\"\nwork_ms = 1000\n\
                 [[worker]]\nname = \"B\"\nwork_ms = 1000\n{faults}"
            );
            let trace = super::super::run_src(&src);
            let ignored: Vec<Ignored> = trace
                .events
                .iter()
                .filter_map(|e| match e.kind {
                    EventKind::FaultIgnored { fault, why } => {
                        Some((trace.node_name(e.node), fault, why))
                    }
                    _ => None,
                })
                .collect();
            assert_eq!(ignored, expected, "{faults}");
        }
    }
}
