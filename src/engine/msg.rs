//! Messages between nodes. Every request carries the token it concerns so a reply can be
//! matched, and a late reply recognised as late.

use super::layout::StoreIx;
use crate::scenario::DeletedBy;
use crate::trace::{KeyId, Label, Refusal, Token};

/// A store's answer to an acquire request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcquireAnswer {
    /// Granted, with the fencing token if the design issues one and the lease in ms.
    Granted {
        fence: Option<u64>,
        lease_ms: Option<u64>,
    },
    /// Not granted, for the reason given.
    Refused { why: Refusal },
    /// `fair` waiting: the request joined the queue; a `Granted` follows in turn.
    Queued,
}

/// One entry of a consensus log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub term: u64,
    pub cmd: Command,
}

/// A change to the lock state machine, decided when a majority has it (consensus).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// A new leader's first entry: commits everything before it.
    Noop,
    Acquire {
        key: KeyId,
        token: Token,
        reenter: bool,
    },
    Release {
        key: KeyId,
        token: Token,
    },
    /// The leader's clock says the lease is over.
    Expire {
        key: KeyId,
        token: Token,
    },
    /// Lock-delay is over: the key may be granted again; the next waiter's turn comes.
    GrantNext {
        key: KeyId,
    },
    /// `fair`: the waiter told it is its turn did not claim it in a lease length.
    SkipTurn {
        key: KeyId,
        token: Token,
    },
    /// Someone deleted the key (`force_release`), through the leader like any write.
    ForceRelease {
        key: KeyId,
        by: DeletedBy,
    },
}

/// Names one history of a `replicated` data set (Redis's replication ID): a node starts a
/// new one when it is promoted, or when it comes back empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplId {
    /// The store node that started it.
    pub node: StoreIx,
    /// How many histories that node had started before this one.
    pub era: u32,
}

/// One key's lock as the replication stream carries it (`replicated` topology).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copy {
    pub token: Token,
    pub fence: Option<u64>,
    /// When the lease ends on the primary's lease clock, ms — an absolute time, as Redis 7
    /// propagates `SET … PXAT` (`None`: no expiry).
    pub expires_at: Option<i64>,
    /// `expiry = "client"`: "held until" as the client wrote it, its wall-clock ms.
    pub client_until: Option<i64>,
    pub count: u32,
}

/// One command of the replication stream: the state of one key after a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplEntry {
    pub key: KeyId,
    pub value: Option<Copy>,
    /// The key's last fencing token issued, so a promoted replica never issues one twice.
    pub fence_counter: u64,
}

/// A primary's answer to a resync request (Redis PSYNC).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyncAnswer {
    /// `+CONTINUE`: the commands after the replica's offset, from the backlog.
    Partial {
        id: ReplId,
        from: u64,
        entries: Vec<ReplEntry>,
    },
    /// `+FULLRESYNC`: a copy of the whole data set (one entry per key) at `offset`.
    Full {
        id: ReplId,
        offset: u64,
        keys: Vec<ReplEntry>,
    },
}

