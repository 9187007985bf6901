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
/// the token names the grant it leads to. Shown as `A#2` (worker A's second attempt), written
/// so that it does not read as a fencing token, which every front end calls `fence N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Token {
    pub worker: NodeId,
    /// 1-based attempt number of that worker.
    pub seq: u32,
}

/// What separates a worker's name from its attempt number in a token's display form.
pub const ATTEMPT_MARK: char = '#';

impl Token {
    /// The display form, e.g. `A#2`, given the name of its worker: the one spelling the
    /// engine's message labels, the trace text and the timeline share.
    pub fn display(&self, worker_name: &str) -> String {
        format!("{worker_name}{ATTEMPT_MARK}{}", self.seq)
    }
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
    /// The receiver was down when it would have arrived (or crashed with it on the way).
    Crashed,
    /// TCP: the sender crashed before it could retransmit it; the connection died.
    Reset,
    /// TCP: it went undelivered for `network.tcp_give_up_ms`; the connection died.
    GaveUp,
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

/// Why a store node refused an acquire or a renewal: a refusal says its true reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Refusal {
    /// Another grant holds the key.
    Held { holder: Token },
    /// The key's lease expired a moment ago and lock-delay is running (Chubby, Consul).
    LockDelay,
    /// `fair`: the free key waits for `next`, the waiter told it is its turn.
    Turn { next: Token },
    /// A consensus leader that has not heard from a majority lately (or not yet in its term)
    /// cannot promise anything.
    NoMajority,
    /// A renewal came for a lease this node no longer holds.
    LeaseGone,
}

impl Refusal {
    /// The reason in a few words, e.g. `held by A#1`: the one wording every front end uses.
    pub fn phrase(&self, token_name: impl Fn(Token) -> String) -> String {
        match self {
            Refusal::Held { holder } => format!("held by {}", token_name(*holder)),
            Refusal::LockDelay => "lock-delay".to_string(),
            Refusal::Turn { next } => format!("{}'s turn", token_name(*next)),
            Refusal::NoMajority => "no majority".to_string(),
            Refusal::LeaseGone => "lease gone".to_string(),
        }
    }
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
    /// `on_lock_loss = "stop"`: it learned its lease was gone (its own count ran out without a
    /// renewal, or a renewal was refused) and stopped its work.
    LockLost,
}

/// Everything the engine records. Store-side events name the token of the grant they concern.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    // --- network ---
    /// A message left `node` for `to`. `what` names its content (e.g. "acquire A#1").
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
    /// TCP: a message from `node` to `to` found its link cut (or a packet was lost); the
    /// sender's kernel holds it and retransmits it with back-off until it gets through.
    Held {
        msg: MsgId,
        to: NodeId,
    },
    /// TCP: a held message was transmitted again and is on its way to `to`.
    Retransmitted {
        msg: MsgId,
        to: NodeId,
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
    /// The partition between these groups ended (its `for_ms` ran out).
    PartitionEnded {
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
    /// The nested section ended and released one hold of `token`: the hold count, as the
    /// worker counts it, fell to `count`.
    LeftNested {
        key: KeyId,
        token: Token,
        count: u32,
    },
    /// No answer to the worker's write came within its `write_timeout_ms`: it goes on as if
    /// the write landed (the write itself may still arrive, late).
    WriteTimedOut {
        key: KeyId,
        token: Token,
    },
    /// The worker's renewal was acknowledged; it believes the lease lasts `lease_ms` more.
    Renewed {
        key: KeyId,
        token: Token,
        lease_ms: u64,
    },
    /// The worker's renewal failed: refused (the store's [`EventKind::Refused`] says why) or
    /// unanswered.
    RenewFailed {
        key: KeyId,
        token: Token,
    },

    // --- store (node-level ground truth) ---
    /// This store node granted `key` to `token` (single: the node; replicated: the primary;
    /// consensus: the leader once a majority committed it; redlock: one of N).
    /// `lease_ms`: the promised lease in true ms from now (`None`: no expiry).
    /// `took_over`: `consensus` only — a newly elected leader found this grant in its log,
    /// decided under an earlier leader, and takes its lease over, restarting the countdown in
    /// full (etcd's lessor `Promote`); not a new grant.
    Granted {
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        lease_ms: Option<u64>,
        took_over: bool,
    },
    /// `consensus`: this follower appended `token`'s acquire of `key` to its log as entry
    /// `index` (1-based) and acknowledges it to the leader, which decides the entry once a
    /// majority has logged it (Raft §5.3). Recorded when the entry is new to this node's log.
    Logged {
        key: KeyId,
        token: Token,
        index: u64,
    },
    /// This store node refused `token`'s acquire or renewal of `key`, for `why`.
    Refused {
        key: KeyId,
        token: Token,
        why: Refusal,
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
    /// `persistence = "everysec"`: the node restarted from its log as last flushed, which
    /// lost a change to `key`: it now holds it for `holder` (or nobody).
    Reloaded {
        key: KeyId,
        holder: Option<Token>,
    },
    /// `acquire = "two_step"`: the node set a TTL on `token`'s key (EXPIRE after SETNX).
    TtlSet {
        key: KeyId,
        token: Token,
        lease_ms: u64,
    },
    /// An operator deleted `key` on this node (`force_release`), whoever held it: `holder`,
    /// or nobody.
    ForceReleased {
        key: KeyId,
        holder: Option<Token>,
    },
    /// `timestamp`: this store node recorded `token`'s claim on `key`, stamped `stamp_ms` by
    /// the claimant's own wall clock. The store decides nothing: each claimant reads the
    /// claims and judges for itself whether its stamp is the earliest.
    Claimed {
        key: KeyId,
        token: Token,
        stamp_ms: i64,
    },
    /// `timestamp`: `token`'s claim on `key` is gone from this store node (its release, an
    /// operator's delete, or a restart from a log that had not yet kept it).
    Unclaimed {
        key: KeyId,
        token: Token,
    },
    /// `replicated`: this replica applied a command of the primary's stream.
    Replicated {
        key: KeyId,
        holder: Option<Token>,
    },
    /// `replicated`: this replica caught up with the primary `from` after missing part of its
    /// stream (Redis PSYNC): from the backlog (`full = false`), or by replacing its data with a
    /// full copy, dropping whatever it had that the primary has not. Now at stream `offset`.
    Resynced {
        from: NodeId,
        full: bool,
        offset: u64,
    },
    /// `replicated`: this node was promoted to primary (epoch number);
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

    /// The display form of a token, e.g. `A#2`.
    pub fn token_name(&self, token: Token) -> String {
        token.display(self.node_name(token.worker))
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
