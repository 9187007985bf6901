//! The `[[worker]]` tables: how many, their names and their settings' ranges.

use crate::File::{Edit, Edits, Text};
use crate::{BASE, Bad, Good, accepts_all, rejects, rejects_all, with};

const CASES: &[Bad] = &[
    (
        Edit("name = \"B\"", "name = \"\""),
        "worker[1].name",
        "name = \"\"\nstart_ms",
        "must not be empty",
    ),
    (
        Edit("name = \"B\"", "name = \"A\""),
        "worker[1].name",
        "name = \"A\"\nstart_ms",
        "already the name of worker[0]",
    ),
    (
        Edit("name = \"B\"", "name = \"resource\""),
        "worker[1].name",
        "name = \"resource\"\nstart_ms",
        "protected storage",
    ),
    (
        Edit("name = \"B\"", "name = \"store2\""),
        "worker[1].name",
        "name = \"store2\"\nstart_ms",
        "reserved for the store nodes",
    ),
    (
        Edit("name = \"B\"", "name = \"A B\""),
        "worker[1].name",
        "name = \"A B\"\nstart_ms",
        "only letters, digits, _ and -",
    ),
    (
        Edit("work_ms = 1000", "work_ms = 0"),
        "worker[1].work_ms",
        "work_ms = 0",
        "must be at least 1",
    ),
    (
        Text("version = 1\nname = \"x\"\n[[worker]]\nname = \"A\"\nwork_ms = 99999999999\n"),
        "worker[0].work_ms",
        "work_ms",
        "at most",
    ),
    (
        Edit("writes = 1", "writes = 0"),
        "worker[1].writes",
        "writes = 0",
        "from 1 to 1000",
    ),
    (
        Edit("writes = 1", "writes = 1001"),
        "worker[1].writes",
        "writes = 1001",
        "from 1 to 1000",
    ),
    (
        Edit("retry_ms = 100", "retry_ms = 0"),
        "worker[1].retry_ms",
        "retry_ms = 0",
        "must be at least 1",
    ),
    (
        Edit("key = \"lock\"", "key = \"\""),
        "worker[1].key",
        "key = \"\"",
        "must not be empty",
    ),
    (
        Edit("write_timeout_ms = 1000", "write_timeout_ms = 0"),
        "worker[1].write_timeout_ms",
        "write_timeout_ms = 0",
        "must be at least 1",
    ),
    (
        Edit("clock_offset_ms = 0", "clock_offset_ms = -1000000001"),
        "worker[1].clock_offset_ms",
        "clock_offset_ms = -1000000001",
        "within ±1000000000 ms",
    ),
    // The most negative offset must not overflow on its way to the message.
    (
        Edit(
            "clock_offset_ms = 0",
            "clock_offset_ms = -9223372036854775808",
        ),
        "worker[1].clock_offset_ms",
        "clock_offset_ms",
        "within",
    ),
    (
        Edit("clock_drift_ppm = 0", "clock_drift_ppm = 500001"),
        "worker[1].clock_drift_ppm",
        "clock_drift_ppm = 500001",
        "within ±500000 ppm",
    ),
    (
        Edit(
            "clock_drift_ppm = 0",
            "clock_drift_ppm = 0\non_timeout = \"ignore\"",
        ),
        "worker[1].on_timeout",
        "\"ignore\"",
        "must be one of hand_back, drop_connection, forget",
    ),
    // `forget` leaves a ghost only in a fair queue, whose entries live with the session.
    (
        Edit(
            "clock_drift_ppm = 0",
            "clock_drift_ppm = 0\non_timeout = \"forget\"",
        ),
        "worker[1].on_timeout",
        "on_timeout = \"forget\"",
        "what drop_connection already models",
    ),
    (
        Edit(
            "clock_drift_ppm = 0",
            "clock_drift_ppm = 0\nlease_check_every_ms = 1000",
        ),
        "worker[1].lease_check_every_ms",
        "lease_check_every_ms = 1000",
        "would be ignored",
    ),
    (
        Edit(
            "clock_drift_ppm = 0",
            "clock_drift_ppm = 0\non_lock_loss = \"stop\"\nlease_check_every_ms = 10000001",
        ),
        "worker[1].lease_check_every_ms",
        "lease_check_every_ms = 10000001",
        "at most 10000000 ms",
    ),
    (
        Edits(&[
            (
                "clock_drift_ppm = 0",
                "clock_drift_ppm = 0\nlease_from = \"reply\"",
            ),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"redlock\"\nnodes = 3",
            ),
        ]),
        "worker[1].lease_from",
        "lease_from = \"reply\"",
        "would not be Redlock",
    ),
    // A client's own list of store nodes: Redlock's, real nodes, each once.
    (
        Edit(
            "clock_drift_ppm = 0",
            "clock_drift_ppm = 0\nstores = [\"store1\"]",
        ),
        "worker[1].stores",
        "stores = [",
        "modelled for Redlock",
    ),
    (
        Edits(&[
            ("clock_drift_ppm = 0", "clock_drift_ppm = 0\nstores = []"),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"redlock\"\nnodes = 3",
            ),
        ]),
        "worker[1].stores",
        "stores = []",
        "knows no store node",
    ),
    (
        Edits(&[
            (
                "clock_drift_ppm = 0",
                "clock_drift_ppm = 0\nstores = [\"store1\", \"store4\"]",
            ),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"redlock\"\nnodes = 3",
            ),
        ]),
        "worker[1].stores[1]",
        "stores = [",
        "`store4` is not a store node: store.nodes = 3",
    ),
    (
        Edits(&[
            (
                "clock_drift_ppm = 0",
                "clock_drift_ppm = 0\nstores = [\"store2\", \"store2\"]",
            ),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"redlock\"\nnodes = 3",
            ),
        ]),
        "worker[1].stores[1]",
        "stores = [",
        "listed twice",
    ),
    // The member a client is pinned to: a multi-primary member that exists.
    (
        Edit(
            "clock_drift_ppm = 0",
            "clock_drift_ppm = 0\nstore_node = \"store1\"",
        ),
        "worker[1].store_node",
        "store_node = ",
        "use store.topology = \"multi_primary\"; store.topology is \"single\"",
    ),
    (
        Edits(&[
            (
                "clock_drift_ppm = 0",
                "clock_drift_ppm = 0\nstore_node = \"store3\"",
            ),
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"multi_primary\"\nnodes = 2",
            ),
        ]),
        "worker[1].store_node",
        "store_node = ",
        "`store3` is not a store node: store.nodes = 2 names store1 to store2",
    ),
    (
        Edit("start_ms = 100", "start_ms = 20000"),
        "worker[1].start_ms",
        "start_ms = 20000",
        "never runs",
    ),
];

