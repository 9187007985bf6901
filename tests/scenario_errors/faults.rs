//! The `[[fault]]` tables: how many, when, on which nodes, for how long.

use crate::File::{Edit, Edits, Fault};
use crate::{Bad, Good, accepts_all, line_of, parse, rejects, rejects_all, with, with_fault};

const CASES: &[Bad] = &[
    (
        Fault("at_ms = 10\nkind = \"connection_reset\"\nfrom = \"A\"\nto = \"A\""),
        "fault[1].to",
        "to = \"A\"",
        "must differ from `from`",
    ),
    (
        Fault("at_ms = 10\nkind = \"connection_reset\"\nfrom = \"A\"\nto = \"B\""),
        "fault[1].to",
        "to = \"B\"",
        "never connect to each other",
    ),
    (
        Fault("at_ms = 10\nkind = \"connection_reset\"\nfrom = \"resource\"\nto = \"store1\""),
        "fault[1].to",
        "to = \"store1\"",
        "never connect to each other",
    ),
    (
        Fault("at_ms = 10\nkind = \"connection_reset\"\nfrom = \"A\"\nto = \"store9\""),
        "fault[1].to",
        "to = \"store9\"",
        "store9",
    ),
    (
        Edit("at_ms = 1000", "at_ms = 20000"),
        "fault[0].at_ms",
        "at_ms = 20000",
        "would never happen",
    ),
    // store2 exists only with two store nodes.
    (
        Edit("node = \"A\"", "node = \"store2\""),
        "fault[0].node",
        "store2",
        "no node named \"store2\"",
    ),
    // One store node is named as the one there is; several as a range.
    (
        Fault("at_ms = 10\nkind = \"force_release\"\nnode = \"store2\""),
        "fault[1].node",
        "node = \"store2\"",
        "must name the store node, store1; got \"store2\"",
    ),
    (
        Edits(&[
            ("topology = \"single\"", "topology = \"redlock\""),
            ("nodes = 1", "nodes = 3"),
            ("[[fault]]", "[[node]]\nname = \"store4\"\n\n[[fault]]"),
        ]),
        "node[0].name",
        "name = \"store4\"",
        "must name a store node, store1 .. store3; got \"store4\"",
    ),
    (
        Edit(
            "kind = \"pause\"\nnode = \"A\"",
            "kind = \"stall\"\nnode = \"store1\"",
        ),
        "fault[0].node",
        "store1",
        "not a worker",
    ),
    (
        Edit("for_ms = 500", "for_ms = 0"),
        "fault[0].for_ms",
        "for_ms = 0",
        "must be at least 1",
    ),
    (
        Fault("at_ms = 10\nkind = \"kill_store\"\nfor_ms = 0"),
        "fault[1].for_ms",
        "for_ms = 0",
        "must be at least 1",
    ),
    (
        Fault("at_ms = 10\nkind = \"partition\"\ngroups = [[\"A\"], [\"B\"]]\nfor_ms = 0"),
        "fault[1].for_ms",
        "for_ms = 0",
        "must be at least 1",
    ),
    (
        Fault(
            "at_ms = 10\nkind = \"delay\"\nfrom = \"A\"\nto = \"store1\"\nextra_ms = 5\nfor_ms = 0",
        ),
        "fault[1].for_ms",
        "for_ms = 0",
        "must be at least 1",
    ),
    (
        Fault("at_ms = 10\nkind = \"partition\"\ngroups = [[\"A\", \"B\"]]\nfor_ms = 100"),
        "fault[1].groups",
        "groups =",
        "at least 2 groups",
    ),
    (
        Fault("at_ms = 10\nkind = \"partition\"\ngroups = [[\"A\"], []]\nfor_ms = 100"),
        "fault[1].groups[1]",
        "groups =",
        "empty group",
    ),
    (
        Fault(
            "at_ms = 10\nkind = \"partition\"\ngroups = [[\"A\", \"B\"], [\"store1\", \"A\"]]\nfor_ms = 100",
        ),
        "fault[1].groups[1][1]",
        "groups =",
        "already in group 0",
    ),
    (
        Fault("at_ms = 10\nkind = \"delay\"\nfrom = \"Q\"\nto = \"A\"\nextra_ms = 5\nfor_ms = 10"),
        "fault[1].from",
        "from = \"Q\"",
        "no node named",
    ),
    (
        Fault("at_ms = 10\nkind = \"delay\"\nfrom = \"A\"\nto = \"Q\"\nextra_ms = 5\nfor_ms = 10"),
        "fault[1].to",
        "to = \"Q\"",
        "no node named",
    ),
    (
        Fault("at_ms = 10\nkind = \"delay\"\nfrom = \"A\"\nto = \"A\"\nextra_ms = 5\nfor_ms = 10"),
        "fault[1].to",
        "to = \"A\"",
        "must differ from `from`",
    ),
    (
        Fault("at_ms = 10\nkind = \"clock_jump\"\nnode = \"store1\"\ndelta_ms = 1000000001"),
        "fault[1].delta_ms",
        "delta_ms",
        "within ±1000000000 ms",
    ),
    // force_release's `by`: a name from its list, a flush names no key, and a consensus
    // store never evicts.
    (
        Fault("at_ms = 10\nkind = \"force_release\"\nby = \"gc\""),
        "fault[1].by",
        "by = \"gc\"",
        "must be one of operator, eviction, flush; got \"gc\"",
    ),
    (
        Fault("at_ms = 10\nkind = \"force_release\"\nkey = \"other\"\nby = \"flush\""),
        "fault[1].key",
        "key = \"other\"",
        "a flush (by = \"flush\") deletes every key on the node, so it names none",
    ),
    (
        Edits(&[
            (
                "topology = \"single\"\nnodes = 1",
                "topology = \"consensus\"\nnodes = 3",
            ),
            (
                "[expect]",
                "[[fault]]\nat_ms = 10\nkind = \"force_release\"\nby = \"eviction\"\n\n[expect]",
            ),
        ]),
        "fault[1].by",
        "by = \"eviction\"",
        "never evicts a key to free memory",
    ),
];

