//! The modelled mechanisms, one state transition at a time: each test runs a small scenario
//! and reads the trace for the events the mechanism must (and must not) produce.

use locksim::engine;
use locksim::scenario::{self, Scenario};
use locksim::trace::{DropReason, EventKind, LetGoReason, Trace};

/// A scenario: the common header, a fixed 2 ms network unless `body` has its own, then `body`.
fn scenario(body: &str) -> Scenario {
    let network = if body.contains("[network]") {
        ""
    } else {
        "[network]\ndelay_ms = [2, 2]\n"
    };
    let text =
        format!("version = 1\nname = \"mechanism\"\nseed = 1\nuntil_ms = 20000\n{network}{body}");
    scenario::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn run(body: &str) -> Trace {
    let sc = scenario(body);
    engine::run(&sc, sc.seed)
}

/// True time of the first event `pred` accepts, on the node named `node`.
fn first(trace: &Trace, node: &str, pred: impl Fn(&EventKind) -> bool) -> Option<u64> {
    trace
        .events
        .iter()
        .find(|e| trace.node_name(e.node) == node && pred(&e.kind))
        .map(|e| e.at_ms)
}

const TWO_WORKERS: &str = r#"
[[worker]]
name = "A"
work_ms = 1000
[[worker]]
name = "B"
start_ms = 100
work_ms = 500
retry_ms = 100
"#;

#[test]
fn two_step_acquire_sets_the_ttl_only_when_expire_arrives() {
    // Healthy: SETNX grants with no expiry, EXPIRE sets the TTL a round trip later.
    let t = run(&format!(
        "[lock]\nttl_ms = 5000\nacquire = \"two_step\"\n{TWO_WORKERS}"
    ));
    let granted = first(&t, "store1", |k| {
        matches!(k, EventKind::Granted { lease_ms: None, .. })
    })
    .expect("granted without a TTL");
    let ttl = first(&t, "store1", |k| matches!(k, EventKind::TtlSet { .. })).expect("TTL set");
    assert_eq!(
        (granted, ttl),
        (2, 6),
        "SETNX at 2 ms, EXPIRE 2 + 2 ms later"
    );

    // A dies before the SETNX reply: no EXPIRE, and the key never expires.
    let crashed = run(&format!(
        "[lock]\nttl_ms = 5000\nacquire = \"two_step\"\n{TWO_WORKERS}\n[[fault]]\nat_ms = 3\nkind = \"crash\"\nnode = \"A\""
    ));
    assert!(
        first(&crashed, "store1", |k| matches!(
            k,
            EventKind::TtlSet { .. }
        ))
        .is_none()
    );
    assert!(
        first(&crashed, "store1", |k| matches!(
            k,
            EventKind::Expired { .. }
        ))
        .is_none()
    );
    // One step: the same crash, and the key expires 5 s after the grant.
    let one = run(&format!(
        "[lock]\nttl_ms = 5000\n{TWO_WORKERS}\n[[fault]]\nat_ms = 3\nkind = \"crash\"\nnode = \"A\""
    ));
    assert_eq!(
        first(&one, "store1", |k| matches!(k, EventKind::Expired { .. })),
        Some(5_002)
    );
}

#[test]
fn everysec_loses_what_changed_since_the_last_flush() {
    let cases = [
        // (crash at, what the restarted node holds) — the grant at 2 ms is flushed at 1 000.
        (500, Some(None)),
        (1_500, None),
    ];
    for (crash_ms, reloaded) in cases {
        let t = run(&format!(
            "[store]\npersistence = \"everysec\"\n[[worker]]\nname = \"A\"\nwork_ms = 3000\n\
             [[fault]]\nat_ms = {crash_ms}\nkind = \"crash\"\nnode = \"store1\"\n\
             [[fault]]\nat_ms = {}\nkind = \"restart\"\nnode = \"store1\"",
            crash_ms + 100
        ));
        let got = t.events.iter().find_map(|e| match e.kind {
            EventKind::Reloaded { holder, .. } => Some(holder),
            _ => None,
        });
        assert_eq!(got, reloaded, "crash at {crash_ms} ms");
    }
}

#[test]
fn an_uncounted_reentry_frees_the_lock_at_the_inner_release() {
    for (hold_count, frees_early) in [(true, false), (false, true)] {
        let t = run(&format!(
            "[lock]\nttl_ms = 60000\nreentrant = true\nhold_count = {hold_count}\n\
             [[worker]]\nname = \"A\"\nwork_ms = 4000\nnested = true"
        ));
        // The nested section starts at 2 000 ms of work and ends at 3 000 (true time adds the
        // read's and the re-entry's round trips, while the work waits for them).
        let left = first(&t, "A", |k| {
            matches!(k, EventKind::LeftNested { count: 1, .. })
        })
        .expect("the inner section ends");
        assert!((3_000..3_020).contains(&left), "left at {left}");
        let removed = first(&t, "store1", |k| matches!(k, EventKind::Removed { .. }))
            .expect("the lock is removed");
        assert_eq!(removed < 4_000, frees_early, "hold_count = {hold_count}");
    }
}

#[test]
fn stop_on_lock_loss_stops_when_the_own_lease_count_runs_out() {
    let t = run(r#"
[lock]
ttl_ms = 4000
renewal = "watchdog"
renew_every_ms = 1000
[[worker]]
name = "A"
work_ms = 12000
writes = 4
on_lock_loss = "stop"
[[fault]]
at_ms = 2000
kind = "partition"
groups = [["A"], ["store1"]]
for_ms = 10000
"#);
    let stopped = first(&t, "A", |k| {
        matches!(
            k,
            EventKind::LetGo {
                reason: LetGoReason::LockLost,
                ..
            }
        )
    })
    .expect("A stops");
    // Its last acknowledged renewal was sent at about 1 000 ms: 4 s later its count is out.
    assert!((5_000..5_100).contains(&stopped), "stopped at {stopped}");
    let late_write = first(&t, "resource", |k| {
        matches!(k, EventKind::WriteAccepted { .. })
    })
    .filter(|&at| at > stopped);
    assert!(late_write.is_none(), "no write after it stopped");
}

#[test]
fn force_release_deletes_the_key_whoever_holds_it() {
    for topology in ["single", "consensus"] {
        let nodes = if topology == "single" { 1 } else { 3 };
        let t = run(&format!(
            "[lock]\nttl_ms = 30000\n[store]\ntopology = \"{topology}\"\nnodes = {nodes}\n{TWO_WORKERS}\n\
             [[fault]]\nat_ms = 500\nkind = \"force_release\""
        ));
        let forced = t.events.iter().find_map(|e| match e.kind {
            EventKind::ForceReleased { holder, .. } => Some((e.at_ms, holder)),
            _ => None,
        });
        let (at, holder) = forced.unwrap_or_else(|| panic!("{topology}: no forced delete"));
        assert!(at >= 500, "{topology}");
        assert_eq!(holder.map(|h| t.token_name(h)), Some("A#1".to_string()));
        assert!(
            first(&t, "B", |k| matches!(k, EventKind::Acquired { .. })).is_some_and(|b| b < 1_000),
            "{topology}: B gets the lock at once"
        );
    }
}

#[test]
fn a_fast_store_clock_ends_its_leases_early_in_true_time() {
    let t = run(r#"
[lock]
ttl_ms = 10000
[[node]]
name = "store1"
clock_drift_ppm = 100000
[[worker]]
name = "A"
work_ms = 15000
"#);
    // 10 s on a clock running 10 % fast pass in about 9.1 s of true time.
    let expired = first(&t, "store1", |k| matches!(k, EventKind::Expired { .. })).unwrap();
    assert!((9_080..9_100).contains(&expired), "expired at {expired}");
}

#[test]
fn tcp_holds_a_message_across_a_partition_and_a_datagram_is_lost() {
    let body = |transport: &str| {
        format!(
            "[network]\ndelay_ms = [2, 2]\ntransport = \"{transport}\"\n[[worker]]\nname = \"A\"\nwork_ms = 1000\n\
             [[fault]]\nat_ms = 990\nkind = \"partition\"\ngroups = [[\"A\"], [\"resource\"]]\nfor_ms = 2000"
        )
    };
    // The write leaves at about 1 006 ms into the cut; TCP retransmits at send + 200, + 600,
    // + 1 400, + 3 000 ms: the first try after the heal (2 990 ms) is at about 4 006 ms.
    let t = run(&body("tcp"));
    let held = first(&t, "A", |k| matches!(k, EventKind::Held { .. })).expect("held");
    let resent = first(&t, "A", |k| matches!(k, EventKind::Retransmitted { .. })).expect("resent");
    assert_eq!(resent - held, 3_000);
    assert!(
        first(&t, "resource", |k| matches!(
            k,
            EventKind::WriteAccepted { .. }
        ))
        .is_some()
    );

    let t = run(&body("datagram"));
    assert!(t.events.iter().any(|e| matches!(
        e.kind,
        EventKind::Drop {
            reason: DropReason::Partition,
            ..
        }
    )));
    assert!(
        first(&t, "resource", |k| matches!(
            k,
            EventKind::WriteAccepted { .. }
        ))
        .is_none()
    );
}

#[test]
fn a_worker_counts_its_lease_from_the_request() {
    // The grant reply is held up 4 s: A believes it has about 2 s of its 6 s lease left.
    let t = run(r#"
[network]
delay_ms = [2, 2]
timeout_ms = 6000
[lock]
ttl_ms = 6000
[[worker]]
name = "A"
work_ms = 3000
[[fault]]
at_ms = 0
kind = "delay"
from = "store1"
to = "A"
extra_ms = 4000
for_ms = 100
"#);
    let lease = t.events.iter().find_map(|e| match e.kind {
        EventKind::Acquired { lease_ms, .. } => lease_ms,
        _ => None,
    });
    assert_eq!(lease, Some(1_996));
}
