//! The scenario: what a teacher writes in a TOML file, what the course binds to each option,
//! and the only input the engine takes.
//!
//! The file format is the contract between teachers, the course and the engine. Every field
//! except `version`, `name` and `[[worker]]` has a default; unknown fields are rejected (see
//! [`parse()`]). All durations are in simulated milliseconds (`_ms`), drift in parts per million
//! (`_ppm`). The enums' names are serde's for the files and strum's for the front ends, the
//! same (a test holds them to it).

mod de;
pub mod edit;
mod fault;
#[cfg(not(target_arch = "wasm32"))]
pub mod file;
pub mod honest;
pub mod library;
pub mod names;
mod parse;
mod path;
mod validate;

pub use validate::MAX_UNTIL_MS;

pub use parse::{
    MAX_BYTES, ScenarioError, parse, parse_bytes, parse_draft, read_document, to_toml, too_large,
};

use serde::{Deserialize, Serialize};
use strum::{EnumDiscriminants, IntoStaticStr, VariantArray, VariantNames};

/// How often a `replicated` replica acknowledges its primary's stream, ms (Redis's replicas
/// send `REPLCONF ACK` once a second), which `store.min_replicas_to_write` counts.
pub const REPLICA_ACK_EVERY_MS: u64 = 1_000;

/// The only scenario file version this build reads.
pub const VERSION: u32 = 1;

/// A complete scenario. Build one with [`parse()`] (which validates it) or construct it in code
/// and call [`Scenario::validate`] before running it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// File format version; must equal [`VERSION`].
    pub version: u32,
    /// Short title shown in the app and the CLI.
    pub name: String,
    /// What the scenario shows, in a sentence or two.
    #[serde(default)]
    pub description: String,
    /// Where the case comes from (paper, incident report, documentation).
    #[serde(default)]
    pub source: String,
    /// Drives every random choice (network delays, loss). Same seed ⇒ same trace.
    #[serde(default)]
    pub seed: u64,
    /// Simulated horizon in ms: nothing happens at or after this true time.
    #[serde(default = "defaults::until_ms")]
    pub until_ms: u64,
    /// How messages travel: delays, loss, timeouts, TCP or datagrams (`[network]`).
    #[serde(default)]
    pub network: Network,
    /// The lock design and how holders use it (`[lock]`).
    #[serde(default)]
    pub lock: Lock,
    /// The lock store: topology, nodes, clock, persistence (`[store]`).
    #[serde(default)]
    pub store: Store,
    /// The protected data: fencing and write mode (`[resource]`).
    #[serde(default)]
    pub resource: Resource,
    /// The checker's settings (`[check]`).
    #[serde(default)]
    pub check: Check,
    /// The clients that want the lock. At least one.
    #[serde(rename = "worker")]
    pub workers: Vec<Worker>,
    /// Clock errors of store nodes (`[[node]]`); a store node not listed keeps true time.
    #[serde(default, rename = "node", skip_serializing_if = "Vec::is_empty")]
    pub store_clocks: Vec<NodeClock>,
    /// Faults injected at fixed true times.
    #[serde(default, rename = "fault", skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<Fault>,
    /// What the scenario is meant to show; checked by `locksim verify`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
}

/// Message delivery between any two nodes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Network {
    /// One-way delay in ms, drawn uniformly from `[min, max]` (inclusive) per message.
    pub delay_ms: [u64; 2],
    /// Probability in `[0, 1]` that a message is lost.
    pub loss: f64,
    /// How long a client waits for a store node's reply before it gives up on that node, ms.
    /// A request already sent is not recalled: over TCP it may still arrive and act.
    pub timeout_ms: u64,
    /// `tcp` (default: a cut or a lost packet delays a message) or `datagram` (drops it).
    pub transport: Transport,
    /// `tcp`: a message not delivered after this long is lost with its connection, ms (Linux
    /// gives up after `tcp_retries2` = 15 retransmissions, about 15 minutes).
    pub tcp_give_up_ms: u64,
}

/// How messages travel between nodes.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Transport {
    /// One ordered connection per pair of nodes, as Redis, etcd's gRPC and ZooKeeper clients
    /// use: a partition or a lost packet *delays* a message (the kernel retransmits it with
    /// back-off) and it lands after the heal; it is lost only when the connection dies.
    Tcp,
    /// Independent datagrams: a partition or `loss` drops the message for good.
    Datagram,
}

