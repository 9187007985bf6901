//! A lone worker with nothing in its way gets the lock, and workers racing for a `flag` do
//! overlap for some seed.

use locksim::checker::ViolationKind;
use locksim::scenario::{self, Scenario};
use locksim::trace::EventKind;
use proptest::prelude::*;

use crate::generate::{Profile, repro, scenario};
use crate::{config, run_and_check};

/// The scenario with only its first worker, starting at 0, no faults, no loss, and a network,
/// timeout, lease and horizon roomy enough for any topology to answer.
fn alone_without_faults(mut sc: Scenario) -> Scenario {
    sc.workers.truncate(1);
    sc.workers[0].start_ms = 0;
    sc.faults.clear();
    sc.network.loss = 0.0;
    sc.network.delay_ms = [
        sc.network.delay_ms[0].min(10),
        sc.network.delay_ms[1].min(30),
    ];
    // A round trip through a consensus leader is at most 4 one-way delays: 120 ms.
    sc.network.timeout_ms = 300;
    // Redlock needs validity left after the round trip.
    sc.lock.ttl_ms = sc.lock.ttl_ms.max(300);
    sc.until_ms = sc.until_ms.max(3_000);
    sc
}

proptest! {
    #![proptest_config(config(8))]

    /// Nothing in the way: a lone worker on any design and topology, with no fault and no
    /// lost message, acquires the lock; with no lock at all (`design = "none"`), its write
    /// lands.
    #[test]
    fn a_lone_worker_without_faults_gets_the_lock(
        sc in scenario(Profile::Any).prop_map(alone_without_faults)
    ) {
        let (trace, _) = run_and_check(&sc)?;
        let progress = |e: &EventKind| match sc.lock.design {
            scenario::Design::None => matches!(e, EventKind::WriteAccepted { .. }),
            _ => matches!(e, EventKind::Acquired { .. }),
        };
        prop_assert!(
            trace.events.iter().any(|e| progress(&e.kind)),
            "{} never acquired the lock (or, with no lock, never wrote)\n{}",
            sc.workers[0].name,
            repro(&sc)
        );
    }
}

/// The flag design reads, then writes: workers that start at the same instant both read
/// "free" for some seed, and both believe they hold the lock.
#[test]
fn a_flag_lets_workers_starting_together_overlap() {
    let src = r#"
        version = 1
        name = "Flag race"
        until_ms = 5000

        [network]
        delay_ms = [1, 8]

        [lock]
        design = "flag"

        [[worker]]
        name = "A"
        start_ms = 100
        work_ms = 500

        [[worker]]
        name = "B"
        start_ms = 100
        work_ms = 500

        [[worker]]
        name = "C"
        start_ms = 100
        work_ms = 500
    "#;
    let sc = scenario::parse(src).expect("the flag race scenario is valid");
    let overlapping: Vec<u64> = (1..=50)
        .filter(|&seed| locksim::run(&sc, seed).has(ViolationKind::Overlap))
        .collect();
    assert!(
        !overlapping.is_empty(),
        "no seed in 1..=50 showed an overlap for\n{src}"
    );
}
