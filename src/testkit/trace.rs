//! Hand-made traces: a builder for the checker's tests, and a fixed cast of nodes for the
//! front-end tests (the command line's report and timeline, [`crate::view::wording`]).
//!
//! The builder's nodes are the named workers, then `store1..N`, then `resource`; one key,
//! `lock`; horizon 20 000 ms. Events may be added out of time order: `build` sorts them stably
//! by time.

use crate::checker::{Verdict, check};
use crate::scenario::names::{RESOURCE, store_name};
use crate::scenario::{Design, ResourceMode, Topology};
use crate::trace::{DropReason, Event, Label, RejectReason};
use crate::trace::{EventKind, KeyId, LetGoReason, MsgId, NodeId, NodeInfo, Role, Token, Trace};

use super::scenario;

/// Worker A's first attempt in [`trace`].
pub const A1: Token = Token {
    worker: NodeId::new(0),
    seq: 1,
};
/// Worker B's first attempt in [`trace`].
pub const B1: Token = Token {
    worker: NodeId::new(1),
    seq: 1,
};
/// Worker A's node id in [`trace`].
pub const A: NodeId = NodeId::new(0);
/// The first store node's id in [`trace`].
pub const STORE1: NodeId = NodeId::new(2);
/// The second store node's id in [`trace`].
pub const STORE2: NodeId = NodeId::new(3);

/// A fencing run on nodes A, B, store1, store2, resource with one key, `lock`, made of
/// `events` as given (not sorted).
pub fn trace(events: Vec<Event>) -> Trace {
    let mut trace = TraceBuilder::new(&["A", "B"], 2, Topology::Single).build();
    trace.events = events;
    trace
}

/// An event at true time `at_ms` whose node's clock reads `local_ms`.
pub fn event(at_ms: u64, node: NodeId, local_ms: i64, kind: EventKind) -> Event {
    Event {
        at_ms,
        node,
        local_ms,
        kind,
    }
}

/// Builds a trace event by event; every event is on key 0 (`lock`) and every node's clock
/// reads true time.
pub struct TraceBuilder {
    trace: Trace,
    workers: usize,
}

impl TraceBuilder {
    /// A fencing run with `workers`, `stores` store nodes laid out as `topology`, and the
    /// resource.
    pub fn new(workers: &[&str], stores: u32, topology: Topology) -> Self {
        let mut nodes: Vec<NodeInfo> = workers
            .iter()
            .map(|w| NodeInfo {
                name: w.to_string(),
                role: Role::Worker,
            })
            .collect();
        nodes.extend((1..=stores).map(|n| NodeInfo {
            name: store_name(n),
            role: Role::Store,
        }));
        nodes.push(NodeInfo {
            name: RESOURCE.into(),
            role: Role::Resource,
        });
        TraceBuilder {
            trace: Trace {
                scenario: "test".into(),
                seed: 0,
                until_ms: 20_000,
                design: Design::Fencing,
                topology,
                uncounted_reentry: false,
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

    /// The id of the node called `name`.
    pub fn node(&self, name: &str) -> NodeId {
        self.trace.node_id(name).expect("test names a known node")
    }

    /// `store{i}`, 1-based.
    pub fn store(&self, i: usize) -> NodeId {
        NodeId::from_index(self.workers + i - 1)
    }

    /// Attempt `seq` of the named worker.
    pub fn tok(&self, worker: &str, seq: u32) -> Token {
        Token {
            worker: self.node(worker),
            seq,
        }
    }

    /// Any event at `node` at true time `at_ms`.
    pub fn at(&mut self, at_ms: u64, node: NodeId, kind: EventKind) -> &mut Self {
        self.trace.events.push(Event {
            at_ms,
            node,
            local_ms: at_ms as i64,
            kind,
        });
        self
    }

    /// `store{store}` granted the lock to `t`, for `lease_ms` or with no expiry.
    pub fn granted(&mut self, at: u64, store: usize, t: Token, lease_ms: Option<u64>) -> &mut Self {
        self.granted_fenced(at, store, t, lease_ms, None)
    }

    /// `store{store}` granted the lock to `t` with fencing token `fence`.
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
                key: KeyId::new(0),
                token: t,
                fence,
                lease_ms,
                took_over: false,
            },
        )
    }

    /// `store{store}` renewed `t`'s lease to `lease_ms`.
    pub fn extended(&mut self, at: u64, store: usize, t: Token, lease_ms: u64) -> &mut Self {
        let node = self.store(store);
        self.at(
            at,
            node,
            EventKind::LeaseExtended {
                key: KeyId::new(0),
                token: t,
                lease_ms,
            },
        )
    }