/// The lock design: which rung of the ladder, and how holders and waiters behave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Lock {
    /// The rung of the design ladder (`token`).
    pub design: Design,
    /// Lease length in ms (ignored by `flag` and `setnx`, which have no expiry).
    pub ttl_ms: u64,
    /// Who times the lease: the store (default), or the contending client on its own clock,
    /// from the holder's "held until" (`client`) or from when it saw the record change
    /// (`observed`).
    pub expiry: Expiry,
    /// How a holder extends its lease: `none` (default), `watchdog` or `progress`.
    pub renewal: Renewal,
    /// Renewal period in the holder's local ms; `None`: a third of the lease, `ttl_ms / 3`,
    /// as Redisson's watchdog renews every `lockWatchdogTimeout / 3`. Written out only when
    /// set; a file or link that says `renew_every_ms = 0`, which meant the third before the
    /// field was optional, reads as not set.
    #[serde(
        deserialize_with = "zero_means_unset",
        skip_serializing_if = "Option::is_none"
    )]
    pub renew_every_ms: Option<u64>,
    /// A holder may acquire a lock it already holds (a hold count is kept with the owner token).
    pub reentrant: bool,
    /// How a waiter waits: `retry` with back-off (default) or `fair`, a FIFO queue.
    pub waiting: Waiting,
    /// Default back-off between acquire attempts, ms (a worker may override it).
    pub retry_ms: u64,
    /// After a lease *expires* (not on release) the store refuses new grants this long, ms
    /// (Chubby's lock-delay; Consul's lock-delay).
    pub lock_delay_ms: u64,
    /// Each back-off gets a uniform random extra of `0..=retry_jitter_ms`, ms, so clients that
    /// failed together do not retry together (the Redis docs ask Redlock clients to retry after
    /// a random delay). `None`: half the worker's back-off; 0: lockstep retries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_jitter_ms: Option<u64>,
    /// `one_step` (`SET key token NX PX ttl`, default) or `two_step` (`SETNX`, then `EXPIRE`).
    pub acquire: Acquire,
    /// With `reentrant`: whether the store counts repeat acquires by the same owner. `false`:
    /// the repeat is let in but not counted, so the first release frees the lock (MySQL
    /// `GET_LOCK` before 5.7.5 behaved so; Redisson and Curator count).
    pub hold_count: bool,
    /// `timestamp`: how long a worker waits after its claim is acknowledged before it reads
    /// the claims, worker's local ms (ignored by the other designs).
    #[serde(skip_serializing_if = "is_default_settle")]
    pub settle_ms: u64,
    /// A health check instead of a lease: a waiter refused because another worker holds the
    /// lock pings that holder, and if no answer comes within this many of its own ms, deletes
    /// the holder's lock (only if the holder still has it) and asks again. A crashed holder
    /// never answers, and neither does a paused one until it wakes: the check cannot tell
    /// them apart. `None` (default): waiters only retry. Needs a single store node and a
    /// design with an owner token or set-if-absent (`setnx`, `ttl`, `token`, `fencing`).
    /// Written out only when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ping_timeout_ms: Option<u64>,
}

/// Reads a duration whose 0 once stood for "the default" as `None`.
fn zero_means_unset<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(Some(u64::deserialize(d)?).filter(|&ms| ms != 0))
}

fn is_default_settle(ms: &u64) -> bool {
    *ms == defaults::SETTLE_MS
}

/// How a lease lock is taken at the store.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Acquire {
    /// One atomic command: `SET key token NX PX ttl` (Redis docs, `SET`).
    OneStep,
    /// `SETNX key token`, then `EXPIRE key ttl` once the first reply is in: a holder that dies
    /// between the two leaves a key with no TTL (the pattern the Redis `SETNX` docs retire).
    TwoStep,
}

/// The design ladder, each rung adding one fix to the one before.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    IntoStaticStr,
    VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Design {
    /// Read `locked`, then write `locked = true`: two round trips, no expiry, blind release.
    Flag,
    /// Atomic set-if-absent (Redis `SET key v NX`), no expiry, blind delete.
    Setnx,
    /// Atomic set-if-absent with a lease (`SET key v NX PX ttl`), blind delete.
    Ttl,
    /// As `ttl`, the value is a unique owner token; release is compare-and-delete.
    Token,
    /// As `token`, plus a monotonically increasing fencing token per grant (Kleppmann 2016).
    Fencing,
    /// Not a rung: the naive "earliest timestamp wins" lock. A worker stamps its request with
    /// its own wall clock (offset, drift and jumps included) and sends `claim(key, stamp,
    /// token)`; the store only records it in the key's table of claims (one per token). Once
    /// the claim is acknowledged the worker waits `settle_ms`, then reads the table: if its
    /// stamp is the earliest (ties: the worker listed first in the scenario) it believes it
    /// holds the lock, otherwise it reads again every `retry_ms`. Release deletes its own claim;
    /// nothing expires, so a crashed claimant's claim stays for good.
    ///
    /// Lamport ("Time, Clocks, and the Ordering of Events in a Distributed System", 1978, the
    /// mutual-exclusion example) makes timestamp order safe only with logical clocks and an
    /// acknowledgement from every other process before entering; with physical clocks that
    /// disagree, a request made later can carry an earlier stamp and go in while the earlier
    /// requester is already inside.
    Timestamp,
    /// Not a rung: a lock owned by the client's database session, as PostgreSQL's
    /// `pg_advisory_lock` and MySQL's `GET_LOCK` are. No TTL: the key is held until its holder
    /// releases it (compare-and-delete: another session's unlock does nothing, as
    /// `pg_advisory_unlock` returns false) or until its session ends, whatever the holder
    /// believes. A session ends when its connection is reset (`connection_reset`), when either
    /// end of the connection gives up (`network.tcp_give_up_ms`), when the holder's
    /// process dies (its kernel closes its sockets), and when the server stops: advisory locks
    /// live in memory and never survive a restart (PostgreSQL docs, "Advisory Locks": held
    /// "until explicitly released or the session ends"). A holder is not told: its unlock
    /// later finds nothing of its own to release.
    Session,
    /// No lock at all (step 8's "do you need a lock?"): a worker never asks the store; it
    /// reads the record, works and writes. With `[resource] mode = "cas"` a write whose version
    /// moved is refused, and the worker tries again from a fresh read with a new attempt id:
    /// the optimistic retry loop of a compare-and-swap (etcd's transactions compare a key's
    /// revision, "notes on the usage of lock and lease"; Kleppmann 2016 names compare-and-set
    /// as the alternative). Nothing is held, so no belief is recorded.
    None,
}

impl Design {
    /// Every rung, bottom to top. `timestamp` is not one: see [`Design::PICKABLE`].
    pub const ALL: [Design; 5] = [
        Design::Flag,
        Design::Setnx,
        Design::Ttl,
        Design::Token,
        Design::Fencing,
    ];

