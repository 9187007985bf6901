//! The trace: everything that happened in one run, in order, with true and local time.
//!
//! The engine writes it; the checker, the CLI, the tests and the timeline only read it.
//! Nodes are referred to by [`NodeId`], an index into [`Trace::nodes`]; lock keys by
//! [`KeyId`], an index into [`Trace::keys`].

use serde::Serialize;

use crate::scenario::{Design, Topology};

/// Index into [`Trace::nodes`].
pub type NodeId = u32;
/// Index into [`Trace::keys`].
pub type KeyId = u32;
/// Unique id of one message (send order).
pub type MsgId = u32;

/// An owner token: one acquisition attempt of one worker. Every attempt gets a fresh one, so
/// the token names the grant it leads to. Shown as `A.2` (worker A's second attempt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Token {
    pub worker: NodeId,
    /// 1-based attempt number of that worker.
    pub seq: u32,
}

/// What part a node plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Worker,
    Store,
    Resource,
}

/// A node of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeInfo {
    pub name: String,
    pub role: Role,
}

/// One run, complete.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trace {
    /// Scenario name, for messages that must say what reproduces them.
    pub scenario: String,
    pub seed: u64,
    /// The horizon, true ms.
    pub until_ms: u64,
    pub design: Design,
    pub topology: Topology,
    /// Workers first (scenario order), then `store1..N`, then `resource`.
    pub nodes: Vec<NodeInfo>,
    /// Lock keys in order of first appearance among workers.
    pub keys: Vec<String>,
    /// In the order they happened (true time, then causal order within one instant).
    pub events: Vec<Event>,
    /// Queue events the engine handled (recorded or not).
    pub steps: u64,
    /// `Some(t)` when the run hit the engine's event budget ([`crate::engine::MAX_STEPS`])
    /// before the horizon: every instant before `t` (true ms) was simulated, nothing from `t`
    /// on. `None`: the run reached `until_ms`.
    pub cut_short_at_ms: Option<u64>,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    /// True time, ms.
    pub at_ms: u64,
    /// Where it happened.
    pub node: NodeId,
    /// The node's own clock reading at that instant (wall clock, with offset, drift and jumps), ms.
    pub local_ms: i64,
    pub kind: EventKind,
}

/// Why a message did not arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DropReason {
    /// Lost at random (`network.loss`).
    Loss,
    /// The link was cut by a partition when it was sent or when it would have arrived.
    Partition,
    /// The receiver was crashed when it would have arrived.
    Crashed,
}

/// Why the resource refused a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectReason {
    /// Its fencing token was lower than the highest accepted.
    StaleToken,
    /// `cas` mode: the record's version moved since the writer last saw it.
    VersionMoved,
}

/// Why a worker stopped believing it holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LetGoReason {
    /// It finished and sent its release.
    Released,
    /// The resource rejected its write (fenced off or version moved).
    Rejected,
    /// `check_lease`: it saw its lease had run out before a write.
    LeaseOver,
    /// It crashed.
    Crashed,
}

