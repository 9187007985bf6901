//! A tiny builder for hand-made traces in the checker's unit tests.
//!
//! Nodes are the named workers, then `store1..N`, then `resource`; one key, `lock`; horizon
//! 20 000 ms. Events may be added out of time order: `build` sorts them stably by time.

use super::{Kind, Verdict, check};
use crate::scenario::{
    Check, Lock, Network, Resource, ResourceMode, Scenario, Store, Topology, Worker,
};
use crate::trace::{DropReason, Event, RejectReason};
use crate::trace::{EventKind, LetGoReason, NodeId, NodeInfo, Role, Token, Trace};

pub struct TraceBuilder {
    trace: Trace,
    workers: usize,
}

impl TraceBuilder {
    pub fn new(workers: &[&str], stores: usize, topology: Topology) -> Self {
        let mut nodes: Vec<NodeInfo> = workers
            .iter()
            .map(|w| NodeInfo {
                name: w.to_string(),
                role: Role::Worker,
            })
            .collect();
        nodes.extend((1..=stores).map(|i| NodeInfo {
            name: format!("store{i}"),
            role: Role::Store,
        }));
        nodes.push(NodeInfo {
            name: "resource".into(),
            role: Role::Resource,
        });
        TraceBuilder {
            trace: Trace {
                scenario: "test".into(),
                seed: 0,
                until_ms: 20_000,
                design: crate::scenario::Design::Fencing,
                topology,
                nodes,
                keys: vec!["lock".into()],
                events: Vec::new(),
                steps: 0,
                cut_short_at_ms: None,
            },
            workers: workers.len(),
        }
    }

    /// A single-node store.
    pub fn single(workers: &[&str]) -> Self {
        Self::new(workers, 1, Topology::Single)
    }

    pub fn node(&self, name: &str) -> NodeId {
        self.trace
            .nodes
            .iter()
            .position(|n| n.name == name)
            .expect("test names a known node") as NodeId
    }

    /// `store{i}`, 1-based.
    pub fn store(&self, i: usize) -> NodeId {
        (self.workers + i - 1) as NodeId
    }

    pub fn tok(&self, worker: &str, seq: u32) -> Token {
        Token {
            worker: self.node(worker),
            seq,
        }
    }

    pub fn at(&mut self, at_ms: u64, node: NodeId, kind: EventKind) -> &mut Self {
        self.trace.events.push(Event {
            at_ms,
            node,
            local_ms: at_ms as i64,
            kind,
        });
        self
    }

    pub fn granted(&mut self, at: u64, store: usize, t: Token, lease_ms: Option<u64>) -> &mut Self {
        self.granted_fenced(at, store, t, lease_ms, None)
    }

    pub fn granted_fenced(
        &mut self,
        at: u64,
        store: usize,
        t: Token,
        lease_ms: Option<u64>,
        fence: Option<u64>,
    ) -> &mut Self {
        let node = self.store(store);
        self.at(
            at,
            node,
            EventKind::Granted {
                key: 0,
                token: t,
                fence,
                lease_ms,
                took_over: false,
            },
        )
    }

    pub fn extended(&mut self, at: u64, store: usize, t: Token, lease_ms: u64) -> &mut Self {
        let node = self.store(store);
        self.at(
            at,
            node,
            EventKind::LeaseExtended {
                key: 0,
                token: t,
                lease_ms,
            },
        )
    }

    pub fn expired(&mut self, at: u64, store: usize, t: Token) -> &mut Self {
        let node = self.store(store);
        self.at(at, node, EventKind::Expired { key: 0, token: t })
    }

    pub fn removed(&mut self, at: u64, store: usize, holder: Token, by: Token) -> &mut Self {
        let node = self.store(store);
        self.at(at, node, EventKind::Removed { key: 0, holder, by })
    }

    pub fn started(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(at, t.worker, EventKind::AcquireStarted { key: 0, token: t })
    }

    pub fn failed(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(at, t.worker, EventKind::AcquireFailed { key: 0, token: t })
    }

    pub fn acquired(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(
            at,
            t.worker,
            EventKind::Acquired {
                key: 0,
                token: t,
                fence: None,
                lease_ms: None,
            },
        )
    }