    /// Every design a scenario may name: the ladder, the step 2 strawman `timestamp`, a
    /// database's `session` lock, then step 8's `none`.
    /// Derived from the enum, so it cannot miss a design.
    pub const PICKABLE: &'static [Design] = <Design as VariantArray>::VARIANTS;

    /// Whether grants carry a lease that expires.
    pub fn has_lease(self) -> bool {
        matches!(self, Design::Ttl | Design::Token | Design::Fencing)
    }

    /// Whether release and renewal compare the owner token (compare-and-delete).
    pub fn checks_owner(self) -> bool {
        matches!(self, Design::Token | Design::Fencing | Design::Session)
    }

    /// The name used in scenario files.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Who measures the lease.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Expiry {
    /// The store times the lease on its own clock.
    Store,
    /// The client stores "held until <its now + ttl>"; a contender compares that with *its*
    /// now, so clock skew between clients moves the expiry.
    Client,
    /// A contender takes over once the lock's record has stayed unchanged (no new grant, no
    /// renewal) for a lease length since it first saw it, timed on the contender's own lease
    /// clock: Kubernetes client-go's leader elector (`tryAcquireOrRenew` keeps `observedTime`
    /// and waits `LeaseDuration` from it) and the DynamoDB lock client (it waits the lease
    /// duration after reading a record version). Immune to clock offset; not to a paused holder.
    Observed,
}

/// Lease renewal by the holder.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Renewal {
    /// No renewal: the lease runs out unless the holder releases it first.
    None,
    /// Extends the lease while the process is alive, even if its work has stalled
    /// (Redisson's lock watchdog).
    Watchdog,
    /// Extends the lease only if the work advanced since the last renewal.
    Progress,
}

/// How a worker that finds the lock held waits for it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Waiting {
    /// Ask again after `retry_ms`: every waiter retries (a thundering herd on release).
    Retry,
    /// Join a FIFO queue at the store; each waiter is granted in turn when its predecessor
    /// goes (ZooKeeper's lock recipe with sequential ephemeral nodes).
    Fair,
}

/// The lock store's shape (step 6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Store {
    /// `single` (default), `replicated`, `redlock` or `consensus`.
    pub topology: Topology,
    /// Number of store nodes, named `store1` .. `storeN`.
    pub nodes: u32,
    /// `None`: the topology's default, see [`Store::lease_clock`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<StoreClock>,
    /// What survives a crash: `fsync` (default: everything), `everysec` (the log as last flushed) or `none`.
    pub persistence: Persistence,
    /// `replicated`: delay before the primary copies a change to its replicas, ms.
    pub replication_lag_ms: u64,
    /// `replicated`: once the primary has been silent this long, a replica is promoted (the
    /// simulation plays Sentinel's part);
    /// `consensus`: a follower that has not heard from a leader this long starts an election. ms.
    pub failover_ms: u64,
    /// `consensus`: a node first asks whether it could win before it raises its term and
    /// stands for election (etcd raft's `Config.PreVote`; Raft thesis §9.6). `false`, for
    /// teaching: a node that cannot reach the leader raises its term at every timeout, and
    /// the higher term it sends deposes the leader. Written out only when `false`.
    #[serde(skip_serializing_if = "is_true")]
    pub prevote: bool,
    /// `consensus`: a leader that no majority has answered for `failover_ms` steps down, and a
    /// node that hears a live leader ignores bids for a newer term (etcd raft's
    /// `Config.CheckQuorum`). `false`, for teaching: an isolated leader keeps its role, and
    /// any node's bid for a newer term deposes a working leader. Written out only when `false`.
    #[serde(skip_serializing_if = "is_true")]
    pub check_quorum: bool,
    /// The store keeps each lease `ttl_ms` times this before it ends it; the client still
    /// counts `ttl_ms` (1: exactly the TTL). Consul arms a session's timer for its TTL times
    /// `SessionTTLMultiplier` = 2, so its session docs promise the TTL only as a lower bound on
    /// when a dead holder's session ends. Written out only when not 1.
    #[serde(skip_serializing_if = "is_one")]
    pub ttl_multiplier: u32,
    /// `replicated`: the primary refuses every write (a grant, a renewal, a release) unless at
    /// least this many replicas acknowledged its stream within `min_replicas_max_lag_ms`
    /// (Redis `min-replicas-to-write`; replicas acknowledge once a second). 0: it never refuses.
    /// Written out only when set.
    #[serde(skip_serializing_if = "is_zero")]
    pub min_replicas_to_write: u32,
    /// `replicated`, with `min_replicas_to_write`: how old a replica's last acknowledgement may
    /// be for it to count, ms (Redis `min-replicas-max-lag`, 10 s). Written out only when not
    /// the default.
    #[serde(skip_serializing_if = "is_default_max_lag")]
    pub min_replicas_max_lag_ms: u64,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

fn is_default_max_lag(ms: &u64) -> bool {
    *ms == defaults::MIN_REPLICAS_MAX_LAG_MS
}

fn is_one(value: &u32) -> bool {
    *value == 1
}

fn is_true(value: &bool) -> bool {
    *value
}

