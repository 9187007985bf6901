//! Wording shared by every check: node names, grant labels, where a run ended.
//!
//! Strings are only built for violations that are reported, never per event.

use crate::order;
use crate::text::{fmt_ms, printable};
use crate::trace::{KeyId, NodeId, Token, Trace};

/// A node's name; `?` for an id the trace does not list (the checker never panics on a trace).
pub(super) fn node(trace: &Trace, id: NodeId) -> &str {
    trace.nodes.get(id.index()).map_or("?", |n| n.name.as_str())
}

/// A key's name, quoted as students see it in the sentences: `'lock'`.
pub(super) fn key(trace: &Trace, id: KeyId) -> String {
    let name = trace.keys.get(id.index()).map_or("?", String::as_str);
    format!("'{}'", printable(name, false))
}

/// A token as `A#1`, via [`Trace::token_name`] when its worker is a known node.
pub(super) fn token(trace: &Trace, t: Token) -> String {
    if (t.worker.index()) < trace.nodes.len() {
        trace.token_name(t)
    } else {
        format!("?.{}", t.seq)
    }
}

/// A token with its fencing token when the design issues one: `A#1 (fence 3)`.
pub(super) fn grant(trace: &Trace, t: Token, fence: Option<u64>) -> String {
    match fence {
        Some(f) => format!("{} (fence {f})", token(trace, t)),
        None => token(trace, t),
    }
}

/// Node names joined with commas, e.g. `store1, store2, store3`.
pub(super) fn node_list(trace: &Trace, ids: &[NodeId]) -> String {
    let names: Vec<&str> = ids.iter().map(|&id| node(trace, id)).collect();
    names.join(", ")
}

/// Where simulated time ended, for a sentence: "at the end of the run (20 000 ms)", or "when the run
/// was cut short (1 311 968 ms)" if the engine's event budget stopped it first.
pub(super) fn horizon(trace: &Trace) -> String {
    match trace.cut_short_at_ms {
        Some(at) => format!("when the run was cut short ({})", fmt_ms(at)),
        None => format!("at the end of the run ({})", fmt_ms(trace.until_ms)),
    }
}

/// Sorts and deduplicates the node list of a violation (the contract of `Violation::nodes`).
pub(super) fn nodes(mut ids: Vec<NodeId>) -> Vec<NodeId> {
    order::sort(&mut ids);
    ids.dedup();
    ids
}
