//! The course text. Follows the lesson's eight steps and facts, in locksim's own words, with
//! a first question on what the lock is for and step 7 as four small decisions. Every claim
//! about a real system is checked against its docs (see `assets/scenarios/*.toml`, `source`).

use super::{Choice, Judge, Step};

macro_rules! scenario {
    ($file:literal) => {
        include_str!(concat!("../../assets/scenarios/", $file, ".toml"))
    };
}

/// A real incident from `assets/cases/`.
macro_rules! case {
    ($file:literal) => {
        include_str!(concat!("../../assets/cases/", $file, ".toml"))
    };
}

/// Shown before the first question.
pub const INTRO: &str = "On one machine, letting only one thread in at a time is a mutex. \
Spread the workers over several machines with no shared memory — two servers that must not \
both run tonight's billing job, or edit the same record — and nothing is simple any more: the \
holder can die and leave the lock taken, messages are late or lost, clocks disagree and a \
process can freeze for seconds without knowing it. The course starts with one question — what \
is your lock for? — and then takes you through eight design steps, eleven decisions in all. Choose, watch the simulator \
play your choice out on a timeline, then read why. At the end, break the design you built: kill \
the store and watch everyone stall; take away fencing and watch a stale write land.";

/// What the learner's answer to the first question means at the end, per option of step 0.
pub const PURPOSE_RECAP: [&str; 2] = [
    "You said your lock saves duplicate work. Then one Redis node with a TTL and an owner token \
     (steps 1 to 4) is enough: when it fails, a job runs twice and you pay for it once more. \
     Fencing and consensus are for locks that guard data.",
    "You said your lock keeps data correct. Then you need every rung: a single Redis node can \
     hand the lock to two holders without telling anyone, so fence at the resource and keep \
     the lock on a consensus store.",
];

/// Shown after the last step: the ladder of fixes and what each buys.
pub const RECAP: &[(&str, &str)] = &[
    (
        "Know what the lock is for",
        "An efficiency lock saves duplicate work: a rare double run costs a little, and one Redis node will do. A correctness lock guards data: climb every rung below.",
    ),
    (
        "Atomic acquire",
        "The store decides in one indivisible step (set-if-absent), so a race has one winner.",
    ),
    (
        "A lease (TTL)",
        "A dead holder's lock frees itself; \"held forever\" becomes \"held for at most T\". Session locks (MySQL GET_LOCK, ZooKeeper ephemeral nodes) are leases too: the session timeout is the TTL.",
    ),
    (
        "Owner token",
        "Release is compare-and-delete: a late holder cannot free someone else's lock.",
    ),
    (
        "Fencing token",
        "The resource refuses writes from older grants, so safety no longer rests on timing — where the resource can check tokens. Where it cannot (an email or payment API), send an idempotency key.",
    ),
    (
        "Consensus store",
        "A majority must log a grant, so a failover cannot forget it and a minority cannot grant. The lock is still a lease: keep fencing.",
    ),
    (
        "Honest renewal, counted reentry, fair queues, narrow locks",
        "Long jobs keep their lease only while they progress; a holder may take its lock again and a hold count frees it; waiters take turns; a lock covers no more than it must and stays off the hot path.",
    ),
    (
        "Distrust clocks and pauses",
        "Let the store time leases, not clients, and know its clock: Redis uses its wall clock, so have NTP slew it rather than step it; etcd's is monotonic. Fence anyway. Where you can, use a compare-and-swap or an idempotent write instead of a lock, and your coordination service's own recipes for elections and queues.",
    ),
];