/// Store topologies.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Topology {
    /// One node: a single point of failure.
    Single,
    /// A primary with asynchronous replicas and automatic failover (Redis with Sentinel).
    Replicated,
    /// N independent nodes; a client holds the lock if it got a majority (Redis docs, Redlock).
    Redlock,
    /// N nodes agreeing through a leader and a majority (Raft as in etcd, ZAB in ZooKeeper).
    Consensus,
    /// N members that each take writes, where a lock lives in the memory of the member that
    /// granted it and is not replicated: Galera, Percona XtraDB Cluster and MariaDB Galera
    /// grant `GET_LOCK` on the member the client is connected to and tell no other member
    /// (gh-ost issue 224, Flyway issue 4271, MariaDB MDEV-30473). Each client talks to the
    /// member it is pinned to (`[[worker]] store_node`), so two clients on two members can
    /// both hold the lock.
    MultiPrimary,
}

impl Topology {
    /// The name used in scenario files.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Whether the store nodes share no lock state, each keeping its own table (Redlock's
    /// independent masters, a multi-primary cluster's members); the other topologies keep one
    /// table, where a release on the primary or leader ends the grant everywhere.
    pub fn independent_nodes(self) -> bool {
        match self {
            Topology::Redlock | Topology::MultiPrimary => true,
            Topology::Single | Topology::Replicated | Topology::Consensus => false,
        }
    }

    /// Whether each client asks every store node and counts the grants itself (Redlock, "The
    /// Redlock algorithm" in the Redis docs); on the other topologies a client asks one node.
    pub fn fans_out(self) -> bool {
        match self {
            Topology::Redlock => true,
            Topology::Single
            | Topology::Replicated
            | Topology::Consensus
            | Topology::MultiPrimary => false,
        }
    }

    /// How many of `stores` store nodes must hold a grant for a client to hold the lock: a
    /// majority of N independent nodes for Redlock (Redis docs, "The Redlock algorithm"); one
    /// otherwise, as a consensus store records a grant only once its leader committed it, a
    /// replicated one on its primary, and a multi-primary member on its own.
    pub fn holders_needed(self, stores: usize) -> usize {
        match self {
            Topology::Redlock => majority(stores),
            Topology::Single
            | Topology::Replicated
            | Topology::Consensus
            | Topology::MultiPrimary => 1,
        }
    }

    /// Which node decides the grants for the others, when one does: a Sentinel-managed
    /// primary (`replicated`) or a Raft leader (`consensus`); `None` where each node decides
    /// its own. Only a topology with a head records role changes (`became_leader`,
    /// `stepped_down`), and the timeline and the checker read them through [`Head`].
    pub fn head(self) -> Option<Head> {
        match self {
            Topology::Replicated => Some(Head::Primary),
            Topology::Consensus => Some(Head::Leader),
            Topology::Single | Topology::Redlock | Topology::MultiPrimary => None,
        }
    }

    /// Whether each client talks to one store node of its own, `[[worker]] store_node`
    /// (`store1` if not named), as a client of a multi-primary cluster stays connected to the
    /// member it was given (gh-ost issue 224); elsewhere a client asks the node the topology
    /// says.
    pub fn pins_clients(self) -> bool {
        match self {
            Topology::MultiPrimary => true,
            Topology::Single | Topology::Replicated | Topology::Consensus | Topology::Redlock => {
                false
            }
        }
    }
}

/// The node that decides the grants for a replicated store ([`Topology::head`]), named as
/// its system names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    /// A primary whose replicas copy its stream asynchronously and one of which is promoted
    /// when it fails (Redis with Sentinel). Its role changes count epochs.
    Primary,
    /// A leader elected by a majority, whose grants are log entries committed by a majority
    /// (Raft as in etcd). Its role changes count terms.
    Leader,
}

impl Head {
    /// What the head is called: `primary`, `leader`.
    pub fn title(self) -> &'static str {
        match self {
            Head::Primary => "primary",
            Head::Leader => "leader",
        }
    }

    /// What the other nodes are called: `replica`, `follower`.
    pub fn follower(self) -> &'static str {
        match self {
            Head::Primary => "replica",
            Head::Leader => "follower",
        }
    }

    /// What a change of head counts: Sentinel's configuration `epoch`, Raft's `term`.
    pub fn round(self) -> &'static str {
        match self {
            Head::Primary => "epoch",
            Head::Leader => "term",
        }
    }

    /// Whether a grant is a committed log entry rather than a row of each node's table: a
    /// Raft log keeps it through a restart and a change of leader (the Raft paper, §5.3).
    pub fn grants_are_log_entries(self) -> bool {
        match self {
            Head::Leader => true,
            Head::Primary => false,
        }
    }

    /// Whether a head that steps down drops its data and copies the new head's: a demoted
    /// Redis primary resynchronises from the promoted replica (Redis docs, "Replication").
    pub fn demoted_drops_data(self) -> bool {
        match self {
            Head::Primary => true,
            Head::Leader => false,
        }
    }
}

/// How many of `nodes` make a majority: more than half (Redlock's N/2 + 1 in the Redis docs,
/// a Raft quorum in the Raft paper).
pub fn majority(nodes: usize) -> usize {
    nodes / 2 + 1
}

/// Which clock a store node measures leases on.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum StoreClock {
    /// Never jumps (drift still applies).
    Monotonic,
    /// Moves with `clock_jump` faults: a jump forward expires leases early.
    Wall,
}

impl Store {
    /// The clock store nodes time leases on: the scenario's `clock`, or the topology's
    /// default — the wall clock for the Redis-like topologies (Redis computes key expiry from
    /// its wall-clock time: the Redis docs' distributed-lock page says so) and a monotonic
    /// clock for `consensus` (etcd's leader times leases on a monotonic clock).
    pub fn lease_clock(&self) -> StoreClock {
        self.clock.unwrap_or(match self.topology {
            Topology::Consensus => StoreClock::Monotonic,
            Topology::Single
            | Topology::Replicated
            | Topology::Redlock
            | Topology::MultiPrimary => StoreClock::Wall,
        })
    }
}

