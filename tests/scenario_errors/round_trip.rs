//! Valid files: they parse, and `to_toml` writes them back to the same scenario in the tables'
//! natural order.

use locksim::checker::ViolationKind;
use locksim::scenario::{Design, Expect, Fault, FaultKind, Scenario, Topology, Worker, to_toml};

use crate::{BASE, parse};

#[test]
fn base_is_valid() {
    parse(BASE).expect("BASE parses");
}

/// Cases from the course material, inlined: a partition and clock jump on Redlock, an async
/// failover, a stalled holder under a watchdog.
const INLINE: [&str; 3] = [
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
    for case in INLINE {
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
        FaultKind::ConnectionReset {
            from: node(),
            to: "store2".into(),
        },
    ];
    scenario.faults = kinds
        .into_iter()
        .map(|kind| Fault { at_ms: 0, kind })
        .collect();
    scenario.expect = Some(Expect {
        safe: Some(true),
        live: None,
        kinds: vec![ViolationKind::Overlap],
        absent: ViolationKind::ALL[..2].to_vec(),
        exercised: vec![locksim::violation::Danger::FenceRejected],
        proven_within: Some(locksim::scenario::ProvenWithin { faults: 2 }),
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
