//! The trace: everything that happened in one run, in order, with true and local time.
//!
//! The engine writes it; the checker, the CLI, the tests and the timeline only read it.
//! Nodes are referred to by [`NodeId`], an index into [`Trace::nodes`]; lock keys by
//! [`KeyId`], an index into [`Trace::keys`].

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::scenario::{DeletedBy, Design, Topology};
use crate::text::fmt_clock_ms;

/// Declares an id newtype over `u32` whose JSON form is the bare number, so traces (and
/// their hashes and snapshots) read the same as when ids were plain integers. The methods
/// are the only place an id and an integer convert.
macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        #[serde(transparent)]
        pub struct $name(u32);

        impl $name {
            /// The id numbered `n`.
            pub const fn new(n: u32) -> Self {
                $name(n)
            }

            /// The id at position `i` of the table it indexes.
            ///
            /// # Panics
            /// If `i` does not fit in `u32`; tables of ids are far smaller, since a scenario
            /// file is at most 1 MB.
            pub fn from_index(i: usize) -> Self {
                $name(u32::try_from(i).expect("id tables hold fewer than 2^32 entries"))
            }

            /// The raw number.
            pub const fn get(self) -> u32 {
                self.0
            }

            /// The position in the table it indexes.
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The ids `0..n`, in order: every entry of a table of `n`.
            pub fn all(n: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator {
                (0..n).map(Self::from_index)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// A node of the run: its position in [`Trace::nodes`].
    NodeId
);
impl NodeId {
    /// The node the engine records partitions and heals at: every event names a node, and
    /// these hit the whole network, so front ends label them by kind instead.
    pub const NETWORK_EVENTS: NodeId = NodeId(0);
}

id_type!(
    /// A lock key: its position in [`Trace::keys`].
    KeyId
);
id_type!(
    /// One message, numbered in send order from 1.
    MsgId
);

/// An owner token: one acquisition attempt of one worker. Every attempt gets a fresh one, so
/// the token names the grant it leads to. Shown as `A#2` (worker A's second attempt), written
/// so that it does not read as a fencing token, which every front end calls `fence N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Token {
    /// The worker that made the attempt.
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
    /// A client that wants the lock.
    Worker,
    /// A lock-store node.
    Store,
    /// The storage the lock protects.
    Resource,
}

/// A node of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeInfo {
    /// Its name: the worker's, `storeN`, or `resource`.
    pub name: String,
    /// What part it plays.
    pub role: Role,
}

/// One run, complete. Its JSON form ([`Trace`]'s `Serialize`) spells each message's
/// [`Label`] out in words, as every front end shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Scenario name, for messages that must say what reproduces them.
    pub scenario: String,
    /// The seed it was played with.
    pub seed: u64,
    /// The horizon, true ms.
    pub until_ms: u64,
    /// The lock design (rung of the ladder) it ran.
    pub design: Design,
    /// The store topology it ran.
    pub topology: Topology,
    /// A reentrant lock whose store keeps no hold count (`lock.hold_count = false`): a repeat
    /// acquire is let in uncounted, so the first release frees the lock.
    pub uncounted_reentry: bool,
    /// Workers first (scenario order), then `store1..N`, then `resource`.
    pub nodes: Vec<NodeInfo>,
    /// Lock keys in order of first appearance among workers.
    pub keys: Vec<String>,
    /// In the order they happened (true time, then causal order within one instant).
    pub events: Vec<Event>,
    /// Queue events the engine handled (recorded or not).
    pub steps: u64,
    /// `Some(t)` when the run hit the engine's budget ([`crate::engine::MAX_STEPS`] steps,
    /// [`crate::engine::MAX_EVENTS`] events or [`crate::engine::MAX_PENDING`] waiting) before
    /// the horizon: every instant before `t` (true ms) was simulated, nothing from `t`
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
    /// What happened.
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
    /// TCP: its connection was reset (`connection_reset`) while both ends lived.
    ConnectionReset,
}