/// What a store node keeps across a crash.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Persistence {
    /// Every change is on disk before it is acknowledged.
    Fsync,
    /// Changes are flushed to disk once a second (Redis AOF `appendfsync everysec`, its usual
    /// setting): a crash loses what changed since the last flush.
    Everysec,
    /// A restarted node has forgotten every lock.
    None,
}

/// The protected storage service, node name `resource`, one record per lock key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Resource {
    /// Reject a write whose fencing token is lower than the highest accepted (needs
    /// `lock.design = "fencing"`).
    pub fencing: bool,
    /// Check fencing tokens on reads too, and remember the highest one seen, so that a
    /// read-modify-write spanning two grants is refused at its first stale request. With
    /// writes alone fenced, A can read, lose its lease, and write before B's first write
    /// raises the resource's highest token: B then writes on top of the same old value and
    /// one update is lost. Chubby's servers check the sequencer on every request they serve
    /// (Burrows 2006, §2.4). Needs `fencing = true`. Written out only when set, so files and
    /// share links made before it existed read and write the same.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fence_reads: bool,
    /// How the resource applies writes: `plain` (default, read-modify-write), `idempotent` or `cas`.
    pub mode: ResourceMode,
}

/// How the resource applies writes (step 8's alternatives to a lock).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ResourceMode {
    /// Read-modify-write: overlapping critical sections can lose an update.
    Plain,
    /// Every write is the same idempotent operation: repeats and overlaps are harmless.
    Idempotent,
    /// Compare-and-swap: a write succeeds only if the record's version is the one the writer
    /// last saw (read at the start of its critical section, then its own writes).
    Cas,
}

/// Checker thresholds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Check {
    /// A live worker waiting longer than this for the lock is `starved`, ms.
    pub starve_after_ms: u64,
}

/// One client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Worker {
    /// Unique; not `store<N>` nor `resource`.
    pub name: String,
    /// True time of the first acquire attempt, ms.
    #[serde(default)]
    pub start_ms: u64,
    /// Critical-section length in the worker's own running time (pauses and stalls stop it), ms.
    #[serde(default = "defaults::work_ms")]
    pub work_ms: u64,
    /// Writes per critical section; write k (1-based) happens at `work_ms * k / writes`.
    #[serde(default = "defaults::one")]
    pub writes: u32,
    /// Acquisitions to make; 0 = until the horizon.
    #[serde(default = "defaults::one")]
    pub repeat: u32,
    /// Back-off between attempts, ms; default `lock.retry_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_ms: Option<u64>,
    /// Which lock (and which resource record) this worker wants.
    #[serde(default = "defaults::key")]
    pub key: String,
    /// Inside its critical section (halfway), acquires the same lock again, as a recursive call.
    #[serde(default)]
    pub nested: bool,
    /// Check the remaining lease before each write. The check and the write are two steps,
    /// 1 ms of running time apart, so a pause can fall between them.
    #[serde(default)]
    pub check_lease: bool,
    /// Wait for each resource reply up to this long, then go on, ms.
    #[serde(default = "defaults::write_timeout_ms")]
    pub write_timeout_ms: u64,
    /// Initial offset of this worker's clock from true time, ms.
    #[serde(default)]
    pub clock_offset_ms: i64,
    /// Clock rate error, parts per million (positive runs fast).
    #[serde(default)]
    pub clock_drift_ppm: i64,
    /// The clock the worker counts its own lease on: `monotonic` (default) or `wall`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub lease_clock: LeaseClock,
    /// What the worker does once it learns its lock is gone: `continue` (default) or `stop`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub on_lock_loss: OnLockLoss,
    /// What the worker does with the reply to an acquire it stopped waiting for:
    /// `hand_back` (default), `drop_connection` or `forget`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub on_timeout: OnTimeout,
    /// Where the worker counts its lease from: the request it sent (default) or the reply.
    #[serde(default, skip_serializing_if = "is_default")]
    pub lease_from: LeaseFrom,
    /// With `on_lock_loss = "stop"`: how often the worker looks at its own count, ms on its
    /// lease clock (ticks at its multiples); 0 (default): the instant the count runs out.
    #[serde(default, skip_serializing_if = "is_default")]
    pub lease_check_every_ms: u64,
    /// `topology = "redlock"`: the store nodes this client knows (`None`, the default: every
    /// one). It asks only these and counts its majority among them, as redlock-py before its
    /// fix (PR 6) took its quorum from the servers it had connected to, so two clients with
    /// different views can each "win".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stores: Option<Vec<String>>,
    /// `topology = "multi_primary"`: the member this client is connected to (`None`, the
    /// default: `store1`). It sends every request there and never moves, as a client whose
    /// connection string names one Galera member, or whose load balancer keeps it on one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store_node: Option<String>,
}

/// Where a worker's own count of its lease starts.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum LeaseFrom {
    /// From when it sent the acquire or renewal: the store started the lease no earlier, so
    /// the count never outlasts it (Redlock's validity; a careful client).
    #[default]
    Request,
    /// From when the reply arrived, as etcd's client sets a keepalive's deadline to
    /// `time.Now().Add(TTL)` on receiving the response (`client/v3/lease.go`,
    /// `recvKeepAlive`): a reply held up on the way stretches the count past the lease.
    Reply,
}

