//! Properties of the engine and the checker over generated scenarios (DESIGN §2–§4).
//!
//! The generator (`support/generate.rs`, shared with the fuzz campaign) builds only scenarios
//! that `Scenario::validate` must accept: every design,
//! topology (with a node count it allows), holder behaviour, resource mode and fault kind, with
//! 1–4 workers and a random seed. Checked here:
//! - the validator accepts them, the TOML they print parses back to the same scenario, and a run
//!   is deterministic: the same scenario and seed give the same trace, and running without
//!   recording handles the same number of events;
//! - nothing panics, and the verdict agrees with its own violations (`safe`, `live`, order,
//!   named nodes, the horizon);
//! - fencing tokens checked at the resource (`single` or `consensus` store) never let a
//!   `stale_write` through, whatever pauses, stalls, delays, partitions, clock jumps and worker
//!   crashes happen;
//! - owner-token designs (`token`, `fencing`) never report a `foreign_release` but an
//!   operator's `force_release`;
//! - a store that keeps its state and times leases on a monotonic clock (`single`, `redlock`,
//!   `consensus`) never grants one lock to two owners at once, whatever the faults;
//! - designs without a lease (`flag`, `setnx`) never expire a lock;
//! - a lone worker, with no fault and no loss, gets the lock;
//! - the `flag` design, with workers starting together, does produce an `overlap` for some seed.
//!
//! At the end, each engine bug these properties found is pinned as a small scenario in an
//! ignored test; a fix makes it pass (run them with `--ignored`). Where a property steps around
//! one of those bugs so that it keeps guarding everything else, the code says so and names the
//! pinned test; with other generator seeds the fencing and authority properties can still meet
//! the two rarer bugs (`a_retried_acquire_is_one_grant`, `an_acknowledged_renewal_is_kept`).
//!
//! A failure names the seed and prints the whole scenario as TOML: save it to a file and
//! `locksim run FILE` reproduces the run. Each property draws from a fixed generator seed, so a
//! run of the suite is repeatable; set `PROPTEST_RNG_SEED` (a number) to explore other cases
//! and `PROPTEST_CASES` to run more of them.

use std::panic::{AssertUnwindSafe, catch_unwind};

use locksim::checker::{Kind, Verdict};
use locksim::engine;
use locksim::scenario::{self, ResourceMode, Scenario};
use locksim::trace::{EventKind, Trace};
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError};

#[path = "support/generate.rs"]
mod generate;
use generate::{Profile, repro, scenario};

/// Cases per property unless `PROPTEST_CASES` says otherwise: enough to cover every design and
/// topology many times, few enough for a debug build to finish in seconds.
const CASES: u32 = 64;

/// The configuration of one property; `seed` fixes its generator unless `PROPTEST_RNG_SEED` is
/// set. Each property has its own seed so that those drawing from the same profile still see
/// different scenarios.
fn config(seed: u64) -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = CASES;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(seed);
    }
    // A failure prints the scenario itself; no regression files are written next to the tests.
    config.failure_persistence = None;
    config
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

/// The scenario must be one the validator accepts (else the generator is wrong).
fn ensure_valid(sc: &Scenario) -> Result<(), TestCaseError> {
    match sc.validate() {
        Ok(()) => Ok(()),
        Err(e) => Err(TestCaseError::fail(format!(
            "the generator built a scenario the validator rejects ({}: {e})\n{}",
            e.field,
            repro(sc)
        ))),
    }
}

/// Runs the scenario with its own seed and checks the trace; a panic anywhere is a failure
/// that names the scenario.
fn run_and_check(sc: &Scenario) -> Result<(Trace, Verdict), TestCaseError> {
    ensure_valid(sc)?;
    catch_unwind(AssertUnwindSafe(|| {
        let run = locksim::run(sc, sc.seed);
        (run.trace, run.verdict)
    }))
    .map_err(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        TestCaseError::fail(format!("panicked: {what}\n{}", repro(sc)))
    })
}

/// The verdict's violations, one line each, for failure messages.
fn listing(v: &Verdict) -> String {
    v.violations
        .iter()
        .map(|x| format!("  {} at {} ms: {}\n", x.kind, x.at_ms, x.explanation))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

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

proptest! {
    #![proptest_config(config(3))]
    /// `safe` and `live` say exactly whether their kinds were found; violations are sorted by
    /// time, then kind, then grants, within the horizon, with real nodes and a sentence each.
    #[test]
    fn the_verdict_agrees_with_its_violations(sc in scenario(Profile::Any)) {
        let (trace, v) = run_and_check(&sc)?;
        let unsafe_ = v.has(Kind::StaleWrite) || v.has(Kind::InterleavedWrites);
        let not_live = v.has(Kind::Stuck) || v.has(Kind::Starved);
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
                x.nodes.iter().all(|&n| (n as usize) < trace.nodes.len()),
                "{} names a node that does not exist: {:?}\n{}", x.kind, x.nodes, repro(&sc)
            );
        }
    }
}