/// What ended a `session` lock's session ([`EventKind::SessionEnded`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionEnd {
    /// Its connection was reset (`connection_reset`).
    Reset,
    /// The server's side of the connection gave up (`network.tcp_give_up_ms`).
    GaveUp,
    /// The holder's process died, and its kernel closed the connection.
    HolderCrashed,
    /// The server stopped: sessions and their locks are in its memory only.
    ServerStopped,
}

/// Why one of the scenario's faults found nothing to act on ([`EventKind::FaultIgnored`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IgnoredWhy {
    /// The node is down (crashed, not restarted): a crash, pause or forced delete of it does
    /// nothing.
    Down,
    /// The node is up: there is nothing to restart.
    Up,
    /// The node is already paused: a second pause does not lengthen the first.
    Paused,
    /// The worker's work is already stalled: a second stall does not lengthen the first.
    Stalled,
    /// A forced delete aimed at a replica or follower: it takes no writes from clients
    /// (Redis answers `-READONLY`; a follower is not the leader).
    ReadOnly,
}

/// Why the resource refused a request (a write, or a read when it fences reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectReason {
    /// Its fencing token was lower than the highest accepted.
    StaleToken,
    /// `cas` mode: the record's version moved since the writer last saw it.
    VersionMoved,
}

/// Why a store node refused an acquire or a renewal: always its true reason, so a learner
/// can tell a held lock from a leader that lost its majority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Refusal {
    /// Another grant holds the key.
    Held {
        /// The grant that holds it.
        holder: Token,
    },
    /// The key's lease expired a moment ago and lock-delay is running (Chubby, Consul).
    LockDelay,
    /// `fair`: the free key waits for `next`, the waiter told it is its turn.
    Turn {
        /// The waiter whose turn it is.
        next: Token,
    },
    /// A consensus leader that has not heard from a majority lately (or not yet in its term)
    /// cannot promise anything.
    NoMajority,
    /// A renewal came for a lease this node no longer holds.
    LeaseGone,
    /// `min_replicas_to_write`: too few replicas acknowledged the primary lately for it to
    /// take a write (Redis answers `-NOREPLICAS`).
    NoReplicas,
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
            Refusal::NoReplicas => "not enough good replicas".to_string(),
        }
    }
}

