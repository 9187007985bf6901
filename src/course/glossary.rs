//! The glossary: every term a learner meets in the course, the scenarios and the verdicts,
//! each with one plain definition in locksim's own words. Pure data and matching; the app
//! underlines the terms [`terms_in`] finds and lists [`alphabetical`] on its Glossary page,
//! and `locksim glossary` prints the same list.

use std::ops::Range;

/// One term and its definition.
#[derive(Debug)]
pub struct Entry {
    /// The term as the glossary lists it, e.g. "TTL (time to live)".
    pub term: &'static str,
    /// The words that name it in running text, matched case-insensitively as whole words
    /// (a plural "s" or "es" also matches). Unique across the glossary.
    pub aliases: &'static [&'static str],
    /// One or two sentences.
    pub definition: &'static str,
    /// Where the definition can be checked, if a system or paper defines it.
    pub source: Option<&'static str>,
}

impl Entry {
    /// The other names it goes by: its aliases but the term itself.
    pub fn other_names(&self) -> Vec<&'static str> {
        self.aliases
            .iter()
            .copied()
            .filter(|alias| !alias.eq_ignore_ascii_case(self.term))
            .collect()
    }
}

/// Every entry, grouped by topic; [`alphabetical`] gives them in the order a reader looks
/// them up.
pub static ENTRIES: &[Entry] = &[
    // What a lock is.
    Entry {
        term: "mutual exclusion",
        aliases: &["mutual exclusion", "mutex", "exclusivity", "exclusive"],
        definition: "At most one worker is inside the critical section at any moment. On one \
            machine a mutex gives it; across machines a distributed lock tries to.",
        source: None,
    },
    Entry {
        term: "distributed lock",
        aliases: &["distributed lock"],
        definition: "A lock that workers on different machines take through a shared lock \
            store over the network. Unlike a mutex it can be lost without its holder knowing: \
            the holder can pause, the network can split, clocks can disagree.",
        source: None,
    },
    Entry {
        term: "critical section",
        aliases: &["critical section"],
        definition: "The work that must run under the lock, such as a read-modify-write of \
            one record.",
        source: None,
    },
    Entry {
        term: "lock store",
        aliases: &["lock store", "store node", "lock service"],
        definition: "The service that keeps the lock and decides who holds it: one Redis \
            node, a primary with a replica, several Redlock nodes or a consensus cluster. Each \
            of its machines is a store node with a lane of its own on the timeline.",
        source: None,
    },
    Entry {
        term: "protected resource",
        aliases: &["protected resource", "resource"],
        definition: "What the lock protects and the workers write to, such as a database \
            record or a file. Only a resource that checks fencing tokens or versions can turn \
            a stale write away.",
        source: None,
    },
    Entry {
        term: "holder",
        aliases: &["holder", "lock holder"],
        definition: "The worker that has the lock, or believes it has. After a pause a worker \
            can still believe it is the holder when the store has granted the lock to someone \
            else.",
        source: None,
    },
    Entry {
        term: "stale holder",
        aliases: &["stale holder", "expired holder", "late holder"],
        definition: "A worker that still acts as the holder after its lease has ended, \
            typically after a pause. Only fencing or a conditional write at the resource stops \
            its writes.",
        source: Some("Kleppmann 2016"),
    },
    Entry {
        term: "grant",
        aliases: &["grant", "granted", "granting"],
        definition: "The store giving the lock to one worker, and the lease that results. Each \
            grant has its own owner token and, with fencing, its own fencing token.",
        source: None,
    },
    Entry {
        term: "lease",
        aliases: &["lease", "leased"],
        definition: "A lock granted for a limited time, its TTL: unless the holder releases or \
            renews it by then, the store frees it. A dead holder's lock comes back on its own, \
            and so does a slow holder's.",
        source: Some("Gray and Cheriton 1989; Redis docs: SET"),
    },
    Entry {
        term: "TTL (time to live)",
        aliases: &[
            "TTL",
            "time to live",
            "time-to-live",
            "PX",
            "EXPIRE",
            "expiry",
        ],
        definition: "How long a lease or key lasts before the store removes it. In Redis, \
            SET's PX option (milliseconds) or the EXPIRE command sets it.",
        source: Some("Redis docs: SET, EXPIRE"),
    },
    Entry {
        term: "renewal",
        aliases: &[
            "renewal",
            "renew",
            "renewed",
            "renewing",
            "heartbeat",
            "keep-alive",
        ],
        definition: "Extending a lease before it runs out, so that a job longer than one TTL \
            keeps its lock. A keep-alive beside the work for as long as the process lives \
            (etcd's client session, Redisson's watchdog) renews for a hung holder too, which \
            then keeps the lock for ever; renewing only while the work makes progress does not.",
        source: Some(
            "etcd docs: lease keep-alive, concurrency.Session; Redisson docs: lock watchdog",
        ),
    },
    Entry {
        term: "watchdog",
        aliases: &["watchdog", "lock watchdog"],
        definition: "A background timer that renews a lease for as long as the process is \
            alive, as Redisson's lock watchdog does. It renews even when the work is stuck, so \
            a hung holder can keep the lock for ever.",
        source: Some("Redisson docs: lock watchdog"),
    },
    Entry {
        term: "token",
        aliases: &["token"],
        definition: "A value handed out with a grant. An owner token says whose the lock is; \
            a fencing token says which grant is newer.",
        source: None,
    },
    Entry {
        term: "owner token",
        aliases: &["owner token", "lock token"],
        definition: "A value unique to one acquisition, stored as the lock's value (a random \
            string in Redis). Release and renewal check it, so a worker can only release or \
            extend its own grant.",
        source: Some("Redis docs: distributed locks"),
    },
    Entry {
        term: "fencing token",
        aliases: &["fencing token", "fencing", "fence", "fenced", "sequencer"],
        definition: "A number handed out with each grant, always higher than the one before \
            (not necessarily by one). The resource remembers the highest it has accepted and \
            refuses any write carrying a lower one.",
        source: Some("Kleppmann 2016; the Chubby paper (sequencers)"),
    },
    Entry {
        term: "attempt id",
        aliases: &["attempt id"],
        definition: "The simulator's label for one try at the lock: A#3 names worker A's third \
            attempt. It only tells attempts apart; it is not a fencing token.",
        source: None,
    },
    // Acquiring and releasing.
    Entry {
        term: "atomic",
        aliases: &["atomic", "atomically", "atomicity", "indivisible"],
        definition: "An atomic operation happens all at once or not at all, and nothing can \
            run in the middle of it. A set-if-absent at the store is atomic; a read followed by \
            a write is not.",
        source: None,
    },
    Entry {
        term: "race",
        aliases: &[
            "race",
            "race condition",
            "check-then-act",
            "check-then-set",
            "read-then-write",
        ],
        definition: "Two workers' steps interleave so that both act on the same out-of-date \
            view: both read \"free\", then both write \"taken\". Check-then-act code has one \
            whenever the check and the act are separate steps.",
        source: None,
    },
    Entry {
        term: "set-if-absent (SET NX)",
        aliases: &[
            "set-if-absent",
            "set if absent",
            "SET NX",
            "SET key value NX",
            "SETNX",
            "NX",
            "unique constraint",
        ],
        definition: "Create the key only if it does not exist yet, as one atomic step, so \
            exactly one of several racing requests succeeds. Redis: SET key value NX (add PX \
            for a TTL); SQL: an insert against a unique constraint.",
        source: Some("Redis docs: SET"),
    },
    Entry {
        term: "blind release",
        aliases: &[
            "blind release",
            "blind delete",
            "blind DEL",
            "plain DEL",
            "DEL",
        ],
        definition: "A release that deletes the lock key without checking whose it is. Sent \
            late, it frees the lock of whoever holds it now.",
        source: Some("Redis docs: distributed locks"),
    },
    Entry {
        term: "compare-and-delete",
        aliases: &[
            "compare-and-delete",
            "compare and delete",
            "check-and-delete",
            "DELEX",
            "DELIFEQ",
        ],
        definition: "Delete the key only if it still holds my owner token, as one atomic step \
            at the store (in Redis a small script). A late holder's release then cannot free \
            someone else's lock.",
        source: Some("Redis docs: distributed locks"),
    },
    Entry {
        term: "compare-and-swap (CAS)",
        aliases: &[
            "compare-and-swap",
            "compare and swap",
            "compare-and-set",
            "compare and set",
            "check-and-set",
            "CAS",
        ],
        definition: "Write a new value only if the current one (often a version number) is \
            still the one you read, as one atomic step; otherwise the write fails and you read \
            again. Also called compare-and-set, check-and-set or CAS.",
        source: Some("etcd docs: transactions; Sanfilippo 2016"),
    },
    Entry {
        term: "version number",
        aliases: &["version number", "version"],
        definition: "A counter kept with a record and raised by every write. A compare-and-swap \
            on it refuses a write based on an old read.",
        source: Some("etcd docs: notes on the usage of lock and lease"),
    },
    Entry {
        term: "read-modify-write",
        aliases: &["read-modify-write"],
        definition: "Read a value, compute a new one from it and write it back, such as adding \
            10 to a balance. If two overlap, one update is lost.",
        source: None,
    },
    Entry {
        term: "idempotent",
        aliases: &[
            "idempotent",
            "idempotency",
            "idempotence",
            "idempotency key",
        ],
        definition: "An operation is idempotent if doing it twice leaves the same result as \
            doing it once: \"mark invoice 42 as sent\", not \"add 10 to the balance\". It stays \
            correct without a lock when it runs twice.",
        source: None,
    },
    Entry {
        term: "single writer per partition",
        aliases: &["single writer per partition", "single writer"],
        definition: "Split the data into parts and let exactly one process write each, such as \
            one queue consumer for every customer id ending in 7. With one writer there is \
            nothing to lock.",
        source: None,
    },
    // Failures.
    Entry {
        term: "pause (stall)",
        aliases: &[
            "pause", "paused", "stall", "stalled", "freeze", "frozen", "hang", "hung",
        ],
        definition: "A process stops running for a while without knowing it, through a GC \
            pause, a VM migration or swapping. Its timers fire late, and its lease can run out \
            meanwhile.",
        source: Some("Kleppmann 2016"),
    },
    Entry {
        term: "GC pause",
        aliases: &["GC pause", "GC", "garbage collection"],
        definition: "A stop-the-world garbage collection: every thread of the process is \
            frozen, usually for milliseconds, occasionally for seconds. The process cannot \
            notice, so it may wake past its lease.",
        source: Some("Kleppmann 2016"),
    },
    Entry {
        term: "crash and restart",
        aliases: &["crash", "crashed", "restart", "restarted"],
        definition: "A crash stops a process at once: nothing it meant to do next runs, \
            finally blocks and shutdown hooks included. A restarted process or store keeps \
            only what it had written to disk.",
        source: None,
    },
    Entry {
        term: "partition",
        aliases: &["partition", "network partition", "partitioned"],
        definition: "A network fault that cuts some nodes off from others while every side \
            keeps running. Messages across the cut are delayed or lost until it heals.",
        source: None,
    },
    Entry {
        term: "single point of failure",
        aliases: &["single point of failure"],
        definition: "A part whose failure stops the whole system, such as a lock store with \
            one node.",
        source: None,
    },
    Entry {
        term: "availability",
        aliases: &["availability", "highly available"],
        definition: "Whether the lock can still be taken and released when a part fails. A \
            consensus store stays available while a majority of its nodes is up.",
        source: None,
    },
    // Clocks.
    Entry {
        term: "wall clock",
        aliases: &["wall clock", "wall-clock", "time of day"],
        definition: "A machine's time of day, the one a calendar shows. NTP or an operator can \
            set it, so it can jump; Redis times key expiry by it.",
        source: Some("Redis docs: EXPIRE; Redis docs: distributed locks"),
    },
    Entry {
        term: "monotonic clock",
        aliases: &["monotonic clock", "monotonic", "monotonically"],
        definition: "A clock that never jumps, whatever NTP or an operator does to the wall \
            clock, though NTP may slew its rate a little (Linux's CLOCK_MONOTONIC; \
            CLOCK_MONOTONIC_RAW is left alone). It measures durations such as a lease well, but \
            its readings mean nothing on another machine.",
        source: Some("etcd lessor; Go time package: monotonic clocks; Linux clock_gettime(2)"),
    },
    Entry {
        term: "clock step and slew (NTP)",
        aliases: &[
            "clock step",
            "clock jump",
            "stepped",
            "slew",
            "slewing",
            "NTP step",
        ],
        definition: "NTP corrects a wall clock either by stepping it (jumping straight to the \
            right time) or by slewing it (running it slightly fast or slow until it catches \
            up). A step moves every wall-clock deadline at once, a lease's end included.",
        source: Some("Redis docs: distributed locks"),
    },
    Entry {
        term: "NTP",
        aliases: &["NTP", "Network Time Protocol"],
        definition: "The Network Time Protocol, which keeps a machine's wall clock close to \
            true time by slewing or stepping it.",
        source: None,
    },
    Entry {
        term: "clock skew",
        aliases: &["clock skew", "skew", "skewed"],
        definition: "The difference between two machines' clocks at the same instant. Two \
            workers comparing a lease's end with their own clocks disagree by that much.",
        source: None,
    },
    Entry {
        term: "clock drift",
        aliases: &["clock drift", "drift"],
        definition: "The rate at which a clock gains or loses time against true time, in parts \
            per million. Drift makes clocks skew further apart until something corrects them.",
        source: None,
    },
    Entry {
        term: "logical clock",
        aliases: &["logical clock", "Lamport clock"],
        definition: "A counter that orders events by what caused what rather than by the time \
            of day. Lamport (1978) built mutual exclusion on it, but every node must answer \
            every request.",
        source: Some("Lamport 1978"),
    },
    // Replication and consensus.
    Entry {
        term: "asynchronous replication",
        aliases: &[
            "asynchronous replication",
            "async replication",
            "asynchronous replica",
            "async replica",
            "async failover",
            "asynchronous copy",
            "replica",
            "replication",
            "primary",
        ],
        definition: "The primary answers the client first and copies the write to its replicas \
            afterwards. If it dies in between, a replica promoted in its place has never heard \
            of the write, a granted lock included.",
        source: Some("Redis docs: replication"),
    },
    Entry {
        term: "failover",
        aliases: &["failover", "fail over", "promoted", "promotes"],
        definition: "Switching to another node when the active one fails, usually by promoting \
            a replica. It is only as good as what the promoted node already knew.",
        source: Some("Redis docs: Sentinel"),
    },
    Entry {
        term: "majority",
        aliases: &["majority", "majorities", "minority"],
        definition: "More than half of the nodes: 2 of 3, 3 of 5. Two majorities of the same \
            nodes always share a node, so a minority cut off by a partition cannot decide \
            anything.",
        source: Some("Raft paper, §5"),
    },
    Entry {
        term: "quorum",
        aliases: &["quorum"],
        definition: "The number of nodes whose agreement is enough to decide; in locksim's \
            stores, as in Raft and ZooKeeper, a majority. Any two quorums share a node, so no \
            two decisions can pass unseen by each other.",
        source: Some("Raft paper, §5"),
    },
    Entry {
        term: "consensus (Raft, ZAB)",
        aliases: &["consensus", "consensus store", "Raft", "ZAB", "Paxos"],
        definition: "A protocol by which nodes agree on one order of changes: a change counts \
            once a majority has logged it. etcd runs Raft and ZooKeeper runs ZAB.",
        source: Some("Raft paper; ZooKeeper docs"),
    },
    Entry {
        term: "commit",
        aliases: &["commit", "committed"],
        definition: "In a consensus store a change is committed once a majority has logged it. \
            From then on no failure of a minority, leader included, can lose it.",
        source: Some("Raft paper, §5.3"),
    },
    Entry {
        term: "leader and follower",
        aliases: &[
            "leader",
            "follower",
            "leader election",
            "election",
            "elected",
        ],
        definition: "In a consensus store one node, the leader, orders every change and sends \
            it to the others, the followers. When the leader fails the rest elect a new one, \
            which already has every committed change.",
        source: Some("Raft paper, §5"),
    },
    Entry {
        term: "fsync (appendfsync everysec)",
        aliases: &[
            "fsync",
            "appendfsync",
            "appendfsync everysec",
            "everysec",
            "AOF",
            "append-only file",
        ],
        definition: "fsync forces written data onto the disk. Redis's append-only file with \
            appendfsync everysec, its recommended setting, fsyncs once a second: a crash of the \
            Redis process loses a write at most, but a power loss or an OS crash can lose \
            about the last second of writes, a fresh lock included (the Redis docs' remedy: \
            keep a restarted node out for longer than the longest TTL).",
        source: Some(
            "Redis docs: persistence; distributed locks (performance, crash recovery and fsync)",
        ),
    },
    Entry {
        term: "revision",
        aliases: &["revision", "zxid"],
        definition: "A consensus store's count of the changes it has committed: etcd's \
            revision, ZooKeeper's zxid. It only grows, across leader crashes and failovers, \
            which makes it a safe source of fencing tokens.",
        source: Some("etcd docs: data model; ZooKeeper programmer's guide"),
    },
    Entry {
        term: "term / epoch",
        aliases: &["term", "epoch"],
        definition: "The number of a leader's or primary's reign: each election (Raft's term) \
            or promotion (a replica's epoch) starts a higher one, so a message from an old \
            leader can be told apart from the new one's.",
        source: Some("Raft, Ongaro and Ousterhout 2014, §5.1"),
    },
    Entry {
        term: "starvation bound",
        aliases: &["starvation bound", "starve bound"],
        definition: "How long a run lets a worker wait for the lock before the checker calls \
            it starved: a threshold the scenario sets, not a law. A wait past it is a long \
            tail when the worker does get turns, and a liveness failure when it never does.",
        source: None,
    },
    Entry {
        term: "Redlock",
        aliases: &["Redlock"],
        definition: "Redis's algorithm for a lock over several independent Redis nodes: a \
            client holds the lock if it set the key on a majority of them within the lease \
            time. It assumes clocks never jump and gives no fencing token, which is why it is \
            disputed.",
        source: Some("Redis docs: distributed locks; Kleppmann 2016; Sanfilippo 2016"),
    },
    Entry {
        term: "Redis",
        aliases: &["Redis"],
        definition: "An in-memory key-value store, often used as a lock store with \
            SET key token NX PX. It times key expiry on its wall clock, and by default does not \
            fsync every write.",
        source: Some("Redis docs: SET, EXPIRE, persistence"),
    },
    Entry {
        term: "Redis Sentinel",
        aliases: &["Sentinel"],
        definition: "Redis's failover system: sentinel processes watch a primary and promote a \
            replica when it fails. Replication stays asynchronous, so a grant can be lost.",
        source: Some("Redis docs: Sentinel"),
    },
    Entry {
        term: "etcd",
        aliases: &["etcd"],
        definition: "A key-value store that keeps its data consistent with Raft and grants \
            leases timed on the leader's monotonic clock. Its docs say its lock still needs \
            the resource to check a version or revision.",
        source: Some("etcd docs: notes on the usage of lock and lease"),
    },
    Entry {
        term: "ZooKeeper",
        aliases: &["ZooKeeper"],
        definition: "A coordination service that keeps its data consistent with ZAB. Its lock \
            recipe queues waiters as sequential ephemeral nodes.",
        source: Some("ZooKeeper docs: recipes"),
    },
    Entry {
        term: "Chubby",
        aliases: &["Chubby"],
        definition: "Google's lock service, built on Paxos. It introduced sequencers (fencing \
            tokens) and the lock-delay.",
        source: Some("the Chubby paper (Burrows 2006)"),
    },
    Entry {
        term: "Redisson",
        aliases: &["Redisson", "RLock"],
        definition: "A Java client for Redis whose locks are reentrant and renewed by a \
            watchdog while the process lives.",
        source: Some("Redisson docs: locks"),
    },
    Entry {
        term: "lock-delay (Chubby)",
        aliases: &["lock-delay", "lock delay"],
        definition: "Chubby waits a while, up to a minute, before granting a lock whose holder \
            vanished without releasing it, so that the old holder's delayed requests drain \
            first. It lowers the risk of a stale write; fencing removes it.",
        source: Some("the Chubby paper, §2.4"),
    },
    Entry {
        term: "session lock",
        aliases: &[
            "session lock",
            "GET_LOCK",
            "ephemeral node",
            "session timeout",
            "session",
        ],
        definition: "A lock tied to a client's session instead of a TTL of its own: MySQL \
            GET_LOCK is freed when the session ends, a ZooKeeper ephemeral node when the \
            session times out. It is a lease too; the session timeout is its TTL.",
        source: Some("MySQL docs: locking functions; ZooKeeper docs: recipes"),
    },
    // Living with the lock.
    Entry {
        term: "reentrant (hold count)",
        aliases: &[
            "reentrant",
            "reentrancy",
            "reentry",
            "re-entrant",
            "hold count",
        ],
        definition: "A reentrant lock lets its holder take it again without waiting for itself, \
            and counts the holds: it is free only after as many releases as acquires. \
            Redisson's RLock and Java's ReentrantLock count holds.",
        source: Some("Redisson docs: locks; MySQL docs: GET_LOCK"),
    },
    Entry {
        term: "fair queue",
        aliases: &[
            "fair queue",
            "fair lock",
            "fairness",
            "sequential node",
            "sequential ephemeral node",
        ],
        definition: "Waiters are granted the lock in the order they asked, so each gets its \
            turn. ZooKeeper's lock recipe builds one from sequential ephemeral nodes.",
        source: Some("ZooKeeper docs: recipes"),
    },
    Entry {
        term: "starvation",
        aliases: &["starvation", "starve", "starved", "starving"],
        definition: "A live worker waits on and on while others keep taking the lock. locksim \
            reports a worker as starved when it waits longer than the scenario's \
            starve_after_ms.",
        source: None,
    },
    Entry {
        term: "thundering herd (stampede)",
        aliases: &["thundering herd", "stampede", "herd"],
        definition: "Many waiters retry at the same moment, such as when a lock is released, \
            and swamp the store though only one can win. A fair queue that wakes only the next \
            waiter avoids it.",
        source: Some("ZooKeeper docs: recipes (herd effect)"),
    },
    Entry {
        term: "lock granularity",
        aliases: &[
            "granularity",
            "lock granularity",
            "narrow lock",
            "table-wide lock",
            "table lock",
            "record lock",
        ],
        definition: "How much one lock covers: a whole table or one record. A coarse lock makes \
            unrelated work wait in line; a narrow one lets it run in parallel.",
        source: None,
    },
    Entry {
        term: "throughput",
        aliases: &["throughput"],
        definition: "How much work gets done per second. A contended lock caps it: jobs that \
            take it run one after another.",
        source: None,
    },
    Entry {
        term: "hot path",
        aliases: &["hot path"],
        definition: "Code that runs on every request. A lock taken there serialises every \
            request at the speed of the lock store.",
        source: None,
    },
    Entry {
        term: "efficiency lock and correctness lock",
        aliases: &[
            "efficiency lock",
            "correctness lock",
            "efficiency",
            "correctness",
        ],
        definition: "An efficiency lock only saves duplicate work: if it fails now and then, a \
            job runs twice. A correctness lock keeps data right, so its failure corrupts data, \
            and it needs a consensus store and fencing.",
        source: Some("Kleppmann 2016"),
    },
    // The simulator's verdicts.
    Entry {
        term: "safety",
        aliases: &["safety", "UNSAFE"],
        definition: "In locksim, SAFE speaks for the data: the resource took no stale write \
            and no interleaved writes, or the run is UNSAFE. Other texts (the Redis docs, for \
            one) call mutual exclusion itself a lock's safety property; here a broken \
            exclusion is reported apart, as an overlap or a double grant, and does no harm \
            only where the resource fences off the bad writes.",
        source: Some("Redis docs, distributed locks: safety and liveness guarantees"),
    },
    Entry {
        term: "liveness",
        aliases: &["liveness", "NOT LIVE"],
        definition: "Something good happens in the end: the lock comes back and waiting \
            workers get it. A run in which the lock is stuck or a worker starved is NOT LIVE.",
        source: None,
    },
    Entry {
        term: "overlap",
        aliases: &["overlap", "overlapped", "overlapping"],
        definition: "Two workers believed they held the same lock at the same instant. It \
            corrupts data only if both write, which is why the verdict names writes separately.",
        source: None,
    },
    Entry {
        term: "stale write",
        aliases: &["stale write", "stale_write"],
        definition: "The resource accepted a write from an older grant after a write from a \
            newer one, typically from a holder that paused past its lease.",
        source: Some("Kleppmann 2016"),
    },
    Entry {
        term: "interleaved writes",
        aliases: &[
            "interleaved writes",
            "interleaved_writes",
            "interleave",
            "interleaved",
        ],
        definition: "Two grants' read-modify-writes ran across each other at the resource, so \
            one update could be lost.",
        source: None,
    },
    Entry {
        term: "double grant",
        aliases: &["double grant", "double_grant", "grant twice"],
        definition: "The store side granted the lock to two owners whose leases overlap, for \
            instance after a failover that forgot a grant.",
        source: None,
    },
    Entry {
        term: "foreign release",
        aliases: &["foreign release", "foreign_release"],
        definition: "A release removed a lock that belonged to another grant, usually a blind \
            release from a holder whose lease had ended.",
        source: None,
    },
    Entry {
        term: "stuck",
        aliases: &["stuck"],
        definition: "The lock stayed held to the end of the run by a holder that can make no \
            progress: it crashed with no lease, or hangs while a watchdog renews.",
        source: None,
    },
    Entry {
        term: "end of the run",
        aliases: &["end of the run", "horizon"],
        definition: "Where a simulated run stops. \"Until the end of the run\" means it did not \
            happen while the run lasted; the simulator used to call this point the horizon.",
        source: None,
    },
    Entry {
        term: "seed",
        aliases: &["seed"],
        definition: "The number that fixes every random choice of a run, such as message \
            delays. The same scenario with the same seed always plays out the same way.",
        source: None,
    },
    Entry {
        term: "verdict",
        aliases: &["verdict"],
        definition: "locksim's judgement of a run: safe or unsafe, live or not live, with every \
            violation named and placed on the timeline.",
        source: None,
    },
];

