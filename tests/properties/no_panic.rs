//! Any valid scenario runs and is checked without a panic, inside its horizon and in time
//! order.

use proptest::prelude::*;

use crate::generate::{Profile, repro, scenario};
use crate::{config, run_and_check};

proptest! {
    #![proptest_config(config(2))]
    /// Any valid scenario runs to its horizon and is checked without a panic, and the trace
    /// stays inside the horizon and in time order.
    #[test]
    fn the_engine_and_checker_never_panic(sc in scenario(Profile::Any)) {
        let (trace, _) = run_and_check(&sc)?;
        let times: Vec<u64> = trace.events.iter().map(|e| e.at_ms).collect();
        prop_assert!(
            times.is_sorted(),
            "events out of time order\n{}", repro(&sc)
        );
        prop_assert!(
            times.last().is_none_or(|&t| t < sc.until_ms),
            "an event at or after the horizon\n{}", repro(&sc)
        );
    }
}