/// The first question, then the lesson's eight steps (step 7 as four decisions), in order.
pub static STEPS: [Step; 12] = [
    Step {
        number: "0",
        title: "What is the lock for?",
        topic: "Efficiency or correctness",
        situation: "Before any design, ask what a failure costs. Some locks only save work: a \
            report mailed twice, a cache rebuilt twice — a little waste. Others guard \
            correctness: two transfers from one balance, two writers of one file — data that \
            stays wrong. Weigh this failure: one Redis node holds the lock, with its append-only \
            log synced to disk once a second (the recommended setting). It restarts just after \
            granting A the lock, comes back without the grant, and gives the lock to B while A \
            still works. Nobody is told.",
        question: "Which kind of lock is yours?",
        options: &[
            Choice {
                label: "It saves work: if two jobs run at once now and then, we pay a little extra",
                right: false,
                feedback: "Then this run is a cost, not a disaster: the job ran twice. One Redis node is a fine lock for you; its docs say as much where an occasional race is acceptable. Steps 1 to 4 still matter to you; fencing and consensus (steps 5 and 6) are for locks that guard data.",
                scenario: scenario!("step6-aof-everysec-restart"),
            },
            Choice {
                label: "It keeps data correct: two holders at once would corrupt something",
                right: false,
                feedback: "Then this run is the disaster: B wrote, A's late write landed on top, and no error was raised anywhere. A lock that data depends on needs more than one Redis node: fencing at the resource (step 5) and a store that cannot forget a grant (step 6).",
                scenario: scenario!("step6-aof-everysec-restart"),
            },
        ],
        judge: Judge::Framing,
        explanation: "Locks come in two kinds (Kleppmann 2016, \"What are you using that lock \
            for?\"). An efficiency lock saves duplicate work: when it fails, you pay twice. A \
            correctness lock guards data: when it fails, the data is wrong. A single Redis \
            node can fail silently — a restart that loses its last second of writes, a \
            failover to a replica that never saw the grant — so it suits efficiency locks and \
            not correctness locks. The steps that follow build a lock for correctness; the \
            recap says which rungs an efficiency lock may skip.",
        insight: (
            "Ask what a failure costs",
            "If two holders only waste work, keep the lock simple. If two holders corrupt data, the lock alone is not enough: you will need fencing and a store that cannot forget.",
        ),
        extras: &[],
    },
    Step {
        number: "1",
        title: "The stuck flag",
        topic: "A locked = true row",
        situation: "The simplest lock there is: a row with a column locked. To take the \
            lock, a worker reads it and, if it is false, sets it to true; to let go, it sets \
            it back to false.",
        question: "What goes fatally wrong with this flag?",
        options: &[
            Choice {
                label: "Only the race: a crashed holder's flag does no harm",
                right: false,
                feedback: "A crashed holder never sets the flag back, and nothing else will: every other worker waits to the end of the run.",
                scenario: scenario!("step1-flag-holder-crash"),
            },
            Choice {
                label: "Only crashes: reading and writing are so fast that two workers never both see 'free'",
                right: false,
                feedback: "Between the read and the write is a whole round trip. Workers that start together all read false, all write true, and all go in.",
                scenario: scenario!("step1-flag-race"),
            },
            Choice {
                label: "Both: a crashed holder is never cleared, and two workers can both read 'free'",
                right: true,
                feedback: "This run shows both. A and B start together, both read 'free', both go in, and their writes interleave. Then C's machine dies holding the flag, and D waits to the end of the run.",
                scenario: scenario!("step1-flag-both-flaws"),
            },
            Choice {
                label: "Nothing, if every worker clears the flag in a finally block",
                right: false,
                feedback: "A finally block does not run on a machine that lost power. The flag stays true.",
                scenario: scenario!("step1-flag-holder-crash"),
            },
        ],
        judge: Judge::Diagnosis,
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
        number: "2",
        title: "Grant to exactly one",
        topic: "Atomic acquire",
        situation: "Fix the race first. Several workers ask for the lock at the same \
            moment. Exactly one may win, and the choice must be made in a single step that \
            nothing can slip into.",
        question: "Three workers ask at once. How is exactly one chosen?",
        options: &[
            Choice {
                label: "The request with the earliest timestamp wins",
                right: false,
                feedback: "Each worker stamps its request with its own clock, and the clocks disagree: a request made later carries an earlier stamp and goes in beside the holder. With wall clocks, \"earliest\" depends on whose clock is wrong. Timestamps can order requests — with logical clocks and a reply from every worker (Lamport 1978) — but then one worker that is down stops everyone.",
                scenario: scenario!("step2-timestamp-race"),
            },
            Choice {
                label: "The store sets the key only if it is absent, in one operation",
                right: true,
                feedback: "One worker's set-if-absent succeeds; the others are told the lock is held and try again later. There is no window for a race.",
                scenario: scenario!("step2-setnx-one-winner"),
            },
            Choice {
                label: "Each worker reads the lock, and writes it only if it is free",
                right: false,
                feedback: "That is the flag again: all three read \"free\" before any write lands.",
                scenario: scenario!("step1-flag-race"),
            },
        ],
        judge: Judge::SafeAndLive,
        explanation: "Let the store decide in one indivisible operation: \"set this key only \
            if it does not exist\" (Redis SET key value NX, or an insert against a unique \
            key). Exactly one of the racing requests succeeds; every other one gets \"already \
            held\". There is no gap between checking and setting for a race to use.",
        insight: (
            "Borrow atomicity",
            "You do not build atomicity yourself; you take it from a store that offers set-if-absent or compare-and-swap. That one primitive turns \"two might win\" into \"exactly one wins\".",
        ),
        extras: &[],
    },
    Step {
        number: "3",
        title: "Don't deadlock on death",
        topic: "Leases (TTL)",
        situation: "Acquire is atomic now, but a holder that crashes still never releases, \
            and a dead process cannot clean up after itself.",
        question: "The holder dies while holding the lock. How does the lock ever come back?",
        options: &[
            Choice {
                label: "The holder releases it in a shutdown hook",
                right: false,
                feedback: "A crash runs no hooks. The key stays, and B is refused until the end of the run.",
                scenario: scenario!("step3-setnx-holder-crash"),
            },
            Choice {
                label: "Waiting workers ping the holder and delete its lock if it does not answer",
                right: false,
                feedback: "A is alive but frozen in a GC pause, so it does not answer; the health check deletes its lock (the timeline calls that an operator's delete: it comes from outside the lock's protocol) and B takes it. A wakes, still holding the lock as far as it knows, and writes too. A paused or cut-off holder looks exactly like a dead one.",
                scenario: scenario!("step3-ping-then-delete"),
            },
            Choice {
                label: "Take the key with SETNX, then give it a TTL with EXPIRE",
                right: false,
                feedback: "Two commands leave a gap. A's machine dies after its SETNX but before its EXPIRE: the key has no TTL, and B waits for the whole run.",
                scenario: scenario!("step3-setnx-then-expire"),
            },
            Choice {
                label: "Grant it for a limited time: the store deletes it when the time is up",
                right: true,
                feedback: "A dies; its 6 s lease runs out at the store, and B gets the lock with nobody stepping in.",
                scenario: scenario!("step3-ttl-lease-expires"),
            },
        ],
        judge: Judge::SafeAndLive,
        explanation: "Grant the lock as a lease: for a bounded time, its TTL (time to live). \
            If the holder dies, the store deletes the key when the TTL runs out and the next \
            worker can take it. The holder must finish — or renew, step 7a — within the \
            lease. \"Held forever\" becomes \"held for at most T\". Session locks work the same \
            way: MySQL's GET_LOCK is freed when the client's session ends, a ZooKeeper \
            ephemeral node when its session expires — the session timeout is the TTL.",
        insight: (
            "A lock is a lease",
            "The TTL guarantees the lock comes back. The price is a hard question: what if the holder is alive, just slow, and its lease runs out anyway? Steps 4 and 5 answer it.",
        ),
        extras: &[scenario!("step1-lease-fixes-both")],
    },
    Step {
        number: "4",
        title: "Only the owner unlocks",
        topic: "Owner tokens",
        situation: "A takes the lock and runs slow; its lease expires; B takes the lock. A \
            checks its lease before writing, sees it is gone and skips the write — but it \
            still calls release, on a lock that is B's now. (Here A's check happens to work; \
            step 5 shows why it cannot be relied on, which is why the timeline still shows an \
            overlap.)",
        question: "A's lease is gone and B holds the lock. A calls release. What must happen?",
        options: &[
            Choice {
                label: "Delete the lock only if it still holds my token, in one step at the store",
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
        judge: Judge::SafeAndLive,
        explanation: "Store a token unique to each acquisition as the lock's value. Release \
            becomes compare-and-delete — delete the key only if its value is still my token — \
            run as one atomic step at the store (a small script, or DELEX with IFEQ in Redis \
            8.4 and later). A's late release sees B's token and leaves it; A just learns it no \
            longer holds the lock.",
        insight: (
            "Compare-and-delete",
            "Without the token, an expired holder quietly frees someone else's lock. Ownership has to be checked, atomically, on every release.",
        ),
        extras: &[],
    },
    Step {
        number: "5",
        title: "The safety hole",
        topic: "Fencing tokens",
        situation: "A holds the lock and freezes — a long GC pause, a stalled VM — for longer \
            than its lease. The lease expires; B is granted the lock and writes. A wakes, still \
            sure it holds the lock, and writes too. Leases and owner tokens did not prevent it.",
        question: "A paused past its lease, B took over, A wakes and writes. How is A's write refused?",
        options: &[
            Choice {
                label: "A checks its lease is still valid right before writing",
                right: false,
                feedback: "The check passed — and then A paused between the check and the write. Any two steps can have a pause between them.",
                scenario: scenario!("step5-check-lease-then-pause"),
            },
            Choice {
                label: "A stops working as soon as it learns the lock is lost",
                right: false,
                feedback: "A stops the moment it learns its lease is gone — but a frozen process learns nothing. The pause falls after its last check; when A wakes, its write is already on its way.",
                scenario: scenario!("step5-stop-on-lock-loss"),
            },
            Choice {
                label: "Number each grant; the resource refuses any number lower than one it has seen",
                right: true,
                feedback: "B's grant carries fence 2, A's fence 1. The resource has accepted 2, so it turns A's write away.",
                scenario: scenario!("step5-fencing-token"),
            },
            Choice {
                label: "Make the lease longer than any pause could be",
                right: false,
                feedback: "A 30 s lease against a 40 s pause. Pauses have no upper bound, so no TTL is long enough — and a long TTL means a crashed holder blocks everyone that long.",
                scenario: scenario!("step5-longer-ttl"),
            },
            Choice {
                label: "Owner tokens already stop this",
                right: false,
                feedback: "Owner tokens protect the release, not the resource. A's write lands on top of B's.",
                scenario: scenario!("step5-pause-unfenced"),
            },
        ],
        judge: Judge::SafeAndLive,
        explanation: "Give every grant a number that only goes up — a fencing token — and \
            make the protected resource remember the highest token it has accepted and refuse \
            anything lower. B's token is higher than A's, so when A wakes and writes with its \
            old token, the resource says no. The tokens only need to increase, not to be \
            consecutive. The check belongs on every request of the critical section, reads \
            included: if only writes carry the token, A can read, B take over and read the \
            same value, and A's write still pass (fence 1 is the highest the resource has \
            seen) before B writes on top of it — one update lost. Correctness is enforced \
            where the data lives — if the resource can check tokens. An email service or a payment API cannot; there, send an \
            idempotency key so that a repeat is recognised (step 8).",
        insight: (
            "Fencing is the real safety",
            "A lease can always be overrun by a pause, so a lock alone is never fully safe (Chubby's sequencers, 2006; Kleppmann 2016). Without fencing you have \"usually exclusive\"; with it, you have correct.",
        ),
        extras: &[
            scenario!("step5-pause-unfenced"),
            scenario!("step5-fenced-writes-only"),
        ],
    },
    Step {
        number: "6",
        title: "Don't trust one node",
        topic: "Consensus for availability",
        situation: "So far the lock lives on one store node. If it dies, nobody can lock or \
            unlock anything. Replicating it naively is worse: a primary that dies right after \
            a grant, before copying it, leaves a replica that can grant the same lock again.",
        question: "How do you keep the lock available when a node dies, without the store ever granting it twice?",
        options: &[
            Choice {
                label: "Add an asynchronous replica with automatic failover",
                right: false,
                feedback: "The grant to A never reached the replica. Promoted, it grants B the same lock.",
                scenario: scenario!("step6-async-failover"),
            },
            Choice {
                label: "A consensus store (etcd, ZooKeeper): a grant counts once a majority logs it",
                right: true,
                feedback: "The leader dies right after granting A, but a majority had logged the grant. The new leader takes over A's lease from its log and makes B wait. The run also fences, as you still must.",
                scenario: scenario!("step6-consensus-failover"),
            },
            Choice {
                label: "Redlock: take the lock on a majority of independent Redis nodes",
                right: false,
                feedback: "Redlock assumes clocks do not jump. Here one node's clock is stepped forward, it drops A's key early, and B gathers its own majority with it: two holders, each with a majority. Even with perfect clocks, Redlock hands out no fencing token to stop a paused holder.",
                scenario: scenario!("step6-redlock-clock-jump"),
            },
            Choice {
                label: "Keep one node; it rarely fails",
                right: false,
                feedback: "When it dies, every worker stops: releases are lost and nobody can acquire. When it restarts without the lock (More to explore), two workers hold it and nobody is told. For an efficiency lock (step 0) that is a fair price; for a correctness lock it is not.",
                scenario: scenario!("step6-single-store-down"),
            },
        ],
        judge: Judge::SafeAndLive,
        explanation: "Put correctness-critical locks on a consensus system — etcd (Raft) or \
            ZooKeeper (ZAB). A change counts only once a majority has logged it, so losing one \
            node loses no grant, and a newly elected leader already knows who holds the lock. \
            A minority cut off by a partition cannot grant at all (Raft, §5). But the lock is \
            still a lease: etcd's docs say its lock cannot give mutual exclusion by itself, \
            and Jepsen's analysis of etcd 3.4.3 found its locks unsafe without fencing. So \
            keep fencing. Redlock spreads the lock over independent Redis nodes, but it leans \
            on timing and is disputed (Kleppmann 2016, Sanfilippo 2016).",
        insight: (
            "A majority, and still fence",
            "A single primary gives up availability (no failover) or safety (async failover can grant twice). A majority means no single failure loses or duplicates a grant, at the cost of speed; the lock is still a lease, so fencing stays.",
        ),
        extras: &[
            scenario!("step6-minority-cannot-grant"),
            scenario!("step6-aof-everysec-restart"),
        ],
    },
    Step {
        number: "7a",
        title: "Jobs longer than the lease",
        topic: "Renewal",
        situation: "Some jobs legitimately run longer than one TTL, so the holder must renew \
            its lease. But a holder whose work has hung must not keep the lock forever.",
        question: "A job may take longer than its lease. What keeps the lease, without letting a hung holder keep it forever?",
        options: &[
            Choice {
                label: "Renew from the work loop itself, after each batch of progress",
                right: true,
                feedback: "A's 8 s job keeps its 3 s lease, renewed after each batch. Then C's work hangs: no progress, no renewal, so its lease runs out and B goes ahead. When C wakes it is a stale holder, and fencing (step 5) turns its write away.",
                scenario: scenario!("step7-progress-renewal"),
            },
            Choice {
                label: "A watchdog thread renews every second for as long as the process is alive",
                right: false,
                feedback: "A's work is stuck but its process lives, so the watchdog renews forever. B never gets the lock.",
                scenario: scenario!("step7-watchdog-stalled-holder"),
            },
            Choice {
                label: "No renewal: a TTL chosen with care is enough",
                right: false,
                feedback: "The 8 s job outlives its 3 s lease. B gets the lock halfway through and their updates interleave.",
                scenario: scenario!("step7-long-task-no-renewal"),
            },
        ],
        judge: Judge::SafeAndLive,
        explanation: "Renew the lease while the holder makes progress — from the work loop, \
            after each batch, not from a timer thread — so a long job keeps its lease and a \
            hung one loses it. A background watchdog (Redisson's, for one) renews for as long \
            as the process lives, even when the work is stuck. Renewal buys liveness, not \
            safety: a holder that wakes after losing its lease is stale, and only fencing stops \
            its write.",
        insight: (
            "Renew honestly",
            "Renewal must reflect real progress, and it never replaces fencing.",
        ),
        extras: &[scenario!("step7-watchdog-renews")],
    },
    Step {
        number: "7b",
        title: "Taking the lock twice",
        topic: "Reentrancy",
        situation: "Code that holds the lock calls a helper that takes the same lock. With a \
            plain lock, the holder now waits for itself.",
        question: "The holder asks for the lock again from nested code. What should the lock do?",
        options: &[
            Choice {
                label: "Refuse it like anyone else's request: nested code should not lock",
                right: false,
                feedback: "A waits for a lock it holds itself; nothing frees it until A's own lease runs out.",
                scenario: scenario!("step7-nested-not-reentrant"),
            },
            Choice {
                label: "Let the holder in again, and let the first release free the lock",
                right: false,
                feedback: "The nested section's release frees the lock while the outer section is still working; B walks in and their writes interleave.",
                scenario: scenario!("step7-uncounted-reentry"),
            },
            Choice {
                label: "Let the holder in again and count its holds; free the lock at zero",
                right: true,
                feedback: "A's nested acquire raises its hold count to 2; the nested release lowers it to 1, and the lock stays A's until the outer section ends.",
                scenario: scenario!("step7-nested-reentrant"),
            },
        ],
        judge: Judge::SafeAndLive,
        explanation: "A reentrant lock lets its holder take it again and keeps a hold count: \
            each acquire adds one, each release takes one away, and only zero frees the lock \
            (Java's ReentrantLock, Redisson's RLock). Without the count, the first nested \
            release frees the outer holder's lock; MySQL's GET_LOCK behaved so before 5.7.5.",
        insight: (
            "Count the holds",
            "Reentry needs a count owned by the lock, not a promise from the code.",
        ),
        extras: &[],
    },
    Step {
        number: "7c",
        title: "Who goes next",
        topic: "Fairness",
        situation: "Several workers wait for a busy lock. If each simply asks again on its \
            own timer, the lock goes to whoever happens to ask just after a release.",
        question: "Many workers wait for one lock. How do they each get a turn?",
        options: &[
            Choice {
                label: "Each retries on its own timer; sooner or later everyone gets a turn",
                right: false,
                feedback: "A and B ask again every 50 ms and keep winning; C asks every 400 ms and nearly always finds the lock held. Nothing guarantees C a turn, and it waits past the bound.",
                scenario: scenario!("step7-retry-starves"),
            },
            Choice {
                label: "The store queues the waiters and grants them in the order they asked",
                right: true,
                feedback: "Each waiter is granted in turn; nobody waits for more than the jobs ahead of it.",
                scenario: scenario!("step7-fair-turns"),
            },
            Choice {
                label: "Each retries after a random back-off, so they do not all ask at once",
                right: false,
                feedback: "Random back-off spreads the retries out, but it is not a turn: each holder asks again the moment it releases, the others' retries land while the lock is held, and C waits past the bound.",
                scenario: scenario!("step7-jitter-starves"),
            },
        ],
        judge: Judge::SafeAndLive,
        explanation: "Queue the waiters. ZooKeeper's lock recipe gives each waiter a \
            sequential ephemeral node; each watches only the node before its own, so a release \
            wakes exactly one waiter, and a dead waiter's node disappears with its session. In \
            this run the store itself grants waiters in the order they asked. Retrying on \
            timers, with or without random back-off, gives no order at all: a stampede of \
            retries after each release (a thundering herd), and no bound on anyone's wait.",
        insight: (
            "Turns, not luck",
            "A fair queue bounds every wait; back-off only spreads the load.",
        ),
        extras: &[],
    },
    Step {
        number: "7d",
        title: "How much to lock",
        topic: "Granularity",
        situation: "Four workers each run a 2.5 s job: A and B update record 1, C and D \
            record 2. Jobs under one lock run one at a time, so a contended lock limits the \
            work to what it lets through.",
        question: "What should one lock cover?",
        options: &[
            Choice {
                label: "One record: jobs on different records run side by side",
                right: true,
                feedback: "A and C run together, then B and D: four jobs done in about 5 s, and no two jobs ever share a record.",
                scenario: scenario!("step7-record-locks"),
            },
            Choice {
                label: "The whole table, so that no two jobs ever touch it at once",
                right: false,
                feedback: "Safe, and everyone gets a turn, but the four jobs run one after another: about 10 s, half the throughput of record locks. Jobs wait for records they never touch.",
                scenario: scenario!("step7-table-lock"),
            },
            Choice {
                label: "The whole table, with a short lease so that it changes hands sooner",
                right: false,
                feedback: "A 1 s lease on a 2.5 s job: the lease runs out in the middle of every job, the next worker is granted the lock, and their writes to the table interleave.",
                scenario: scenario!("step7-table-lock-short-ttl"),
            },
        ],
        judge: Judge::Throughput,
        explanation: "Lock the narrowest thing that keeps the data right: a record, not the \
            table. Every job under one lock waits for the one before, so a lock on a hot path \
            caps the work at what that lock lets through — and a consensus store makes each \
            turn slower still. Keep critical sections short, lock per record or per \
            partition, and take hot paths off the lock altogether (a queue per partition, one \
            writer per partition). Never shorten the lease below the work to win speed.",
        insight: (
            "Lock narrowly",
            "The lock's price is throughput. Pay it only for what must not run twice at once.",
        ),
        extras: &[],
    },
    Step {
        number: "8",
        title: "The sharp edges",
        topic: "Clocks, pauses, and do you need a lock?",
        situation: "Every lock rests on assumptions: clocks drift and get stepped, processes \
            pause without warning, networks split. And sometimes a lock is not the right tool \
            at all.",
        question: "Clocks get stepped and processes pause. Which of these keeps the data right?",
        options: &[
            Choice {
                label: "Let each client compare the lease's 'held until' with its own clock",
                right: false,
                feedback: "B's clock is 8 s ahead, so B decides A's lease is over early and takes the lock while A works.",
                scenario: scenario!("step8-client-clock-skew"),
            },
            Choice {
                label: "Time leases on the store's wall clock; NTP keeps it right",
                right: false,
                feedback: "This is how Redis times TTLs, and its docs warn about it. An NTP step moves the store's clock 30 s forward: A's lease ends at once and B is granted the lock mid-job. Have NTP slew the clock rather than step it — and fence anyway.",
                scenario: scenario!("step8-wall-clock-jump"),
            },
            Choice {
                label: "Elect a leader by taking the lock, and let only the leader write",
                right: false,
                feedback: "A leader chosen by a lock is a lease holder like any other: A pauses, its lease runs out, B leads, and A wakes still leading. Use the coordination service's election recipe, which gives each leader a number to fence with.",
                scenario: scenario!("step8-leader-by-lock"),
            },
            Choice {
                label: "Make each write conditional on the version it read (compare-and-swap)",
                right: true,
                feedback: "A pauses past its lease and the store's clock is stepped; B takes over and writes. A's write is conditional on the version it read, B has moved the record on, so A's write fails and the data is right.",
                scenario: scenario!("step8-cas-instead"),
            },
        ],
        judge: Judge::SafeAndLive,
        explanation: "Do not time leases with clocks across machines: let the store time \
            them, and know its clock. Redis times expiry on its wall clock, so a stepped clock \
            ends leases early — have NTP slew rather than step; etcd times leases on a \
            monotonic clock. Pauses can outlast any TTL, which is why fencing is required for \
            correctness. A holder cut off by a partition must not act: fencing refuses its \
            late writes (More to explore). And ask whether you need a lock at all: a \
            compare-and-swap on a version, an operation that is safe to repeat (\"mark invoice \
            42 as sent\", not \"add 10 to the balance\"), or one writer per partition is often \
            simpler and safer. For coordination — electing a leader, queues, barriers — use \
            the recipes your coordination service provides (etcd's election API, ZooKeeper's \
            recipes) rather than a bare lock.",
        insight: (
            "Design for the unhappy path",
            "Clock skew: let the store time leases. Pause longer than the TTL: fence. Partition: a majority, and fence. Maybe no lock: compare-and-swap, an idempotent write, a single writer. Use a distributed lock when you must, and avoid it when something cheaper gives the same guarantee.",
        ),
        extras: &[
            scenario!("step8-store-expiry"),
            scenario!("step8-monotonic-clock"),
            scenario!("step8-idempotent-write"),
            case!("partitioned-holder-unfenced"),
            case!("partitioned-holder-fenced"),
        ],
    },
];
