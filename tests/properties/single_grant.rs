//! A store that keeps its state and times leases on a monotonic clock (`single`, `redlock`,
//! `consensus`) never grants one lock to two owners at once, whatever the faults.

use locksim::checker::ViolationKind;
use proptest::prelude::*;

use crate::generate::{Profile, repro, scenario};
use crate::{config, listing, run_and_check};

proptest! {
    #![proptest_config(config(6))]

    /// One authority that keeps what it promised never promises one lock to two owners at
    /// once: a single node; Redlock, whose majorities must share a node; consensus, where a
    /// minority cannot grant and a new leader knows every committed grant.
    #[test]
    fn an_authority_that_keeps_its_promises_never_grants_twice(
        sc in scenario(Profile::Authority)
    ) {
        let (_, v) = run_and_check(&sc)?;
        prop_assert!(
            !v.has(ViolationKind::DoubleGrant),
            "double_grant from a store that keeps its state:\n{}{}", listing(&v), repro(&sc)
        );
    }
}
