//! Scenario files: every rule of DESIGN §4 gives an error naming the field, its line and the
//! reason; valid files round-trip through `to_toml`; no input makes `parse` panic.

use locksim::checker::Kind;
use locksim::scenario::{
    Design, Expect, Fault, FaultKind, Scenario, ScenarioError, Topology, Worker, parse, to_toml,
};
use proptest::prelude::*;

/// A valid file touching every table, so each test changes one line of it.
const BASE: &str = r#"version = 1
name = "Rules"
until_ms = 20000

[network]
delay_ms = [1, 5]
loss = 0.0
timeout_ms = 200

[lock]
design = "token"
ttl_ms = 10000
retry_ms = 50

[store]
topology = "single"
nodes = 1
failover_ms = 1000

[resource]
fencing = false

[check]
starve_after_ms = 10000

[[worker]]
name = "A"
work_ms = 2000

[[worker]]
name = "B"
start_ms = 100
work_ms = 1000
writes = 1
retry_ms = 100
key = "lock"
write_timeout_ms = 1000
clock_offset_ms = 0
clock_drift_ppm = 0

[[fault]]
at_ms = 1000
kind = "pause"
node = "A"
for_ms = 500

[expect]
kinds = ["overlap"]
absent = ["stale_write"]
"#;

/// `BASE` with the one occurrence of `old` replaced by `new`.
fn with(old: &str, new: &str) -> String {
    assert_eq!(
        BASE.matches(old).count(),
        1,
        "`{old}` must occur once in BASE"
    );
    BASE.replacen(old, new, 1)
}

/// `BASE` with one more `[[fault]]` (it becomes `fault[1]`).
fn with_fault(body: &str) -> String {
    format!("{BASE}\n[[fault]]\n{body}\n")
}

/// 1-based line of the first occurrence of `needle` in `src`.
fn line_of(src: &str, needle: &str) -> usize {
    let at = src
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in source"));
    src[..at].matches('\n').count() + 1
}

/// Asserts that `src` is rejected for `field`, on the line where `on_line` occurs, with a
/// message containing `fragment`.
#[track_caller]
fn rejects(src: &str, field: &str, on_line: &str, fragment: &str) -> ScenarioError {
    let error = match parse(src) {
        Ok(_) => panic!("accepted, but should fail on {field}:\n{src}"),
        Err(error) => error,
    };
    assert_eq!(error.field, field, "{error}");
    assert_eq!(error.line, Some(line_of(src, on_line)), "{error}");
    assert!(error.column.is_some(), "{error}");
    assert!(
        error.message.contains(fragment),
        "message `{}` lacks `{fragment}`",
        error.message
    );
    error
}

#[test]
fn base_is_valid() {
    parse(BASE).expect("BASE parses");
}

// ---- TOML syntax ----

#[test]
fn syntax_error_names_the_key_being_written() {
    let src = with("work_ms = 1000", "work_ms = 10x0");
    let e = rejects(&src, "worker[1].work_ms", "10x0", "not valid TOML");
    assert_eq!(e.column, Some(11));
}

#[test]
fn unclosed_string_is_a_syntax_error() {
    let src = with("name = \"Rules\"", "name = \"Rules");
    rejects(&src, "name", "name = \"Rules", "not valid TOML");
}

#[test]
fn duplicate_key_is_a_syntax_error() {
    let src = with("ttl_ms = 10000", "ttl_ms = 10000\nttl_ms = 5");
    rejects(&src, "lock.ttl_ms", "ttl_ms = 5", "duplicate key");
}

// ---- unknown fields ----

#[test]
fn unknown_field_in_a_table() {
    let src = with("ttl_ms = 10000", "ttl = 10000");
    let e = rejects(
        &src,
        "lock.ttl",
        "ttl = 10000",
        "unknown field `ttl` in [lock]",
    );
    assert!(e.message.contains("expected one of design, ttl_ms,"), "{e}");
    assert_eq!(e.column, Some(1));
}

#[test]
fn unknown_field_at_the_top_level() {
    let src = with("until_ms = 20000", "until = 20000");
    rejects(
        &src,
        "until",
        "until = 20000",
        "unknown field `until` at the top level",
    );
}

#[test]
fn unknown_field_in_a_worker() {
    let src = with("work_ms = 2000", "work_ms = 2000\nspeed = 3");
    rejects(
        &src,
        "worker[0].speed",
        "speed = 3",
        "unknown field `speed` in [[worker]]",
    );
}