/// What a message carries, as data: the engine records it with every send, and
/// [`Label::words`] spells it out (e.g. `acquire A#1`) only when a front end shows it, so a run
/// made only to be judged formats nothing. Variants follow the model's messages: worker → store
/// requests, store → worker answers, store ↔ store replication and consensus, worker ↔ resource.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "label", rename_all = "snake_case")]
pub enum Label {
    /// An acquire request (`reenter`: of a lock the worker holds).
    Acquire {
        /// The attempt.
        token: Token,
        /// Whether it re-acquires a lock the worker holds.
        reenter: bool,
    },
    /// A release request.
    Release {
        /// The grant to release.
        token: Token,
    },
    /// `acquire = "two_step"`: EXPIRE after SETNX.
    Expire {
        /// The attempt whose key gets a TTL.
        token: Token,
    },
    /// `ping_timeout_ms`: a health check's delete of `holder`'s lock.
    Evict {
        /// The grant whose lock it deletes.
        holder: Token,
    },
    /// `ping_timeout_ms`: a waiter asks the holder's process whether it is alive.
    Ping {
        /// The grant the waiter found holding the lock.
        holder: Token,
    },
    /// `ping_timeout_ms`: the holder's process answers a ping.
    Pong {
        /// The grant the ping was about.
        holder: Token,
    },
    /// A renewal request.
    Renew {
        /// The grant to renew.
        token: Token,
    },
    /// `flag`: read the flag.
    FlagRead {
        /// The attempt.
        token: Token,
    },
    /// `flag`: set the flag.
    FlagSet {
        /// The attempt.
        token: Token,
    },
    /// An acquire granted.
    Granted {
        /// The attempt.
        token: Token,
    },
    /// An acquire refused.
    Refused {
        /// The attempt.
        token: Token,
        /// Why.
        why: Refusal,
    },
    /// `fair`: the acquire joined the queue.
    Queued {
        /// The attempt.
        token: Token,
    },
    /// A release acknowledged.
    Released {
        /// The grant released.
        token: Token,
    },
    /// A renewal acknowledged.
    Renewed {
        /// The grant renewed.
        token: Token,
    },
    /// A renewal refused.
    RenewRefused {
        /// The grant.
        token: Token,
        /// Why.
        why: Refusal,
    },
    /// `flag`: the flag's value.
    FlagIs {
        /// Whether it is set.
        locked: bool,
    },
    /// `timestamp`: a claim stamped by the claimant's wall clock.
    Claim {
        /// The attempt.
        token: Token,
        /// The stamp, the claimant's wall-clock ms.
        stamp_ms: i64,
    },
    /// `timestamp`: a request for the key's claims.
    ReadClaims {
        /// The attempt.
        token: Token,
    },
    /// `timestamp`: the claim is recorded.
    ClaimRecorded {
        /// The attempt.
        token: Token,
    },
    /// `timestamp`: the key's claims, earliest stamp first.
    Claims {
        /// Each claim and its stamp, wall-clock ms.
        claims: Box<[(Token, i64)]>,
    },
    /// `fair`: the waiter's turn came.
    YourTurn {
        /// The waiter.
        token: Token,
    },
    /// The node cannot serve the request.
    NotLeader,
    /// `replicated`: a replica acknowledges its primary's stream up to `offset`.
    ReplAck {
        /// How much of the stream it has applied.
        offset: u64,
    },
    /// `replicated`: the primary's heartbeat.
    Heartbeat {
        /// Its epoch.
        epoch: u64,
        /// How much of its stream it has sent.
        offset: u64,
    },
    /// `replicated`: stream commands `start + 1 ..= start + count`.
    Commands {
        /// The offset before the first.
        start: u64,
        /// How many.
        count: u64,
    },
    /// `replicated`: a resync request from `offset` (Redis PSYNC).
    SyncRequest {
        /// The replica's offset.
        offset: u64,
    },
    /// `replicated`: a resync from the backlog.
    PartialResync {
        /// Commands it carries.
        count: u64,
    },
    /// `replicated`: a full copy of the data set.
    FullCopy {
        /// The offset it is at.
        offset: u64,
    },
    /// `replicated`: a replica asks the others how far each got.
    OffsetQuery,
    /// `replicated`: the answer.
    OffsetReport {
        /// The sender's offset.
        offset: u64,
    },
    /// `replicated`: become the primary.
    Promote {
        /// The epoch.
        epoch: u64,
    },
    /// `consensus`: log entries to append.
    Append {
        /// How many.
        count: u64,
    },
    /// `consensus`: the answer to an append.
    AppendReply {
        /// Whether the follower appended them.
        ok: bool,
    },
    /// `consensus`: a vote request (`pre`: a pre-vote).
    Vote {
        /// The term.
        term: u64,
        /// Whether it only asks whether it would win.
        pre: bool,
    },
    /// `consensus`: the answer to a vote request.
    VoteReply {
        /// Whether the vote is given.
        granted: bool,
        /// Whether it answers a pre-vote.
        pre: bool,
    },
    /// A read of the resource.
    Read {
        /// The attempt.
        token: Token,
    },
    /// The resource's answer to a read.
    Value {
        /// The record's value.
        value: u64,
    },
    /// A write to the resource.
    Write {
        /// The attempt.
        token: Token,
        /// The value written.
        value: u64,
    },
    /// The resource's answer to a write.
    WriteReply {
        /// Whether it was applied.
        ok: bool,
    },
}

