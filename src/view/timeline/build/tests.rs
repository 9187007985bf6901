//! The lanes of real runs: the course's scenarios and cases, played by the engine and judged
//! by the checker.

use crate::checker::{Violation, ViolationKind};
use crate::trace::{DropReason, EventKind, KeyId, LetGoReason, NodeId, RejectReason, Role, Trace};
use crate::view::timeline::fixtures::{
    A, B, B1, CONSENSUS, RESOURCE, STORE1, engine_run, step5, step5_run, token,
};
use crate::view::timeline::{
    Lanes, LeaseEnd, LeaseLost, MarkClass, MarkKind, Message, SpanKind, Swatch, WriteOutcome,
};

/// Lane `node`'s spans: (start, end, label).
fn spans(lanes: &Lanes, node: NodeId) -> Vec<(u64, u64, &str)> {
    lanes.lanes[node.index()]
        .spans
        .iter()
        .map(|s| (s.start_ms, s.end_ms, s.label.as_str()))
        .collect()
}

#[test]
fn one_lane_per_node_in_trace_order() {
    let lanes = step5();
    let names: Vec<_> = lanes.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "store1", "resource"]);
    assert_eq!(lanes.lanes[STORE1.index()].role, Role::Store);
    assert_eq!(lanes.until_ms, 20_000);
}

#[test]
fn a_believes_long_after_its_lease_expired() {
    let lanes = step5();
    assert_eq!(
        spans(&lanes, A),
        [
            (0, 3, "waiting"),
            (3, 17_008, "A#1 · fence 1"),
            (1_000, 16_000, "paused 15 000 ms")
        ]
    );
    let a = &lanes.lanes[A.index()].spans[1];
    assert_eq!(
        a.kind,
        SpanKind::Belief {
            key: KeyId::new(0),
            token: token(A),
            fence: Some(1),
            row: 0,
            let_go: Some(LetGoReason::Rejected),
            lease_lost: Some(LeaseLost {
                at_ms: 10_002,
                cause: Some(LeaseEnd::Expired),
                label: "lease expired".to_string(),
            }),
        }
    );
    assert_eq!(a.end_label, "write rejected");
    assert!(matches!(
        lanes.lanes[A.index()].spans[2].kind,
        SpanKind::Paused
    ));
}

#[test]
fn b_lets_go_before_its_lease_ends() {
    let lanes = step5();
    assert_eq!(
        spans(&lanes, B),
        [
            (10_100, 10_104, "waiting"),
            (10_104, 11_113, "B#1 · fence 2")
        ]
    );
    let SpanKind::Belief { lease_lost, .. } = &lanes.lanes[B.index()].spans[1].kind else {
        panic!("B's second span is a belief");
    };
    assert_eq!(*lease_lost, None);
}

#[test]
fn store_leases_end_by_expiry_and_release() {
    let lanes = step5();
    assert_eq!(
        spans(&lanes, STORE1),
        [
            (2, 10_002, "A#1 · fence 1"),
            (10_101, 11_115, "B#1 · fence 2")
        ]
    );
    let ends: Vec<_> = lanes.lanes[STORE1.index()]
        .spans
        .iter()
        .map(|s| match s.kind {
            SpanKind::Lease {
                end,
                promised_end_ms,
                row,
                ..
            } => (end, promised_end_ms, row),
            _ => panic!("store lanes hold leases"),
        })
        .collect();
    assert_eq!(
        ends,
        [
            (LeaseEnd::Expired, Some(10_002), 0),
            (LeaseEnd::Removed { by: token(B) }, Some(20_101), 0)
        ]
    );
    assert_eq!(lanes.lanes[STORE1.index()].rows, 1);
    let end_labels: Vec<_> = lanes.lanes[STORE1.index()]
        .spans
        .iter()
        .map(|s| s.end_label.as_str())
        .collect();
    assert_eq!(end_labels, ["expired", "released"]);
}

#[test]
fn resource_marks_accepted_and_fenced_off_writes() {
    let lanes = step5();
    let marks: Vec<_> = lanes.lanes[RESOURCE.index()]
        .marks
        .iter()
        .map(|m| (m.at_ms, m.kind.clone(), m.label.as_str()))
        .collect();
    assert_eq!(
        marks,
        [
            (
                11_110,
                MarkKind::Write {
                    key: KeyId::new(0),
                    token: token(B),
                    fence: Some(2),
                    outcome: WriteOutcome::Accepted
                },
                "B#1 · fence 2 accepted"
            ),
            (
                17_007,
                MarkKind::Write {
                    key: KeyId::new(0),
                    token: token(A),
                    fence: Some(1),
                    outcome: WriteOutcome::Rejected {
                        reason: RejectReason::StaleToken,
                        highest_fence: Some(2)
                    }
                },
                "A#1 · fence 1 rejected"
            ),
        ]
    );
}