#[test]
fn unknown_field_in_a_fault() {
    let src = with("for_ms = 500", "for_ms = 500\nduration = 3");
    rejects(
        &src,
        "fault[0].duration",
        "duration = 3",
        "expected one of node, for_ms",
    );
}

#[test]
fn heal_takes_no_fields() {
    let src = with_fault("at_ms = 10\nkind = \"heal\"\nnode = \"B\"");
    rejects(
        &src,
        "fault[1].node",
        "node = \"B\"",
        "heal fault takes only at_ms and kind",
    );
}

// ---- types and names ----

#[test]
fn bad_enum_value_lists_the_choices() {
    let src = with("design = \"token\"", "design = \"fence\"");
    let e = rejects(&src, "lock.design", "\"fence\"", "");
    assert_eq!(
        e.message,
        "must be one of flag, setnx, ttl, token, fencing, timestamp; got \"fence\""
    );
    assert_eq!(e.column, Some(10));
}

#[test]
fn enum_given_a_number() {
    let src = with("topology = \"single\"", "topology = 1");
    rejects(
        &src,
        "store.topology",
        "topology = 1",
        "must be one of single, replicated",
    );
}

#[test]
fn bad_fault_kind() {
    let src = with("kind = \"pause\"", "kind = \"explode\"");
    rejects(
        &src,
        "fault[0].kind",
        "explode",
        "must be one of pause, stall, crash",
    );
}

#[test]
fn bad_violation_kind_in_expect() {
    let src = with("kinds = [\"overlap\"]", "kinds = [\"overlapp\"]");
    rejects(&src, "expect.kinds[0]", "overlapp", "got \"overlapp\"");
}

#[test]
fn string_where_a_number_belongs() {
    let src = with("work_ms = 1000", "work_ms = \"1000\"");
    rejects(
        &src,
        "worker[1].work_ms",
        "\"1000\"",
        "must be a whole number",
    );
}

#[test]
fn negative_duration() {
    let src = with("start_ms = 100", "start_ms = -100");
    rejects(&src, "worker[1].start_ms", "-100", "0 or more; got -100");
}

#[test]
fn fraction_where_a_whole_number_belongs() {
    let src = with("ttl_ms = 10000", "ttl_ms = 1.5");
    rejects(&src, "lock.ttl_ms", "1.5", "whole number");
}

#[test]
fn number_out_of_the_type_range() {
    let src = with("writes = 1", "writes = 5000000000");
    rejects(
        &src,
        "worker[1].writes",
        "5000000000",
        "from 0 to 4294967295",
    );
}

#[test]
fn number_too_large_for_any_type() {
    let src = with(
        "until_ms = 20000",
        "seed = 99999999999999999999999999999999999999999",
    );
    rejects(&src, "seed", "seed", "too large");
}

#[test]
fn wrong_type_inside_a_fault() {
    let src = with("for_ms = 500", "for_ms = \"long\"");
    rejects(&src, "fault[0].for_ms", "\"long\"", "whole number");
}

#[test]
fn array_where_a_name_belongs_in_a_fault() {
    let src = with("node = \"A\"", "node = [\"A\"]");
    rejects(&src, "fault[0].node", "[\"A\"]", "must be a string");
}

#[test]
fn delay_needs_two_numbers() {
    let src = with("delay_ms = [1, 5]", "delay_ms = [1, 5, 9]");
    rejects(
        &src,
        "network.delay_ms",
        "[1, 5, 9]",
        "an array of 2 items; got 3 items",
    );
    let src = with("delay_ms = [1, 5]", "delay_ms = 5");
    rejects(
        &src,
        "network.delay_ms",
        "delay_ms = 5",
        "an array of 2 items",
    );
}

#[test]
fn date_is_not_a_value_here() {
    let src = with("name = \"Rules\"", "name = 1979-05-27");
    rejects(&src, "name", "1979", "got a date-time");
}

#[test]
fn value_where_a_table_belongs() {
    let src = format!(
        "check = 5\n{}",
        BASE.replace("[check]\nstarve_after_ms = 10000\n", "")
    );
    rejects(&src, "check", "check = 5", "must be a table");
}

#[test]
fn float_too_large() {
    let src = with("loss = 0.0", "loss = 1e400");
    rejects(&src, "network.loss", "1e400", "too large");
}

// ---- missing fields ----

#[test]
fn version_is_required() {
    let src = with("version = 1\n", "");
    rejects(&src, "version", "name", "missing");
}

#[test]
fn name_is_required() {
    let src = with("name = \"Rules\"\n", "");
    rejects(&src, "name", "version", "missing");
}