/// What a worker does with a grant that arrives after its acquire timed out.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum OnTimeout {
    /// Reads the late grant and releases it at once, as a Redlock client unlocks every
    /// instance after a failed attempt (Redis docs, "Distributed locks with Redis"). With
    /// `waiting = "fair"` it also deletes an unanswered create before it creates again, as
    /// Apache Curator's "protection mode" finds the client's own node after a failed create,
    /// so its session keeps no node of an attempt it gave up alive.
    #[default]
    HandBack,
    /// Drops the connection the request went on, as redis-py does on a socket timeout
    /// (`Connection.read_response` disconnects and raises `TimeoutError`): the late reply is
    /// never read, and the grant stays on the store, held by a token nobody remembers, until
    /// its TTL runs out.
    DropConnection,
    /// Forgets the attempt: the late reply is ignored, nothing is handed back, and the next
    /// attempt is a fresh create under a new token, as a ZooKeeper client that retries a
    /// timed-out `create` of its sequential ephemeral lock node without Apache Curator's
    /// "protection mode" (which tags the node's name with a GUID and, on a retry, looks for
    /// its own earlier node; ZOOKEEPER-1262). Only with `waiting = "fair"`, whose queue
    /// entries and grants belong to the client's session: the first node was in fact
    /// created, and the client's own heartbeats, the asks of its second node every third of
    /// a lease, keep that ghost alive (a lease length, simulated ms, from each ask). The ghost
    /// reaches the head of the queue and holds the key for a client that forgot it, and the
    /// client's second node waits behind it for as long as the session lives.
    Forget,
}

/// What a worker does when it learns its lock is gone.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum OnLockLoss {
    /// Carries on with its critical section (most lock clients unless the code checks).
    #[default]
    Continue,
    /// Stops before the next step of its critical section, as an etcd client does when its
    /// session's `Done` channel closes, or client-go's leader election in `OnStoppedLeading`.
    /// It learns when its own lease count runs out without a renewal, or a refusal or a
    /// rejected write arrives; a step already under way still goes out.
    Stop,
}

/// One store node's clock error (`[[node]]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeClock {
    /// A store node's name, `store1` .. `storeN`.
    pub name: String,
    /// Initial offset of its wall clock from true time, ms.
    #[serde(default)]
    pub clock_offset_ms: i64,
    /// Its clock's rate error, parts per million (positive runs fast): both its wall and its
    /// monotonic clock drift, as a crystal's error moves both.
    #[serde(default)]
    pub clock_drift_ppm: i64,
}

/// Which of its clocks a worker times its own lease (and Redlock's elapsed time) on.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum LeaseClock {
    /// Never jumps, as real clients measure elapsed time (Redisson, redlock-py's `time.monotonic`).
    #[default]
    Monotonic,
    /// The wall clock: a clock step moves the worker's idea of when its lease ends.
    Wall,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// A fault injected at `at_ms` true time. Read by `fault.rs`, which blames a bad value on
/// its own key and rejects a key the fault's kind does not take.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fault {
    /// When it happens, true ms.
    pub at_ms: u64,
    /// What happens, with its own fields.
    #[serde(flatten)]
    pub kind: FaultKind,
}

/// The faults a scenario can inject, by `kind`. [`FaultTag`] is the same list without the
/// fields: the one list of kinds the reader, the palette, the sandbox and the search share.
#[derive(Clone, Debug, PartialEq, Serialize, IntoStaticStr, VariantNames, EnumDiscriminants)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[strum_discriminants(
    name(FaultTag),
    doc = "A fault's `kind` without its fields, named as the file names it (`clock_jump`).",
    derive(
        Hash,
        PartialOrd,
        Ord,
        Serialize,
        Deserialize,
        IntoStaticStr,
        VariantArray
    ),
    serde(rename_all = "snake_case"),
    strum(serialize_all = "snake_case")
)]
pub enum FaultKind {
    /// The process freezes (GC, VM stall): it handles nothing; messages and timers wait.
    Pause {
        /// The node that freezes.
        node: String,
        /// How long, ms.
        for_ms: u64,
    },
    /// A worker's work stops advancing; the process (and a watchdog) lives.
    Stall {
        /// The worker whose work stops.
        node: String,
        /// How long, ms.
        for_ms: u64,
    },
    /// The node stops; in-flight messages to it are lost.
    Crash {
        /// The node that crashes.
        node: String,
    },
    /// A crashed node comes back (a store node keeps its locks per `store.persistence`).
    Restart {
        /// The node that comes back.
        node: String,
    },
    /// Crash every store node; restart them after `for_ms` if given.
    KillStore {
        /// How long the store stays down, ms; `None`: for good.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        for_ms: Option<u64>,
    },
    /// Cut every link between nodes of different groups; unlisted nodes are unaffected.
    Partition {
        /// The groups, by node name; links between different groups are cut.
        groups: Vec<Vec<String>>,
        /// How long the cut lasts, ms; `None`: until a `heal` or the horizon.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        for_ms: Option<u64>,
    },
    /// End every partition.
    Heal,
    /// The node's wall clock steps by `delta_ms` (±).
    ClockJump {
        /// The node whose clock steps.
        node: String,
        /// The step, ms (negative: back).
        delta_ms: i64,
    },
    /// Messages sent from `from` to `to` during the window take `extra_ms` longer.
    Delay {
        /// The sending end of the slowed link.
        from: String,
        /// The receiving end.
        to: String,
        /// The added delay, ms.
        extra_ms: u64,
        /// How long the slow window lasts, ms.
        for_ms: u64,
    },
    /// Someone deletes the lock key `key` whoever holds it (`terraform force-unlock`, a `DEL`
    /// from a console): on store node `node`, or on every store node if none is named.
    ForceRelease {
        /// The lock key deleted (`lock`); empty for a flush, which deletes every key.
        #[serde(default = "defaults::key", skip_serializing_if = "String::is_empty")]
        key: String,
        /// The one store node it is deleted on; `None`: every store node.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<String>,
        /// Who or what deletes it: `operator` (default), `eviction` or `flush` (which deletes
        /// every key on the node, so it names no `key`).
        #[serde(default, skip_serializing_if = "is_default")]
        by: DeletedBy,
    },
    /// The TCP connection between `from` and `to` is reset (a proxy, a NAT table or a
    /// server-side idle timeout drops it while both ends live): what it carried either way is
    /// lost, and the next message opens a new connection. With `design = "session"` a reset
    /// between a worker and a store node ends the worker's session there, and with it every
    /// lock the session held (PostgreSQL ends a backend whose client connection is gone).
    ConnectionReset {
        /// One end of the connection.
        from: String,
        /// The other end.
        to: String,
    },
}