const FINE: &[Good] = &[
    (
        Fault("at_ms = 10\nkind = \"force_release\"\nby = \"flush\""),
        "a flush of every key",
    ),
    (
        Fault("at_ms = 10\nkind = \"force_release\"\nkey = \"lock\"\nby = \"eviction\""),
        "an eviction of the lock key",
    ),
    (
        Fault(
            "at_ms = 10\nkind = \"delay\"\nfrom = \"A\"\nto = \"resource\"\nextra_ms = 5\nfor_ms = 10",
        ),
        "a link to the resource",
    ),
    (
        Fault("at_ms = 10\nkind = \"connection_reset\"\nfrom = \"store1\"\nto = \"B\""),
        "a reset named from the store's end",
    ),
];

#[test]
fn faults_name_real_nodes_and_last_a_while() {
    rejects_all(CASES);
    accepts_all(FINE);
}

#[test]
fn faults_at_most_1000() {
    let extra: String = (0..1000)
        .map(|_| "[[fault]]\nat_ms = 1\nkind = \"heal\"\n\n")
        .collect();
    let src = with("[expect]", &format!("{extra}[expect]"));
    let e = parse(&src).expect_err("1001 faults");
    assert_eq!(e.field, "fault[1000]");
    assert!(e.message.contains("at most 1000 faults"), "{e}");
    // fault[0] is BASE's pause, so fault[1000] is the last heal: its header is 4 lines above
    // [expect] (header, at_ms, kind, blank line).
    assert_eq!(e.line, Some(line_of(&src, "[expect]") - 4));
}

#[test]
fn fault_node_must_exist() {
    let src = with("node = \"A\"", "node = \"C\"");
    let e = rejects(&src, "fault[0].node", "node = \"C\"", "no node named \"C\"");
    assert!(e.message.contains("A, B, store1, resource"), "{e}");
}

#[test]
fn a_partition_names_each_node_once_and_points_at_the_bad_one() {
    let src = with_fault(
        "at_ms = 10\nkind = \"partition\"\ngroups = [[\"A\"], [\"store1\", \"X\"]]\nfor_ms = 100",
    );
    let e = rejects(
        &src,
        "fault[1].groups[1][1]",
        "groups =",
        "no node named \"X\"",
    );
    assert_eq!(e.column, Some(29));
}