#[test]
fn a_worker_is_required() {
    let src: String = BASE
        .split("\n[[worker]]")
        .next()
        .expect("BASE has text before its workers")
        .to_string();
    rejects(&src, "worker", "version", "at least one [[worker]]");
}

#[test]
fn a_worker_needs_a_name() {
    let src = with("name = \"A\"\n", "");
    rejects(&src, "worker[0].name", "[[worker]]", "missing");
}

#[test]
fn a_fault_needs_its_fields() {
    let src = with_fault("at_ms = 7\nkind = \"crash\"");
    rejects(&src, "fault[1].node", "[[fault]]\nat_ms = 7", "missing");
    let src = with_fault("at_ms = 7\nnode = \"A\"");
    rejects(&src, "fault[1].kind", "[[fault]]\nat_ms = 7", "missing");
}

// ---- top level ----

#[test]
fn version_must_be_1() {
    let src = with("version = 1", "version = 2");
    rejects(
        &src,
        "version",
        "version",
        "reads scenario files of version 1 only; got 2",
    );
}

#[test]
fn name_must_not_be_empty() {
    let src = with("name = \"Rules\"", "name = \"  \"");
    rejects(&src, "name", "name", "must not be empty");
}

#[test]
fn horizon_in_range() {
    let src = with("until_ms = 20000", "until_ms = 0");
    rejects(&src, "until_ms", "until_ms", "from 1 to 10000000");
    let src = with("until_ms = 20000", "until_ms = 10000001");
    rejects(&src, "until_ms", "until_ms", "from 1 to 10000000");
}

// ---- [network] ----

#[test]
fn delay_min_not_above_max() {
    let src = with("delay_ms = [1, 5]", "delay_ms = [9, 5]");
    rejects(&src, "network.delay_ms", "delay_ms", "got [9, 5]");
}

#[test]
fn delay_at_most_a_minute() {
    let src = with("delay_ms = [1, 5]", "delay_ms = [1, 60001]");
    rejects(&src, "network.delay_ms", "delay_ms", "at most 60000 ms");
}

#[test]
fn loss_is_a_probability() {
    let src = with("loss = 0.0", "loss = 1.5");
    rejects(
        &src,
        "network.loss",
        "loss",
        "probability from 0 to 1; got 1.5",
    );
    let src = with("loss = 0.0", "loss = nan");
    rejects(&src, "network.loss", "loss", "got NaN");
}

#[test]
fn timeout_at_least_1() {
    let src = with("timeout_ms = 200", "timeout_ms = 0");
    rejects(
        &src,
        "network.timeout_ms",
        "timeout_ms",
        "must be at least 1",
    );
}

// ---- [lock] ----

#[test]
fn lease_designs_need_a_ttl() {
    let src = with("ttl_ms = 10000", "ttl_ms = 0");
    rejects(
        &src,
        "lock.ttl_ms",
        "ttl_ms",
        "at least 1 for the token design",
    );
    // Without a lease the ttl is not used.
    let src = with(
        "design = \"token\"\nttl_ms = 10000",
        "design = \"setnx\"\nttl_ms = 0",
    );
    parse(&src).expect("setnx ignores ttl_ms");
}

#[test]
fn retry_at_least_1() {
    let src = with("retry_ms = 50", "retry_ms = 0");
    rejects(&src, "lock.retry_ms", "retry_ms = 0", "must be at least 1");
}

#[test]
fn renewal_needs_a_lease() {
    let src = with(
        "design = \"token\"",
        "design = \"setnx\"\nrenewal = \"watchdog\"",
    );
    rejects(&src, "lock.renewal", "renewal", "setnx locks have none");
}

#[test]
fn client_expiry_needs_a_lease() {
    let src = with(
        "design = \"token\"",
        "design = \"flag\"\nexpiry = \"client\"",
    );
    rejects(&src, "lock.expiry", "expiry", "flag locks never expire");
}

#[test]
fn client_expiry_needs_a_single_store() {
    let src = with(
        "design = \"token\"",
        "design = \"token\"\nexpiry = \"client\"",
    )
    .replace(
        "topology = \"single\"\nnodes = 1",
        "topology = \"consensus\"\nnodes = 3",
    );
    rejects(&src, "lock.expiry", "expiry", "single store node only");
}

#[test]
fn lock_delay_at_most_the_longest_horizon() {
    let src = with("retry_ms = 50", "retry_ms = 50\nlock_delay_ms = 10000001");
    rejects(
        &src,
        "lock.lock_delay_ms",
        "lock_delay_ms",
        "at most 10000000 ms",
    );
}