/// Everything the engine records. Store-side events name the token of the grant they concern.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    // --- network ---
    /// A message left `node` for `to`. `what` names its content (e.g. "acquire A.1").
    Send {
        msg: MsgId,
        to: NodeId,
        what: String,
    },
    /// A message from `from` arrived at `node`.
    Deliver {
        msg: MsgId,
        from: NodeId,
    },
    /// A message from `from` to `node` was lost.
    Drop {
        msg: MsgId,
        from: NodeId,
        reason: DropReason,
    },

    // --- faults (recorded at the node they hit; partitions and heals at node 0) ---
    Paused {
        for_ms: u64,
    },
    Resumed,
    Stalled {
        for_ms: u64,
    },
    Unstalled,
    Crashed,
    Restarted,
    /// The wall clock stepped by `delta_ms`.
    ClockJumped {
        delta_ms: i64,
    },
    /// Links between these groups (node ids) are cut.
    PartitionStarted {
        groups: Vec<Vec<NodeId>>,
    },
    /// Every partition ended.
    Healed,
    /// Messages `node` → `to` take `extra_ms` longer for `for_ms`.
    DelayStarted {
        to: NodeId,
        extra_ms: u64,
        for_ms: u64,
    },

    // --- worker (its beliefs) ---
    /// An acquisition attempt begins (first request of `token`).
    AcquireStarted {
        key: KeyId,
        token: Token,
    },
    /// The worker now believes it holds `key` with `token`; `fence` if the design issues one.
    /// `lease_ms`: how long it believes the lease lasts from now (Redlock: the validity left).
    Acquired {
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        lease_ms: Option<u64>,
    },
    /// An attempt failed (held by someone else, or no majority); the worker will retry.
    AcquireFailed {
        key: KeyId,
        token: Token,
    },
    /// The worker joined the store's queue and waits to be granted in turn.
    Queued {
        key: KeyId,
        token: Token,
    },
    /// The worker stopped believing it holds `key`.
    LetGo {
        key: KeyId,
        token: Token,
        reason: LetGoReason,
    },
    /// Reentrant acquire of a lock it holds: the hold count rose to `count`.
    Reentered {
        key: KeyId,
        token: Token,
        count: u32,
    },
    /// The worker's renewal was acknowledged; it believes the lease lasts `lease_ms` more.
    Renewed {
        key: KeyId,
        token: Token,
        lease_ms: u64,
    },
    /// The worker's renewal was refused (the lease was gone).
    RenewFailed {
        key: KeyId,
        token: Token,
    },

    // --- store (node-level ground truth) ---
    /// This store node granted `key` to `token` (single: the node; replicated: the primary;
    /// consensus: the leader once a majority committed it; redlock: one of N).
    /// `lease_ms`: the promised lease in true ms from now (`None`: no expiry).
    Granted {
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        lease_ms: Option<u64>,
    },
    /// This store node refused `token` because `holder` holds `key`
    /// (`None`: refused for lock-delay, or a non-leader node with no known leader).
    Refused {
        key: KeyId,
        token: Token,
        holder: Option<Token>,
    },
    /// The store extended `token`'s lease on `key` to `lease_ms` from now.
    LeaseExtended {
        key: KeyId,
        token: Token,
        lease_ms: u64,
    },
    /// A release request from `by` removed the lock of `holder` (they differ: a foreign release).
    Removed {
        key: KeyId,
        holder: Token,
        by: Token,
    },
    /// A release from `by` found the lock not theirs (compare-and-delete) and left it.
    ReleaseIgnored {
        key: KeyId,
        by: Token,
    },
    /// The store's clock says `token`'s lease on `key` is over; it removed the lock.
    Expired {
        key: KeyId,
        token: Token,
    },
    /// A restart without persistence: the node forgot every lock it had.
    Forgot,
    /// `replicated`: this replica applied a copy of the primary's change.
    Replicated {
        key: KeyId,
        holder: Option<Token>,
    },
    /// `replicated`: this node promoted itself to primary (epoch number);
    /// `consensus`: this node won the election for `term`.
    BecameLeader {
        term: u64,
    },
    /// This node stepped down to replica / follower.
    SteppedDown {
        term: u64,
    },

    // --- resource ---
    /// The resource served a read of `key` for `token`: record `value` at `version`.
    Read {
        key: KeyId,
        token: Token,
        value: u64,
        version: u64,
    },
    /// The resource applied a write from `token` (its `fence`, if any): record now `value`.
    WriteAccepted {
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        value: u64,
        version: u64,
    },
    /// The resource refused a write from `token`.
    WriteRejected {
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        reason: RejectReason,
    },
}

impl Trace {
    /// The display name of a node.
    pub fn node_name(&self, node: NodeId) -> &str {
        &self.nodes[node as usize].name
    }

    /// The display form of a token, e.g. `A.2`.
    pub fn token_name(&self, token: Token) -> String {
        format!("{}.{}", self.node_name(token.worker), token.seq)
    }

    /// The name of a key.
    pub fn key_name(&self, key: KeyId) -> &str {
        &self.keys[key as usize]
    }

    /// The end of simulated time, true ms: the horizon, or where the event budget cut the run.
    pub fn simulated_until_ms(&self) -> u64 {
        self.cut_short_at_ms.unwrap_or(self.until_ms)
    }

    /// Count of store nodes.
    pub fn store_nodes(&self) -> usize {
        self.nodes.iter().filter(|n| n.role == Role::Store).count()
    }
}