/// Every entry, ordered by term as a reader looks it up (case and punctuation ignored).
pub fn alphabetical() -> Vec<&'static Entry> {
    let mut entries: Vec<&Entry> = ENTRIES.iter().collect();
    crate::order::sort_by_key(&mut entries, |e| sort_key(e.term));
    entries
}

fn sort_key(term: &str) -> String {
    term.chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The entry one of whose aliases is `word` (case ignored), if any.
pub fn lookup(word: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| {
        e.aliases
            .iter()
            .any(|alias| alias.eq_ignore_ascii_case(word))
    })
}

/// The glossary terms in `text`: the first occurrence of each entry, in the order they
/// appear, as byte ranges. Where aliases overlap, the longest match wins ("fencing token"
/// over "token"). The app underlines exactly these.
pub fn terms_in(text: &str) -> Vec<(Range<usize>, &'static Entry)> {
    let mut seen: Vec<&Entry> = Vec::new();
    every_term_in(text)
        .into_iter()
        .filter(|(_, entry)| {
            let first = !seen.iter().any(|e| std::ptr::eq(*e, *entry));
            seen.push(entry);
            first
        })
        .collect()
}

/// Every occurrence of a glossary term in `text`, longest match first, without overlaps.
pub fn every_term_in(text: &str) -> Vec<(Range<usize>, &'static Entry)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !starts_word(bytes, i) {
            i += 1;
            continue;
        }
        let best = ENTRIES
            .iter()
            .flat_map(|entry| entry.aliases.iter().map(move |alias| (entry, alias)))
            .filter_map(|(entry, alias)| {
                word_at(bytes, i, alias.as_bytes()).map(|end| (end, entry))
            })
            .max_by_key(|(end, _)| *end);
        match best {
            Some((end, entry)) => {
                found.push((i..end, entry));
                i = end;
            }
            None => i += 1,
        }
    }
    found
}