#[test]
fn settle_is_a_duration_at_least_0() {
    let src = with(
        "design = \"token\"",
        "design = \"timestamp\"\nsettle_ms = -5",
    );
    rejects(&src, "lock.settle_ms", "settle_ms = -5", "");
    let src = with(
        "design = \"token\"",
        "design = \"timestamp\"\nsettle_ms = 10000001",
    );
    rejects(&src, "lock.settle_ms", "settle_ms", "at most 10000000 ms");
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

#[test]
fn timestamp_claims_live_on_one_node_and_need_no_queue() {
    let src = with("design = \"token\"", "design = \"timestamp\"").replace(
        "topology = \"single\"\nnodes = 1",
        "topology = \"redlock\"\nnodes = 3",
    );
    rejects(
        &src,
        "lock.design",
        "design",
        "use store.topology = \"single\"",
    );
    let src = with(
        "design = \"token\"",
        "design = \"timestamp\"\nwaiting = \"fair\"",
    );
    rejects(
        &src,
        "lock.waiting",
        "waiting",
        "orders waiters by their stamps",
    );
}

// ---- [store] ----

#[test]
fn node_count_fits_the_topology() {
    let cases = [
        ("single", 2, "exactly 1 node; got 2"),
        ("replicated", 1, "2 to 9 nodes; got 1"),
        ("redlock", 2, "3 to 9 nodes"),
        ("consensus", 10, "3 to 9 nodes"),
    ];
    for (topology, nodes, fragment) in cases {
        let src = with(
            "topology = \"single\"\nnodes = 1",
            &format!("topology = \"{topology}\"\nnodes = {nodes}"),
        );
        rejects(&src, "store.nodes", "nodes =", fragment);
    }
}

#[test]
fn default_node_count_points_at_the_store_table() {
    // `nodes` is left at its default of 1; the error points at [store].
    let src = with("topology = \"single\"\nnodes = 1", "topology = \"redlock\"");
    rejects(&src, "store.nodes", "[store]", "got 1");
}

#[test]
fn failover_at_least_1() {
    let src = with("failover_ms = 1000", "failover_ms = 0");
    rejects(
        &src,
        "store.failover_ms",
        "failover_ms",
        "must be at least 1",
    );
}

// ---- fencing ----

#[test]
fn resource_fencing_needs_fencing_tokens() {
    let src = with("fencing = false", "fencing = true");
    rejects(
        &src,
        "resource.fencing",
        "fencing = true",
        "lock.design = \"fencing\"",
    );
}

#[test]
fn redlock_cannot_issue_fencing_tokens() {
    let src = with("design = \"token\"", "design = \"fencing\"").replace(
        "topology = \"single\"\nnodes = 1",
        "topology = \"redlock\"\nnodes = 5",
    );
    rejects(
        &src,
        "lock.design",
        "design",
        "no shared counter to issue fencing tokens",
    );
}

// ---- [check] ----

#[test]
fn starve_after_at_least_1() {
    let src = with("starve_after_ms = 10000", "starve_after_ms = 0");
    rejects(
        &src,
        "check.starve_after_ms",
        "starve_after_ms",
        "must be at least 1",
    );
}

// ---- [[worker]] ----

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

#[test]
fn worker_names() {
    let cases = [
        ("", "must not be empty"),
        ("A", "already the name of worker[0]"),
        ("resource", "protected storage"),
        ("store2", "reserved for the store nodes"),
        ("A B", "only letters, digits, _ and -"),
    ];
    for (name, fragment) in cases {
        let src = with("name = \"B\"", &format!("name = \"{name}\""));
        let line = format!("name = \"{name}\"\nstart_ms");
        rejects(&src, "worker[1].name", &line, fragment);
    }
    // `store` alone and names in other scripts are fine.
    parse(&with("name = \"B\"", "name = \"store\"")).expect("`store` is not a node name");
    parse(&with("name = \"B\"", "name = \"Zoë_2\"")).expect("letters of any script");
}

#[test]
fn worker_ranges() {
    let cases = [
        (
            "work_ms = 1000",
            "work_ms = 0",
            "work_ms",
            "must be at least 1",
        ),
        ("writes = 1", "writes = 0", "writes", "from 1 to 1000"),
        ("writes = 1", "writes = 1001", "writes", "from 1 to 1000"),
        (
            "retry_ms = 100",
            "retry_ms = 0",
            "retry_ms",
            "must be at least 1",
        ),
        ("key = \"lock\"", "key = \"\"", "key", "must not be empty"),
        (
            "write_timeout_ms = 1000",
            "write_timeout_ms = 0",
            "write_timeout_ms",
            "must be at least 1",
        ),
        (
            "clock_offset_ms = 0",
            "clock_offset_ms = -1000000001",
            "clock_offset_ms",
            "within ±1000000000 ms",
        ),
        (
            "clock_drift_ppm = 0",
            "clock_drift_ppm = 500001",
            "clock_drift_ppm",
            "within ±500000 ppm",
        ),
        (
            "start_ms = 100",
            "start_ms = 20000",
            "start_ms",
            "never runs",
        ),
    ];
    for (old, new, key, fragment) in cases {
        rejects(&with(old, new), &format!("worker[1].{key}"), new, fragment);
    }
}

#[test]
fn extreme_clock_offset_does_not_overflow() {
    let src = with(
        "clock_offset_ms = 0",
        "clock_offset_ms = -9223372036854775808",
    );
    rejects(
        &src,
        "worker[1].clock_offset_ms",
        "clock_offset_ms",
        "within",
    );
}

// ---- [[fault]] ----

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
fn fault_before_the_horizon() {
    let src = with("at_ms = 1000", "at_ms = 20000");
    rejects(
        &src,
        "fault[0].at_ms",
        "at_ms = 20000",
        "would never happen",
    );
}

#[test]
fn fault_node_must_exist() {
    let src = with("node = \"A\"", "node = \"C\"");
    let e = rejects(&src, "fault[0].node", "node = \"C\"", "no node named \"C\"");
    assert!(e.message.contains("A, B, store1, resource"), "{e}");
    // store2 exists only with two store nodes.
    let src = with("node = \"A\"", "node = \"store2\"");
    rejects(&src, "fault[0].node", "store2", "no node named \"store2\"");
}

#[test]
fn stall_only_on_workers() {
    let src = with(
        "kind = \"pause\"\nnode = \"A\"",
        "kind = \"stall\"\nnode = \"store1\"",
    );
    rejects(&src, "fault[0].node", "store1", "not a worker");
}

#[test]
fn durations_at_least_1() {
    let src = with("for_ms = 500", "for_ms = 0");
    rejects(&src, "fault[0].for_ms", "for_ms = 0", "must be at least 1");
    let src = with_fault("at_ms = 10\nkind = \"kill_store\"\nfor_ms = 0");
    rejects(&src, "fault[1].for_ms", "for_ms = 0", "must be at least 1");
    let src =
        with_fault("at_ms = 10\nkind = \"partition\"\ngroups = [[\"A\"], [\"B\"]]\nfor_ms = 0");
    rejects(&src, "fault[1].for_ms", "for_ms = 0", "must be at least 1");
    let src = with_fault(
        "at_ms = 10\nkind = \"delay\"\nfrom = \"A\"\nto = \"store1\"\nextra_ms = 5\nfor_ms = 0",
    );
    rejects(&src, "fault[1].for_ms", "for_ms = 0", "must be at least 1");
}

#[test]
fn partition_groups() {
    let partition = |groups: &str| {
        with_fault(&format!(
            "at_ms = 10\nkind = \"partition\"\ngroups = {groups}\nfor_ms = 100"
        ))
    };
    let src = partition("[[\"A\", \"B\"]]");
    rejects(&src, "fault[1].groups", "groups =", "at least 2 groups");
    let src = partition("[[\"A\"], []]");
    rejects(&src, "fault[1].groups[1]", "groups =", "empty group");
    let src = partition("[[\"A\"], [\"store1\", \"X\"]]");
    let e = rejects(
        &src,
        "fault[1].groups[1][1]",
        "groups =",
        "no node named \"X\"",
    );
    assert_eq!(e.column, Some(29));
    let src = partition("[[\"A\", \"B\"], [\"store1\", \"A\"]]");
    rejects(
        &src,
        "fault[1].groups[1][1]",
        "groups =",
        "already in group 0",
    );
}

#[test]
fn delay_link() {
    let delay = |from: &str, to: &str| {
        with_fault(&format!(
            "at_ms = 10\nkind = \"delay\"\nfrom = \"{from}\"\nto = \"{to}\"\nextra_ms = 5\nfor_ms = 10"
        ))
    };
    rejects(
        &delay("Q", "A"),
        "fault[1].from",
        "from = \"Q\"",
        "no node named",
    );
    rejects(
        &delay("A", "Q"),
        "fault[1].to",
        "to = \"Q\"",
        "no node named",
    );
    rejects(
        &delay("A", "A"),
        "fault[1].to",
        "to = \"A\"",
        "must differ from `from`",
    );
    parse(&delay("A", "resource")).expect("a link to the resource");
}

#[test]
fn clock_jump_in_range() {
    let src =
        with_fault("at_ms = 10\nkind = \"clock_jump\"\nnode = \"store1\"\ndelta_ms = 1000000001");
    rejects(
        &src,
        "fault[1].delta_ms",
        "delta_ms",
        "within ±1000000000 ms",
    );
}

// ---- [expect] ----

#[test]
fn expect_kind_not_both_required_and_absent() {
    let src = with(
        "absent = [\"stale_write\"]",
        "absent = [\"stale_write\", \"overlap\"]",
    );
    let e = rejects(&src, "expect.absent[1]", "absent", "`overlap` is in both");
    assert_eq!(e.column, Some(26));
}

// ---- without a source ----

#[test]
fn validate_without_a_file_has_no_position() {
    let mut scenario = parse(BASE).expect("BASE parses");
    scenario.workers[1].work_ms = 0;
    let e = scenario.validate().expect_err("work_ms 0");
    assert_eq!(
        (e.field.as_str(), e.line, e.column),
        ("worker[1].work_ms", None, None)
    );
    assert_eq!(e.to_string(), "worker[1].work_ms: must be at least 1");
}

#[test]
fn display_puts_position_field_and_message_in_order() {
    let src = with("work_ms = 1000", "work_ms = 0");
    let e = parse(&src).expect_err("work_ms 0");
    assert_eq!(
        e.to_string(),
        format!(
            "line {}, column 1: worker[1].work_ms: must be at least 1",
            line_of(&src, "work_ms = 0")
        )
    );
}

// ---- valid files and round trips ----

/// Cases from the course material, inlined: a partition and clock jump on Redlock, an async
/// failover, a stalled holder under a watchdog.
const CASES: [&str; 3] = [
    r#"version = 1
name = "Redlock: a clock jump on one node makes two majorities"
seed = 6
until_ms = 20000

[network]
delay_ms = [2, 2]

[lock]
design = "token"
ttl_ms = 10000

[store]
topology = "redlock"
nodes = 5
clock = "wall"

[[worker]]
name = "A"
start_ms = 10
work_ms = 5000

[[worker]]
name = "B"
start_ms = 1200
work_ms = 1000
retry_ms = 100

[[fault]]
at_ms = 0
kind = "partition"
groups = [["A"], ["store4", "store5"]]
for_ms = 19000

[[fault]]
at_ms = 1000
kind = "clock_jump"
node = "store3"
delta_ms = 20000

[expect]
safe = false
kinds = ["double_grant", "overlap", "stale_write"]
"#,
    r#"version = 1
name = "Async replica failover grants twice"
seed = 3
until_ms = 15000

[lock]
design = "token"
ttl_ms = 30000

[store]
topology = "replicated"
nodes = 2
replication_lag_ms = 100
failover_ms = 900

[[worker]]
name = "A"
work_ms = 10000
writes = 2

[[fault]]
at_ms = 50
kind = "crash"
node = "store1"
"#,
    r#"version = 1
name = "A watchdog keeps a stalled holder's lock forever"
seed = 5

[lock]
design = "token"
ttl_ms = 3000
renewal = "watchdog"

[[worker]]
name = "A"
work_ms = 2000

[[fault]]
at_ms = 500
kind = "stall"
node = "A"
for_ms = 100000

[expect]
safe = true
live = false
kinds = ["stuck", "starved"]
"#,
];

#[track_caller]
fn round_trips(scenario: &Scenario) {
    let text = to_toml(scenario);
    assert_eq!(parse(&text).as_ref(), Ok(scenario), "{text}");
}

#[test]
fn inline_cases_parse_and_round_trip() {
    for case in CASES {
        round_trips(&parse(case).unwrap_or_else(|e| panic!("{e}\n{case}")));
    }
}

#[test]
fn scenario_files_parse_and_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("assets/scenarios exists") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|ext| ext == "toml") {
            let src = std::fs::read_to_string(&path).expect("readable");
            let scenario = parse(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            round_trips(&scenario);
            count += 1;
        }
    }
    assert!(count > 0, "no scenario files in {}", dir.display());
}