impl Label {
    /// The label in words, e.g. `acquire A#1`, given how to name a token: the one wording the
    /// trace's JSON, the transcript and the timeline share.
    pub fn words(&self, token_name: impl Fn(Token) -> String) -> String {
        let tok = &token_name;
        match self {
            Label::Acquire { token, reenter } => {
                let what = if *reenter { "re-acquire" } else { "acquire" };
                format!("{what} {}", tok(*token))
            }
            Label::Release { token } => format!("release {}", tok(*token)),
            Label::Expire { token } => format!("expire ({})", tok(*token)),
            Label::Renew { token } => format!("renew {}", tok(*token)),
            Label::Evict { holder } => {
                format!("delete the lock if {} still holds it", tok(*holder))
            }
            Label::Ping { holder } => format!("ping ({} holds the lock: alive?)", tok(*holder)),
            Label::Pong { holder } => format!("pong ({} is alive)", tok(*holder)),
            Label::FlagRead { token } => format!("read flag ({})", tok(*token)),
            Label::FlagSet { token } => format!("set flag ({})", tok(*token)),
            Label::Granted { token } => format!("granted {}", tok(*token)),
            Label::Refused { token, why } => {
                format!("refused {}: {}", tok(*token), why.phrase(tok))
            }
            Label::Queued { token } => format!("queued {}", tok(*token)),
            Label::Released { token } => format!("released {}", tok(*token)),
            Label::Renewed { token } => format!("renew {} ok", tok(*token)),
            Label::RenewRefused { token, why } => {
                format!("renew {} refused: {}", tok(*token), why.phrase(tok))
            }
            Label::FlagIs { locked } => format!("flag is {locked}"),
            Label::Claim { token, stamp_ms } => {
                format!("claim {} @{}", tok(*token), fmt_clock_ms(*stamp_ms))
            }
            Label::ReadClaims { token } => format!("read claims ({})", tok(*token)),
            Label::ClaimRecorded { token } => format!("claim {} recorded", tok(*token)),
            Label::Claims { claims } if claims.is_empty() => "claims: none".to_string(),
            Label::Claims { claims } => {
                let list: Vec<String> = claims
                    .iter()
                    .map(|&(t, stamp)| format!("{} @{}", tok(t), fmt_clock_ms(stamp)))
                    .collect();
                format!("claims: {}", list.join(", "))
            }
            Label::YourTurn { token } => format!("your turn, {}", tok(*token)),
            Label::NotLeader => "not the leader".to_string(),
            Label::ReplAck { offset } => format!("ack (offset {offset})"),
            Label::Heartbeat { epoch, offset } => {
                format!("heartbeat (epoch {epoch}, offset {offset})")
            }
            Label::Commands { start, count: 1 } => format!("command {}", start + 1),
            Label::Commands { start, count } => {
                format!("commands {}..{}", start + 1, start + count)
            }
            Label::SyncRequest { offset } => format!("resync me from offset {offset}"),
            Label::PartialResync { count: 1 } => "partial resync: 1 command".to_string(),
            Label::PartialResync { count } => format!("partial resync: {count} commands"),
            Label::FullCopy { offset } => format!("full copy at offset {offset}"),
            Label::OffsetQuery => "how far did you get?".to_string(),
            Label::OffsetReport { offset } => format!("my offset is {offset}"),
            Label::Promote { epoch } => format!("you are the primary (epoch {epoch})"),
            Label::Append { count } => format!("append {count} entries"),
            Label::AppendReply { ok } => format!("append {}", if *ok { "ok" } else { "refused" }),
            Label::Vote { term, pre: false } => format!("vote for me (term {term})"),
            Label::Vote { term, pre: true } => format!("would you vote for me? (term {term})"),
            Label::VoteReply { granted, pre } => format!(
                "{} {}",
                if *pre { "pre-vote" } else { "vote" },
                if *granted { "yes" } else { "no" }
            ),
            Label::Read { token } => format!("read ({})", tok(*token)),
            Label::Value { value } => format!("value {value}"),
            Label::Write { token, value } => format!("write {value} ({})", tok(*token)),
            Label::WriteReply { ok } => format!("write {}", if *ok { "ok" } else { "refused" }),
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
    /// The resource refused its read: fenced off (`resource.fence_reads`).
    ReadRejected,
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
        /// The message.
        msg: MsgId,
        /// The receiving node.
        to: NodeId,
        /// What it carries, as data; [`Trace::label_text`] puts it in words.
        what: Label,
    },
    /// A message from `from` arrived at `node`.
    Deliver {
        /// The message.
        msg: MsgId,
        /// The sending node.
        from: NodeId,
    },
    /// TCP: a message from `node` to `to` found its link cut (or a packet was lost); the
    /// sender's kernel holds it and retransmits it with back-off until it gets through.
    Held {
        /// The message.
        msg: MsgId,
        /// The receiving node.
        to: NodeId,
    },
    /// TCP: a held message was transmitted again and is on its way to `to`.
    Retransmitted {
        /// The message.
        msg: MsgId,
        /// The receiving node.
        to: NodeId,
    },
    /// A message from `from` to `node` was lost.
    Drop {
        /// The message.
        msg: MsgId,
        /// The sending node.
        from: NodeId,
        /// Why it was lost.
        reason: DropReason,
    },

    // --- faults (recorded at the node they hit; partitions and heals at node 0) ---
    /// The node froze (a GC or VM pause): it handles nothing until it resumes.
    Paused {
        /// How long, true ms.
        for_ms: u64,
    },
    /// The pause ended; what arrived meanwhile is handled now, timers fire late.
    Resumed,
    /// The worker's work stopped advancing; the process (and a watchdog) lives on.
    Stalled {
        /// How long, true ms.
        for_ms: u64,
    },
    /// The stall ended: the work advances again.
    Unstalled,
    /// The node crashed: it stops, and what it had not written to disk is gone.
    Crashed,
    /// The node came back after a crash.
    Restarted,
    /// The wall clock stepped by `delta_ms`.
    ClockJumped {
        /// The step, ms (negative: backwards).
        delta_ms: i64,
    },
    /// Links between these groups (node ids) are cut.
    PartitionStarted {
        /// The groups, as node ids.
        groups: Vec<Vec<NodeId>>,
    },
    /// The partition between these groups ended (its `for_ms` ran out).
    PartitionEnded {
        /// The groups, as node ids.
        groups: Vec<Vec<NodeId>>,
    },
    /// Every partition ended.
    Healed,
    /// One of the scenario's faults found the node in a state it cannot act on (a restart of
    /// a node that is up, a second crash or pause), so it changed nothing. Recorded so a
    /// fault never vanishes without a trace; the scenario is still valid, since whether a
    /// fault can act depends on the faults before it (and a search draws them at random).
    FaultIgnored {
        /// The fault's `kind`, as scenario files name it (`restart`).
        fault: &'static str,
        /// What made it do nothing.
        why: IgnoredWhy,
    },
    /// Messages `node` → `to` take `extra_ms` longer for `for_ms`.
    DelayStarted {
        /// The receiving end of the slowed link.
        to: NodeId,
        /// The added delay, ms.
        extra_ms: u64,
        /// How long, true ms.
        for_ms: u64,
    },

    // --- worker (its beliefs) ---
    /// An acquisition attempt begins (first request of `token`).
    AcquireStarted {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
    },
    /// The worker now believes it holds `key` with `token`; `fence` if the design issues one.
    /// `lease_ms`: how long it believes the lease lasts from now (Redlock: the validity left).
    Acquired {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// Its fencing token, if the design issues one.
        fence: Option<u64>,
        /// How long the worker believes its lease lasts from now, ms.
        lease_ms: Option<u64>,
    },
    /// An attempt failed (held by someone else, or no majority); the worker will retry.
    AcquireFailed {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
    },
    /// The worker joined the store's queue and waits to be granted in turn.
    Queued {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
    },
    /// The worker stopped believing it holds `key`.
    LetGo {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// Why it let go.
        reason: LetGoReason,
    },
    /// Reentrant acquire of a lock it holds: the hold count rose to `count`.
    Reentered {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// The hold count now.
        count: u32,
    },
    /// The nested section ended and released one hold of `token`: the hold count, as the
    /// worker counts it, fell to `count`.
    LeftNested {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// The hold count now.
        count: u32,
    },
    /// No answer to the worker's write came within its `write_timeout_ms`: it goes on as if
    /// the write landed (the write itself may still arrive, late).
    WriteTimedOut {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
    },
    /// The worker's renewal was acknowledged; it believes the lease lasts `lease_ms` more.
    Renewed {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// How long the worker believes its lease lasts from now, ms.
        lease_ms: u64,
    },
    /// The worker's renewal failed: refused (the store's [`EventKind::Refused`] says why) or
    /// unanswered.
    RenewFailed {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
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
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// Its fencing token, if the design issues one.
        fence: Option<u64>,
        /// The promised lease in true ms from now (`None`: no expiry).
        lease_ms: Option<u64>,
        /// Whether a new leader took over a grant made under an earlier one.
        took_over: bool,
    },
    /// `consensus`: this follower appended `token`'s acquire of `key` to its log as entry
    /// `index` (1-based) and acknowledges it to the leader, which decides the entry once a
    /// majority has logged it (Raft §5.3). Recorded when the entry is new to this node's log.
    Logged {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// The log entry, 1-based.
        index: u64,
    },
    /// This store node refused `token`'s acquire or renewal of `key`, for `why`.
    Refused {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// Why it refused.
        why: Refusal,
    },
    /// The store extended `token`'s lease on `key` to `lease_ms` from now.
    LeaseExtended {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// The new lease, ms from now.
        lease_ms: u64,
    },
    /// A release request from `by` removed the lock of `holder` (they differ: a foreign release).
    Removed {
        /// The lock key.
        key: KeyId,
        /// The grant whose lock was removed.
        holder: Token,
        /// The attempt whose release removed it.
        by: Token,
    },
    /// A release from `by` found the lock not theirs (compare-and-delete) and left it.
    ReleaseIgnored {
        /// The lock key.
        key: KeyId,
        /// The attempt whose release was ignored.
        by: Token,
    },
    /// The store's clock says `token`'s lease on `key` is over; it removed the lock.
    Expired {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
    },
    /// `expiry = "client"`: `asker` found `token`'s lease on `key` over by its own clock, which
    /// read `asker_ms` when it asked, past the "held until" `until_ms` that `token`'s holder
    /// wrote from its clock; the store removed the lock. No clock of the store's decided it.
    ExpiredByClient {
        /// The lock key.
        key: KeyId,
        /// The attempt whose lease was judged over.
        token: Token,
        /// The "held until" its holder wrote, the holder's wall clock, ms.
        until_ms: i64,
        /// The attempt that judged it.
        asker: Token,
        /// The asker's wall clock when it asked, ms.
        asker_ms: i64,
    },
    /// `expiry = "observed"`: `asker` found `token`'s record on `key` unchanged (no renewal) for
    /// a lease length by its own lease clock, which read `seen_ms` when it first saw the record
    /// so and `asker_ms` when it asked again; the store removed the lock. Only the asker's clock
    /// decided it.
    ExpiredUnchanged {
        /// The lock key.
        key: KeyId,
        /// The attempt whose lease was judged over.
        token: Token,
        /// The asker's lease clock when it first saw the record as it stood, ms.
        seen_ms: i64,
        /// The attempt that judged it.
        asker: Token,
        /// The asker's lease clock when it asked, ms.
        asker_ms: i64,
    },
    /// `persistence = "everysec"`: the node is crashing before its log was flushed with
    /// `token`'s grant of `key`, so the crash loses the grant (its disk does not hold it).
    /// Recorded just before [`EventKind::Crashed`]; the restart then reloads without it.
    Unflushed {
        /// The lock key.
        key: KeyId,
        /// The grant the crash loses.
        token: Token,
    },
    /// A restart without persistence: the node forgot every lock it had.
    Forgot,
    /// `persistence = "everysec"`: the node restarted from its log as last flushed, which
    /// lost a change to `key`: it now holds it for `holder` (or nobody).
    Reloaded {
        /// The lock key.
        key: KeyId,
        /// Who holds it now, by the reloaded log (`None`: nobody).
        holder: Option<Token>,
    },
    /// `acquire = "two_step"`: the node set a TTL on `token`'s key (EXPIRE after SETNX).
    TtlSet {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// The TTL set, ms from now.
        lease_ms: u64,
    },
    /// `by` (an operator, an eviction, a flush) deleted `key` on this node (`force_release`),
    /// whoever held it: `holder`, or nobody.
    ForceReleased {
        /// The lock key.
        key: KeyId,
        /// Who held it (`None`: nobody).
        holder: Option<Token>,
        /// Who or what deleted it.
        by: DeletedBy,
    },
    /// `session`: the session that held `key` on this node ended, for `why`, and the node let
    /// the lock go (PostgreSQL releases a session's advisory locks when it ends). The holder
    /// is not told.
    SessionEnded {
        /// The lock key.
        key: KeyId,
        /// The grant the session held.
        holder: Token,
        /// What ended the session.
        why: SessionEnd,
    },
    /// The TCP connection between this node and `to` was reset (`connection_reset`).
    ConnectionReset {
        /// The other end.
        to: NodeId,
    },
    /// `timestamp`: this store node recorded `token`'s claim on `key`, stamped `stamp_ms` by
    /// the claimant's own wall clock. The store decides nothing: each claimant reads the
    /// claims and judges for itself whether its stamp is the earliest.
    Claimed {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// The claimant's wall-clock stamp, ms.
        stamp_ms: i64,
    },
    /// `timestamp`: `token`'s claim on `key` is gone from this store node (its release, an
    /// operator's delete, or a restart from a log that had not yet kept it).
    Unclaimed {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
    },
    /// `replicated`: this replica applied a command of the primary's stream.
    Replicated {
        /// The lock key.
        key: KeyId,
        /// Who holds it now on this replica (`None`: nobody).
        holder: Option<Token>,
    },
    /// `replicated`: this replica caught up with the primary `from` after missing part of its
    /// stream (Redis PSYNC): from the backlog (`full = false`), or by replacing its data with a
    /// full copy, dropping whatever it had that the primary has not. Now at stream `offset`.
    Resynced {
        /// The primary it caught up with.
        from: NodeId,
        /// Whether it took a full copy.
        full: bool,
        /// Its place in the stream now.
        offset: u64,
    },
    /// `replicated`: this node was promoted to primary (epoch number);
    /// `consensus`: this node won the election for `term`.
    BecameLeader {
        /// The term (consensus) or epoch (replicated).
        term: u64,
    },
    /// This node stepped down to replica / follower.
    SteppedDown {
        /// The term (consensus) or epoch (replicated).
        term: u64,
    },

    // --- resource ---
    /// The resource served a read of `key` for `token`: record `value` at `version`.
    Read {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// Its fencing token, when the resource fences reads (`resource.fence_reads`).
        #[serde(skip_serializing_if = "Option::is_none")]
        fence: Option<u64>,
        /// The record's value.
        value: u64,
        /// The record's version.
        version: u64,
    },
    /// The resource applied a write from `token` (its `fence`, if any): record now `value`.
    WriteAccepted {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// Its fencing token, if the design issues one.
        fence: Option<u64>,
        /// The record's value.
        value: u64,
        /// The record's version.
        version: u64,
    },
    /// The resource refused a read from `token`: its fencing token is lower than one the
    /// resource has seen (`resource.fence_reads`).
    ReadRejected {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// Its fencing token.
        fence: Option<u64>,
        /// Why it refused.
        reason: RejectReason,
    },
    /// The resource refused a write from `token`.
    WriteRejected {
        /// The lock key.
        key: KeyId,
        /// The attempt (its owner token).
        token: Token,
        /// Its fencing token, if the design issues one.
        fence: Option<u64>,
        /// Why it refused.
        reason: RejectReason,
    },
}

impl Trace {
    /// The display name of a node.
    pub fn node_name(&self, node: NodeId) -> &str {
        &self.nodes[node.index()].name
    }

