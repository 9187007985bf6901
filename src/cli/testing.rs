//! Small traces and verdicts for unit tests of the front-end code (this module and
//! [`crate::view::wording`]), so each test states only the events it is about.

use crate::checker::{Kind, Verdict, Violation};
use crate::scenario::{Design, Topology};
use crate::trace::{Event, EventKind, NodeId, NodeInfo, Role, Token, Trace};

/// Worker A's first attempt.
pub const A1: Token = Token { worker: 0, seq: 1 };
/// Worker B's first attempt.
pub const B1: Token = Token { worker: 1, seq: 1 };
/// Worker A's node id in [`trace`].
pub const A: NodeId = 0;
/// The first store node's id in [`trace`].
pub const STORE1: NodeId = 2;
/// The second store node's id in [`trace`].
pub const STORE2: NodeId = 3;

/// A fencing run on nodes A, B, store1, store2, resource with one key, `lock`.
pub fn trace(events: Vec<Event>) -> Trace {
    let node = |name: &str, role| NodeInfo {
        name: name.to_string(),
        role,
    };
    Trace {
        scenario: "test".to_string(),
        seed: 1,
        until_ms: 20_000,
        design: Design::Fencing,
        topology: Topology::Single,
        nodes: vec![
            node("A", Role::Worker),
            node("B", Role::Worker),
            node("store1", Role::Store),
            node("store2", Role::Store),
            node("resource", Role::Resource),
        ],
        keys: vec!["lock".to_string()],
        events,
        steps: 0,
        cut_short_at_ms: None,
    }
}

/// An event at true time `at_ms` whose node's clock reads `local_ms`.
pub fn event(at_ms: u64, node: NodeId, local_ms: i64, kind: EventKind) -> Event {
    Event {
        at_ms,
        node,
        local_ms,
        kind,
    }
}

/// A live verdict reporting one violation of each of `kinds` (times, nodes and text empty).
pub fn verdict(safe: bool, kinds: &[Kind]) -> Verdict {
    Verdict {
        safe,
        live: true,
        violations: kinds
            .iter()
            .map(|&kind| Violation {
                kind,
                at_ms: 0,
                nodes: Vec::new(),
                grants: Vec::new(),
                explanation: String::new(),
            })
            .collect(),
        cut_short_at_ms: None,
        more: Vec::new(),
        work: Default::default(),
    }
}