#[test]
fn every_fault_kind_and_odd_value_round_trips() {
    let mut scenario = parse(BASE).expect("BASE parses");
    scenario.seed = u64::MAX;
    scenario.description = "Quotes \" and \\ backslashes,\nnew lines, tabs\t and ünïcode.".into();
    scenario.lock.design = Design::Ttl;
    scenario.store.topology = Topology::Consensus;
    scenario.store.nodes = 3;
    let mut worker = Worker::new("C-3_x");
    worker.clock_offset_ms = -1_000_000_000;
    worker.clock_drift_ppm = -500_000;
    worker.retry_ms = Some(7);
    scenario.workers.push(worker);
    let node = || "A".to_string();
    let kinds = [
        FaultKind::Pause {
            node: node(),
            for_ms: 1,
        },
        FaultKind::Stall {
            node: node(),
            for_ms: 2,
        },
        FaultKind::Crash {
            node: "store2".into(),
        },
        FaultKind::Restart {
            node: "store2".into(),
        },
        FaultKind::KillStore { for_ms: None },
        FaultKind::KillStore { for_ms: Some(3) },
        FaultKind::Partition {
            groups: vec![vec![node()], vec!["store1".into(), "resource".into()]],
            for_ms: None,
        },
        FaultKind::Heal,
        FaultKind::ClockJump {
            node: "store3".into(),
            delta_ms: -5,
        },
        FaultKind::Delay {
            from: node(),
            to: "resource".into(),
            extra_ms: 0,
            for_ms: 4,
        },
    ];
    scenario.faults = kinds
        .into_iter()
        .map(|kind| Fault { at_ms: 0, kind })
        .collect();
    scenario.expect = Some(Expect {
        safe: Some(true),
        live: None,
        kinds: vec![Kind::Overlap],
        absent: Kind::ALL[..2].to_vec(),
    });
    scenario.validate().expect("a valid scenario");
    round_trips(&scenario);
}

