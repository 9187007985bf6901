//! A hand-built run shaped like step 5 (fencing token), standing in for the engine and the
//! checker until they land: the window shows it when `engine::run` returns no events, and the
//! lane tests read it. Remove it with the fallback in [`super::simulate_or_stand_in`].
//!
//! The story, in true ms: store1 grants A.1 (fence 1, lease 10 000) at 4; A learns it at 6;
//! A freezes from 1 000 to 16 000; store1 expires A.1 at 10 004; store1 grants B.1 (fence 2)
//! at 10 102; the resource accepts B's write at 11 104; B releases; A wakes, writes with
//! fence 1, and the resource rejects it at 17 004.

use crate::checker::{Kind, Verdict, Violation};
use crate::scenario::{Design, Topology};
use crate::trace::{
    Event, EventKind, LetGoReason, NodeId, NodeInfo, RejectReason, Role, Token, Trace,
};

const A: NodeId = 0;
const B: NodeId = 1;
const STORE1: NodeId = 2;
const RESOURCE: NodeId = 3;
const LOCK: u32 = 0;
const A1: Token = Token { worker: A, seq: 1 };
const B1: Token = Token { worker: B, seq: 1 };

/// The step-5 run: nodes A, B, store1, resource; one key, `lock`.
pub fn step5_trace() -> Trace {
    let node = |name: &str, role| NodeInfo {
        name: name.to_string(),
        role,
    };
    // Every clock here is exact, so local time equals true time.
    let ev = |at_ms: u64, node: NodeId, kind| Event {
        at_ms,
        node,
        local_ms: at_ms as i64,
        kind,
    };
    let events = vec![
        ev(
            0,
            A,
            EventKind::AcquireStarted {
                key: LOCK,
                token: A1,
            },
        ),
        ev(
            4,
            STORE1,
            EventKind::Granted {
                key: LOCK,
                token: A1,
                fence: Some(1),
                lease_ms: Some(10_000),
            },
        ),
        ev(
            6,
            A,
            EventKind::Acquired {
                key: LOCK,
                token: A1,
                fence: Some(1),
                lease_ms: Some(9_994),
            },
        ),
        ev(1_000, A, EventKind::Paused { for_ms: 15_000 }),
        ev(
            10_004,
            STORE1,
            EventKind::Expired {
                key: LOCK,
                token: A1,
            },
        ),
        ev(
            10_100,
            B,
            EventKind::AcquireStarted {
                key: LOCK,
                token: B1,
            },
        ),
        ev(
            10_102,
            STORE1,
            EventKind::Granted {
                key: LOCK,
                token: B1,
                fence: Some(2),
                lease_ms: Some(10_000),
            },
        ),
        ev(
            10_104,
            B,
            EventKind::Acquired {
                key: LOCK,
                token: B1,
                fence: Some(2),
                lease_ms: Some(9_996),
            },
        ),
        ev(
            11_104,
            RESOURCE,
            EventKind::WriteAccepted {
                key: LOCK,
                token: B1,
                fence: Some(2),
                value: 1,
                version: 1,
            },
        ),
        ev(
            11_106,
            B,
            EventKind::LetGo {
                key: LOCK,
                token: B1,
                reason: LetGoReason::Released,
            },
        ),
        ev(
            11_108,
            STORE1,
            EventKind::Removed {
                key: LOCK,
                holder: B1,
                by: B1,
            },
        ),
        ev(16_000, A, EventKind::Resumed),
        ev(
            17_004,
            RESOURCE,
            EventKind::WriteRejected {
                key: LOCK,
                token: A1,
                fence: Some(1),
                reason: RejectReason::StaleToken,
            },
        ),
        ev(
            17_006,
            A,
            EventKind::LetGo {
                key: LOCK,
                token: A1,
                reason: LetGoReason::Rejected,
            },
        ),
    ];
    Trace {
        scenario: "Step 5 · Fencing token (stand-in)".to_string(),
        seed: 1,
        until_ms: 20_000,
        design: Design::Fencing,
        topology: Topology::Single,
        nodes: vec![
            node("A", Role::Worker),
            node("B", Role::Worker),
            node("store1", Role::Store),
            node("resource", Role::Resource),
        ],
        keys: vec!["lock".to_string()],
        steps: events.len() as u64,
        events,
    }
}

/// What the checker is expected to say of [`step5_trace`]: safe, live, one overlap.
pub fn step5_verdict() -> Verdict {
    Verdict {
        safe: true,
        live: true,
        violations: vec![Violation {
            kind: Kind::Overlap,
            at_ms: 10_104,
            nodes: vec![A, B],
            grants: vec![A1, B1],
            explanation: "A and B both believed they held the lock from 10 104 ms to 11 106 ms: \
                          A was paused and never learned its lease had expired at 10 004 ms."
                .to_string(),
        }],
    }
}