/// Part of a word: letters, digits and the underscore of verdict names like `stale_write`.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn starts_word(bytes: &[u8], i: usize) -> bool {
    is_word(bytes[i]) && (i == 0 || !is_word(bytes[i - 1]))
}

/// Where `alias` ends if it is written at byte `at` as a whole word, allowing a plural "s" or
/// "es" after it.
fn word_at(bytes: &[u8], at: usize, alias: &[u8]) -> Option<usize> {
    let end = at + alias.len();
    if end > bytes.len() || !bytes[at..end].eq_ignore_ascii_case(alias) {
        return None;
    }
    ["", "s", "es"].iter().find_map(|suffix| {
        let stop = end + suffix.len();
        let fits = stop <= bytes.len() && bytes[end..stop].eq_ignore_ascii_case(suffix.as_bytes());
        (fits && bytes.get(stop).is_none_or(|&b| !is_word(b))).then_some(stop)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::{INTRO, RECAP, STEPS};

    #[test]
    fn every_entry_has_a_short_definition_and_a_name_to_match() {
        for entry in ENTRIES {
            assert!(!entry.term.is_empty());
            assert!(!entry.aliases.is_empty(), "{} has no alias", entry.term);
            let sentences = entry.definition.matches(". ").count() + 1;
            assert!(
                entry.definition.ends_with('.') && sentences <= 2,
                "{}: one or two sentences, ending with a full stop",
                entry.term
            );
            for alias in entry.aliases {
                // Matching compares bytes without case, which is exact for ASCII.
                assert!(alias.is_ascii(), "{alias:?}");
                let found = every_term_in(alias);
                assert_eq!(
                    found.len(),
                    1,
                    "{alias:?} ({}) matches as one term",
                    entry.term
                );
                assert!(
                    std::ptr::eq(found[0].1, entry),
                    "{alias:?} matches its own entry"
                );
            }
        }
    }

    #[test]
    fn aliases_are_unique_across_the_glossary() {
        let mut all: Vec<String> = ENTRIES
            .iter()
            .flat_map(|e| e.aliases.iter().map(|a| a.to_ascii_lowercase()))
            .collect();
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count, "an alias names two entries, or one twice");
        let mut terms: Vec<&str> = ENTRIES.iter().map(|e| e.term).collect();
        terms.sort_unstable();
        terms.dedup();
        assert_eq!(terms.len(), ENTRIES.len(), "a term is listed twice");
    }

    #[test]
    fn whole_words_plurals_and_the_longest_match() {
        let text = "Fencing tokens beat a token; leases end; the TTL ran out; fenceposts do not.";
        let found: Vec<(&str, &str)> = terms_in(text)
            .into_iter()
            .map(|(range, entry)| (&text[range], entry.term))
            .collect();
        assert_eq!(
            found,
            [
                ("Fencing tokens", "fencing token"),
                ("token", "token"),
                ("leases", "lease"),
                ("TTL", "TTL (time to live)"),
            ]
        );
        // Only the first occurrence of each term.
        assert_eq!(terms_in("lease, lease, leases").len(), 1);
        assert_eq!(every_term_in("lease, lease, leases").len(), 3);
        // Verdict names, and text that is not ASCII around a term.
        let text = "stale_write — a lease’s end";
        let found: Vec<&str> = terms_in(text).into_iter().map(|(r, _)| &text[r]).collect();
        assert_eq!(found, ["stale_write", "lease"]);
    }

    /// Jargon a learner cannot be expected to know: wherever the course uses one of these,
    /// the glossary must define it.
    const MUST_DEFINE: &[&str] = &[
        "TTL",
        "lease",
        "quorum",
        "majority",
        "minority",
        "fencing token",
        "owner token",
        "compare-and-delete",
        "compare-and-swap",
        "compare-and-set",
        "CAS",
        "set-if-absent",
        "SETNX",
        "monotonic clock",
        "wall clock",
        "GC",
        "NTP",
        "consensus",
        "Raft",
        "ZAB",
        "Redlock",
        "failover",
        "replica",
        "fsync",
        "everysec",
        "partition",
        "skew",
        "drift",
        "watchdog",
        "reentrant",
        "hold count",
        "starvation",
        "stampede",
        "thundering herd",
        "granularity",
        "idempotent",
        "horizon",
        "atomic",
        "grant",
        "holder",
        "renew",
        "lock-delay",
        "GET_LOCK",
        "efficiency",
    ];

    /// Every piece of text the course shows.
    fn course_text() -> Vec<&'static str> {
        let mut texts = vec![INTRO];
        for (fix, buys) in RECAP {
            texts.extend([*fix, *buys]);
        }
        for step in STEPS.iter() {
            texts.extend([
                step.title,
                step.topic,
                step.situation,
                step.question,
                step.explanation,
                step.insight.0,
                step.insight.1,
            ]);
            for choice in step.options {
                texts.extend([choice.label, choice.feedback]);
            }
        }
        texts
    }

    #[test]
    fn the_course_uses_no_undefined_jargon() {
        for text in course_text() {
            let defined = every_term_in(text);
            let bytes = text.as_bytes();
            for word in MUST_DEFINE {
                for at in (0..bytes.len()).filter(|&i| starts_word(bytes, i)) {
                    let Some(end) = word_at(bytes, at, word.as_bytes()) else {
                        continue;
                    };
                    assert!(
                        defined
                            .iter()
                            .any(|(range, _)| range.start <= at && end <= range.end),
                        "{word:?} is used without a glossary entry in: {text}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_jargon_list_itself_is_defined() {
        for word in MUST_DEFINE {
            assert!(
                !every_term_in(word).is_empty(),
                "{word:?} has no glossary entry"
            );
        }
    }

    #[test]
    fn alphabetical_order_ignores_case() {
        let terms: Vec<&str> = alphabetical().iter().map(|e| e.term).collect();
        let i = |t: &str| terms.iter().position(|x| *x == t).unwrap();
        assert!(i("attempt id") < i("Chubby") && i("Chubby") < i("clock drift"));
        assert_eq!(terms.len(), ENTRIES.len());
    }
}