const FINE: &[Good] = &[
    (
        Edits(&[
            (
                "clock_drift_ppm = 0",
                "clock_drift_ppm = 0\non_timeout = \"forget\"",
            ),
            ("retry_ms = 50", "retry_ms = 50\nwaiting = \"fair\""),
        ]),
        "forget in a fair queue",
    ),
    (
        Edit("name = \"B\"", "name = \"store\""),
        "`store` is not a node name",
    ),
    (
        Edit("name = \"B\"", "name = \"Zoë_2\""),
        "letters of any script",
    ),
];

#[test]
fn worker_names_and_settings_are_checked() {
    rejects_all(CASES);
    accepts_all(FINE);
}

#[test]
fn workers_at_least_one() {
    let head = BASE
        .split("\n[[worker]]")
        .next()
        .expect("text before workers");
    let src = format!("worker = []\n{head}");
    rejects(&src, "worker", "worker = []", "at least one [[worker]]");
}

#[test]
fn workers_at_most_64() {
    let extra: String = (0..63)
        .map(|i| format!("[[worker]]\nname = \"W{i}\"\n\n"))
        .collect();
    let src = with("[[fault]]", &format!("{extra}[[fault]]"));
    rejects(
        &src,
        "worker[64]",
        "[[worker]]\nname = \"W62\"",
        "at most 64 workers",
    );
}
