//! A run judged as it happens ([`locksim::judged`], what `check`, the sweeps and the search
//! use) gives exactly what the recorded run gives ([`locksim::run`]): the same verdict, price,
//! event count and engine steps, for every shipped scenario over 100 seeds. (A run the event
//! budget cuts short is judged from its recorded trace: `checker::Stream::finish`'s tests.)

use locksim::scenario::{self, Scenario, library};

/// Seeds per scenario, from its own.
const SEEDS: u64 = 100;

/// `judged` and `run` agree on `sc` with `seed`.
fn agree(file: &str, sc: &Scenario, seed: u64) {
    let judged = locksim::judged(sc, seed);
    let run = locksim::run(sc, seed);
    assert_eq!(judged.verdict, run.verdict, "{file}, seed {seed}: verdict");
    assert_eq!(judged.price, run.price, "{file}, seed {seed}: price");
    assert_eq!(judged.events, run.events(), "{file}, seed {seed}: events");
    assert_eq!(judged.steps, run.steps(), "{file}, seed {seed}: steps");
}

#[test]
fn every_shipped_scenario_is_judged_as_its_recorded_run_is() {
    let files = library::INCIDENTS
        .iter()
        .map(|(f, text)| (format!("cases/{f}"), *text))
        .chain(
            library::COURSE
                .iter()
                .map(|(f, text)| (format!("scenarios/{f}"), *text)),
        );
    for (file, text) in files {
        let sc = scenario::parse(text).unwrap_or_else(|e| panic!("{file}: {e}"));
        for i in 0..SEEDS {
            agree(&file, &sc, sc.seed.wrapping_add(i));
        }
    }
}
