//! Owner-token designs (`token`, `fencing`) never release another owner's lock: the only
//! `foreign_release` left is an operator's `force_release`.

use locksim::checker::Kind;
use locksim::trace::EventKind;
use proptest::prelude::*;

use crate::generate::{Profile, repro, scenario};
use crate::{config, listing, run_and_check};

proptest! {
    #![proptest_config(config(5))]
    /// Compare-and-delete: with owner tokens a release only ever removes the releaser's own
    /// lock, on every topology and under every fault.
    #[test]
    fn owner_tokens_never_release_a_foreign_lock(sc in scenario(Profile::OwnerToken)) {
        let (trace, v) = run_and_check(&sc)?;
        for e in &trace.events {
            if let EventKind::Removed { holder, by, .. } = &e.kind {
                prop_assert_eq!(
                    holder, by,
                    "at {} ms a release removed another grant's lock\n{}", e.at_ms, repro(&sc)
                );
            }
        }
        // The only foreign release left is an operator's delete (`force_release`).
        let forced: Vec<u64> = trace
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::ForceReleased { holder: Some(_), .. }))
            .map(|e| e.at_ms)
            .collect();
        for x in v.violations.iter().filter(|x| x.kind == Kind::ForeignRelease) {
            prop_assert!(
                forced.contains(&x.at_ms),
                "foreign_release with owner tokens:\n{}{}", listing(&v), repro(&sc)
            );
        }
    }
}
