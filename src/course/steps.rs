//! The course text. Follows the lesson's eight steps and facts, in locksim's own words, with
//! a first question on what the lock is for and step 7 as four small decisions. Every claim
//! about a real system is checked against its docs (see `assets/scenarios/*.toml`, `source`).

use super::{Choice, Grading, Step};
use crate::scenario::library;

/// A course scenario from `assets/scenarios/`, looked up in the shipped list.
macro_rules! scenario {
    ($file:literal) => {
        library::text(library::COURSE, concat!($file, ".toml"))
    };
}

/// A real incident from `assets/cases/`.
macro_rules! case {
    ($file:literal) => {
        library::text(library::INCIDENTS, concat!($file, ".toml"))
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
            report mailed twice, a cache rebuilt twice. Others guard correctness: two \
            transfers from one balance, two writers of one file. Weigh this failure: one Redis \
            node holds the lock. Its machine loses power just after granting A the lock; on \
            restart it has forgotten the grant and gives the lock to B while A still works. \
            Nobody is told.",
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
        grading: Grading::Framing,
        explanation: "Locks come in two kinds (Kleppmann 2016, \"What are you using that lock \
            for?\"). An efficiency lock saves duplicate work: when it fails, you pay twice. A \
            correctness lock guards data: when it fails, the data is wrong. A single Redis \
            node can fail silently — a power loss that takes its last second of writes, a \
            failover to a replica that never saw the grant — so it suits efficiency locks \
            only. The steps that follow build a lock for correctness.",
        insight: (
            "Ask what a failure costs",
            "If two holders only waste work, keep the lock simple. If two holders corrupt data, the lock alone is not enough: you will need fencing and a store that cannot forget.",
        ),
        extras: &[],
        about: &[],
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
                label: "Only the race: a crashed holder's transaction rolls back and clears the flag",
                right: false,
                feedback: "The flag was set in a transaction that committed long before the crash; there is nothing left to roll back. In this run C's machine dies holding the flag, and D waits to the end of the run. (The race is real too: A and B both went in.)",
                scenario: scenario!("step1-flag-both-flaws"),
            },
            Choice {
                label: "Only crashes: reading and writing are so fast that two workers never both see 'free'",
                right: false,
                feedback: "Between the read and the write is a whole round trip. A and B start together, both read false, both write true, and both go in: their writes interleave. (C's crash then leaves the flag set for good.)",
                scenario: scenario!("step1-flag-both-flaws"),
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
                feedback: "A finally block does not run on a machine that lost power: C's flag stays true and D waits to the end of the run. Nor does it stop A and B from both reading 'free' at the start.",
                scenario: scenario!("step1-flag-both-flaws"),
            },
        ],
        grading: Grading::Diagnosis,
        explanation: "The flag fails twice. It has no automatic release: if the holder dies \
            before writing false, the resource is locked for good. And it is not atomic: \"is \
            it free? then take it\" is two steps, and two workers can both see \"free\". A real \
            lock needs an acquire that exactly one worker can win, and a release that happens \
            even when the holder cannot do it.",
        insight: (
            "Two problems, not one",
            "Distributed locking is atomicity (exactly one winner, even in a race) plus liveness (the lock comes back when its holder dies). The naive flag has neither; the next steps add them one at a time.",
        ),
        extras: &[
            scenario!("step1-flag-race"),
            scenario!("step1-flag-holder-crash"),
        ],
        about: &[],
    },
    Step {
        number: "2",
        title: "Grant to exactly one",
        topic: "Atomic acquire",
        situation: "Fix the race first. The lock service is a network hop away, and several workers \
            ask for the free lock within a few hundred milliseconds of each other. Exactly one \
            of them may go in.",
        question: "Three workers ask for the free lock within 200 ms of each other. How is exactly one of them chosen?",
        options: &[
            Choice {
                label: "The request stamped with the earliest time by its worker's clock wins",
                right: false,
                feedback: "Each worker stamps its request with its own clock, and the clocks disagree: B asks last, but its clock is 300 ms slow, so its stamp is the earliest and it goes in beside A. With wall clocks, \"earliest\" depends on whose clock is wrong. Timestamps can order requests — with logical clocks and a reply from every worker (Lamport 1978) — but then one worker that is down stops everyone.",
                scenario: scenario!("step2-timestamp-race"),
            },
            Choice {
                label: "The store sets the key only if it does not exist, in one command",
                right: true,
                feedback: "A's set-if-absent arrives first and succeeds; B and C are told the lock is held and try again later. Their clocks are as wrong as in the timestamp run, and nobody asks them. There is no window for a race.",
                scenario: scenario!("step2-setnx-one-winner"),
            },
            Choice {
                label: "Each worker reads the lock, and takes it only if nobody holds it",
                right: false,
                feedback: "That is the flag of step 1 again. A reads 'free'; C's read reaches the store before A's write does, so C reads 'free' too, and both go in.",
                scenario: scenario!("step2-check-then-set"),
            },
        ],
        grading: Grading::SafeAndLive,
        explanation: "Let the store decide in one indivisible operation: \"set this key only \
            if it does not exist\" (Redis SET key value NX, or an insert against a unique \
            key). Exactly one of the racing requests succeeds; every other one gets \"already \
            held\". There is no gap between checking and setting for a race to use, and no \
            clock is asked.",
        insight: (
            "Borrow atomicity",
            "You do not build atomicity yourself; you take it from a store that offers set-if-absent or compare-and-swap. That one primitive turns \"two might win\" into \"exactly one wins\".",
        ),
        extras: &[],
        about: &["lock.design", "lock.settle_ms"],
    },
    Step {
        number: "3",
        title: "Don't deadlock on death",
        topic: "Leases (TTL)",
        situation: "Acquire is atomic now. But a holder can die while it holds the lock, and \
            a dead process cannot clean up after itself.",
        question: "A holder's machine dies while it holds the lock. How does the lock ever come back?",
        options: &[
            Choice {
                label: "The holder releases it in a shutdown hook, which runs whenever it exits",
                right: false,
                feedback: "A machine that loses power runs no hooks. A's key stays, and B and C are refused until the end of the run.",
                scenario: scenario!("step3-setnx-holder-crash"),
            },
            Choice {
                label: "Waiting workers ping the holder and delete its lock if it does not answer",
                right: false,
                feedback: "It works for A, which is dead: B's ping goes unanswered, B deletes A's key and goes in. Then B freezes in a GC pause. C's ping goes unanswered too, so C deletes B's key and goes in, and B wakes and writes over C's work. A paused holder looks dead to any timeout, a TTL's included (step 5). What a lease adds is a deadline the holder knows in advance and can stop or renew before; a ping gives it none, so its lock can vanish at any instant.",
                scenario: scenario!("step3-ping-then-delete"),
            },
            Choice {
                label: "Take the key with SETNX, then give it a TTL with EXPIRE",
                right: false,
                feedback: "Two commands leave a gap. A's machine dies after its SETNX but before its EXPIRE: the key has no TTL, and B and C wait for the whole run.",
                scenario: scenario!("step3-setnx-then-expire"),
            },
            Choice {
                label: "Grant it for a limited time: the store deletes it when the time is up",
                right: true,
                feedback: "A dies; its 6 s lease runs out at the store, and B and C take their turns with nobody stepping in. B's GC pause falls while it waits and costs it only time.",
                scenario: scenario!("step3-ttl-lease-expires"),
            },
        ],
        grading: Grading::SafeAndLive,
        explanation: "Grant the lock as a lease: for a bounded time, its TTL (time to live). \
            If the holder dies, the store deletes the key when the TTL runs out and the next \
            worker can take it. The holder knows its deadline and must finish — or renew, \
            step 7a — before it. Session locks work the same way: MySQL's GET_LOCK is freed \
            when the client's session ends, a ZooKeeper ephemeral node when its session \
            expires; the session timeout is the TTL.",
        insight: (
            "A lock is a lease",
            "The TTL guarantees the lock comes back. The price is a hard question: what if the holder is alive, just slow, and its lease runs out anyway? Steps 4 and 5 answer it.",
        ),
        extras: &[scenario!("step1-lease-fixes-both")],
        about: &[
            "lock.design",
            "lock.ttl_ms",
            "lock.acquire",
            "lock.ping_timeout_ms",
        ],
    },
    Step {
        number: "4",
        title: "Only the owner unlocks",
        topic: "Owner tokens",
        situation: "A takes the lock and runs slow; its lease expires; B takes the lock. A \
            checks its lease before writing, sees it is gone and skips the write — but it \
            calls release anyway, on a lock that is B's now. (Here A's check happens to work. \
            The overlap on the timeline is the time A went on believing it had the lock; step \
            5 shows why the check cannot be relied on.)",
        question: "A's lease is gone and the lock is B's. A calls release. What must happen?",
        options: &[
            Choice {
                label: "Delete the key only if its value is the one A set when it acquired",
                right: true,
                feedback: "Each acquisition writes its own unique value. A's release finds B's value and does nothing; C keeps waiting for B.",
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
        grading: Grading::SafeAndLive,
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
        about: &["lock.design"],
    },
    Step {
        number: "5",
        title: "The safety hole",
        topic: "Fencing tokens",
        situation: "A holds the lock and freezes — a long GC pause, a stalled VM — for longer \
            than its lease. The lease expires; B gets the lock and writes. A wakes, sure it \
            still has the lock, and writes too.",
        question: "A paused past its lease, B took over, and A wakes and writes. What stops A's late write from doing harm?",
        options: &[
            Choice {
                label: "A checks its lease is still valid right before each write",
                right: false,
                feedback: "The check passed — and then A paused between the check and the write. Any two steps can have a pause between them.",
                scenario: scenario!("step5-check-lease-then-pause"),
            },
            Choice {
                label: "A stops working as soon as it learns the lock is lost",
                right: false,
                feedback: "A stops the moment it learns its lease is gone — but a frozen process learns nothing. The pause falls just after its last check; when A wakes, the write it had already decided on goes out before it learns anything.",
                scenario: scenario!("step5-stop-on-lock-loss"),
            },
            Choice {
                label: "Number each grant, and let the resource turn away older numbers",
                right: true,
                feedback: "B's grant carries fence 2, A's fence 1. The resource has accepted 2, so it refuses A's late write. The data is right; A's job is lost, and A must start again.",
                scenario: scenario!("step5-paused-holder-fenced"),
            },
            Choice {
                label: "Make the lease longer than any GC pause or VM stall the service has seen",
                right: false,
                feedback: "A 30 s lease against a 40 s pause. Pauses have no upper bound, so no TTL is long enough — and here B already waited 20 s for the long lease, as everyone would behind a crashed holder.",
                scenario: scenario!("step5-paused-holder-longer-lease"),
            },
            Choice {
                label: "The owner token from step 4 already tells A's write apart from B's",
                right: false,
                feedback: "The owner token guards the release, at the store; the resource never sees it. A's write lands on top of B's.",
                scenario: scenario!("step5-paused-holder-owner-token"),
            },
        ],
        grading: Grading::SafeAndLive,
        explanation: "Give every grant a number that only goes up — a fencing token — and \
            make the resource refuse anything lower than the highest it has accepted. The \
            numbers must come from a counter that never goes back, even across a crash or a \
            failover: etcd's revision or ZooKeeper's zxid, not an INCR on one Redis that a \
            restart or failover rolls back (More to explore). And the resource must check: an \
            email or payment API cannot, so send it an idempotency key (step 8).",
        insight: (
            "Fencing is the real safety",
            "A lease can always be overrun by a pause, so a lock alone is never fully safe (Chubby's sequencers, 2006; Kleppmann 2016). Fencing makes it safe — as long as the numbers never go back.",
        ),
        extras: &[
            scenario!("step5-fence-counter-restart"),
            scenario!("step5-fence-counter-failover"),
            scenario!("step5-fenced-writes-only"),
        ],
        about: &[
            "lock.design",
            "lock.ttl_ms",
            "resource.fencing",
            "resource.fence_reads",
            "worker.check_lease",
            "worker.on_lock_loss",
        ],
    },
    Step {
        number: "6",
        title: "Don't trust one node",
        topic: "Consensus for availability",
        situation: "So far the lock lives on one store node. If that node dies, nobody can \
            take or release the lock until it is back.",
        question: "A node of the lock service dies. How do you keep the lock available, and never held by two at once?",
        options: &[
            Choice {
                label: "A primary and a replica, with automatic failover as soon as the primary dies",
                right: false,
                feedback: "The grant to A never reached the replica. Promoted, it grants B the same lock — and its fence counter never saw A's number either, so B gets fence 1 too and the resource lets both write.",
                scenario: scenario!("step6-async-replica-node-dies"),
            },
            Choice {
                label: "etcd or ZooKeeper: a change counts once a majority of nodes has logged it",
                right: true,
                feedback: "The leader dies right after granting A, but a majority had logged the grant. The new leader takes over A's lease from its log and makes B wait. When A later pauses past its lease, B is granted the lock with a higher fence and A's late write is refused: the lock is still a lease, so the run fences too.",
                scenario: scenario!("step6-consensus-node-dies"),
            },
            Choice {
                label: "Redlock: take the lock on a majority of independent Redis nodes",
                right: false,
                feedback: "The node's death does no harm: A still holds two of three. But when A pauses past its lease, B takes a majority, and A wakes and writes with nothing to stop it: Redlock's nodes share no counter, so there is no fencing token (Kleppmann 2016). It also assumes clocks do not jump (More to explore).",
                scenario: scenario!("step6-redlock-node-dies"),
            },
            Choice {
                label: "One well-run node: if it dies, the lock waits until it is back",
                right: false,
                feedback: "While it is down, every worker stops: A's release is lost and B can never acquire. When it comes back without the lock (More to explore), two workers hold it and nobody is told. For an efficiency lock (step 0) that is a fair price; for a correctness lock it is not.",
                scenario: scenario!("step6-one-node-dies"),
            },
        ],
        grading: Grading::SafeAndLive,
        explanation: "Put correctness-critical locks on a consensus system — etcd (Raft) or \
            ZooKeeper (ZAB). A change counts only once a majority has logged it, so losing one \
            node loses no grant, and a minority cut off by a partition cannot grant at all. But \
            the lock is still a lease: etcd's docs say its lock cannot give mutual exclusion by \
            itself, and Jepsen found etcd 3.4.3's locks unsafe without fencing. Keep fencing, \
            with the store's revision as the token.",
        insight: (
            "A majority, and still fence",
            "A single primary gives up availability (no failover) or safety (async failover can grant twice). A majority means no single failure loses or duplicates a grant, at the cost of speed; the lock is still a lease, so fencing stays.",
        ),
        extras: &[
            scenario!("step6-redlock-clock-jump"),
            scenario!("step6-minority-cannot-grant"),
            scenario!("step6-aof-everysec-restart"),
            scenario!("step6-consensus-failover"),
        ],
        about: &[
            "store",
            "lock.design",
            "resource.fencing",
            "resource.fence_reads",
        ],
    },
    Step {
        number: "7a",
        title: "Jobs longer than the lease",
        topic: "Renewal",
        situation: "A's job takes 8 s and the lease is 3 s. Other jobs are short, and some \
            hang now and then: their thread blocks while the process stays up.",
        question: "A long job must keep the lock, and a hung one must not. What extends the lease?",
        options: &[
            Choice {
                label: "Renew every second, but only if the work has moved on since the last renewal",
                right: true,
                feedback: "A's 8 s job makes progress, so its 3 s lease is renewed and B waits for it. Then C's work hangs: no progress, no renewal, so its lease runs out and D goes ahead.",
                scenario: scenario!("step7-progress-renewal"),
            },
            Choice {
                label: "A watchdog thread renews it every second for as long as the process is alive",
                right: false,
                feedback: "A's long job keeps its lease, as meant. But C's work is stuck while its process lives, so the watchdog renews forever, and D never gets the lock.",
                scenario: scenario!("step7-watchdog-stalled-holder"),
            },
            Choice {
                label: "No renewal: set the TTL to the job's usual duration",
                right: false,
                feedback: "The data stays safe — B is granted fence 2 at 4 s and the resource refuses A's next write — but A's 8 s job is refused and never completes. Here the cost of no renewal is lost work: 2 critical sections finished, against 3 with renewal.",
                scenario: scenario!("step7-long-task-no-renewal"),
            },
        ],
        grading: Grading::LostWork,
        explanation: "Renew while the holder makes progress: gate each renewal on a progress \
            count, or renew from the work loop itself. A long job keeps its lease; a hung one \
            loses it. A watchdog that renews for as long as the process lives — Redisson's, and \
            the session keep-alives of etcd and ZooKeeper clients — keeps a hung holder's lock \
            forever; tying renewal to progress is yours to build. Renewal buys liveness, not \
            safety: fencing keeps the data right.",
        insight: (
            "Renew honestly",
            "Renewal must reflect real progress, and it never replaces fencing.",
        ),
        extras: &[scenario!("step7-watchdog-renews")],
        about: &["lock.renewal", "lock.renew_every_ms"],
    },
    Step {
        number: "7b",
        title: "Taking the lock twice",
        topic: "Reentrancy",
        situation: "Code that has the lock calls a helper that takes the same lock, and B \
            waits its turn.",
        question: "The holder asks for the lock again from nested code. What should the lock do?",
        options: &[
            Choice {
                label: "Refuse it like anyone else's request: nested code should not lock",
                right: false,
                feedback: "A waits for a lock it has itself; nothing frees it until A's own lease runs out, and B waits behind both.",
                scenario: scenario!("step7-nested-not-reentrant"),
            },
            Choice {
                label: "Let the holder in again, and let the first release free the lock at once",
                right: false,
                feedback: "The nested section's release frees the lock while the outer section is still working; B walks in and their writes interleave.",
                scenario: scenario!("step7-uncounted-reentry"),
            },
            Choice {
                label: "Let the holder in again and count its holds; free the lock at zero",
                right: true,
                feedback: "A's nested acquire raises its hold count to 2; the nested release lowers it to 1, and the lock stays A's until the outer section ends. Then B gets it.",
                scenario: scenario!("step7-nested-reentrant"),
            },
        ],
        grading: Grading::SafeAndLive,
        explanation: "A reentrant lock lets its holder take it again and keeps a hold count: \
            each acquire adds one, each release takes one away, and only zero frees the lock \
            (Java's ReentrantLock, Redisson's RLock). Without the count, the first nested \
            release frees the outer holder's lock; MySQL's GET_LOCK behaved so before 5.7.5.",
        insight: (
            "Count the holds",
            "Reentry needs a count owned by the lock, not a promise from the code.",
        ),
        extras: &[],
        about: &["lock.reentrant", "lock.hold_count"],
    },
    Step {
        number: "7c",
        title: "Who goes next",
        topic: "Fairness",
        situation: "Five workers take a busy lock over and over, each for a 0.9 s job. A \
            worker that finds it held has to wait somehow.",
        question: "Many workers want one lock. How should each of them get a turn?",
        options: &[
            Choice {
                label: "Each asks again on its own fixed timer; sooner or later everyone gets a turn",
                right: false,
                feedback: "Everyone does get turns, but whose retry lands first after a release depends on where each timer happens to be: B once waits 7.6 s, twice as long as anyone waits in a queue. Nothing bounds the wait.",
                scenario: scenario!("step7-retry-starves"),
            },
            Choice {
                label: "The store queues the waiters and grants them in the order they asked",
                right: true,
                feedback: "Each waiter is granted in turn; nobody waits for more than the four jobs ahead of it, about 3.6 s.",
                scenario: scenario!("step7-fair-turns"),
            },
            Choice {
                label: "Each retries after a random back-off, so that they do not all ask at once",
                right: false,
                feedback: "Random back-off spreads the retries out, but it is not a turn: whose retry lands first after a release is luck, and E once waits 13.5 s, nearly four times the queue's longest wait. Nobody is shut out for good; nobody's wait is bounded either.",
                scenario: scenario!("step7-jitter-starves"),
            },
        ],
        grading: Grading::Latency,
        explanation: "Queue the waiters. ZooKeeper's lock recipe gives each waiter a \
            sequential ephemeral node; each watches only the node before its own, so a release \
            wakes exactly one waiter, and a dead waiter's node disappears with its session. \
            Retrying on timers gives no order: whoever happens to ask just after a release \
            wins, and nobody's wait is bounded. Waking every waiter on each release causes a \
            stampede (a thundering herd); the queue wakes only the next one.",
        insight: (
            "Turns, not luck",
            "A fair queue bounds every wait; back-off only spreads the load.",
        ),
        extras: &[],
        about: &["lock.waiting", "lock.retry_ms", "lock.retry_jitter_ms"],
    },
    Step {
        number: "7d",
        title: "How much to lock",
        topic: "Granularity",
        situation: "Four workers each run a 2.5 s job: A and B update record 1, C and D \
            record 2.",
        question: "What should one lock cover?",
        options: &[
            Choice {
                label: "One record: jobs on different records run side by side",
                right: true,
                feedback: "A and C run together, then B and D: four jobs done in about 5 s, and no two jobs ever share a record.",
                scenario: scenario!("step7-record-locks"),
            },
            Choice {
                label: "The whole table, so that no two jobs ever touch its records at once",
                right: false,
                feedback: "Safe, and everyone gets a turn, but the four jobs run one after another: about 10 s, half the throughput of record locks. Jobs wait for records they never touch.",
                scenario: scenario!("step7-table-lock"),
            },
            Choice {
                label: "The whole table, with a lease short enough that a stuck job cannot hold it up for long",
                right: false,
                feedback: "A 1 s lease on a 2.5 s job: the lease runs out in the middle of every job, the next worker is granted the lock, and their writes to the table interleave.",
                scenario: scenario!("step7-table-lock-short-ttl"),
            },
        ],
        grading: Grading::Throughput,
        explanation: "Lock the narrowest thing that keeps the data right: a record, not the \
            table. Every job under one lock waits for the one before, so the lock caps the work \
            at what it lets through: here the table lock halves it. Keep critical sections \
            short, lock per record or partition, keep hot paths off the lock (one writer per \
            partition; More to explore times a hot path), and never shorten the lease below the \
            work to win speed.",
        insight: (
            "Lock narrowly",
            "The lock's price is throughput. Pay it only for what must not run twice at once.",
        ),
        extras: &[
            scenario!("step7-hot-path-single"),
            scenario!("step7-hot-path-consensus"),
        ],
        about: &["worker.key", "lock.ttl_ms"],
    },
    Step {
        number: "8",
        title: "The sharp edges",
        topic: "Clocks, pauses, and do you need a lock?",
        situation: "Every lock rests on assumptions, and here they all fail at once: the \
            store's clock is stepped, B's clock runs 8 s ahead, and A freezes for longer than \
            its lease.",
        question: "Clocks are wrong and A pauses. Which design keeps the data right?",
        options: &[
            Choice {
                label: "Let each client compare the lease's 'held until' with its own clock's time",
                right: false,
                feedback: "B's clock is 8 s ahead, so B decides A's lease is over early and takes the lock while A works.",
                scenario: scenario!("step8-client-clock-skew"),
            },
            Choice {
                label: "Time leases on the store's wall clock, which NTP keeps right",
                right: false,
                feedback: "This is how Redis times TTLs, and its docs warn about it. NTP steps the store's clock 30 s forward: A's lease ends at once and B is granted the lock mid-job. Have NTP slew the clock rather than step it — and fence anyway.",
                scenario: scenario!("step8-wall-clock-jump"),
            },
            Choice {
                label: "Elect a leader with the lock, and let only the leader write",
                right: false,
                feedback: "An elected leader is a lease holder too: A pauses, its lease runs out, B leads, and A wakes still leading. An election recipe would not change that; its gain is a leader revision, and the safety comes from checking that revision where the write lands.",
                scenario: scenario!("step8-leader-by-lock"),
            },
            Choice {
                label: "Make each write conditional on the version it read (compare-and-swap)",
                right: true,
                feedback: "The lock overlaps — the pause ends A's lease and B takes over — but A's write is conditional on the version it read, B has moved the record on, so A's write fails and the data is right. A must re-read and try again.",
                scenario: scenario!("step8-cas-instead"),
            },
        ],
        grading: Grading::SafeAndLive,
        explanation: "Let the store time leases, and know its clock: Redis times expiry on \
            its wall clock, so have NTP slew rather than step it; etcd's clock is monotonic. \
            Pauses can outlast any TTL, so correctness needs fencing or a check where the data \
            lives. And ask whether you need a lock at all: a compare-and-swap on a version, \
            retried from a fresh read when it fails, or an operation that is safe to repeat \
            (\"mark invoice 42 as sent\", not \"add 10 to the balance\"), is often simpler and \
            safer. More to explore plays both with no lock.",
        insight: (
            "Design for the unhappy path",
            "Clock skew: let the store time leases. Pause longer than the TTL: fence. Partition: a majority, and fence. Maybe no lock: compare-and-swap, an idempotent write, a single writer. Use a distributed lock when you must, and avoid it when something cheaper gives the same guarantee.",
        ),
        extras: &[
            scenario!("step8-cas-no-lock"),
            scenario!("step8-idempotent-write"),
            scenario!("step8-store-expiry"),
            scenario!("step8-monotonic-clock"),
            case!("partitioned-holder-unfenced"),
            case!("partitioned-holder-fenced"),
        ],
        about: &["lock.expiry", "store.clock", "resource.mode"],
    },
];