proptest! {
    #![proptest_config(config(4))]
    /// With fencing tokens checked at the resource, no older grant's write lands after a
    /// newer one's: the resource accepts fences in non-decreasing order per key, and the
    /// checker never reports `stale_write`.
    #[test]
    fn fencing_at_the_resource_stops_every_stale_write(sc in scenario(Profile::Fenced)) {
        let (trace, v) = run_and_check(&sc)?;
        let mut highest: Vec<Option<u64>> = vec![None; trace.keys.len()];
        for e in &trace.events {
            if let EventKind::WriteAccepted { key, fence, .. } = &e.kind {
                let top = &mut highest[*key as usize];
                prop_assert!(
                    fence.is_some() && *fence >= *top,
                    "at {} ms the resource accepted fence {:?} after {:?}\n{}",
                    e.at_ms, fence, top, repro(&sc)
                );
                *top = *fence;
            }
        }
        prop_assert!(
            !v.has(Kind::StaleWrite),
            "stale_write despite fencing:\n{}{}", listing(&v), repro(&sc)
        );
    }
}

proptest! {
    #![proptest_config(config(5))]
    /// Compare-and-delete: with owner tokens a release only ever removes the releaser's own
    /// lock, on every topology and under every fault.
    #[test]
    fn owner_tokens_never_release_a_foreign_lock(sc in scenario(Profile::OwnerToken)) {
        let (trace, v) = run_and_check(&sc)?;
        for e in &trace.events {
            if let EventKind::Removed { holder, by, .. } = &e.kind {
                prop_assert_eq!(
                    holder, by,
                    "at {} ms a release removed another grant's lock\n{}", e.at_ms, repro(&sc)
                );
            }
        }
        // The only foreign release left is an operator's delete (`force_release`).
        let forced: Vec<u64> = trace
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::ForceReleased { holder: Some(_), .. }))
            .map(|e| e.at_ms)
            .collect();
        for x in v.violations.iter().filter(|x| x.kind == Kind::ForeignRelease) {
            prop_assert!(
                forced.contains(&x.at_ms),
                "foreign_release with owner tokens:\n{}{}", listing(&v), repro(&sc)
            );
        }
    }
}

proptest! {
    #![proptest_config(config(6))]

    /// One authority that keeps what it promised never promises one lock to two owners at
    /// once: a single node; Redlock, whose majorities must share a node; consensus, where a
    /// minority cannot grant and a new leader knows every committed grant (DESIGN §2).
    #[test]
    fn an_authority_that_keeps_its_promises_never_grants_twice(
        sc in scenario(Profile::Authority)
    ) {
        let (_, v) = run_and_check(&sc)?;
        prop_assert!(
            !v.has(Kind::DoubleGrant),
            "double_grant from a store that keeps its state:\n{}{}", listing(&v), repro(&sc)
        );
    }
}