/// Every message of the model.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    // worker → store
    Acquire {
        key: KeyId,
        token: Token,
        reenter: bool,
        /// The client's wall clock when it sent this (`expiry = "client"`).
        client_now: i64,
    },
    Release {
        key: KeyId,
        token: Token,
    },
    /// `acquire = "two_step"`: `EXPIRE key ttl`, sent once the SETNX reply is in. It sets a
    /// TTL on the key if `token` still holds it.
    Expire {
        key: KeyId,
        token: Token,
    },
    Renew {
        key: KeyId,
        token: Token,
        client_now: i64,
    },
    /// `flag`: read `locked`.
    FlagRead {
        key: KeyId,
        token: Token,
    },
    /// `flag`: write `locked = true`.
    FlagSet {
        key: KeyId,
        token: Token,
    },
    /// `timestamp`: record this claim on `key`, stamped by the claimant's wall clock.
    Claim {
        key: KeyId,
        token: Token,
        stamp_ms: i64,
    },
    /// `timestamp`: send me the key's claims.
    ReadClaims {
        key: KeyId,
        token: Token,
    },
    /// `ping_timeout_ms`: a waiter's health check deletes `holder`'s lock, if `holder` still
    /// has it. `by` is the waiter's attempt.
    Evict {
        key: KeyId,
        holder: Token,
        by: Token,
    },
    // worker ↔ worker, `ping_timeout_ms`
    /// A waiter asks the process holding `holder` whether it is alive.
    Ping {
        key: KeyId,
        holder: Token,
    },
    /// The process answers: alive. It answers whatever its work is doing; a paused process
    /// answers only once it wakes, and a crashed one never.
    Pong {
        key: KeyId,
        holder: Token,
    },
    // store → worker
    /// `timestamp`: the claim is recorded.
    ClaimReply {
        key: KeyId,
        token: Token,
    },
    /// `timestamp`: the key's claims, earliest stamp first (ties: the lower token).
    Claims {
        key: KeyId,
        token: Token,
        claims: Vec<(Token, i64)>,
    },
    AcquireReply {
        key: KeyId,
        token: Token,
        answer: AcquireAnswer,
    },
    ReleaseReply {
        key: KeyId,
        token: Token,
    },
    RenewReply {
        key: KeyId,
        token: Token,
        /// `None`: renewed.
        refused: Option<Refusal>,
    },
    FlagValue {
        key: KeyId,
        token: Token,
        locked: bool,
    },
    /// `fair`: the waiter `token` is now at the head of the queue for `key`: it may send its
    /// acquire (a ZooKeeper watch firing on the predecessor's node).
    YourTurn {
        key: KeyId,
        token: Token,
    },
    /// This node cannot serve the request; `leader` is who it believes can.
    NotLeader {
        token: Token,
        leader: Option<StoreIx>,
    },
    // store ↔ store, `replicated`
    /// A replica has applied its primary's stream up to `offset` (Redis `REPLCONF ACK`).
    ReplAck {
        offset: u64,
    },
    /// The primary is alive; `offset`: how much of its stream it has sent.
    Heartbeat {
        epoch: u64,
        id: ReplId,
        offset: u64,
    },
    /// Commands `start + 1 ..= start + entries.len()` of history `id`.
    Stream {
        epoch: u64,
        id: ReplId,
        start: u64,
        entries: Vec<ReplEntry>,
    },
    /// A replica asks to resync from its history and offset (Redis PSYNC).
    SyncRequest {
        req: u32,
        id: ReplId,
        offset: u64,
    },
    SyncReply {
        req: u32,
        epoch: u64,
        answer: SyncAnswer,
    },
    /// A replica that lost its primary asks the others how far each got (as Sentinel reads
    /// each replica's offset before choosing one to promote).
    OffsetQuery {
        epoch: u64,
    },
    OffsetReport {
        epoch: u64,
        offset: u64,
    },
    /// Become the primary of `epoch` (Sentinel's `REPLICAOF NO ONE`).
    Promote {
        epoch: u64,
    },
    // store ↔ store, `consensus`
    Append {
        term: u64,
        prev_len: usize,
        prev_term: u64,
        entries: Vec<LogEntry>,
        commit_len: usize,
        /// The leader's monotonic clock when it sent this, echoed back in the reply.
        sent_ms: i64,
    },
    AppendReply {
        term: u64,
        ok: bool,
        len: usize,
        /// The `sent_ms` of the append this answers: how fresh the follower's answer is, on
        /// the leader's own clock.
        echo_ms: i64,
    },
    /// A vote request; `pre`: only asks whether it would win (etcd's PreVote), in which case
    /// `term` is the term it would run for.
    Vote {
        term: u64,
        last_len: usize,
        last_term: u64,
        pre: bool,
    },
    VoteReply {
        term: u64,
        granted: bool,
        pre: bool,
    },
    // worker ↔ resource
    Read {
        key: KeyId,
        token: Token,
        /// Sent only to a resource that fences reads.
        fence: Option<u64>,
    },
    ReadReply {
        key: KeyId,
        token: Token,
        /// False when the resource refused a stale fencing token.
        ok: bool,
        value: u64,
        version: u64,
    },
    Write {
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        expected_version: u64,
        value: u64,
    },
    WriteReply {
        key: KeyId,
        token: Token,
        ok: bool,
        version: u64,
    },
}

