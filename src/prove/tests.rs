//! The enumeration against the search's counterexamples, a brute force on a fine grid, and
//! itself on other thread counts.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::scenario::library::COURSE;

fn course(file: &str, bare: bool) -> Scenario {
    let (_, src) = COURSE.iter().find(|(f, _)| *f == file).unwrap();
    let mut scenario = crate::scenario::parse(src).unwrap();
    if bare {
        scenario.faults.clear();
    }
    scenario
}

fn pool(threads: usize) -> ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn options(faults: usize, kinds: &[MenuKind], seeds: Range<u64>) -> Options {
    Options {
        faults,
        kinds: kinds.to_vec(),
        seeds,
        budget: u64::MAX,
    }
}

fn run(scenario: &Scenario, options: &Options, threads: usize) -> Proof {
    prove(
        scenario,
        options,
        &pool(threads),
        &AtomicBool::new(false),
        |_| {},
    )
}

#[test]
fn a_paused_unfenced_holder_breaks_with_one_pause() {
    let scenario = course("step5-pause-unfenced.toml", true);
    let outcome = run(&scenario, &options(2, &MenuKind::DEFAULT, 1..2), 2);
    let found = outcome.found.expect("an unsafe schedule");
    assert_eq!(found.drawn.len(), 1, "one fault is enough, and comes first");
    assert_eq!(found.counterexample.faults.len(), 1);
    assert!(!found.counterexample.run.verdict.safe);
    assert_eq!(outcome.levels, 1);
}

#[test]
fn the_fenced_lock_holds_for_every_single_fault_and_says_what_it_explored() {
    let scenario = course("step5-fencing-token.toml", false);
    let outcome = run(&scenario, &options(1, &MenuKind::DEFAULT, 1..3), 2);
    assert!(outcome.holds(), "{:?}", outcome.found.map(|f| f.drawn));
    assert_eq!(outcome.explored, outcome.total);
    assert!(outcome.distinct_runs > 2 && outcome.distinct_runs <= outcome.explored + 2);
    let claim = claim(&outcome);
    assert!(claim[0].starts_with("holds: "), "{claim:?}");
    assert!(
        claim[0].contains(
            "of ≤ 1 fault (pause, crash, kill_store, partition, clock_jump) on seeds 1..3"
        )
    );
    assert!(
        claim[1].starts_with("exercised: ")
            && claim[1].contains(" stale requests rejected by the fence"),
        "{}",
        claim[1]
    );
    assert!(
        claim[2].starts_with("menu: pause of A, B or store1 for 1 000 ms, 5 000 ms or 15 000 ms;")
    );
    assert!(
        claim[2].ends_with(", on top of the file's own 1 fault"),
        "{}",
        claim[2]
    );
}

#[test]
fn a_budget_stops_with_an_honest_partial_claim() {
    let scenario = course("step5-fencing-token.toml", true);
    let mut opts = options(2, &[MenuKind::Pause], 1..2);
    opts.budget = 50;
    let outcome = run(&scenario, &opts, 2);
    assert_eq!(outcome.stopped, Some(Stopped::Budget));
    assert_eq!(outcome.explored, 50);
    assert!(outcome.total > 50);
    let lines = partial_claim(&outcome);
    assert!(
        lines[0].starts_with("partial: explored 50 of "),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("the budget of 50 schedules ran out"),
        "{lines:?}"
    );
}

#[test]
fn a_stop_before_it_starts_runs_nothing() {
    let scenario = course("step5-fencing-token.toml", true);
    let outcome = prove(
        &scenario,
        &options(1, &MenuKind::DEFAULT, 1..2),
        &pool(2),
        &AtomicBool::new(true),
        |_| {},
    );
    assert_eq!(outcome.stopped, Some(Stopped::Interrupted));
    assert_eq!(outcome.explored, 0);
}

#[test]
fn the_outcome_is_the_same_on_one_thread_and_on_three() {
    for (file, bare) in [
        ("step5-pause-unfenced.toml", true),
        ("step5-fencing-token.toml", false),
    ] {
        let scenario = course(file, bare);
        let opts = options(1, &MenuKind::DEFAULT, 0..3);
        let (one, three) = (run(&scenario, &opts, 1), run(&scenario, &opts, 3));
        assert_eq!(one.explored, three.explored, "{file}");
        assert_eq!(one.distinct_runs, three.distinct_runs, "{file}");
        assert_eq!(claim(&one), claim(&three), "{file}");
        let faults = |o: &Proof| o.found.as_ref().map(|f| f.counterexample.faults.clone());
        assert_eq!(faults(&one), faults(&three), "{file}");
    }
}

/// Every single fault of the menu at every start on a grid of `step_ms`: whether one is unsafe.
fn brute_force(scenario: &Scenario, kinds: &[MenuKind], seed: u64, step_ms: u64) -> bool {
    let menu = Menu::of(scenario, kinds);
    let starts: Vec<u64> = (0..scenario.until_ms).step_by(step_ms as usize).collect();
    pool(2).install(|| {
        starts.par_iter().any(|&t| {
            (0..menu.entries.len())
                .any(|i| !probe(scenario, &[menu.fault(i, t)], seed).verdict.safe)
        })
    })
}

/// Starting faults only just after events never loses what a fine grid of start times finds:
/// on each small scenario both say unsafe, or both say it holds.
#[test]
fn the_reduced_enumeration_finds_what_a_fine_grid_finds() {
    let kinds = [
        MenuKind::Pause,
        MenuKind::Crash,
        MenuKind::KillStore,
        MenuKind::ClockJump,
    ];
    for (file, expect_unsafe) in [
        ("step5-pause-unfenced.toml", true),
        ("step5-fencing-token.toml", false),
        ("step4-compare-and-delete.toml", true),
        ("step6-async-failover.toml", true),
        ("step8-idempotent-write.toml", false),
    ] {
        let mut scenario = course(file, true);
        scenario.until_ms = scenario.until_ms.min(20_000);
        let reduced = run(
            &scenario,
            &options(1, &kinds, scenario.seed..scenario.seed + 1),
            2,
        );
        let brute = brute_force(&scenario, &kinds, scenario.seed, 50);
        assert_eq!(reduced.found.is_some(), brute, "{file}");
        assert_eq!(brute, expect_unsafe, "{file}");
    }
}