    pub fn let_go(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(
            at,
            t.worker,
            EventKind::LetGo {
                key: 0,
                token: t,
                reason: LetGoReason::Released,
            },
        )
    }

    pub fn reentered(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(
            at,
            t.worker,
            EventKind::Reentered {
                key: 0,
                token: t,
                count: 2,
            },
        )
    }

    pub fn read(&mut self, at: u64, t: Token) -> &mut Self {
        let node = self.node("resource");
        self.at(
            at,
            node,
            EventKind::Read {
                key: 0,
                token: t,
                value: 0,
                version: 0,
            },
        )
    }

    pub fn write(&mut self, at: u64, t: Token) -> &mut Self {
        self.write_fenced(at, t, None)
    }

    pub fn write_fenced(&mut self, at: u64, t: Token, fence: Option<u64>) -> &mut Self {
        let node = self.node("resource");
        self.at(
            at,
            node,
            EventKind::WriteAccepted {
                key: 0,
                token: t,
                fence,
                value: 0,
                version: 0,
            },
        )
    }

    pub fn rejected(&mut self, at: u64, t: Token) -> &mut Self {
        let node = self.node("resource");
        self.at(
            at,
            node,
            EventKind::WriteRejected {
                key: 0,
                token: t,
                fence: None,
                reason: RejectReason::VersionMoved,
            },
        )
    }

    /// A message `msg` from `from` to `to`, labelled as the engine labels it ("release A#1").
    pub fn send(&mut self, at: u64, from: &str, to: &str, msg: u32, what: &str) -> &mut Self {
        let to = self.node(to);
        let what = what.to_string();
        self.on(at, from, EventKind::Send { msg, to, what })
    }

    /// Message `msg` from `from` arrived at `to`.
    pub fn delivered(&mut self, at: u64, msg: u32, from: &str, to: &str) -> &mut Self {
        let from = self.node(from);
        self.on(at, to, EventKind::Deliver { msg, from })
    }

    /// Message `msg` from `from` to `to` was lost in a partition.
    pub fn dropped(&mut self, at: u64, msg: u32, from: &str, to: &str) -> &mut Self {
        let from = self.node(from);
        let reason = DropReason::Partition;
        self.on(at, to, EventKind::Drop { msg, from, reason })
    }

    /// `store{i}` applied a replicated copy: it now holds the key for `holder` (or nobody).
    pub fn replicated(&mut self, at: u64, store: usize, holder: Option<Token>) -> &mut Self {
        let node = self.store(store);
        self.at(at, node, EventKind::Replicated { key: 0, holder })
    }

    /// The engine's event budget stopped the run at `at_ms`.
    pub fn cut_short(&mut self, at_ms: u64) -> &mut Self {
        self.trace.cut_short_at_ms = Some(at_ms);
        self
    }

    /// A fault or other node-local event at the named node.
    pub fn on(&mut self, at: u64, node: &str, kind: EventKind) -> &mut Self {
        let node = self.node(node);
        self.at(at, node, kind)
    }

    pub fn build(&self) -> Trace {
        let mut trace = self.trace.clone();
        trace.events.sort_by_key(|e| e.at_ms);
        trace
    }

    /// Builds the trace and checks it against a default plain-mode scenario.
    pub fn check(&self) -> Verdict {
        check(&scenario(ResourceMode::Plain), &self.build())
    }
}

/// A scenario with every default, resource in `mode`, starve limit 10 000 ms.
pub fn scenario(mode: ResourceMode) -> Scenario {
    Scenario {
        version: 1,
        name: "test".into(),
        description: String::new(),
        source: String::new(),
        seed: 0,
        until_ms: 20_000,
        network: Network::default(),
        lock: Lock::default(),
        store: Store::default(),
        resource: Resource {
            fencing: false,
            mode,
        },
        check: Check::default(),
        workers: vec![Worker::new("A")],
        store_clocks: Vec::new(),
        faults: Vec::new(),
        expect: None,
    }
}

/// The violations of `kind`, in verdict order.
pub fn only(v: &Verdict, kind: Kind) -> Vec<&super::Violation> {
    v.violations.iter().filter(|x| x.kind == kind).collect()
}
