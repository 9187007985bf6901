//! Verdicts made by hand, and reading the checker's.

use crate::Judged;
use crate::checker::{Price, Verdict, Violation, ViolationKind};
use crate::sweep::Outcome;

/// A live verdict reporting one violation of each of `kinds` (times, nodes and text empty).
pub fn verdict(safe: bool, kinds: &[ViolationKind]) -> Verdict {
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

/// The violations of `kind`, in verdict order.
pub fn only(v: &Verdict, kind: ViolationKind) -> Vec<&Violation> {
    v.violations.iter().filter(|x| x.kind == kind).collect()
}

/// The outcome of a run of `seed` that recorded `events` events (as many engine steps), got
/// `verdict` and cost `price`.
pub fn outcome(seed: u64, events: u64, verdict: &Verdict, price: Price) -> Outcome {
    let run = Judged {
        verdict: verdict.clone(),
        price,
        events,
        steps: events,
    };
    Outcome::of(seed, run)
}
