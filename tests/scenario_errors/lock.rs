//! The `[lock]` table: what each design needs and allows, and fencing at the resource.

use crate::File::{Edit, Edits, Text};
use crate::{Bad, Good, accepts_all, parse, rejects_all, with};

const CASES: &[Bad] = &[
    (
        Edits(&[
            (
                "design = \"token\"\nttl_ms = 10000",
                "design = \"session\"\nttl_ms = 0",
            ),
            ("topology = \"single\"", "topology = \"consensus\""),
            ("nodes = 1", "nodes = 3"),
        ]),
        "lock.design",
        "design = \"session\"",
        "lives in one database server's memory",
    ),
    (
        Edits(&[
            (
                "design = \"token\"\nttl_ms = 10000",
                "design = \"session\"\nttl_ms = 0",
            ),
            ("retry_ms = 50", "retry_ms = 50\nwaiting = \"fair\""),
        ]),
        "lock.waiting",
        "waiting = \"fair\"",
        "pg_try_advisory_lock",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"token\"\nping_timeout_ms = 0",
        ),
        "lock.ping_timeout_ms",
        "ping_timeout_ms",
        "must be at least 1",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"flag\"\nping_timeout_ms = 1000",
        ),
        "lock.ping_timeout_ms",
        "ping_timeout_ms",
        "flag locks have no key to delete",
    ),
    (
        Edits(&[
            (
                "design = \"token\"",
                "design = \"token\"\nping_timeout_ms = 1000",
            ),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"consensus\"\nnodes = 3",
            ),
        ]),
        "lock.ping_timeout_ms",
        "ping_timeout_ms",
        "single store node only",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"token\"\nping_timeout_ms = 1000\nwaiting = \"fair\"",
        ),
        "lock.ping_timeout_ms",
        "ping_timeout_ms",
        "waiters that retry",
    ),
    (
        Edit("ttl_ms = 10000", "ttl_ms = 0"),
        "lock.ttl_ms",
        "ttl_ms",
        "at least 1 for the token design",
    ),
    (
        Text(
            "version = 1\nname = \"x\"\n[lock]\nttl_ms = 18446744073709551615\n[[worker]]\nname = \"A\"\n",
        ),
        "lock.ttl_ms",
        "ttl_ms",
        "at most 10000000 ms",
    ),
    (
        Edit("retry_ms = 50", "retry_ms = 0"),
        "lock.retry_ms",
        "retry_ms = 0",
        "must be at least 1",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"setnx\"\nrenewal = \"watchdog\"",
        ),
        "lock.renewal",
        "renewal",
        "setnx locks have none",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"flag\"\nexpiry = \"client\"",
        ),
        "lock.expiry",
        "expiry",
        "flag locks never expire",
    ),
    (
        Edits(&[
            (
                "design = \"token\"",
                "design = \"token\"\nexpiry = \"client\"",
            ),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"consensus\"\nnodes = 3",
            ),
        ]),
        "lock.expiry",
        "expiry",
        "single store node only",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"setnx\"\nexpiry = \"observed\"",
        ),
        "lock.expiry",
        "expiry",
        "expiry = \"observed\" needs a design with a lease",
    ),
    (
        Edits(&[
            (
                "design = \"token\"",
                "design = \"token\"\nexpiry = \"observed\"",
            ),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"redlock\"\nnodes = 3",
            ),
        ]),
        "lock.expiry",
        "expiry",
        "single store node only",
    ),
    // Lock-delay follows a store-side expiry, and with observed expiry the store has none.
    (
        Edits(&[
            (
                "design = \"token\"",
                "design = \"token\"\nexpiry = \"observed\"",
            ),
            ("retry_ms = 50", "retry_ms = 50\nlock_delay_ms = 500"),
        ]),
        "lock.lock_delay_ms",
        "lock_delay_ms = 500",
        "the store expires none",
    ),
    (
        Edit("retry_ms = 50", "retry_ms = 50\nlock_delay_ms = 10000001"),
        "lock.lock_delay_ms",
        "lock_delay_ms",
        "at most 10000000 ms",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"timestamp\"\nsettle_ms = -5",
        ),
        "lock.settle_ms",
        "settle_ms = -5",
        "",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"timestamp\"\nsettle_ms = 10000001",
        ),
        "lock.settle_ms",
        "settle_ms",
        "at most 10000000 ms",
    ),
    // Timestamp claims live on one node and need no queue.
    (
        Edits(&[
            ("design = \"token\"", "design = \"timestamp\""),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"redlock\"\nnodes = 3",
            ),
        ]),
        "lock.design",
        "design",
        "use store.topology = \"single\"",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"timestamp\"\nwaiting = \"fair\"",
        ),
        "lock.waiting",
        "waiting",
        "orders waiters by their stamps",
    ),
    // With no lock, nobody waits for one, takes it again or checks its lease.
    (
        Edit(
            "design = \"token\"\nttl_ms = 10000",
            "design = \"none\"\nwaiting = \"fair\"",
        ),
        "lock.waiting",
        "waiting",
        "nobody waits for a lock",
    ),
    (
        Edits(&[
            ("design = \"token\"\nttl_ms = 10000", "design = \"none\""),
            ("work_ms = 2000", "work_ms = 2000\nnested = true"),
        ]),
        "worker[0].nested",
        "nested",
        "with lock.design = \"none\" there is none",
    ),
    (
        Edits(&[
            ("design = \"token\"\nttl_ms = 10000", "design = \"none\""),
            ("work_ms = 2000", "work_ms = 2000\ncheck_lease = true"),
        ]),
        "worker[0].check_lease",
        "check_lease",
        "with lock.design = \"none\" there is none",
    ),
    // A reentrant lock recognises its holder by the owner token.
    (
        Text(
            "version = 1\nname = \"x\"\n[lock]\ndesign = \"ttl\"\nreentrant = true\n[[worker]]\nname = \"A\"\n",
        ),
        "lock.reentrant",
        "reentrant",
        "owner token",
    ),
    // A flag is a row in one database.
    (
        Text(
            "version = 1\nname = \"x\"\n[lock]\ndesign = \"flag\"\n[store]\ntopology = \"consensus\"\nnodes = 3\n[[worker]]\nname = \"A\"\n",
        ),
        "lock.design",
        "design = \"flag\"",
        "",
    ),
    // Fencing at the resource needs tokens a store can number.
    (
        Edit("fencing = false", "fencing = true"),
        "resource.fencing",
        "fencing = true",
        "lock.design = \"fencing\"",
    ),
    (
        Edits(&[
            ("design = \"token\"", "design = \"fencing\""),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"redlock\"\nnodes = 5",
            ),
        ]),
        "lock.design",
        "design",
        "no shared counter to issue fencing tokens",
    ),
    (
        Edits(&[
            ("design = \"token\"", "design = \"fencing\""),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"multi_primary\"\nnodes = 3",
            ),
        ]),
        "lock.design",
        "design",
        "independent nodes of a multi_primary store have no shared counter",
    ),
    // Redlock's nodes share no queue to be fair with.
    (
        Edits(&[
            (
                "design = \"token\"",
                "design = \"token\"\nwaiting = \"fair\"",
            ),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"redlock\"\nnodes = 3",
            ),
        ]),
        "lock.waiting",
        "waiting = \"fair\"",
        "keep no shared queue",
    ),
    // A setting the design has no use for is refused, not silently ignored.
    (
        Edit(
            "design = \"token\"\nttl_ms = 10000",
            "design = \"timestamp\"\nttl_ms = 5000",
        ),
        "lock.ttl_ms",
        "ttl_ms = 5000",
        "the timestamp design has no lease, so ttl_ms = 5000 would be ignored",
    ),
    (
        Edit(
            "design = \"token\"\nttl_ms = 10000",
            "design = \"setnx\"\nttl_ms = 3000",
        ),
        "lock.ttl_ms",
        "ttl_ms = 3000",
        "the setnx design has no lease",
    ),
    (
        Edit("retry_ms = 50", "retry_ms = 50\nsettle_ms = 100"),
        "lock.settle_ms",
        "settle_ms = 100",
        "the token design makes no claims",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"setnx\"\nlock_delay_ms = 300",
        ),
        "lock.lock_delay_ms",
        "lock_delay_ms = 300",
        "setnx locks have no lease to expire",
    ),
    (
        Edit("retry_ms = 50", "retry_ms = 50\nrenew_every_ms = 2000"),
        "lock.renew_every_ms",
        "renew_every_ms = 2000",
        "renewal = \"none\" renews nothing",
    ),
];

