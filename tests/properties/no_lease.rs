//! Designs without a lease (`flag`, `setnx`, `timestamp`, `session`) never expire or extend a lock.

use locksim::trace::EventKind;
use proptest::prelude::*;

use crate::generate::{Profile, repro, scenario};
use crate::{config, run_and_check};

proptest! {
    #![proptest_config(config(7))]

    /// `flag`, `setnx`, `timestamp` and `session` have no expiry: no grant carries a lease,
    /// and the store never expires or extends one.
    #[test]
    fn designs_without_a_lease_never_expire_a_lock(
        sc in scenario(Profile::NoLease)
    ) {
        let (trace, _) = run_and_check(&sc)?;
        for e in &trace.events {
            let leased = match &e.kind {
                EventKind::Granted { lease_ms, .. } => lease_ms.is_some(),
                EventKind::Expired { .. }
                | EventKind::ExpiredByClient { .. }
                | EventKind::ExpiredUnchanged { .. }
                | EventKind::LeaseExtended { .. } => true,
                _ => false,
            };
            prop_assert!(
                !leased,
                "at {} ms {} leased a {} lock: {:?}\n{}",
                e.at_ms, trace.node_name(e.node), sc.lock.design.as_str(), e.kind, repro(&sc)
            );
        }
    }
}
