//! Messages between nodes. Every request carries the token it concerns so a reply can be
//! matched, and a late reply recognised as late.

use crate::trace::{KeyId, NodeId, Token};

/// A store's answer to an acquire request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcquireAnswer {
    /// Granted, with the fencing token if the design issues one and the lease in ms.
    Granted {
        fence: Option<u64>,
        lease_ms: Option<u64>,
    },
    /// Someone else holds it (or lock-delay is running).
    Held,
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
    /// Lock-delay is over: grant the key to the next waiter in the queue.
    GrantNext {
        key: KeyId,
    },
}

/// A replicated copy of one key's lock (`replicated` topology).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copy {
    pub token: Token,
    pub fence: Option<u64>,
    /// Lease left when the copy was sent, ms (`None`: no expiry).
    pub left_ms: Option<i64>,
    pub count: u32,
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
    // store → worker
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
        ok: bool,
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
        leader: Option<NodeId>,
    },
    // store ↔ store
    Heartbeat {
        epoch: u64,
    },
    Replicate {
        epoch: u64,
        key: KeyId,
        copy: Option<Copy>,
        fence_counter: u64,
    },
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
    Vote {
        term: u64,
        last_len: usize,
        last_term: u64,
    },
    VoteReply {
        term: u64,
        granted: bool,
    },
    // worker ↔ resource
    Read {
        key: KeyId,
        token: Token,
    },
    ReadReply {
        key: KeyId,
        token: Token,
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
    /// A short label for the trace, e.g. `acquire A.1`.
    pub fn label(&self, token_name: impl Fn(Token) -> String) -> String {
        match self {
            Msg::Acquire { token, reenter, .. } => {
                let what = if *reenter { "re-acquire" } else { "acquire" };
                format!("{what} {}", token_name(*token))
            }
            Msg::Release { token, .. } => format!("release {}", token_name(*token)),
            Msg::Renew { token, .. } => format!("renew {}", token_name(*token)),
            Msg::FlagRead { token, .. } => format!("read flag ({})", token_name(*token)),
            Msg::FlagSet { token, .. } => format!("set flag ({})", token_name(*token)),
            Msg::AcquireReply { token, answer, .. } => match answer {
                AcquireAnswer::Granted { .. } => format!("granted {}", token_name(*token)),
                AcquireAnswer::Held => format!("held, not {}", token_name(*token)),
                AcquireAnswer::Queued => format!("queued {}", token_name(*token)),
            },
            Msg::ReleaseReply { token, .. } => format!("released {}", token_name(*token)),
            Msg::RenewReply { token, ok, .. } => {
                format!(
                    "renew {} {}",
                    token_name(*token),
                    if *ok { "ok" } else { "refused" }
                )
            }
            Msg::FlagValue { locked, .. } => format!("flag is {locked}"),
            Msg::YourTurn { token, .. } => format!("your turn, {}", token_name(*token)),
            Msg::NotLeader { .. } => "not the leader".to_string(),
            Msg::Heartbeat { epoch } => format!("heartbeat (epoch {epoch})"),
            Msg::Replicate { .. } => "replicate".to_string(),
            Msg::Append { entries, .. } => format!("append {} entries", entries.len()),
            Msg::AppendReply { ok, .. } => format!("append {}", if *ok { "ok" } else { "refused" }),
            Msg::Vote { term, .. } => format!("vote for me (term {term})"),
            Msg::VoteReply { granted, .. } => {
                format!("vote {}", if *granted { "yes" } else { "no" })
            }
            Msg::Read { token, .. } => format!("read ({})", token_name(*token)),
            Msg::ReadReply { value, .. } => format!("value {value}"),
            Msg::Write { token, value, .. } => format!("write {value} ({})", token_name(*token)),
            Msg::WriteReply { ok, .. } => format!("write {}", if *ok { "ok" } else { "refused" }),
        }
    }
}
