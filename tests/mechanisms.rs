//! The modelled mechanisms, one state transition at a time: each test runs a small scenario
//! and reads the trace for the events the mechanism must (and must not) produce.

use locksim::checker::{self, ViolationKind};
use locksim::engine;
use locksim::scenario::{self, Scenario};
use locksim::trace::{DropReason, EventKind, LetGoReason, NodeId, Trace};

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

/// Two workers on the `timestamp` design, A from 0 ms and B from 100 ms, B's clock `b_offset`
/// ms off true time (and `extra` appended); the scenario and its run.
fn stamped(b_offset: i64, extra: &str) -> (Scenario, Trace) {
    let sc = scenario(&format!(
        r#"
[lock]
design = "timestamp"
settle_ms = 50
retry_ms = 100
retry_jitter_ms = 0
[[worker]]
name = "A"
work_ms = 1000
[[worker]]
name = "B"
start_ms = 100
work_ms = 500
clock_offset_ms = {b_offset}
{extra}"#
    ));
    let trace = engine::run(&sc, sc.seed);
    (sc, trace)
}

#[test]
fn a_timestamp_claim_is_recorded_then_read_after_the_settle_wait() {
    let (_, t) = stamped(0, "");
    let claimed = t.events.iter().find_map(|e| match e.kind {
        EventKind::Claimed {
            token, stamp_ms, ..
        } if token.worker == NodeId::new(0) => Some((e.at_ms, stamp_ms)),
        _ => None,
    });
    // Sent at 0 ms stamped with A's clock (0), recorded 2 ms later.
    assert_eq!(claimed, Some((2, 0)));
    // Acknowledged at 4 ms, 50 ms of settling, then a read: 54 ms out, 58 ms back.
    let acquired = first(&t, "A", |k| matches!(k, EventKind::Acquired { .. }));
    assert_eq!(acquired, Some(58));
    // The store granted nothing: it only keeps the claims.
    assert!(
        !t.events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Granted { .. }))
    );
}

#[test]
fn a_later_claim_waits_for_the_earlier_one_to_be_deleted() {
    let (sc, t) = stamped(0, "");
    let a_gone = first(
        &t,
        "store1",
        |k| matches!(k, EventKind::Unclaimed { token, .. } if token.worker == NodeId::new(0)),
    )
    .expect("A's release deletes its claim");
    let b_in = first(&t, "B", |k| matches!(k, EventKind::Acquired { .. })).expect("B goes in");
    assert!(b_in > a_gone, "B read A's earlier stamp until it was gone");
    assert!(checker::check(&sc, &t).violations.is_empty());
}

#[test]
fn a_slow_clock_lets_a_later_request_in_beside_the_holder() {
    // B asks 100 ms after A, but its clock is 300 ms behind: its stamp is the earlier one.
    let (sc, t) = stamped(-300, "");
    let b_stamp = t.events.iter().find_map(|e| match e.kind {
        EventKind::Claimed {
            token, stamp_ms, ..
        } if token.worker == NodeId::new(1) => Some(stamp_ms),
        _ => None,
    });
    assert_eq!(b_stamp, Some(-200));
    let b_in = first(&t, "B", |k| matches!(k, EventKind::Acquired { .. })).expect("B goes in");
    let a_out = first(&t, "A", |k| matches!(k, EventKind::LetGo { .. })).expect("A lets go");
    assert!(
        b_in < a_out,
        "B went in at {b_in} ms, while A held until {a_out} ms"
    );
    let v = checker::check(&sc, &t);
    assert!(
        v.violations
            .iter()
            .any(|v| v.kind == ViolationKind::Overlap)
    );
}

#[test]
fn a_crashed_claimants_claim_stays_and_blocks_the_rest() {
    let (sc, t) = stamped(0, "[[fault]]\nat_ms = 500\nkind = \"crash\"\nnode = \"A\"");
    assert!(first(&t, "B", |k| matches!(k, EventKind::Acquired { .. })).is_none());
    assert!(first(&t, "store1", |k| matches!(k, EventKind::Unclaimed { .. })).is_none());
    let v = checker::check(&sc, &t);
    assert!(
        v.violations.iter().any(|v| v.kind == ViolationKind::Stuck),
        "{:?}",
        v.violations
    );
}

/// The course's step 2 run: its failure comes from the clocks alone.
#[test]
fn the_step2_timestamp_race_is_unsafe_only_because_the_clocks_disagree() {
    let src = std::fs::read_to_string("assets/scenarios/step2-timestamp-race.toml")
        .expect("the step 2 scenario");
    let skewed = scenario::parse(&src).expect("valid");
    assert_eq!(skewed.lock.design, scenario::Design::Timestamp);
    let mut equal = skewed.clone();
    for w in &mut equal.workers {
        w.clock_offset_ms = 0;
        w.clock_drift_ppm = 0;
    }
    assert!(equal.faults.is_empty() && equal.network.loss == 0.0);
    for seed in 0..20 {
        let v = locksim::run(&skewed, seed).verdict;
        assert!(!v.safe, "seed {seed}: skewed clocks let two in");
        assert!(
            v.violations
                .iter()
                .any(|v| v.kind == ViolationKind::Overlap)
        );
        assert!(
            v.violations
                .iter()
                .any(|v| v.kind == ViolationKind::InterleavedWrites)
        );
        let v = locksim::run(&equal, seed).verdict;
        assert!(
            v.safe && v.live,
            "seed {seed}: equal clocks: {:?}",
            v.violations
        );
        assert!(v.violations.is_empty(), "seed {seed}: {:?}", v.violations);
    }
}

#[test]
fn a_redlock_renewal_that_wins_a_majority_extends_the_lease() {
    // A's 8 s job on a 3 s Redlock lease: the watchdog renews on every node, each majority
    // extends A's validity, and B waits until A releases (Redis docs: extending a Redlock
    // lease takes a majority, like acquiring it).
    let body = r#"
[lock]
ttl_ms = 3000
renewal = "watchdog"
[store]
topology = "redlock"
nodes = 3
[[worker]]
name = "A"
work_ms = 8000
[[worker]]
name = "B"
start_ms = 500
work_ms = 500
"#;
    let sc = scenario(body);
    let run = locksim::run(&sc, sc.seed);
    let t = &run.trace;
    let renewals = t
        .events
        .iter()
        .filter(|e| t.node_name(e.node) == "A" && matches!(e.kind, EventKind::Renewed { .. }))
        .count();
    assert!(renewals >= 2, "A's watchdog renewed {renewals} times");
    let failed = first(t, "A", |k| matches!(k, EventKind::RenewFailed { .. }));
    assert_eq!(failed, None, "no renewal failed on a healthy cluster");
    let b_in = first(t, "B", |k| matches!(k, EventKind::Acquired { .. })).expect("B gets in");
    let a_out = first(t, "A", |k| {
        matches!(
            k,
            EventKind::LetGo {
                reason: LetGoReason::Released,
                ..
            }
        )
    })
    .expect("A releases");
    assert!(
        b_in > a_out,
        "B got in at {b_in} ms, before A released at {a_out} ms"
    );
    assert!(run.good(), "{:?}", run.verdict.violations);
}
