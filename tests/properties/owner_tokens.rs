//! Owner-token designs (`token`, `fencing`) never release another owner's lock: the only
//! `foreign_release` left is a delete from outside the owner's protocol, an operator's
//! `force_release` or a waiters' health check (`lock.ping_timeout_ms`).

use locksim::checker::ViolationKind;
use locksim::trace::EventKind;
use proptest::prelude::*;

use crate::generate::{Profile, health_check_deletes, repro, scenario};
use crate::{config, listing, run_and_check};

proptest! {
    #![proptest_config(config(5))]
    /// Compare-and-delete: with owner tokens a release only ever removes the releaser's own
    /// lock, on every topology and under every fault.
    #[test]
    fn owner_tokens_never_release_a_foreign_lock(sc in scenario(Profile::OwnerToken)) {
        let (trace, v) = run_and_check(&sc)?;
        let checked = health_check_deletes(&trace);
        for e in &trace.events {
            if let EventKind::Removed { holder, by, .. } = &e.kind
                && !checked.contains(&e.at_ms)
            {
                prop_assert_eq!(
                    holder, by,
                    "at {} ms a release removed another grant's lock\n{}", e.at_ms, repro(&sc)
                );
            }
        }
        // The only foreign release left is a delete from outside the protocol: an operator's
        // (`force_release`) or a health check's.
        let forced: Vec<u64> = trace
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::ForceReleased { holder: Some(_), .. }))
            .map(|e| e.at_ms)
            .chain(checked)
            .collect();
        for x in v.violations.iter().filter(|x| x.kind == ViolationKind::ForeignRelease) {
            prop_assert!(
                forced.contains(&x.at_ms),
                "foreign_release with owner tokens:\n{}{}", listing(&v), repro(&sc)
            );
        }
    }
}
