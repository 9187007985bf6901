//! Engine bugs the properties found, pinned as the smallest scenario that shows each, and the
//! two combinations the validator now refuses instead. Each is deterministic (no loss, no
//! random choice that matters).

use locksim::checker::{Verdict, ViolationKind};
use locksim::scenario::{self, Scenario};
use locksim::trace::{EventKind, NodeId, Trace};

use crate::listing;

/// Parses a pinned scenario and runs it with its own seed.
fn pinned(src: &str) -> (Scenario, Trace, Verdict) {
    let sc = scenario::parse(src).unwrap_or_else(|e| panic!("pinned scenario invalid: {e}"));
    let locksim::Run { trace, verdict, .. } = locksim::run(&sc, sc.seed);
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
    assert!(!v.has(ViolationKind::StaleWrite), "{}", listing(&v));
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
    assert!(!v.has(ViolationKind::DoubleGrant), "{}", listing(&v));
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
        v.has(ViolationKind::Stuck) && v.has(ViolationKind::Starved),
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
    let grant_b =
        at(&|k| matches!(k, EventKind::Granted { token, .. } if token.worker == NodeId::new(1)))
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
    assert!(!v.has(ViolationKind::DoubleGrant), "{}", listing(&v));
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
