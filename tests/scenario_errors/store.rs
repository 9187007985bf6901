//! The `[store]` table: node counts per topology and the failover time.

use crate::File::Edit;
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
];

#[test]
fn store_values_fit_the_topology() {
    rejects_all(CASES);
}