proptest! {
    #![proptest_config(config(7))]

    /// `flag`, `setnx` and `timestamp` have no expiry (DESIGN §2): no grant carries a lease,
    /// and the store never expires or extends one.
    #[test]
    fn designs_without_a_lease_never_expire_a_lock(
        sc in scenario(Profile::NoLease)
    ) {
        let (trace, _) = run_and_check(&sc)?;
        for e in &trace.events {
            let leased = match &e.kind {
                EventKind::Granted { lease_ms, .. } => lease_ms.is_some(),
                EventKind::Expired { .. } | EventKind::LeaseExtended { .. } => true,
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
    /// lost message, acquires the lock.
    #[test]
    fn a_lone_worker_without_faults_gets_the_lock(
        sc in scenario(Profile::Any).prop_map(alone_without_faults)
    ) {
        let (trace, _) = run_and_check(&sc)?;
        prop_assert!(
            trace.events.iter().any(|e| matches!(e.kind, EventKind::Acquired { .. })),
            "{} never acquired the lock\n{}", sc.workers[0].name, repro(&sc)
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
        .filter(|&seed| locksim::run(&sc, seed).has(Kind::Overlap))
        .collect();
    assert!(
        !overlapping.is_empty(),
        "no seed in 1..=50 showed an overlap for\n{src}"
    );
}

// ---------------------------------------------------------------------------------------------
// Engine bugs the properties found, pinned as the smallest scenario that shows each.
// Every one is deterministic (no loss, no random choice that matters); a fix makes it pass.
// ---------------------------------------------------------------------------------------------

/// Parses a pinned scenario and runs it with its own seed.
fn pinned(src: &str) -> (Scenario, Trace, Verdict) {
    let sc = scenario::parse(src).unwrap_or_else(|e| panic!("pinned scenario invalid: {e}"));
    let locksim::Run { trace, verdict } = locksim::run(&sc, sc.seed);
    (sc, trace, verdict)
}

/// A's grant is lost in a partition; its acquire, retried on another node under the same
/// token, is granted a second time (fence 5) after B's grant (fence 3). Every write is
/// serial and in fence order, yet the checker orders A#1 by its first grant (fence 1) and
/// reports a `stale_write`. One owner token must lead to one grant (the engine should make a
/// fresh attempt, or the store refuse a token it already granted), or the checker must order
/// a write by the grant it was made under.
#[test]
fn a_retried_acquire_is_one_grant() {
    let (_, trace, v) = pinned(
        r#"
        version = 1
        name = "A retried acquire is granted a second time under the same token"
        seed = 1
        until_ms = 3000
        [network]
        delay_ms = [2, 2]
        [lock]
        design = "fencing"
        ttl_ms = 100
        [store]
        topology = "consensus"
        nodes = 3
        [resource]
        fencing = true
        [[worker]]
        name = "A"
        work_ms = 100
        [[worker]]
        name = "B"
        start_ms = 120
        work_ms = 50
        [[fault]]
        at_ms = 5
        kind = "partition"
        groups = [["A"], ["store1"]]
        for_ms = 10
        "#,
    );
    let grants_of_a1: Vec<u64> = trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Granted { token, fence, .. } if trace.token_name(*token) == "A#1" => *fence,
            _ => None,
        })
        .collect();
    assert!(!v.has(Kind::StaleWrite), "{}", listing(&v));
    assert_eq!(
        grants_of_a1.len(),
        1,
        "A#1 granted with fences {grants_of_a1:?}"
    );
}

/// A's renewal reaches the consensus leader at 120 ms, after its lease ran out at 115 ms and
/// its expiry is already in the log. The leader must refuse it — acknowledging it and then
/// applying the older expiry would break a promise the store just made. A, refused, still
/// believes it holds the lock (nothing at the resource stops it: step 5's lesson), so
/// `overlap` is real; a `double_grant` would not be.
#[test]
fn a_late_renewal_is_refused_not_undone() {
    let (_, trace, v) = pinned(
        r#"
        version = 1
        name = "An acknowledged renewal is undone by an expiry already in the log"
        seed = 1
        until_ms = 1000
        [network]
        delay_ms = [5, 5]
        [lock]
        design = "token"
        ttl_ms = 100
        renewal = "watchdog"
        renew_every_ms = 95
        [store]
        topology = "consensus"
        nodes = 3
        [[worker]]
        name = "A"
        work_ms = 400
        [[worker]]
        name = "B"
        start_ms = 110
        work_ms = 50
        retry_ms = 10
        "#,
    );
    assert!(!v.has(Kind::DoubleGrant), "{}", listing(&v));
    assert!(
        trace
            .events
            .iter()
            .any(|e| matches!(e.kind, EventKind::RenewFailed { .. })),
        "the late renewal was not refused"
    );
}

/// A flag is a row in one database: the validator refuses it on a consensus store rather
/// than letting a worker wait for answers that never come.
#[test]
fn a_flag_on_a_consensus_store_is_refused() {
    let err = scenario::parse(
        r#"
        version = 1
        name = "A flag on a consensus store"
        [lock]
        design = "flag"
        [store]
        topology = "consensus"
        nodes = 3
        [[worker]]
        name = "A"
        "#,
    )
    .unwrap_err();
    assert_eq!(err.field, "lock.design");
}

/// Step 3's lesson on a consensus store: `setnx` has no expiry, so when A crashes holding the
/// lock it stays held and B starves, as on a single store. The consensus store grants it a
/// 10 s lease (`ttl_ms`'s default), expires it, and B carries on.
#[test]
fn setnx_on_a_consensus_store_never_expires() {
    let (_, trace, v) = pinned(
        r#"
        version = 1
        name = "Set-if-absent on a consensus store: the lock expires anyway"
        seed = 3
        until_ms = 20000
        [network]
        delay_ms = [1, 5]
        [lock]
        design = "setnx"
        [store]
        topology = "consensus"
        nodes = 3
        [[worker]]
        name = "A"
        work_ms = 5000
        [[worker]]
        name = "B"
        start_ms = 1000
        work_ms = 1000
        retry_ms = 250
        [[fault]]
        at_ms = 2000
        kind = "crash"
        node = "A"
        "#,
    );
    let expired = trace
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::Expired { .. }));
    assert!(expired.is_none(), "{expired:?}");
    assert!(
        v.has(Kind::Stuck) && v.has(Kind::Starved),
        "{}",
        listing(&v)
    );
}

/// `lock_delay_ms` on a consensus store with a fair queue: when A's lease expires at about
/// 1 000 ms, B (queued) is granted at once instead of 5 s later, as a single store does. The
/// consensus path never looks at the lock-delay when it grants.
#[test]
fn consensus_with_a_fair_queue_keeps_the_lock_delay() {
    let (_, trace, _) = pinned(
        r#"
        version = 1
        name = "Consensus with a fair queue ignores lock-delay"
        seed = 1
        until_ms = 10000
        [network]
        delay_ms = [2, 2]
        [lock]
        design = "token"
        ttl_ms = 1000
        waiting = "fair"
        lock_delay_ms = 5000
        [store]
        topology = "consensus"
        nodes = 3
        [[worker]]
        name = "A"
        work_ms = 3000
        [[worker]]
        name = "B"
        start_ms = 100
        work_ms = 500
        "#,
    );
    let at = |pred: &dyn Fn(&EventKind) -> bool| trace.events.iter().find(|e| pred(&e.kind));
    let expiry = at(&|k| matches!(k, EventKind::Expired { .. })).expect("A's lease expires");
    let grant_b = at(&|k| matches!(k, EventKind::Granted { token, .. } if token.worker == 1))
        .expect("B is granted the lock");
    assert!(
        grant_b.at_ms >= expiry.at_ms + 5_000,
        "B granted at {} ms, lease expired at {} ms",
        grant_b.at_ms,
        expiry.at_ms
    );
}

/// store1 commits A's release and grants B, then pauses before its followers learn of the
/// commit. store2 is elected and, before applying the release it already holds, restarts
/// A#1's lease in full (a recorded promise to a token that released 1.4 s earlier): the
/// checker reports a `double_grant` of A#1 against B#1 although A let go long before. A new
/// leader should restart leases once it has applied what is committed (after its no-op).
#[test]
fn a_new_leader_renews_only_live_leases() {
    let (_, _, v) = pinned(
        r#"
        version = 1
        name = "A new leader renews a lease whose release was already committed"
        seed = 1
        until_ms = 5000
        [network]
        delay_ms = [2, 2]
        [lock]
        design = "token"
        ttl_ms = 3000
        waiting = "fair"
        [store]
        topology = "consensus"
        nodes = 3
        failover_ms = 1000
        [[worker]]
        name = "A"
        work_ms = 100
        [[worker]]
        name = "B"
        start_ms = 50
        work_ms = 3000
        [[fault]]
        at_ms = 124
        kind = "pause"
        node = "store1"
        for_ms = 4000
        "#,
    );
    assert!(!v.has(Kind::DoubleGrant), "{}", listing(&v));
}

/// store1, the leader, pauses with A's release in flight. store2 is elected, commits the
/// release, grants B#1 and later expires it. When store1 wakes it first handles its old
/// followers' acknowledgements, commits the release itself and records a fresh grant of B#1
/// (a 3 s lease from 4 120 ms) before it learns of the new term and steps down. That promise
/// by a deposed leader outlives the horizon, so the checker reports B#1 `stuck` (NOT LIVE)
/// although the real leader had expired it. A leader that has not heard from a majority within
/// `failover_ms` should promise nothing.
#[test]
fn a_deposed_leader_promises_nothing() {
    let (_, _, v) = pinned(
        r#"
        version = 1
        name = "A deposed leader promises a lease after its pause"
        seed = 1
        until_ms = 5000
        [network]
        delay_ms = [2, 2]
        [lock]
        design = "token"
        ttl_ms = 3000
        waiting = "fair"
        [store]
        topology = "consensus"
        nodes = 3
        failover_ms = 1000
        [[worker]]
        name = "A"
        work_ms = 100
        [[worker]]
        name = "B"
        start_ms = 50
        work_ms = 3000
        [[fault]]
        at_ms = 120
        kind = "pause"
        node = "store1"
        for_ms = 4000
        "#,
    );
    assert!(v.live, "{}", listing(&v));
}

/// A reentrant lock recognises its holder by the owner token; `setnx` has none, so the
/// validator refuses the combination.
#[test]
fn a_reentrant_setnx_lock_is_refused() {
    let err = scenario::parse(
        r#"
        version = 1
        name = "A reentrant set-if-absent lock"
        [lock]
        design = "setnx"
        reentrant = true
        [[worker]]
        name = "A"
        nested = true
        "#,
    )
    .unwrap_err();
    assert_eq!(err.field, "lock.reentrant");
}