impl Msg {
    /// What the message carries, for the trace ([`Label::words`] puts it in words).
    pub fn label(&self) -> Label {
        match self {
            Msg::Acquire { token, reenter, .. } => Label::Acquire {
                token: *token,
                reenter: *reenter,
            },
            Msg::Release { token, .. } => Label::Release { token: *token },
            Msg::Expire { token, .. } => Label::Expire { token: *token },
            Msg::Renew { token, .. } => Label::Renew { token: *token },
            Msg::Evict { holder, .. } => Label::Evict { holder: *holder },
            Msg::Ping { holder, .. } => Label::Ping { holder: *holder },
            Msg::Pong { holder, .. } => Label::Pong { holder: *holder },
            Msg::FlagRead { token, .. } => Label::FlagRead { token: *token },
            Msg::FlagSet { token, .. } => Label::FlagSet { token: *token },
            Msg::AcquireReply { token, answer, .. } => match answer {
                AcquireAnswer::Granted { .. } => Label::Granted { token: *token },
                AcquireAnswer::Refused { why } => Label::Refused {
                    token: *token,
                    why: *why,
                },
                AcquireAnswer::Queued => Label::Queued { token: *token },
            },
            Msg::ReleaseReply { token, .. } => Label::Released { token: *token },
            Msg::RenewReply { token, refused, .. } => match refused {
                None => Label::Renewed { token: *token },
                Some(why) => Label::RenewRefused {
                    token: *token,
                    why: *why,
                },
            },
            Msg::FlagValue { locked, .. } => Label::FlagIs { locked: *locked },
            Msg::Claim {
                token, stamp_ms, ..
            } => Label::Claim {
                token: *token,
                stamp_ms: *stamp_ms,
            },
            Msg::ReadClaims { token, .. } => Label::ReadClaims { token: *token },
            Msg::ClaimReply { token, .. } => Label::ClaimRecorded { token: *token },
            Msg::Claims { claims, .. } => Label::Claims {
                claims: claims.as_slice().into(),
            },
            Msg::YourTurn { token, .. } => Label::YourTurn { token: *token },
            Msg::NotLeader { .. } => Label::NotLeader,
            Msg::ReplAck { offset } => Label::ReplAck { offset: *offset },
            Msg::Heartbeat { epoch, offset, .. } => Label::Heartbeat {
                epoch: *epoch,
                offset: *offset,
            },
            Msg::Stream { start, entries, .. } => Label::Commands {
                start: *start,
                count: entries.len() as u64,
            },
            Msg::SyncRequest { offset, .. } => Label::SyncRequest { offset: *offset },
            Msg::SyncReply { answer, .. } => match answer {
                SyncAnswer::Partial { entries, .. } => Label::PartialResync {
                    count: entries.len() as u64,
                },
                SyncAnswer::Full { offset, .. } => Label::FullCopy { offset: *offset },
            },
            Msg::OffsetQuery { .. } => Label::OffsetQuery,
            Msg::OffsetReport { offset, .. } => Label::OffsetReport { offset: *offset },
            Msg::Promote { epoch } => Label::Promote { epoch: *epoch },
            Msg::Append { entries, .. } => Label::Append {
                count: entries.len() as u64,
            },
            Msg::AppendReply { ok, .. } => Label::AppendReply { ok: *ok },
            Msg::Vote { term, pre, .. } => Label::Vote {
                term: *term,
                pre: *pre,
            },
            Msg::VoteReply { granted, pre, .. } => Label::VoteReply {
                granted: *granted,
                pre: *pre,
            },
            Msg::Read { token, .. } => Label::Read { token: *token },
            Msg::ReadReply { value, .. } => Label::Value { value: *value },
            Msg::Write { token, value, .. } => Label::Write {
                token: *token,
                value: *value,
            },
            Msg::WriteReply { ok, .. } => Label::WriteReply { ok: *ok },
        }
    }
}
