//! A verdict held against a scenario's `[expect]` table: what `locksim verify` and the snapshot
//! tests report for a scenario that no longer shows what it was written to show.

use super::{Verdict, ViolationKind};
use crate::scenario::Expect;

impl Verdict {
    /// Each way this verdict falls short of a scenario's `[expect]` table, one phrase each
    /// (`expected safe=true, got false`, `missing stale_write`, `unexpected stuck`); empty when
    /// every expectation is met.
    pub fn unmet(&self, expect: &Expect) -> Vec<String> {
        let mut problems = Vec::new();
        for (what, wanted, got) in [
            ("safe", expect.safe, self.safe),
            ("live", expect.live, self.live),
        ] {
            if let Some(wanted) = wanted.filter(|&w| w != got) {
                problems.push(format!("expected {what}={wanted}, got {got}"));
            }
        }
        for &kind in &expect.kinds {
            if !self.has(kind) {
                problems.push(format!("missing {kind}"));
            }
        }
        for &kind in &expect.absent {
            if self.has(kind) {
                problems.push(format!("unexpected {kind}"));
            }
        }
        problems
    }

    /// The `[expect]` table that states this verdict: safe or not, live or not, and every
    /// kind it reports, in [`ViolationKind::ALL`] order. The verdict meets it, so a run saved with it
    /// (a failure `locksim search` found) is one `verify` keeps.
    pub fn expectation(&self) -> Expect {
        Expect {
            safe: Some(self.safe),
            live: Some(self.live),
            kinds: ViolationKind::ALL
                .into_iter()
                .filter(|&k| self.has(k))
                .collect(),
            ..Expect::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::checker::ViolationKind;
    use crate::scenario::Expect;
    use crate::testkit::verdict;

    #[test]
    fn every_unmet_expectation_is_named() {
        let expect = Expect {
            safe: Some(true),
            live: None,
            kinds: vec![ViolationKind::Overlap, ViolationKind::StaleWrite],
            absent: vec![ViolationKind::ForeignRelease],
            ..Expect::default()
        };
        assert_eq!(
            verdict(true, &[ViolationKind::Overlap]).unmet(&expect),
            ["missing stale_write"]
        );
        assert_eq!(
            verdict(
                false,
                &[ViolationKind::Overlap, ViolationKind::ForeignRelease]
            )
            .unmet(&expect),
            [
                "expected safe=true, got false",
                "missing stale_write",
                "unexpected foreign_release"
            ]
        );
    }

    #[test]
    fn a_verdict_meets_the_expectation_that_states_it() {
        let safe = verdict(true, &[]);
        assert_eq!(
            safe.expectation(),
            Expect {
                safe: Some(true),
                live: Some(true),
                ..Expect::default()
            }
        );
        // Reported in time order; stated in the checker's order of kinds.
        let mut starved = verdict(
            false,
            &[
                ViolationKind::Starved,
                ViolationKind::Overlap,
                ViolationKind::StaleWrite,
            ],
        );
        starved.live = false;
        assert_eq!(
            starved.expectation(),
            Expect {
                safe: Some(false),
                live: Some(false),
                kinds: vec![
                    ViolationKind::StaleWrite,
                    ViolationKind::Overlap,
                    ViolationKind::Starved
                ],
                ..Expect::default()
            }
        );
        for v in [safe, starved] {
            assert!(v.unmet(&v.expectation()).is_empty());
        }
    }

    #[test]
    fn an_empty_expectation_is_met() {
        assert!(
            verdict(false, &[ViolationKind::Stuck])
                .unmet(&Expect::default())
                .is_empty()
        );
    }
}