    /// The display form of a token, e.g. `A#2`.
    pub fn token_name(&self, token: Token) -> String {
        token.display(self.node_name(token.worker))
    }

    /// What a message carried, in words, e.g. `acquire A#1`.
    pub fn label_text(&self, label: &Label) -> String {
        label.words(|t| self.token_name(t))
    }

    /// The id of the node called `name`, if there is one.
    pub fn node_id(&self, name: &str) -> Option<NodeId> {
        self.nodes
            .iter()
            .position(|n| n.name == name)
            .map(NodeId::from_index)
    }

    /// The first node (in id order) that plays `role`: the resource, or `store1`.
    pub fn first_with_role(&self, role: Role) -> Option<NodeId> {
        self.nodes
            .iter()
            .position(|n| n.role == role)
            .map(NodeId::from_index)
    }

    /// The name of a key.
    pub fn key_name(&self, key: KeyId) -> &str {
        &self.keys[key.index()]
    }

    /// How sentences name the resource's record behind lock `key`: "the record" when the
    /// run has one lock, else "record 2" (keys numbered from 1 in the order workers name
    /// them). Never the key's own name, so the data written is not read as the lock itself.
    pub fn record_name(&self, key: KeyId) -> String {
        if self.keys.len() <= 1 {
            "the record".to_string()
        } else {
            format!("record {}", key.index() + 1)
        }
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

/// The trace as JSON: its fields in order, each event as its `EventKind` serialises, except
/// that a send's `what` is its label in words ([`Trace::label_text`]), which needs the
/// trace's names.
impl Serialize for Trace {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Trace", 10)?;
        st.serialize_field("scenario", &self.scenario)?;
        st.serialize_field("seed", &self.seed)?;
        st.serialize_field("until_ms", &self.until_ms)?;
        st.serialize_field("design", &self.design)?;
        st.serialize_field("topology", &self.topology)?;
        st.serialize_field("nodes", &self.nodes)?;
        st.serialize_field("keys", &self.keys)?;
        st.serialize_field("events", &EventsJson(self))?;
        st.serialize_field("steps", &self.steps)?;
        st.serialize_field("cut_short_at_ms", &self.cut_short_at_ms)?;
        st.end()
    }
}

/// A trace's events, for its JSON form.
struct EventsJson<'t>(&'t Trace);

impl Serialize for EventsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.events.len()))?;
        for event in &self.0.events {
            seq.serialize_element(&EventJson(self.0, event))?;
        }
        seq.end()
    }
}