#[test]
fn written_files_keep_the_tables_in_the_natural_order() {
    let text = to_toml(&parse(BASE).expect("BASE parses"));
    let at = |header: &str| {
        text.find(header)
            .unwrap_or_else(|| panic!("{header} in\n{text}"))
    };
    let order = [
        "version = 1",
        "[network]",
        "[lock]",
        "[store]",
        "[resource]",
        "[check]",
        "[[worker]]",
        "[[fault]]",
        "[expect]",
    ];
    for pair in order.windows(2) {
        assert!(
            at(pair[0]) < at(pair[1]),
            "{} before {}\n{text}",
            pair[0],
            pair[1]
        );
    }
}

// ---- nothing panics ----

#[test]
fn every_truncation_is_handled() {
    for (end, _) in BASE.char_indices() {
        let _ = parse(&BASE[..end]);
    }
}

proptest! {
    #[test]
    fn byte_flips_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = BASE.as_bytes().to_vec();
        for (index, byte) in flips {
            let at = index.index(bytes.len());
            bytes[at] = byte;
        }
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn toml_punctuation_never_panics(
        edits in prop::collection::vec(
            (any::<prop::sample::Index>(), prop::sample::select(vec!["[", "]", "[[", "=", "\"", "'", "{", "}", ",", ".", "\n", "#", "-1", "1e9", "inf", "nan", "x"])),
            1..6,
        )
    ) {
        let mut src = BASE.to_string();
        for (index, text) in edits {
            let at = index.index(src.len() + 1);
            let at = src.floor_char_boundary(at);
            src.insert_str(at, text);
        }
        let _ = parse(&src);
    }

    #[test]
    fn arbitrary_text_never_panics(src in "\\PC{0,200}") {
        let _ = parse(&src);
    }
}

