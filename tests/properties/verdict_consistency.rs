//! The verdict agrees with its own violations: `safe` and `live`, their order, the nodes they
//! name, the horizon.

use locksim::checker::ViolationKind;
use locksim::scenario::ResourceMode;
use proptest::prelude::*;

use crate::generate::{Profile, repro, scenario};
use crate::{config, listing, run_and_check};

proptest! {
    #![proptest_config(config(3))]
    /// `safe` and `live` say exactly whether their kinds were found; violations are sorted by
    /// time, then kind, then grants, within the horizon, with real nodes and a sentence each.
    #[test]
    fn the_verdict_agrees_with_its_violations(sc in scenario(Profile::Any)) {
        let (trace, v) = run_and_check(&sc)?;
        let unsafe_ = v.has(ViolationKind::StaleWrite) || v.has(ViolationKind::InterleavedWrites);
        let not_live = v.has(ViolationKind::Stuck) || v.has(ViolationKind::Starved);
        prop_assert_eq!(v.safe, !unsafe_, "safe is wrong:\n{}{}", listing(&v), repro(&sc));
        prop_assert_eq!(v.live, !not_live, "live is wrong:\n{}{}", listing(&v), repro(&sc));
        let order: Vec<_> = v
            .violations
            .iter()
            .map(|x| (x.at_ms, x.kind, x.grants.clone()))
            .collect();
        prop_assert!(order.is_sorted(), "violations out of order:\n{}{}", listing(&v), repro(&sc));
        if sc.resource.mode == ResourceMode::Idempotent {
            prop_assert!(v.safe, "idempotent writes reported unsafe:\n{}{}", listing(&v), repro(&sc));
        }
        for x in &v.violations {
            prop_assert!(x.at_ms < sc.until_ms, "{} after the horizon\n{}", x.kind, repro(&sc));
            prop_assert!(!x.explanation.is_empty(), "{} has no explanation\n{}", x.kind, repro(&sc));
            prop_assert!(
                x.nodes.is_sorted() && x.nodes.windows(2).all(|p| p[0] != p[1]),
                "{} nodes not sorted and unique: {:?}\n{}", x.kind, x.nodes, repro(&sc)
            );
            prop_assert!(
                x.nodes.iter().all(|&n| (n.index()) < trace.nodes.len()),
                "{} names a node that does not exist: {:?}\n{}", x.kind, x.nodes, repro(&sc)
            );
        }
    }
}
