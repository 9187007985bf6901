//! The course text. Follows the lesson's eight steps and facts, in locksim's own words.

use super::{Choice, Step};

macro_rules! scenario {
    ($file:literal) => {
        include_str!(concat!("../../tests/scenarios/", $file, ".toml"))
    };
}

/// Shown before step 1.
pub const INTRO: &str = "On one machine, letting only one thread in at a time is a mutex. \
Spread the workers over several machines with no shared memory — two servers that must not \
both run tonight's billing job, or edit the same record — and nothing is simple any more: the \
holder can die and leave the lock taken, messages are late or lost, clocks disagree and a \
process can freeze for seconds without knowing it. Each step below puts a design decision to \
you. Choose, watch the simulator play your choice out on a timeline, then read why. At the \
end, break the design you built and see where \"usually exclusive\" stops being \"safe\".";

/// Shown after step 8: the ladder of fixes and what each buys.
pub const RECAP: &[(&str, &str)] = &[
    (
        "Atomic acquire",
        "The store decides in one indivisible step (set-if-absent), so a race has one winner.",
    ),
    (
        "A lease (TTL)",
        "A dead holder's lock frees itself; \"held forever\" becomes \"held for at most T\".",
    ),
    (
        "Owner token",
        "Release is compare-and-delete: a late holder cannot free someone else's lock.",
    ),
    (
        "Fencing token",
        "The resource refuses writes from older grants: safety no longer depends on timing.",
    ),
    (
        "Consensus store",
        "A majority agrees on the holder; a failover cannot forget a grant, a minority cannot grant.",
    ),
    (
        "Honest renewal, fair queues, narrow locks",
        "Long jobs keep their lease only while they progress; waiters take turns; unrelated work does not wait.",
    ),
    (
        "Distrust clocks and pauses",
        "Let the store time leases, and know its clock: Redis uses its wall clock, so a clock step moves every expiry; etcd uses a monotonic one. Where you can, use a compare-and-swap or an idempotent write instead of a lock.",
    ),
];

