//! What the app shows in an egui_kittest harness, read from its AccessKit tree: shared by the
//! UI tests so that each asks the same question the same way.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use locksim::app::LocksimApp;

/// Whether any node's text (a label's value, a button's label) contains `text`.
pub fn shows(h: &Harness<'_, LocksimApp>, text: &str) -> bool {
    h.query_all_by(|node| {
        node.value().is_some_and(|v| v.contains(text))
            || node.label().is_some_and(|l| l.contains(text))
    })
    .next()
    .is_some()
}

/// Whether some node's text is exactly `text` (a verdict badge, say).
pub fn shows_exactly(h: &Harness<'_, LocksimApp>, text: &str) -> bool {
    h.query_all_by(|node| {
        node.value().as_deref() == Some(text) || node.label().as_deref() == Some(text)
    })
    .next()
    .is_some()
}
