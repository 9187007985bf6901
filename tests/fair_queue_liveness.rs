//! A fair queue stays live when messages are lost: a waiter whose wake-up is dropped asks
//! again after a lease length of silence, and a release that goes unanswered is sent again.
//!
//! Measured when this test was written: 993 of 1 000 seeds live (99.3 %), none unsafe. The
//! runs that are not live lost a release or a wake-up in the last seconds before the horizon.
//! Since a waiter's places, turn and grant belong to its session, a create whose answer was
//! lost would leave a node the worker's next attempt keeps alive, so a worker that hands late
//! grants back deletes an unanswered create before it creates again: 1 000 of 1 000 live.

use locksim::scenario;

const FAIR_QUEUE: &str = include_str!("../assets/scenarios/step7-fair-queue.toml");
const SEEDS: u64 = 1_000;

#[test]
fn a_lossy_fair_queue_is_live_in_at_least_99_percent_of_seeds() {
    let mut sc = scenario::parse(FAIR_QUEUE).expect("the course's scenario parses");
    sc.network.loss = 0.02;
    sc.network.transport = scenario::Transport::Datagram;
    sc.validate().expect("still a valid scenario");
    let mut live = 0;
    for seed in 0..SEEDS {
        let verdict = locksim::run(&sc, seed).verdict;
        assert!(
            verdict.safe,
            "a fair queue with loss must stay safe; reproduce with seed {seed}"
        );
        live += u64::from(verdict.live);
    }
    assert!(
        live * 100 >= SEEDS * 99,
        "only {live} of {SEEDS} seeds were live"
    );
}