/// The eight steps, in order.
pub static STEPS: [Step; 8] = [
    Step {
        title: "The stuck flag",
        topic: "A locked = true row",
        situation: "The simplest lock there is: a row with a column locked. To take the \
            lock, a worker reads it and, if it is false, sets it to true; to let go, it sets \
            it back to false.",
        question: "What goes fatally wrong with this flag?",
        options: &[
            Choice {
                label: "Two things: a holder that crashes never clears it, and read-then-write lets two workers in",
                right: true,
                feedback: "Both flaws, both fixed: one atomic set-if-absent picks a single winner of the race, and a lease frees the crashed holder's lock.",
                scenario: scenario!("step1-lease-fixes-both"),
            },
            Choice {
                label: "Only the race: a dead holder's flag does no harm",
                right: false,
                feedback: "A crashed holder never sets the flag back. Nothing else will, so every other worker waits forever.",
                scenario: scenario!("step1-flag-holder-crash"),
            },
            Choice {
                label: "Only crashes: reads and writes are so fast that two workers never both see 'free'",
                right: false,
                feedback: "Between the read and the write there is a whole round trip. Two workers starting together both read false, both write true, and both go in.",
                scenario: scenario!("step1-flag-race"),
            },
            Choice {
                label: "Nothing, if every worker clears the flag in a finally block",
                right: false,
                feedback: "A finally block does not run on a machine that lost power. The flag stays true.",
                scenario: scenario!("step1-flag-holder-crash"),
            },
        ],
        explanation: "The flag fails twice. It has no automatic release: if the holder dies \
            before writing false, the resource is locked for good. And it is not atomic: \"is \
            it free? then take it\" is two steps, and two workers can both see \"free\". A real \
            lock needs an acquire that exactly one worker can win, and a release that happens \
            even when the holder cannot do it.",
        insight: (
            "Two problems, not one",
            "Distributed locking is atomicity (exactly one winner, even in a race) plus liveness (the lock comes back when its holder dies). The naive flag has neither; the next steps add them one at a time.",
        ),
        extras: &[],
    },
    Step {
        title: "Grant to exactly one",
        topic: "Atomic acquire",
        situation: "Fix the race first. Several workers ask for the lock at the same \
            instant. Exactly one may win, and the decision has to be made in one step that \
            nothing can interleave with.",
        question: "Three workers ask at once. How is exactly one chosen?",
        options: &[
            Choice {
                label: "The store runs one atomic conditional write: set the key only if it is absent",
                right: true,
                feedback: "One worker's set-if-absent succeeds; the others are told the lock is held and try again later. No window for a race.",
                scenario: scenario!("step2-setnx-one-winner"),
            },
            Choice {
                label: "The request with the earliest timestamp wins",
                right: false,
                feedback: "Each worker still has to find out whether it was first and then act — two steps again — and their clocks do not even agree. Several go in together.",
                scenario: scenario!("step2-timestamp-race"),
            },
            Choice {
                label: "Read the lock, and write it only if it is free",
                right: false,
                feedback: "That is the flag again: two workers read \"free\" before either write lands.",
                scenario: scenario!("step1-flag-race"),
            },
        ],
        explanation: "Let the store decide in one indivisible operation: \"set this key only \
            if it does not exist\" (Redis SET key value NX, or an insert against a unique \
            constraint). Exactly one of the racing requests succeeds; every other one gets \
            \"already held\". There is no gap between checking and setting for a race to use.",
        insight: (
            "Borrow atomicity",
            "You do not build atomicity yourself; you take it from a store that offers compare-and-set or set-if-absent. That one primitive turns \"two might win\" into \"exactly one wins\".",
        ),
        extras: &[],
    },
    Step {
        title: "Don't deadlock on death",
        topic: "Leases (TTL)",
        situation: "Acquire is atomic now, but a holder that crashes still never releases, \
            and a dead process cannot clean up after itself.",
        question: "The holder dies while holding the lock. How does the lock ever come back?",
        options: &[
            Choice {
                label: "Grant it as a lease with a TTL: the store removes it when the time is up",
                right: true,
                feedback: "A dies; its 6 s lease runs out at the store, and B gets the lock with no human involved.",
                scenario: scenario!("step3-ttl-lease-expires"),
            },
            Choice {
                label: "The holder releases it in a shutdown hook",
                right: false,
                feedback: "A crash runs no hooks. The key stays, and B is refused until the end of the run.",
                scenario: scenario!("step3-setnx-holder-crash"),
            },
            Choice {
                label: "An operator deletes stuck locks when someone reports one",
                right: false,
                feedback: "Until somebody notices, nothing moves: B waits for the whole run.",
                scenario: scenario!("step3-setnx-holder-crash"),
            },
            Choice {
                label: "Take the key with SETNX, then give it a TTL with EXPIRE",
                right: false,
                feedback: "Two commands leave a gap. A's machine dies after its SETNX but before its EXPIRE: the key has no TTL, and B waits for the whole run.",
                scenario: scenario!("step3-setnx-then-expire"),
            },
        ],
        explanation: "Grant the lock for a bounded time. If the holder dies, the store \
            expires the key when the TTL runs out and the next worker can take it. The holder \
            must finish — or renew, step 7 — within the lease. \"Held forever\" becomes \"held \
            for at most T\".",
        insight: (
            "A lock is a lease",
            "The TTL guarantees the lock comes back. The price is a hard question: what if the holder is alive, just slow, and its lease runs out anyway? Steps 4 and 5 answer it.",
        ),
        extras: &[],
    },
    Step {
        title: "Only the owner unlocks",
        topic: "Owner tokens",
        situation: "A takes the lock and runs slow; its lease expires; B takes the lock. A \
            checks its lease before writing, sees it is gone and skips the write — but it \
            still calls release, on a lock that is B's now.",
        question: "A's lease is gone and B holds the lock. A calls release. What must happen?",
        options: &[
            Choice {
                label: "Delete the lock only if it still holds my token — atomically (compare-and-delete)",
                right: true,
                feedback: "A's release finds B's token and does nothing; C keeps waiting for B.",
                scenario: scenario!("step4-compare-and-delete"),
            },
            Choice {
                label: "Release always deletes the lock key",
                right: false,
                feedback: "A's late delete removes B's lock. C walks in while B is still working, and their writes collide.",
                scenario: scenario!("step4-blind-release"),
            },
            Choice {
                label: "Nothing to worry about: A's lease already ran out, so its release is harmless",
                right: false,
                feedback: "The key A deletes is B's. A blind release does harm exactly when it is late.",
                scenario: scenario!("step4-blind-release"),
            },
        ],
        explanation: "Store a token unique to each acquisition as the lock's value. Release \
            becomes conditional — delete the key only if its value is still my token — and it \
            runs as one atomic step at the store (a small script). A's late release sees B's \
            token and leaves it; A just learns it no longer holds the lock.",
        insight: (
            "Compare-and-delete",
            "Without the token, an expired holder quietly frees someone else's lock. Ownership has to be checked, atomically, on every release.",
        ),
        extras: &[],
    },
    Step {
        title: "The safety hole",
        topic: "Fencing tokens",
        situation: "A holds the lock and freezes — a long GC pause, a stalled VM — for longer \
            than its lease. The lease expires; B is granted the lock and writes. A wakes, still \
            sure it holds the lock, and writes too. Leases and owner tokens did not prevent it.",
        question: "A paused past its lease, B took over, A wakes and writes. How is A's write refused?",
        options: &[
            Choice {
                label: "Each grant carries an increasing fencing token; the resource refuses any write with a lower token than it has seen",
                right: true,
                feedback: "B's grant has token 2, A's has 1. The resource has accepted 2, so it turns A's write away.",
                scenario: scenario!("step5-fencing-token"),
            },
            Choice {
                label: "A checks its lease is still valid right before writing",
                right: false,
                feedback: "The check passed — and then A paused between the check and the write. Any two steps can have a pause between them.",
                scenario: scenario!("step5-check-lease-then-pause"),
            },
            Choice {
                label: "Stop working as soon as you learn the lock is lost",
                right: false,
                feedback: "A stops the moment it learns its lease is gone — but a frozen process learns nothing. The pause falls after its last check; when A wakes, its write is already on its way.",
                scenario: scenario!("step5-stop-on-lock-loss"),
            },
            Choice {
                label: "Make the lease longer than any pause could be",
                right: false,
                feedback: "A 30 s lease against a 40 s pause. Pauses have no upper bound, so no TTL is long enough.",
                scenario: scenario!("step5-longer-ttl"),
            },
            Choice {
                label: "Owner tokens already stop this",
                right: false,
                feedback: "Owner tokens protect the release, not the resource. A's write lands on top of B's.",
                scenario: scenario!("step5-pause-unfenced"),
            },
        ],
        explanation: "Give every grant a number that only goes up — a fencing token — and \
            make the protected resource remember the highest token it has accepted and refuse \
            anything lower. B's token is higher than A's, so when A wakes and writes with its \
            old token, the resource says no. Correctness is enforced where the data lives.",
        insight: (
            "Fencing is the real safety",
            "A lease can always be overrun by a pause, so a lock alone is never fully safe (Kleppmann 2016). Without fencing you have \"usually exclusive\"; with it, you have correct.",
        ),
        extras: &[scenario!("step5-pause-unfenced")],
    },
    Step {
        title: "Don't trust one node",
        topic: "Consensus for availability",
        situation: "So far the lock lives on one store node. If it dies, nobody can lock or \
            unlock anything. Replicating it naively is worse: a primary that dies right after \
            a grant, before copying it, leaves a replica that can grant the same lock again.",
        question: "How do you make the lock both highly available and correct?",
        options: &[
            Choice {
                label: "Use a consensus store (etcd, ZooKeeper): a majority agrees on the holder before anyone is told",
                right: true,
                feedback: "The leader dies right after granting A, but a majority had logged the grant. The new leader knows it and makes B wait.",
                scenario: scenario!("step6-consensus-failover"),
            },
            Choice {
                label: "Add an asynchronous replica with automatic failover",
                right: false,
                feedback: "The grant to A never reached the replica. Promoted, it grants B the same lock.",
                scenario: scenario!("step6-async-failover"),
            },
            Choice {
                label: "Redlock: take the lock on a majority of independent nodes",
                right: false,
                feedback: "One node's clock jumps and it drops A's key early; B assembles its own majority with it. Two holders, each with a majority.",
                scenario: scenario!("step6-redlock-clock-jump"),
            },
            Choice {
                label: "Keep one node; it rarely fails",
                right: false,
                feedback: "When it does, every worker stops: releases are lost and nobody can acquire.",
                scenario: scenario!("step6-single-store-down"),
            },
        ],
        explanation: "Put correctness-critical locks on a consensus system — etcd (Raft) or \
            ZooKeeper (ZAB). A change is decided only when a majority has it, so losing one \
            node loses no grant, and a newly elected leader already knows who holds the lock. \
            A minority cut off by a partition cannot grant at all. Redlock spreads the lock over \
            independent Redis nodes, but it leans on timing and is disputed (Kleppmann 2016, \
            Sanfilippo 2016). And keep fencing: consensus does not stop a paused holder.",
        insight: (
            "A quorum, not one node",
            "One node gives up either availability (it dies, everything stops) or safety (async failover can grant twice). Majority agreement gives both, at the cost of speed — pay it when correctness matters.",
        ),
        extras: &[
            scenario!("step6-minority-cannot-grant"),
            scenario!("step6-aof-everysec-restart"),
        ],
    },
    Step {
        title: "Living with the lock",
        topic: "Renewal, reentrancy, fairness, granularity",
        situation: "Practical questions remain. Some jobs legitimately run longer than one \
            TTL. Code holding the lock may call code that takes it again. Waiters can stampede \
            or starve. And what exactly should one lock cover?",
        question: "A job may take longer than its lease. What keeps its lease — safely?",
        options: &[
            Choice {
                label: "Renew the lease while the work is making progress; stop renewing when it stalls",
                right: true,
                feedback: "A's work hangs, so renewal stops, the lease runs out and B proceeds. A hung holder no longer blocks everyone.",
                scenario: scenario!("step7-progress-renewal"),
            },
            Choice {
                label: "A watchdog that renews every second for as long as the process is alive",
                right: false,
                feedback: "A's work is stuck but the process lives, so the watchdog renews forever. B never gets the lock.",
                scenario: scenario!("step7-watchdog-stalled-holder"),
            },
            Choice {
                label: "No renewal: a TTL is enough",
                right: false,
                feedback: "The 8 s job outlives its 3 s lease. B gets the lock halfway through and their updates interleave.",
                scenario: scenario!("step7-long-task-no-renewal"),
            },
        ],
        explanation: "Renew the lease with a heartbeat while the holder is alive and working, \
            so long jobs keep it — but tie renewal to real progress, or a hung holder keeps \
            the lock forever. Make the lock reentrant if the same holder may take it again (a \
            hold count). Lock the narrowest thing (a record, not the table) so unrelated work \
            runs in parallel. Where fairness matters, queue the waiters (ZooKeeper's \
            sequential nodes) instead of letting them all retry at once.",
        insight: (
            "Renew honestly",
            "Renewal lets a lease outlast a long job, but it must reflect progress. Narrow locks buy concurrency; fair queues prevent starvation and stampedes. These make a lock usable, not just correct.",
        ),
        extras: &[
            scenario!("step7-watchdog-renews"),
            scenario!("step7-nested-not-reentrant"),
            scenario!("step7-nested-reentrant"),
            scenario!("step7-uncounted-reentry"),
            scenario!("step7-retry-starves"),
            scenario!("step7-fair-queue"),
            scenario!("step7-table-lock"),
            scenario!("step7-record-locks"),
        ],
    },
    Step {
        title: "The sharp edges",
        topic: "Clocks, pauses, and do you need a lock?",
        situation: "Every lock rests on assumptions: clocks drift and get stepped, processes \
            pause without warning, networks split. And sometimes a lock is not the right tool \
            at all.",
        question: "Which of these keeps the data right when clocks jump and processes pause?",
        options: &[
            Choice {
                label: "Don't depend on exclusivity: make the write a compare-and-swap on a version (or idempotent)",
                right: true,
                feedback: "A pauses past its lease again, with no fencing — but its write is conditional on the version it read, and B moved it on. A's write fails; the data is right.",
                scenario: scenario!("step8-cas-instead"),
            },
            Choice {
                label: "Let each client compare the lease's 'held until' with its own clock",
                right: false,
                feedback: "B's clock is 8 s ahead, so B decides A's lease is over early and takes the lock while A works.",
                scenario: scenario!("step8-client-clock-skew"),
            },
            Choice {
                label: "Time leases on the store's wall clock; NTP keeps it right",
                right: false,
                feedback: "This is what Redis does out of the box. An NTP step moves the store's clock 30 s forward: A's lease ends at once and B is granted the lock mid-job.",
                scenario: scenario!("step8-wall-clock-jump"),
            },
        ],
        explanation: "Do not time leases with wall clocks across machines: let the store \
            expire them, and know which clock it uses. Redis times key expiry on its wall \
            clock, so a stepped clock ends leases early (configure NTP to slew, not step); \
            etcd times leases on a monotonic clock. Order writes with tokens rather than \
            timestamps. Pauses can exceed any TTL, which is why fencing is mandatory for \
            correctness. Partitions call for a quorum. And first ask whether you need a lock at \
            all: an idempotent operation, a compare-and-swap on a version, or a single writer \
            per partition is often simpler and safer than mutual exclusion.",
        insight: (
            "Design for the unhappy path",
            "Clock skew: don't time by wall clocks. Pause longer than the TTL: fence. Partition: quorum. Maybe no lock: idempotency, CAS, a single writer. Use a distributed lock when you must, and avoid it when something cheaper gives the same guarantee.",
        ),
        extras: &[
            scenario!("step8-store-expiry"),
            scenario!("step8-monotonic-clock"),
            scenario!("step8-idempotent-write"),
        ],
    },
];