    /// `t`'s lease ran out at `store{store}`.
    pub fn expired(&mut self, at: u64, store: usize, t: Token) -> &mut Self {
        let node = self.store(store);
        self.at(
            at,
            node,
            EventKind::Expired {
                key: KeyId::new(0),
                token: t,
            },
        )
    }

    /// `store{store}` deleted `holder`'s lock on a release by `by`.
    pub fn removed(&mut self, at: u64, store: usize, holder: Token, by: Token) -> &mut Self {
        let node = self.store(store);
        self.at(
            at,
            node,
            EventKind::Removed {
                key: KeyId::new(0),
                holder,
                by,
            },
        )
    }

    /// `t`'s worker began to acquire.
    pub fn started(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(
            at,
            t.worker,
            EventKind::AcquireStarted {
                key: KeyId::new(0),
                token: t,
            },
        )
    }

    /// `t`'s worker gave up this attempt.
    pub fn failed(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(
            at,
            t.worker,
            EventKind::AcquireFailed {
                key: KeyId::new(0),
                token: t,
            },
        )
    }

    /// `t`'s worker believes it holds the lock (no fence, no lease).
    pub fn acquired(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(
            at,
            t.worker,
            EventKind::Acquired {
                key: KeyId::new(0),
                token: t,
                fence: None,
                lease_ms: None,
            },
        )
    }

    /// `t`'s worker released the lock.
    pub fn let_go(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(
            at,
            t.worker,
            EventKind::LetGo {
                key: KeyId::new(0),
                token: t,
                reason: LetGoReason::Released,
            },
        )
    }

    /// `t`'s worker took the lock again while holding it (hold count 2).
    pub fn reentered(&mut self, at: u64, t: Token) -> &mut Self {
        self.at(
            at,
            t.worker,
            EventKind::Reentered {
                key: KeyId::new(0),
                token: t,
                count: 2,
            },
        )
    }

    /// The resource served a read under `t`.
    pub fn read(&mut self, at: u64, t: Token) -> &mut Self {
        let node = self.node(RESOURCE);
        self.at(
            at,
            node,
            EventKind::Read {
                key: KeyId::new(0),
                token: t,
                fence: None,
                value: 0,
                version: 0,
            },
        )
    }

    /// The resource accepted a write under `t`, with no fence.
    pub fn write(&mut self, at: u64, t: Token) -> &mut Self {
        self.write_fenced(at, t, None)
    }

    /// The resource accepted a write under `t` carrying `fence`.
    pub fn write_fenced(&mut self, at: u64, t: Token, fence: Option<u64>) -> &mut Self {
        let node = self.node(RESOURCE);
        self.at(
            at,
            node,
            EventKind::WriteAccepted {
                key: KeyId::new(0),
                token: t,
                fence,
                value: 0,
                version: 0,
            },
        )
    }

    /// The resource turned `t`'s write away because the version had moved.
    pub fn rejected(&mut self, at: u64, t: Token) -> &mut Self {
        let node = self.node(RESOURCE);
        self.at(
            at,
            node,
            EventKind::WriteRejected {
                key: KeyId::new(0),
                token: t,
                fence: None,
                reason: RejectReason::VersionMoved,
            },
        )
    }

    /// A message `msg` from `from` to `to`, labelled as the engine labels it.
    pub fn send(&mut self, at: u64, from: &str, to: &str, msg: u32, what: Label) -> &mut Self {
        let to = self.node(to);
        self.on(
            at,
            from,
            EventKind::Send {
                msg: MsgId::new(msg),
                to,
                what,
            },
        )
    }

    /// Message `msg` from `from` arrived at `to`.
    pub fn delivered(&mut self, at: u64, msg: u32, from: &str, to: &str) -> &mut Self {
        let from = self.node(from);
        self.on(
            at,
            to,
            EventKind::Deliver {
                msg: MsgId::new(msg),
                from,
            },
        )
    }

    /// Message `msg` from `from` to `to` was lost in a partition.
    pub fn dropped(&mut self, at: u64, msg: u32, from: &str, to: &str) -> &mut Self {
        let from = self.node(from);
        let reason = DropReason::Partition;
        self.on(
            at,
            to,
            EventKind::Drop {
                msg: MsgId::new(msg),
                from,
                reason,
            },
        )
    }

    /// `store{i}` applied a replicated copy: it now holds the key for `holder` (or nobody).
    pub fn replicated(&mut self, at: u64, store: usize, holder: Option<Token>) -> &mut Self {
        let node = self.store(store);
        self.at(
            at,
            node,
            EventKind::Replicated {
                key: KeyId::new(0),
                holder,
            },
        )
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

    /// The trace so far, its events in time order.
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