#[test]
fn reentrant_needs_an_owner_token() {
    let err = parse(
        "version = 1\nname = \"x\"\n[lock]\ndesign = \"ttl\"\nreentrant = true\n[[worker]]\nname = \"A\"\n",
    )
    .unwrap_err();
    assert_eq!(err.field, "lock.reentrant");
    assert_eq!(err.line, Some(5));
    assert!(err.message.contains("owner token"), "{}", err.message);
}

#[test]
fn flag_design_needs_one_database() {
    let err = parse(
        "version = 1\nname = \"x\"\n[lock]\ndesign = \"flag\"\n[store]\ntopology = \"consensus\"\nnodes = 3\n[[worker]]\nname = \"A\"\n",
    )
    .unwrap_err();
    assert_eq!(err.field, "lock.design");
    assert_eq!(err.line, Some(4));
}

#[test]
fn a_lease_longer_than_any_horizon_is_refused() {
    let err = parse(
        "version = 1\nname = \"x\"\n[lock]\nttl_ms = 18446744073709551615\n[[worker]]\nname = \"A\"\n",
    )
    .unwrap_err();
    assert_eq!(err.field, "lock.ttl_ms");
    assert_eq!(err.line, Some(4));
    assert!(
        err.message.contains("at most 10000000 ms"),
        "{}",
        err.message
    );
}