/// Who deletes a lock key from outside the lock's protocol (`force_release`'s `by`). The
/// verdict is the same for all three: the holder was not asked. What differs is what the
/// learner is told, and which keys go.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    IntoStaticStr,
    VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum DeletedBy {
    /// A person deletes the one key: a force-unlock (`terraform force-unlock`), a `DEL` from
    /// a console, a health check that clears a lock it thinks is stale.
    #[default]
    Operator,
    /// The store itself drops the key to stay under its memory limit: Redis with `maxmemory`
    /// and a `volatile-*` or `allkeys-*` eviction policy evicts keys that have a TTL, lock keys
    /// included, and a primary sends the eviction to its replicas as a `DEL` (Redis docs, "Key
    /// eviction"). Consensus stores (etcd, ZooKeeper) never evict, so `consensus` refuses it.
    Eviction,
    /// Someone empties the node (`FLUSHALL` / `FLUSHDB`, Redis docs): every lock key on it
    /// goes at once, whoever held each.
    Flush,
}

impl FaultKind {
    /// The name used in scenario files (its `kind`); [`FaultKind::VARIANTS`] lists them all.
    pub fn name(&self) -> &'static str {
        self.into()
    }

    /// The nodes the fault names, in the file's order: its `node`; a link's `from` and `to`;
    /// a partition's groups, one after the other; a force release's `node` if it names one.
    /// Empty for the faults on the whole store (`kill_store`, `heal`, a force release on
    /// every store node).
    pub fn nodes(&self) -> Vec<&str> {
        match self {
            FaultKind::Pause { node, .. }
            | FaultKind::Stall { node, .. }
            | FaultKind::Crash { node }
            | FaultKind::Restart { node }
            | FaultKind::ClockJump { node, .. }
            | FaultKind::ForceRelease {
                node: Some(node), ..
            } => vec![node],
            FaultKind::Delay { from, to, .. } | FaultKind::ConnectionReset { from, to } => {
                vec![from, to]
            }
            FaultKind::Partition { groups, .. } => {
                groups.iter().flatten().map(String::as_str).collect()
            }
            FaultKind::KillStore { .. }
            | FaultKind::Heal
            | FaultKind::ForceRelease { node: None, .. } => Vec::new(),
        }
    }
}

/// What a scenario is meant to show.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The run must be safe (`true`) or unsafe (`false`); `None`: either.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe: Option<bool>,
    /// The run must be live (`true`) or not (`false`); `None`: either.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<bool>,
    /// Each of these kinds must be reported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<crate::violation::ViolationKind>,
    /// None of these kinds may be reported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<crate::violation::ViolationKind>,
    /// Each of these dangers must have occurred in the run: a pass that never went through
    /// them tested nothing (`locksim verify`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exercised: Vec<crate::violation::Danger>,
    /// `locksim verify` also proves the scenario within these bounds (`locksim prove` on the
    /// file's seed, the default menu): every schedule of at most `faults` added faults safe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proven_within: Option<ProvenWithin>,
}

/// The bounds of `[expect] proven_within`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvenWithin {
    /// At most this many added faults per schedule, 1 to 3.
    pub faults: u8,
}

impl Expect {
    /// Whether the table states nothing to check (`[expect]` with no key in it): every run
    /// meets it.
    pub fn is_empty(&self) -> bool {
        *self == Expect::default()
    }
}

impl Default for Network {
    fn default() -> Self {
        Network {
            delay_ms: [1, 5],
            loss: 0.0,
            timeout_ms: 200,
            transport: Transport::Tcp,
            tcp_give_up_ms: 900_000,
        }
    }
}

impl Default for Lock {
    fn default() -> Self {
        Lock {
            design: Design::Token,
            ttl_ms: 10_000,
            expiry: Expiry::Store,
            renewal: Renewal::None,
            renew_every_ms: None,
            reentrant: false,
            waiting: Waiting::Retry,
            retry_ms: 50,
            lock_delay_ms: 0,
            retry_jitter_ms: None,
            acquire: Acquire::OneStep,
            hold_count: true,
            settle_ms: defaults::SETTLE_MS,
            ping_timeout_ms: None,
        }
    }
}

impl Lock {
    /// The renewal period actually used, the holder's local ms.
    pub fn renew_period_ms(&self) -> u64 {
        self.renew_every_ms
            .unwrap_or_else(|| (self.ttl_ms / 3).max(1))
    }
}

impl Default for Store {
    fn default() -> Self {
        Store {
            topology: Topology::Single,
            nodes: 1,
            clock: None,
            persistence: Persistence::Fsync,
            replication_lag_ms: 0,
            failover_ms: 1000,
            prevote: true,
            check_quorum: true,
            ttl_multiplier: 1,
            min_replicas_to_write: 0,
            min_replicas_max_lag_ms: defaults::MIN_REPLICAS_MAX_LAG_MS,
        }
    }
}