#[test]
fn a_write_the_verdict_names_is_violating() {
    let (trace, mut verdict) = step5_run();
    verdict.violations.push(Violation {
        kind: ViolationKind::StaleWrite,
        at_ms: 11_110,
        nodes: vec![B],
        grants: vec![token(B)],
        explanation: String::new(),
    });
    let lanes = Lanes::build(&trace, &verdict);
    let MarkKind::Write { outcome, .. } = lanes.lanes[RESOURCE.index()].marks[0].kind else {
        panic!("a write");
    };
    assert_eq!(outcome, WriteOutcome::Violating(ViolationKind::StaleWrite));
}

#[test]
fn a_lock_removed_by_another_names_who_removed_it() {
    let (mut trace, verdict) = step5_run();
    for event in &mut trace.events {
        if let EventKind::Expired { key, token } = event.kind {
            event.kind = EventKind::Removed {
                key,
                holder: token,
                by: B1,
            };
        }
    }
    let lanes = Lanes::build(&trace, &verdict);
    assert_eq!(
        lanes.lanes[STORE1.index()].spans[0].end_label,
        "removed by B#1"
    );
    let SpanKind::Belief { lease_lost, .. } = &lanes.lanes[A.index()].spans[1].kind else {
        panic!("A's second span is a belief");
    };
    assert_eq!(
        lease_lost.as_ref().map(|l| l.label.as_str()),
        Some("removed by B#1")
    );
}

#[test]
fn moments_are_the_times_something_changes() {
    assert_eq!(
        step5().moments,
        [
            0, 2, 3, 1_000, 10_002, 10_100, 10_101, 10_104, 11_110, 11_113, 11_115, 16_000, 17_007,
            17_008
        ]
    );
}