#[test]
fn every_duration_is_bounded_by_the_longest_horizon() {
    let err = parse("version = 1\nname = \"x\"\n[[worker]]\nname = \"A\"\nwork_ms = 99999999999\n")
        .unwrap_err();
    assert_eq!(err.field, "worker[0].work_ms");
    assert!(err.message.contains("at most"), "{}", err.message);
}

// ---- hostile input: each answered like any other error ----

#[test]
fn a_bad_fault_value_is_blamed_on_its_key_even_when_another_key_has_the_same_value() {
    // `node = "A"` comes first with an equal value; the bad one is `for_ms`.
    let src = with_fault("at_ms = 5\nkind = \"pause\"\nnode = \"A\"\nfor_ms = \"A\"");
    let e = rejects(
        &src,
        "fault[1].for_ms",
        "for_ms = \"A\"",
        "must be a whole number",
    );
    assert_eq!(e.column, Some(10));
    let src = with_fault("at_ms = 2\nkind = \"partition\"\ngroups = [[\"A\"], [2]]");
    rejects(
        &src,
        "fault[1].groups[1][0]",
        "groups = [[",
        "must be a string in quotes; got 2",
    );
}

#[test]
fn a_fault_kind_that_is_not_a_string_names_the_kinds() {
    for value in ["7", "[\"pause\"]", "{ a = 1 }", "true"] {
        let src = with_fault(&format!("at_ms = 5\nkind = {value}"));
        rejects(
            &src,
            "fault[1].kind",
            &format!("kind = {value}"),
            "must be one of pause, stall, crash",
        );
    }
}

#[test]
fn an_enum_value_that_is_not_a_string_names_the_choices() {
    let src = with("design = \"token\"", "design = 5");
    rejects(
        &src,
        "lock.design",
        "design = 5",
        "must be one of flag, setnx",
    );
}

#[test]
fn deep_nesting_is_an_error_in_plain_words() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let src = with("for_ms = 500", &format!("for_ms = 500\nx = {deep}"));
    let e = parse(&src).unwrap_err();
    assert!(e.message.starts_with("nested too deeply"), "{e}");
    assert!(e.line.is_some(), "{e}");
    assert!(!e.message.contains("recurs"), "{e}");
}

#[test]
fn text_shown_to_people_refuses_control_characters() {
    let e = rejects(
        &with("name = \"Rules\"", "name = \"R\\u001b[2J\""),
        "name",
        "name = \"R",
        "must not contain control characters; found U+001B",
    );
    assert_eq!(e.column, Some(1));
    rejects(
        &with("key = \"lock\"", "key = \"lock\\nfake line\""),
        "worker[1].key",
        "key = \"lock",
        "found U+000A",
    );
    rejects(
        &with(
            "name = \"Rules\"",
            "name = \"Rules\"\ndescription = \"a\\u0007\"",
        ),
        "description",
        "description",
        "found U+0007",
    );
    // A description may break lines; a right-to-left override never belongs in a title.
    parse(&with(
        "name = \"Rules\"",
        "name = \"Rules\"\ndescription = \"a\\nb\\tc\"",
    ))
    .unwrap();
    rejects(
        &with("name = \"Rules\"", "name = \"R\\u202eX\""),
        "name",
        "name = \"R",
        "found U+202E",
    );
}

#[test]
fn a_byte_that_is_not_text_is_reported_at_its_line_and_column() {
    let mut bytes = with("name = \"B\"", "name = \"B?\"").into_bytes();
    let at = bytes.iter().position(|&b| b == b'?').unwrap();
    bytes[at] = 0xC3;
    let e = locksim::scenario::parse_bytes(&bytes).unwrap_err();
    assert_eq!(e.field, "worker[1].name");
    assert_eq!(e.message, "not UTF-8 text (byte 0xC3)");
    assert_eq!(
        e.line,
        Some(line_of(&with("name = \"B\"", "name = \"B?\""), "B?"))
    );
    assert_eq!(e.column, Some(10));
}