const FINE: &[Good] = &[
    (
        Edit(
            "design = \"token\"\nttl_ms = 10000",
            "design = \"session\"\nttl_ms = 0",
        ),
        "a session lock on one server: no lease",
    ),
    (
        Edit(
            "design = \"token\"\nttl_ms = 10000",
            "design = \"setnx\"\nttl_ms = 0",
        ),
        "without a lease the ttl is not used",
    ),
    (
        Edit("design = \"token\"", "design = \"timestamp\""),
        "ttl_ms at its default, as every saved file spells it out",
    ),
    (
        Edits(&[
            ("design = \"token\"\nttl_ms = 10000", "design = \"none\""),
            ("fencing = false", "fencing = false\nmode = \"cas\""),
        ]),
        "no lock, and a compare-and-swap at the resource",
    ),
    (
        Edit(
            "design = \"token\"\nttl_ms = 10000",
            "design = \"setnx\"\nwaiting = \"fair\"\nttl_ms = 3000",
        ),
        "a fair queue times its turns by ttl_ms, lease or not",
    ),
    (
        Edit(
            "design = \"token\"",
            "design = \"timestamp\"\nsettle_ms = 100",
        ),
        "a timestamp lock settles",
    ),
    (
        Edit(
            "retry_ms = 50",
            "retry_ms = 50\nrenewal = \"watchdog\"\nrenew_every_ms = 2000",
        ),
        "a watchdog's own period",
    ),
    (
        Edit("retry_ms = 50", "retry_ms = 50\nrenew_every_ms = 0"),
        "0, an older file's way to say a third of the lease, reads as not set",
    ),
];

#[test]
fn each_design_gets_only_the_settings_it_can_use() {
    rejects_all(CASES);
    accepts_all(FINE);
}

#[test]
fn a_timestamp_lock_may_settle_for_no_time_at_all() {
    let src = with(
        "design = \"token\"",
        "design = \"timestamp\"\nsettle_ms = 0",
    );
    assert_eq!(
        parse(&src)
            .expect("no wait at all is allowed")
            .lock
            .settle_ms,
        0
    );
}