impl Default for Resource {
    fn default() -> Self {
        Resource {
            fencing: false,
            fence_reads: false,
            mode: ResourceMode::Plain,
        }
    }
}

impl Default for Check {
    fn default() -> Self {
        Check {
            starve_after_ms: 10_000,
        }
    }
}

impl Worker {
    /// A worker with every optional field at its default.
    pub fn new(name: &str) -> Self {
        Worker {
            name: name.to_string(),
            start_ms: 0,
            work_ms: defaults::work_ms(),
            writes: 1,
            repeat: 1,
            retry_ms: None,
            key: defaults::key(),
            nested: false,
            check_lease: false,
            write_timeout_ms: defaults::write_timeout_ms(),
            clock_offset_ms: 0,
            clock_drift_ppm: 0,
            lease_clock: LeaseClock::Monotonic,
            on_lock_loss: OnLockLoss::Continue,
            on_timeout: OnTimeout::HandBack,
            lease_from: LeaseFrom::Request,
            lease_check_every_ms: 0,
            stores: None,
            store_node: None,
        }
    }
}

mod defaults {
    /// `lock.settle_ms` when the file does not say.
    pub const SETTLE_MS: u64 = 50;
    /// `store.min_replicas_max_lag_ms` when the file does not say: Redis's 10 s.
    pub const MIN_REPLICAS_MAX_LAG_MS: u64 = 10_000;
    pub fn until_ms() -> u64 {
        20_000
    }
    pub fn work_ms() -> u64 {
        2_000
    }
    pub fn one() -> u32 {
        1
    }
    pub fn key() -> String {
        "lock".to_string()
    }
    pub fn write_timeout_ms() -> u64 {
        1_000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each variant's strum name (the sandbox's choices, `as_str`) is the name serde reads
    /// and writes in scenario files.
    fn same_names<T>()
    where
        T: VariantArray + Serialize + Copy + Into<&'static str> + std::fmt::Debug,
    {
        for &variant in T::VARIANTS {
            let serde = serde_json::to_value(variant).unwrap();
            let strum: &'static str = variant.into();
            assert_eq!(serde, serde_json::Value::from(strum), "{variant:?}");
        }
    }

    #[test]
    fn strum_names_are_serde_names() {
        same_names::<Transport>();
        same_names::<Acquire>();
        same_names::<Design>();
        same_names::<Expiry>();
        same_names::<Renewal>();
        same_names::<Waiting>();
        same_names::<Topology>();
        same_names::<StoreClock>();
        same_names::<Persistence>();
        same_names::<ResourceMode>();
        same_names::<OnLockLoss>();
        same_names::<LeaseClock>();
        same_names::<OnTimeout>();
        same_names::<LeaseFrom>();
        same_names::<DeletedBy>();
    }

    #[test]
    fn the_renewal_period_is_a_third_of_the_lease_unless_set() {
        let src = "version = 1\nname = \"n\"\n[lock]\nttl_ms = 9000\nrenewal = \"watchdog\"\n\
                   {period}[[worker]]\nname = \"A\"\n";
        let read = |period: &str| parse(&src.replace("{period}", period)).expect("valid");
        for unset in ["", "renew_every_ms = 0\n"] {
            let s = read(unset);
            assert_eq!(s.lock.renew_every_ms, None, "{unset:?}");
            assert_eq!(s.lock.renew_period_ms(), 3_000);
            assert!(!to_toml(&s).contains("renew_every_ms"), "{}", to_toml(&s));
        }
        let s = read("renew_every_ms = 1000\n");
        assert_eq!(s.lock.renew_every_ms, Some(1_000));
        assert_eq!(s.lock.renew_period_ms(), 1_000);
        assert!(to_toml(&s).contains("\nrenew_every_ms = 1000\n"));
        assert_eq!(parse(&to_toml(&s)).expect("round trip"), s);
        let mut busy = s;
        busy.lock.renew_every_ms = Some(0);
        let e = busy
            .validate()
            .expect_err("a period of 0 renews in a busy loop");
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("lock.renew_every_ms", "must be at least 1")
        );
    }

    #[test]
    fn fault_names_are_serde_tags_in_declaration_order() {
        let node = || "store1".to_string();
        let one_of_each = [
            FaultKind::Pause {
                node: node(),
                for_ms: 1,
            },
            FaultKind::Stall {
                node: node(),
                for_ms: 1,
            },
            FaultKind::Crash { node: node() },
            FaultKind::Restart { node: node() },
            FaultKind::KillStore { for_ms: None },
            FaultKind::Partition {
                groups: Vec::new(),
                for_ms: None,
            },
            FaultKind::Heal,
            FaultKind::ClockJump {
                node: node(),
                delta_ms: 1,
            },
            FaultKind::Delay {
                from: node(),
                to: node(),
                extra_ms: 1,
                for_ms: 1,
            },
            FaultKind::ForceRelease {
                key: "lock".to_string(),
                node: None,
                by: DeletedBy::Operator,
            },
            FaultKind::ConnectionReset {
                from: node(),
                to: node(),
            },
        ];
        let names: Vec<&str> = one_of_each.iter().map(FaultKind::name).collect();
        assert_eq!(names, FaultKind::VARIANTS);
        for fault in &one_of_each {
            let serde = serde_json::to_value(fault).unwrap();
            assert_eq!(serde["kind"], fault.name(), "{fault:?}");
        }
    }
}