#[test]
fn a_reentrant_holder_shows_its_hold_count_rise_and_fall() {
    let (trace, lanes) = engine_run(include_str!(
        "../../../../assets/scenarios/step7-nested-reentrant.toml"
    ));
    let a = trace.nodes.iter().position(|n| n.name == "A").unwrap();
    let holds: Vec<(u32, bool, &str)> = lanes.lanes[a]
        .marks
        .iter()
        .filter_map(|m| match m.kind {
            MarkKind::Hold { count, entered, .. } => Some((count, entered, m.label.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(holds, [(2, true, "holds ×2"), (1, false, "holds ×1")]);
    assert!(lanes.legend.iter().any(|(s, _)| *s == Swatch::Hold));
}

#[test]
fn an_uncounted_reentry_shows_no_hold_count_and_its_release_frees_the_lock() {
    let (trace, lanes) = engine_run(include_str!(
        "../../../../assets/scenarios/step7-uncounted-reentry.toml"
    ));
    let a = trace.nodes.iter().position(|n| n.name == "A").unwrap();
    let labels: Vec<&str> = lanes.lanes[a]
        .marks
        .iter()
        .filter(|m| matches!(m.kind, MarkKind::Hold { .. }))
        .map(|m| m.label.as_str())
        .collect();
    assert_eq!(labels, ["in again, uncounted", "released: lock free"]);
    let words: Vec<String> = trace
        .events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Reentered { .. } | EventKind::LeftNested { .. }
            )
        })
        .map(|e| crate::view::wording::describe(&trace, e))
        .collect();
    assert!(words.iter().all(|w| !w.contains("hold count")), "{words:?}");
    assert!(words[1].contains("this frees the lock"), "{words:?}");
}

#[test]
fn a_write_held_by_tcp_waits_then_lands_and_its_partition_ends() {
    let (_, lanes) = engine_run(include_str!(
        "../../../../assets/cases/partition-holds-write-until-heal.toml"
    ));
    let held: Vec<&Message> = lanes.held.iter().map(|&i| &lanes.messages[i]).collect();
    let write = held
        .iter()
        .find(|m| m.what.starts_with("write"))
        .expect("A's write is held");
    // Sent at 1 008 ms into the cut, sent again at + 12 600 ms, after the heal at 8 990.
    assert_eq!((write.sent_ms, write.left_ms), (1_008, 13_608));
    assert!(write.end_ms > write.left_ms && write.dropped.is_none());
    assert_eq!(
        lanes.partitions[0].end_ms, 8_990,
        "the cut ends when it heals"
    );
}

#[test]
fn messages_fly_from_send_to_arrival_or_loss() {
    let (trace, lanes) = engine_run(CONSENSUS);
    let store1 = trace.node_id("store1").unwrap();
    assert!(lanes.messages.is_sorted_by_key(|m| m.sent_ms));
    assert!(lanes.messages.iter().all(|m| m.end_ms >= m.sent_ms));
    // store1 crashes at 50 ms: what is sent to it afterwards is lost.
    let lost = lanes
        .messages
        .iter()
        .find(|m| m.to == store1 && m.sent_ms > 50)
        .expect("messages to the crashed leader");
    assert_eq!(lost.dropped, Some(DropReason::Crashed));
    let swatches: Vec<Swatch> = lanes.legend.iter().map(|&(s, _)| s).collect();
    assert!(swatches.contains(&Swatch::Message) && swatches.contains(&Swatch::Dropped));
}

#[test]
fn store_lanes_mark_who_leads() {
    let (_, lanes) = engine_run(CONSENSUS);
    let roles = |name: &str| -> Vec<(u64, String)> {
        let lane = lanes.lanes.iter().find(|l| l.name == name).unwrap();
        lane.marks
            .iter()
            .filter(|m| m.kind.class() == MarkClass::Leader)
            .map(|m| (m.at_ms, m.label.clone()))
            .collect()
    };
    assert_eq!(roles("store1"), [(0, "leader · term 1".to_string())]);
    let store2 = roles("store2");
    assert_eq!(store2.len(), 1, "{store2:?}");
    assert_eq!(store2[0].1, "leader · term 2");
}

/// The outcome of each write the resource received, in time order, with its writer.
fn write_outcomes(trace: &Trace, lanes: &Lanes) -> Vec<(u64, String, WriteOutcome)> {
    let resource = trace.nodes.iter().position(|n| n.role == Role::Resource);
    lanes.lanes[resource.expect("a resource")]
        .marks
        .iter()
        .filter_map(|m| match m.kind {
            MarkKind::Write { token, outcome, .. } => {
                Some((m.at_ms, trace.node_name(token.worker).to_string(), outcome))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn every_write_of_an_older_grant_after_a_newer_grants_write_is_red() {
    // store1 dies before its copy of A's grant reaches store2, which grants B: B writes
    // once, then A writes twice. Both of A's writes land after B's: both are stale.
    let (trace, lanes) = engine_run(include_str!(
        "../../../../assets/scenarios/step6-async-failover.toml"
    ));
    use WriteOutcome::*;
    assert_eq!(
        write_outcomes(&trace, &lanes),
        [
            (2_516, "B".to_string(), Accepted),
            (5_009, "A".to_string(), Violating(ViolationKind::StaleWrite)),
            (
                10_013,
                "A".to_string(),
                Violating(ViolationKind::StaleWrite)
            ),
        ]
    );
}

#[test]
fn interleaved_writes_are_marked_on_the_write_that_loses_an_update() {
    // A read at 5 ms and, paused, wrote at 17 007 ms; B read and wrote in between. B's
    // write was sound; A's overwrote it with a value computed from its old read. Both
    // violations name A's write; the stale write comes first, as in the verdict panel.
    let (trace, lanes) = engine_run(include_str!(
        "../../../../assets/scenarios/step5-pause-unfenced.toml"
    ));
    use WriteOutcome::*;
    assert_eq!(
        write_outcomes(&trace, &lanes),
        [
            (11_110, "B".to_string(), Accepted),
            (
                17_007,
                "A".to_string(),
                Violating(ViolationKind::StaleWrite)
            ),
        ]
    );
}

/// A store lane's bars: (start, end, label), in time order.
fn bars(trace: &Trace, lanes: &Lanes, name: &str) -> Vec<(u64, u64, String)> {
    let node = trace.nodes.iter().position(|n| n.name == name).expect(name);
    lanes.lanes[node]
        .spans
        .iter()
        .filter(|s| s.kind.bar_row().is_some())
        .map(|s| (s.start_ms, s.end_ms, s.label.clone()))
        .collect()
}

#[test]
fn a_crashed_leaders_grant_is_frozen_on_its_disk_not_live() {
    // store1 grants A and crashes at 50 ms, never to come back.
    let (trace, lanes) = engine_run(CONSENSUS);
    assert_eq!(
        bars(&trace, &lanes, "store1"),
        [
            (5, 50, "A#1 · fence 1".to_string()),
            (50, 25_000, "on disk, node down: A#1 · fence 1".to_string()),
        ]
    );
    // Frozen is still held: A's belief is not drawn as lost while store1 is down.
    let SpanKind::Belief { lease_lost, .. } = &lanes.lanes[A.index()].spans[1].kind else {
        panic!("A's second span is a belief");
    };
    assert_eq!(*lease_lost, None);
}

/// One worker holding a 30 s lease on a single store that crashes at `crash_ms` and restarts
/// at 3 000 ms, keeping what `persistence` keeps; store1's bars.
fn crash_and_restart(persistence: &str, crash_ms: u64) -> Vec<(u64, u64, String)> {
    let source = format!(
        r#"
        version = 1
        name = "crash and restart with {persistence}"
        seed = 1
        until_ms = 8000
        [lock]
        design = "token"
        ttl_ms = 30000
        [store]
        persistence = "{persistence}"
        [[worker]]
        name = "A"
        work_ms = 6000
        [[fault]]
        at_ms = {crash_ms}
        kind = "crash"
        node = "store1"
        [[fault]]
        at_ms = 3000
        kind = "restart"
        node = "store1"
    "#
    );
    let (trace, lanes) = engine_run(&source);
    bars(&trace, &lanes, "store1")
}

#[test]
fn a_single_store_comes_back_live_with_what_its_disk_holds() {
    // fsync: the restarted node still holds A's grant, so its bar is live again.
    let store = crash_and_restart("fsync", 1_000);
    assert_eq!(store[0].1, 1_000, "{store:?}");
    assert_eq!((store[1].0, store[1].1), (1_000, 3_000), "{store:?}");
    assert!(store[1].2.starts_with("on disk, node down"), "{store:?}");
    assert_eq!(store[2].0, 3_000, "{store:?}");
    assert_eq!(store[2].2, "A#1", "{store:?}");
}

#[test]
fn an_everysec_crash_before_the_flush_ends_the_grant_at_the_crash_with_nothing_on_disk() {
    // store1 grants A at 2 ms and crashes at 500 ms, before its first flush at 1 000 ms.
    let (trace, lanes) = engine_run(include_str!(
        "../../../../assets/scenarios/step6-aof-everysec-restart.toml"
    ));
    let store = bars(&trace, &lanes, "store1");
    assert_eq!(store[0], (2, 500, "A#1".to_string()), "{store:?}");
    assert!(
        store.iter().all(|b| !b.2.starts_with("on disk")),
        "nothing of A#1 is drawn on disk: {store:?}"
    );
    let node = trace.nodes.iter().position(|n| n.name == "store1").unwrap();
    let lost = lanes.lanes[node]
        .spans
        .iter()
        .find(|s| s.kind.bar_row().is_some())
        .unwrap();
    assert_eq!(lost.end_label, "lost: not yet on disk", "{store:?}");
    assert!(
        !store[1].2.starts_with("A#1"),
        "no live bar for A after the restart: {store:?}"
    );
}

#[test]
fn a_grant_already_flushed_stays_on_disk_through_an_everysec_crash() {
    let store = crash_and_restart("everysec", 1_500);
    assert_eq!((store[1].0, store[1].1), (1_500, 3_000), "{store:?}");
    assert!(store[1].2.starts_with("on disk, node down"), "{store:?}");
    assert_eq!(store[2].2, "A#1", "{store:?}");
}

#[test]
fn followers_show_the_acquire_they_logged_and_the_new_leader_takes_it_over() {
    let (trace, lanes) = engine_run(CONSENSUS);
    // Both followers logged A's acquire before store1 decided it at 5 ms: a majority.
    // store2's copy lasts until it takes the lease over as the new leader at 1 510 ms.
    let store2 = bars(&trace, &lanes, "store2");
    assert_eq!(store2[0], (4, 1_510, "logged A#1".to_string()));
    assert_eq!(store2[1].0, 1_510);
    assert_eq!(store2[1].2, "took over A#1 · fence 1 from the log");
    let store3 = bars(&trace, &lanes, "store3");
    assert_eq!(
        store3[0],
        (5, 10_227, "logged A#1".to_string()),
        "ends with A's release"
    );
    let swatches: Vec<Swatch> = lanes.legend.iter().map(|&(s, _)| s).collect();
    for s in [Swatch::Logged, Swatch::TookOver, Swatch::OnDisk] {
        assert!(swatches.contains(&s), "{s:?} in {swatches:?}");
    }
}

#[test]
fn every_span_is_in_one_track_and_tracks_never_overlap() {
    let sources = [
        CONSENSUS,
        crate::scenario::library::text(
            crate::scenario::library::COURSE,
            "step7-nested-not-reentrant.toml",
        ),
        crate::scenario::library::text(
            crate::scenario::library::COURSE,
            "step6-async-failover.toml",
        ),
    ];
    for source in sources {
        let (_, lanes) = engine_run(source);
        for lane in &lanes.lanes {
            let mut seen: Vec<usize> = lane.tracks.iter().flat_map(|t| t.spans.clone()).collect();
            seen.sort_unstable();
            assert_eq!(
                seen,
                (0..lane.spans.len()).collect::<Vec<_>>(),
                "{}",
                lane.name
            );
            for track in &lane.tracks {
                for pair in track.spans.windows(2) {
                    let (a, b) = (&lane.spans[pair[0]], &lane.spans[pair[1]]);
                    assert!(
                        a.end_ms <= b.start_ms,
                        "{}: {a:?} overlaps {b:?}",
                        lane.name
                    );
                }
            }
        }
    }
}

#[test]
fn a_stuck_lock_is_marked_only_once_the_run_is_shown_to_its_end() {
    let source = crate::scenario::library::text(
        crate::scenario::library::COURSE,
        "step1-flag-holder-crash.toml",
    );
    let (_, verdict, lanes) = crate::view::timeline::fixtures::laid_out(source);
    let kinds = |shown_until_ms: f64| -> Vec<ViolationKind> {
        lanes
            .markers(shown_until_ms)
            .flat_map(|m| m.violations.iter().map(|&i| verdict.violations[i].kind))
            .collect()
    };
    let stuck = verdict
        .violations
        .iter()
        .find(|v| v.kind == ViolationKind::Stuck)
        .expect("the holder crashes with the lock and no lease");
    // Well after the holder stopped, the run still plays: starved may show, stuck not yet.
    let playing = kinds(lanes.until_ms as f64 - 1.0);
    assert!(stuck.at_ms < lanes.until_ms - 1);
    assert!(!playing.contains(&ViolationKind::Stuck), "{playing:?}");
    assert!(kinds(lanes.until_ms as f64).contains(&ViolationKind::Stuck));
}

#[test]
fn a_run_cut_short_is_drawn_only_up_to_the_cut() {
    // Step 5 as the event budget would leave it at 5 000 ms: A is paused (until 16 000 ms
    // had the run gone on) and B waits; nothing after the cut was simulated.
    let (mut trace, verdict) = step5_run();
    trace.events.retain(|e| e.at_ms <= 5_000);
    trace.cut_short_at_ms = Some(5_000);
    let lanes = Lanes::build(&trace, &verdict);
    assert_eq!(lanes.until_ms, 5_000);
    for lane in &lanes.lanes {
        for span in &lane.spans {
            assert!(span.end_ms <= 5_000, "{}: {span:?}", lane.name);
        }
    }
    assert!(lanes.moments.iter().all(|&t| t <= 5_000));
}

#[test]
fn a_grant_with_no_expiry_is_not_called_a_lease_in_the_legend() {
    let flag =
        crate::scenario::library::text(crate::scenario::library::COURSE, "step1-flag-race.toml");
    let (_, _, lanes) = crate::view::timeline::fixtures::laid_out(flag);
    let swatches: Vec<Swatch> = lanes.legend.iter().map(|&(s, _)| s).collect();
    assert!(swatches.contains(&Swatch::Grant), "{swatches:?}");
    assert!(!swatches.contains(&Swatch::Lease), "{swatches:?}");
    let step5 = step5();
    let swatches: Vec<Swatch> = step5.legend.iter().map(|&(s, _)| s).collect();
    assert!(swatches.contains(&Swatch::Lease) && !swatches.contains(&Swatch::Grant));
}
