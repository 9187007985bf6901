//! A run is a function of its scenario and seed: the same trace twice, the same number of
//! events handled without recording, and a scenario that survives printing and parsing.

use locksim::engine;
use locksim::scenario;
use proptest::prelude::*;

use crate::generate::{Profile, repro, scenario};
use crate::{config, ensure_valid, run_and_check};

proptest! {
    #![proptest_config(config(1))]

    /// Same scenario, same seed ⇒ the same trace; recording changes nothing about the run;
    /// the validator accepts the scenario and its TOML parses back to it.
    #[test]
    fn a_run_is_determined_by_scenario_and_seed(sc in scenario(Profile::Any)) {
        ensure_valid(&sc)?;
        let toml = scenario::to_toml(&sc);
        match scenario::parse(&toml) {
            Ok(back) => prop_assert_eq!(&back, &sc, "the TOML does not read back\n{}", repro(&sc)),
            Err(e) => prop_assert!(false, "the printed TOML does not parse: {e}\n{}", repro(&sc)),
        }
        let (first, _) = run_and_check(&sc)?;
        let (second, _) = run_and_check(&sc)?;
        prop_assert_eq!(&first, &second, "two runs differ\n{}", repro(&sc));
        prop_assert_eq!(first.seed, sc.seed);
        let unrecorded = engine::run_unrecorded(&sc, sc.seed);
        prop_assert_eq!(
            unrecorded, first.steps,
            "recording changed how many events were handled\n{}", repro(&sc)
        );
    }
}
