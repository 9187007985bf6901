//! What the verdict panel says beside its badges: what the verdict means for the data and the
//! lock, and how much work the lock let through. Each violation's own sentence is the
//! checker's ([`crate::checker::Violation::explanation`]); what its kind means is
//! [`crate::view::wording::gloss`].

use crate::checker::{Verdict, ViolationKind};
use crate::text::{fmt_counted, fmt_ms};

/// One sentence under the badges: what the verdict means for the data and the lock.
pub fn summary(verdict: &Verdict) -> String {
    let anomalies = verdict
        .violations
        .iter()
        .filter(|v| !v.kind.breaks_safety() && !v.kind.breaks_liveness())
        .count();
    // SAFE speaks for the data. Mutual exclusion, which other texts call a lock's safety
    // property, is said apart when it broke.
    let exclusion_broke = verdict
        .violations
        .iter()
        .any(|v| matches!(v.kind, ViolationKind::Overlap | ViolationKind::DoubleGrant));
    let data = match (verdict.safe, anomalies) {
        (true, 0) => "The protected data stayed correct",
        (true, _) if exclusion_broke => {
            "The protected data stayed correct, though mutual exclusion broke: two workers \
             held the lock at once"
        }
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
        "{sections} done by {} ({:.2} per simulated second){}",
        fmt_ms(last),
        w.per_s(),
        refused(w)
    ))
}

/// "; 1 refused by the resource, never completed" when the resource turned work away.
pub fn refused(work: crate::checker::Work) -> String {
    if work.refused == 0 {
        String::new()
    } else {
        format!(
            "; {} refused by the resource, never completed",
            fmt_counted(work.refused, "critical section")
        )
    }
}

/// What a view of the run cut at `shown_ms` (true ms, before the horizon `until_ms`) says
/// before the verdict, which is the whole run's: how far it shows, and what the checker had
/// found by then. "Run shown up to 15 ms of 20 000 ms: nothing had gone wrong by then. The
/// verdict is the whole run's:".
pub fn shown_up_to(verdict: &Verdict, shown_ms: u64, until_ms: u64) -> String {
    let mut kinds: Vec<&str> = Vec::new();
    for v in verdict.violations.iter().filter(|v| v.at_ms <= shown_ms) {
        if !kinds.contains(&v.kind.as_str()) {
            kinds.push(v.kind.as_str());
        }
    }
    let by_then = if kinds.is_empty() {
        "nothing had gone wrong by then".to_string()
    } else {
        format!("by then the checker had found {}", kinds.join(", "))
    };
    format!(
        "Run shown up to {} of {}: {by_then}. The verdict is the whole run's:",
        fmt_ms(shown_ms),
        fmt_ms(until_ms)
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::ViolationKind;
    use crate::testkit::verdict;

    /// SAFE speaks for the data; a broken mutual exclusion is said apart, so a learner who
    /// reads "safety" as exclusion elsewhere is not misled.
    #[test]
    fn a_safe_run_whose_exclusion_broke_says_so() {
        assert_eq!(
            summary(&verdict(true, &[])),
            "The protected data stayed correct."
        );
        assert_eq!(
            summary(&verdict(true, &[ViolationKind::Overlap])),
            "The protected data stayed correct, though mutual exclusion broke: two workers \
             held the lock at once."
        );
        assert_eq!(
            summary(&verdict(true, &[ViolationKind::ForeignRelease])),
            "The protected data stayed correct, although the lock itself misbehaved."
        );
    }

    #[test]
    fn a_cut_view_says_how_far_it_shows_and_what_was_found_by_then() {
        let mut v = verdict(
            false,
            &[
                ViolationKind::Overlap,
                ViolationKind::StaleWrite,
                ViolationKind::Overlap,
            ],
        );
        for (violation, at) in v.violations.iter_mut().zip([9_000, 11_110, 12_000]) {
            violation.at_ms = at;
        }
        assert_eq!(
            shown_up_to(&v, 15, 20_000),
            "Run shown up to 15 ms of 20 000 ms: nothing had gone wrong by then. The verdict \
             is the whole run's:"
        );
        assert_eq!(
            shown_up_to(&v, 11_110, 20_000),
            "Run shown up to 11 110 ms of 20 000 ms: by then the checker had found overlap, \
             stale_write. The verdict is the whole run's:"
        );
    }
}