/// One event of a trace, for its JSON form.
struct EventJson<'t>(&'t Trace, &'t Event);

impl Serialize for EventJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let EventJson(trace, e) = *self;
        let mut st = s.serialize_struct("Event", 4)?;
        st.serialize_field("at_ms", &e.at_ms)?;
        st.serialize_field("node", &e.node)?;
        st.serialize_field("local_ms", &e.local_ms)?;
        match &e.kind {
            EventKind::Send { msg, to, what } => st.serialize_field(
                "kind",
                &SendJson {
                    kind: "send",
                    msg: *msg,
                    to: *to,
                    what: trace.label_text(what),
                },
            )?,
            kind => st.serialize_field("kind", kind)?,
        }
        st.end()
    }
}

/// A send event as the trace's JSON has it: its label in words.
#[derive(Serialize)]
struct SendJson {
    #[serde(rename = "type")]
    kind: &'static str,
    msg: MsgId,
    to: NodeId,
    what: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recorded run keeps every event: their size bounds a shown run's memory (a sweep keeps
    /// none, see `crate::judged`). A send's label is data, no longer a `String` of its own.
    #[test]
    fn an_event_takes_at_most_72_bytes() {
        assert!(std::mem::size_of::<Event>() <= 72);
        assert!(std::mem::size_of::<Label>() <= 24);
    }
}
