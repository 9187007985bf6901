//! The `[store]` table: node counts per topology and the failover time.

use crate::File::{Edit, Edits};
use crate::{Bad, rejects_all};

const CASES: &[Bad] = &[
    (
        Edit(
            "topology = \"single\"\nnodes = 1",
            "topology = \"single\"\nnodes = 2",
        ),
        "store.nodes",
        "nodes =",
        "exactly 1 node; got 2",
    ),
    (
        Edit(
            "topology = \"single\"\nnodes = 1",
            "topology = \"replicated\"\nnodes = 1",
        ),
        "store.nodes",
        "nodes =",
        "2 to 9 nodes; got 1",
    ),
    (
        Edit(
            "topology = \"single\"\nnodes = 1",
            "topology = \"multi_primary\"\nnodes = 1",
        ),
        "store.nodes",
        "nodes =",
        "a multi-primary cluster has 2 to 9 members; got 1",
    ),
    (
        Edit(
            "topology = \"single\"\nnodes = 1",
            "topology = \"redlock\"\nnodes = 2",
        ),
        "store.nodes",
        "nodes =",
        "3 to 9 nodes",
    ),
    (
        Edit(
            "topology = \"single\"\nnodes = 1",
            "topology = \"consensus\"\nnodes = 10",
        ),
        "store.nodes",
        "nodes =",
        "3 to 9 nodes",
    ),
    // `nodes` left at its default of 1: the error points at [store].
    (
        Edit("topology = \"single\"\nnodes = 1", "topology = \"redlock\""),
        "store.nodes",
        "[store]",
        "got 1",
    ),
    (
        Edit("failover_ms = 1000", "failover_ms = 0"),
        "store.failover_ms",
        "failover_ms",
        "must be at least 1",
    ),
    // The election switches belong to the consensus store alone.
    (
        Edit("failover_ms = 1000", "failover_ms = 1000\nprevote = false"),
        "store.prevote",
        "prevote = false",
        "PreVote is part of the consensus store's elections; a single store holds none",
    ),
    (
        Edit(
            "topology = \"single\"\nnodes = 1",
            "topology = \"replicated\"\nnodes = 3\ncheck_quorum = false",
        ),
        "store.check_quorum",
        "check_quorum = false",
        "CheckQuorum is part of the consensus store's elections; a replicated store holds none",
    ),
    // The store's own lease: a whole multiple of the TTL, on a store that times one.
    (
        Edit(
            "failover_ms = 1000",
            "failover_ms = 1000\nttl_multiplier = 0",
        ),
        "store.ttl_multiplier",
        "ttl_multiplier = 0",
        "must be from 1 to 10; got 0",
    ),
    (
        Edits(&[
            ("design = \"token\"", "design = \"setnx\""),
            (
                "failover_ms = 1000",
                "failover_ms = 1000\nttl_multiplier = 2",
            ),
        ]),
        "store.ttl_multiplier",
        "ttl_multiplier = 2",
        "the setnx design has no lease for the store to keep longer",
    ),
    (
        Edits(&[
            ("ttl_ms = 10000", "ttl_ms = 10000\nexpiry = \"client\""),
            (
                "failover_ms = 1000",
                "failover_ms = 1000\nttl_multiplier = 2",
            ),
        ]),
        "store.ttl_multiplier",
        "ttl_multiplier = 2",
        "the store does not time the lease",
    ),
    (
        Edits(&[
            ("ttl_ms = 10000", "ttl_ms = 10000\nexpiry = \"observed\""),
            (
                "failover_ms = 1000",
                "failover_ms = 1000\nttl_multiplier = 2",
            ),
        ]),
        "store.ttl_multiplier",
        "ttl_multiplier = 2",
        "with expiry = \"observed\" the store does not time the lease",
    ),
    (
        Edits(&[
            ("ttl_ms = 10000", "ttl_ms = 10000000"),
            (
                "failover_ms = 1000",
                "failover_ms = 1000\nttl_multiplier = 10",
            ),
        ]),
        "store.ttl_multiplier",
        "ttl_multiplier = 10",
        "ttl_ms × ttl_multiplier = 100000000 ms, the time the store keeps a lease, must be at \
         most 10000000 ms",
    ),
    // min-replicas-to-write: a replicated primary's check, on replicas it has, over a lag
    // no shorter than the second between acknowledgements.
    (
        Edit(
            "failover_ms = 1000",
            "failover_ms = 1000\nmin_replicas_to_write = 1",
        ),
        "store.min_replicas_to_write",
        "min_replicas_to_write = 1",
        "a primary's check on its replicas, and a single store has none",
    ),
    (
        Edits(&[
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"replicated\"\nnodes = 2",
            ),
            (
                "failover_ms = 1000",
                "failover_ms = 1000\nmin_replicas_to_write = 2",
            ),
        ]),
        "store.min_replicas_to_write",
        "min_replicas_to_write = 2",
        "the primary has 1 replicas, so it could never write with 2",
    ),
    (
        Edits(&[
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"replicated\"\nnodes = 2",
            ),
            (
                "failover_ms = 1000",
                "failover_ms = 1000\nmin_replicas_to_write = 1\nmin_replicas_max_lag_ms = 500",
            ),
        ]),
        "store.min_replicas_max_lag_ms",
        "min_replicas_max_lag_ms = 500",
        "must be at least 1000: replicas acknowledge once a second",
    ),
    (
        Edit(
            "failover_ms = 1000",
            "failover_ms = 1000\nmin_replicas_max_lag_ms = 5000",
        ),
        "store.min_replicas_max_lag_ms",
        "min_replicas_max_lag_ms = 5000",
        "only matters with min_replicas_to_write",
    ),
    (
        Edit(
            "failover_ms = 1000",
            "failover_ms = 1000\nprevote = \"off\"",
        ),
        "store.prevote",
        "prevote = \"off\"",
        "must be true or false",
    ),
];

#[test]
fn store_values_fit_the_topology() {
    rejects_all(CASES);
}
