//! What the verdict panel says beside its badges: what the verdict means for the data and the
//! lock, and how much work the lock let through. Each violation's own sentence is the
//! checker's ([`crate::checker::Violation::explanation`]); what its kind means is
//! [`crate::view::wording::gloss`].

use crate::checker::Verdict;
use crate::text::{fmt_counted, fmt_ms};

/// One sentence under the badges: what the verdict means for the data and the lock.
pub fn summary(verdict: &Verdict) -> String {
    let anomalies = verdict
        .violations
        .iter()
        .filter(|v| !v.kind.breaks_safety() && !v.kind.breaks_liveness())
        .count();
    let data = match (verdict.safe, anomalies) {
        (true, 0) => "The protected data stayed correct",
        (true, _) => "The protected data stayed correct, although the lock itself misbehaved",
        (false, _) => {
            "The protected data went wrong: the resource accepted a write it should have refused"
        }
    };
    let lock = match (verdict.safe, verdict.live) {
        (_, true) => ".",
        (true, false) => ", but work stopped: a worker was kept waiting for the lock.",
        (false, false) => ". And work stopped: a worker was kept waiting for the lock.",
    };
    format!("{data}{lock}")
}

/// The work the lock let through, the price of a contended lock: "4 critical sections done by
/// 10 052 ms (0.40 per simulated second)". `None` when none finished.
pub fn work(verdict: &Verdict) -> Option<String> {
    let w = verdict.work;
    let last = w.last_done_ms?;
    let sections = fmt_counted(w.completed, "critical section");
    Some(format!(
        "{sections} done by {} ({:.2} per simulated second)",
        fmt_ms(last),
        w.per_s()
    ))
}

/// The line in place of the list while it is empty: nothing found in the whole run
/// (`seen_to_end`), or nothing yet.
pub fn nothing_found(seen_to_end: bool) -> &'static str {
    if seen_to_end {
        "The checker found nothing wrong in this run."
    } else {
        "Nothing has gone wrong so far."
    }
}
