//! A winning attempt for each challenge that can be won, as a learner might place it: shared
//! by the challenge tests and the Challenges page's UI tests.

use locksim::scenario::{DeletedBy, Fault, FaultKind};

pub fn at(at_ms: u64, kind: FaultKind) -> Fault {
    Fault { at_ms, kind }
}

pub fn pause(node: &str, for_ms: u64) -> FaultKind {
    FaultKind::Pause {
        node: node.into(),
        for_ms,
    }
}

fn cut(groups: &[&[&str]], for_ms: u64) -> FaultKind {
    FaultKind::Partition {
        groups: groups
            .iter()
            .map(|g| g.iter().map(|n| n.to_string()).collect())
            .collect(),
        for_ms: Some(for_ms),
    }
}

fn jump(node: &str, delta_ms: i64) -> FaultKind {
    FaultKind::ClockJump {
        node: node.into(),
        delta_ms,
    }
}

pub fn node(name: &str) -> String {
    name.to_string()
}

/// A winning attempt for each challenge that can be won, as a learner might place it.
pub fn winning(id: &str) -> Option<Vec<Fault>> {
    Some(match id {
        "pause-past-lease" => vec![at(1_000, pause("A", 12_000))],
        "partitioned-holder" => vec![at(
            1_000,
            cut(&[&["A"], &["store1", "store2", "store3"]], 20_000),
        )],
        "longer-lease" => vec![at(1_000, pause("A", 35_000))],
        "dead-holder" => vec![at(1_000, FaultKind::Crash { node: node("A") })],
        "operator-force-unlock" => vec![at(
            4_000,
            FaultKind::ForceRelease {
                key: "lock".into(),
                node: None,
                by: DeletedBy::Operator,
            },
        )],
        "redlock-two-majorities" => vec![
            at(1, cut(&[&["A"], &["store4", "store5"]], 20_000)),
            at(1_000, jump("store3", 10_000)),
        ],
        "async-failover" => vec![at(
            50,
            FaultKind::Crash {
                node: node("store1"),
            },
        )],
        "aof-restart" => vec![
            at(
                500,
                FaultKind::Crash {
                    node: node("store1"),
                },
            ),
            at(
                600,
                FaultKind::Restart {
                    node: node("store1"),
                },
            ),
        ],
        "wall-clock-jump" => vec![at(3_000, jump("store1", 20_000))],
        "watchdog-starves" => vec![at(
            1_000,
            FaultKind::Stall {
                node: node("A"),
                for_ms: 60_000,
            },
        )],
        _ => return None,
    })
}
