//! The generator of valid scenarios, shared by the property tests (`tests/properties/`) and
//! the fuzz campaign (`tests/fuzz.rs`, `benches/fuzz.rs`).
//!
//! It builds only scenarios that `Scenario::validate` must accept: every design, topology
//! (with a node count it allows), holder behaviour, resource mode and fault kind, with 1–4
//! workers and a random seed. A [`Profile`] narrows it to the part of that space a property
//! ranges over.

use locksim::scenario::names::{RESOURCE, store_name};
use locksim::scenario::{
    self, Acquire, Check, DeletedBy, Design, Expiry, Fault, FaultKind, LeaseClock, LeaseFrom, Lock,
    Network, OnLockLoss, OnTimeout, Persistence, Renewal, Resource, ResourceMode, Scenario, Store,
    StoreClock, Topology, Transport, Waiting, Worker,
};
use proptest::prelude::*;
use proptest::sample::Index;

// ---------------------------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------------------------

/// Which part of the scenario space a property ranges over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Everything the validator allows.
    Any,
    /// `fencing` design, the resource checking tokens, a `single` or `consensus` store, and no
    /// fault that loses the store's state (no store crash, no `kill_store`).
    Fenced,
    /// `token` or `fencing` design, everything else as `Any`.
    OwnerToken,
    /// A store that is one authority and keeps what it promised: `single`, `redlock` or
    /// `consensus`, a design from `setnx` up, leases timed by the store on a monotonic clock,
    /// `fsync` persistence. Every fault.
    Authority,
    /// `flag`, `setnx` or `timestamp`: no lease. Every topology each allows, every fault.
    NoLease,
}

#[derive(Clone, Debug)]
struct RawLock {
    ttl_ms: u64,
    client_expiry: bool,
    renewal: Renewal,
    renew_every_ms: Option<u64>,
    reentrant: bool,
    fair: bool,
    retry_ms: u64,
    lock_delay_ms: u64,
    retry_jitter_ms: Option<u64>,
    two_step: bool,
    uncounted: bool,
    settle_ms: u64,
}

#[derive(Clone, Debug)]
struct RawStore {
    extra_nodes: u32,
    wall_clock: bool,
    /// 0: fsync, 1: none, 2: everysec.
    persistence: u8,
    replication_lag_ms: u64,
    failover_ms: u64,
}

#[derive(Clone, Debug)]
struct RawWorker {
    start_ms: u64,
    work_ms: u64,
    writes: u32,
    repeat: u32,
    retry_ms: Option<u64>,
    other_key: bool,
    nested: bool,
    check_lease: bool,
    write_timeout_ms: u64,
    clock_offset_ms: i64,
    clock_drift_ppm: i64,
    wall_lease_clock: bool,
    stop_on_loss: bool,
}

/// A fault before its node names are known; an `Index` picks one of the candidates.
#[derive(Clone, Debug)]
enum RawFault {
    Pause {
        node: Index,
        for_ms: u64,
    },
    Stall {
        worker: Index,
        for_ms: u64,
    },
    Crash {
        node: Index,
    },
    Restart {
        node: Index,
    },
    KillStore {
        for_ms: Option<u64>,
    },
    /// One entry per node (workers, stores, resource): 0 = unlisted, else the group number.
    Partition {
        sides: Vec<u8>,
        for_ms: Option<u64>,
    },
    Heal,
    ClockJump {
        node: Index,
        delta_ms: i64,
    },
    Delay {
        from: Index,
        to: Index,
        extra_ms: u64,
        for_ms: u64,
    },
    /// An operator deletes the lock, on one store node (an index) or all of them.
    ForceRelease {
        node: Option<Index>,
    },
    /// A worker's connection to a store node is reset.
    ConnectionReset {
        worker: Index,
        store: Index,
    },
}

#[derive(Clone, Debug)]
struct Raw {
    design: Design,
    topology: Topology,
    lock: RawLock,
    store: RawStore,
    network: Network,
    resource: Resource,
    until_ms: u64,
    starve_after_ms: u64,
    seed: u64,
    workers: Vec<RawWorker>,
    faults: Vec<(u64, RawFault)>,
}

/// Every design a scenario may name: the ladder, the step 2 `timestamp` strawman, a
/// database's `session` lock and step 8's `none` (no lock).
fn design() -> impl Strategy<Value = Design> {
    proptest::sample::select(Design::PICKABLE.to_vec())
}

fn topology() -> impl Strategy<Value = Topology> {
    proptest::sample::select(vec![
        Topology::Single,
        Topology::Replicated,
        Topology::Redlock,
        Topology::Consensus,
        Topology::MultiPrimary,
    ])
}

/// Design and topology for a profile. Redlock and a multi-primary cluster have no fencing
/// counter, so `fencing` moves to `consensus` there; a flag is a row in one database, so it
/// moves to `single`; the claims of `timestamp` live on one node.
fn shape(profile: Profile) -> BoxedStrategy<(Design, Topology)> {
    let fix = |(d, t): (Design, Topology)| match (d, t) {
        (Design::Fencing, Topology::Redlock | Topology::MultiPrimary) => (d, Topology::Consensus),
        (Design::Flag, Topology::Redlock | Topology::Consensus | Topology::MultiPrimary) => {
            (d, Topology::Single)
        }
        (Design::Timestamp, _) => (d, Topology::Single),
        // A session lock lives in one server's memory.
        (Design::Session, Topology::Replicated | Topology::Redlock | Topology::Consensus) => {
            (d, Topology::Single)
        }
        _ => (d, t),
    };
    match profile {
        Profile::Any => (design(), topology()).prop_map(fix).boxed(),
        Profile::Fenced => (
            Just(Design::Fencing),
            prop_oneof![Just(Topology::Single), Just(Topology::Consensus)],
        )
            .boxed(),
        Profile::OwnerToken => (
            prop_oneof![Just(Design::Token), Just(Design::Fencing)],
            topology(),
        )
            .prop_map(fix)
            .boxed(),
        Profile::Authority => (
            proptest::sample::select(vec![
                Design::Setnx,
                Design::Ttl,
                Design::Token,
                Design::Fencing,
            ]),
            proptest::sample::select(vec![
                Topology::Single,
                Topology::Redlock,
                Topology::Consensus,
            ]),
        )
            .prop_map(fix)
            .boxed(),
        Profile::NoLease => (
            prop_oneof![
                Just(Design::Flag),
                Just(Design::Setnx),
                Just(Design::Timestamp),
                Just(Design::Session)
            ],
            topology(),
        )
            .prop_map(fix)
            .boxed(),
    }
}

fn raw_lock() -> impl Strategy<Value = RawLock> {
    (
        prop_oneof![1 => 1u64..=50, 4 => 200u64..=8_000],
        proptest::bool::weighted(0.2),
        prop_oneof![
            Just(Renewal::None),
            Just(Renewal::Watchdog),
            Just(Renewal::Progress)
        ],
        proptest::option::of(1u64..=3_000),
        any::<bool>(),
        any::<bool>(),
        10u64..=500,
        prop_oneof![3 => Just(0u64), 1 => 1u64..=3_000],
        proptest::option::of(0u64..=300),
        proptest::bool::weighted(0.2),
        proptest::bool::weighted(0.2),
        prop_oneof![Just(50u64), 0u64..=300],
    )
        .prop_map(
            |(
                ttl_ms,
                client_expiry,
                renewal,
                renew_every_ms,
                reentrant,
                fair,
                retry_ms,
                lock_delay_ms,
                retry_jitter_ms,
                two_step,
                uncounted,
                settle_ms,
            )| RawLock {
                ttl_ms,
                client_expiry,
                renewal,
                renew_every_ms,
                reentrant,
                fair,
                retry_ms,
                lock_delay_ms,
                retry_jitter_ms,
                two_step,
                uncounted,
                settle_ms,
            },
        )
}

fn raw_store() -> impl Strategy<Value = RawStore> {
    (
        0u32..=2,
        any::<bool>(),
        prop_oneof![4 => Just(0u8), 2 => Just(1u8), 1 => Just(2u8)],
        prop_oneof![Just(0u64), 1u64..=300],
        100u64..=2_000,
    )
        .prop_map(
            |(extra_nodes, wall_clock, persistence, replication_lag_ms, failover_ms)| RawStore {
                extra_nodes,
                wall_clock,
                persistence,
                replication_lag_ms,
                failover_ms,
            },
        )
}

fn network() -> impl Strategy<Value = Network> {
    (
        0u64..=10,
        0u64..=20,
        prop_oneof![3 => Just(0.0f64), 1 => 0.0f64..0.2],
        prop_oneof![Just(200u64), 1u64..=400],
        prop_oneof![3 => Just(Transport::Tcp), 1 => Just(Transport::Datagram)],
        prop_oneof![3 => Just(900_000u64), 1 => 1u64..=5_000],
    )
        .prop_map(
            |(min, spread, loss, timeout_ms, transport, tcp_give_up_ms)| Network {
                delay_ms: [min, min + spread],
                loss,
                timeout_ms,
                transport,
                tcp_give_up_ms,
            },
        )
}

fn resource() -> impl Strategy<Value = Resource> {
    (
        any::<bool>(),
        any::<bool>(),
        prop_oneof![
            2 => Just(ResourceMode::Plain),
            1 => Just(ResourceMode::Idempotent),
            1 => Just(ResourceMode::Cas)
        ],
    )
        .prop_map(|(fencing, fence_reads, mode)| Resource {
            fencing,
            fence_reads: fencing && fence_reads,
            mode,
        })
}

fn raw_worker() -> impl Strategy<Value = RawWorker> {
    (
        (
            prop_oneof![Just(0u64), 0u64..=5_000],
            1u64..=3_000,
            1u32..=4,
            0u32..=3,
            proptest::option::of(10u64..=500),
            proptest::bool::weighted(0.2),
            proptest::bool::weighted(0.2),
        ),
        (
            proptest::bool::weighted(0.2),
            proptest::bool::weighted(0.2),
            proptest::bool::weighted(0.2),
            prop_oneof![Just(1_000u64), 1u64..=2_000],
            prop_oneof![Just(0i64), -5_000i64..=5_000],
            prop_oneof![Just(0i64), -100_000i64..=100_000],
        ),
    )
        .prop_map(
            |(
                (start_ms, work_ms, writes, repeat, retry_ms, wall_lease_clock, stop_on_loss),
                (other_key, nested, check_lease, write_timeout_ms, clock_offset_ms, drift),
            )| RawWorker {
                start_ms,
                work_ms,
                writes,
                repeat,
                retry_ms,
                other_key,
                nested,
                check_lease,
                write_timeout_ms,
                clock_offset_ms,
                clock_drift_ppm: drift,
                wall_lease_clock,
                stop_on_loss,
            },
        )
}

/// Most nodes a generated scenario has: 4 workers, 5 store nodes, the resource.
const MAX_NODES: usize = 10;

fn raw_fault(profile: Profile) -> BoxedStrategy<RawFault> {
    let for_ms = || 1u64..=15_000;
    let pause =
        (any::<Index>(), for_ms()).prop_map(|(node, for_ms)| RawFault::Pause { node, for_ms });
    let stall =
        (any::<Index>(), for_ms()).prop_map(|(worker, for_ms)| RawFault::Stall { worker, for_ms });
    let crash = any::<Index>().prop_map(|node| RawFault::Crash { node });
    let restart = any::<Index>().prop_map(|node| RawFault::Restart { node });
    let partition = (
        proptest::collection::vec(0u8..=3, MAX_NODES),
        proptest::option::of(for_ms()),
    )
        .prop_map(|(sides, for_ms)| RawFault::Partition { sides, for_ms });
    let jump = (any::<Index>(), -30_000i64..=30_000)
        .prop_map(|(node, delta_ms)| RawFault::ClockJump { node, delta_ms });
    let delay = (any::<Index>(), any::<Index>(), 0u64..=5_000, for_ms()).prop_map(
        |(from, to, extra_ms, for_ms)| RawFault::Delay {
            from,
            to,
            extra_ms,
            for_ms,
        },
    );
    let force =
        proptest::option::of(any::<Index>()).prop_map(|node| RawFault::ForceRelease { node });
    let reset = (any::<Index>(), any::<Index>())
        .prop_map(|(worker, store)| RawFault::ConnectionReset { worker, store });
    match profile {
        Profile::Fenced => prop_oneof![
            pause,
            stall,
            crash,
            restart,
            partition,
            Just(RawFault::Heal),
            jump,
            delay,
            force
        ]
        .boxed(),
        Profile::Any | Profile::OwnerToken | Profile::Authority | Profile::NoLease => prop_oneof![
            pause,
            stall,
            crash,
            restart,
            proptest::option::of(for_ms()).prop_map(|for_ms| RawFault::KillStore { for_ms }),
            partition,
            Just(RawFault::Heal),
            jump,
            delay,
            force,
            reset
        ]
        .boxed(),
    }
}

fn raw(profile: Profile) -> impl Strategy<Value = Raw> {
    (
        (
            shape(profile),
            raw_lock(),
            raw_store(),
            network(),
            resource(),
        ),
        (
            prop_oneof![1 => 1u64..=1_000, 4 => 1_000u64..=20_000],
            1u64..=15_000,
            any::<u64>(),
        ),
        proptest::collection::vec(raw_worker(), 1..=4),
        proptest::collection::vec((0u64..20_000, raw_fault(profile)), 0..=6),
    )
        .prop_map(
            |(
                ((design, topology), lock, store, network, resource),
                (until_ms, starve_after_ms, seed),
                workers,
                faults,
            )| Raw {
                design,
                topology,
                lock,
                store,
                network,
                resource,
                until_ms,
                starve_after_ms,
                seed,
                workers,
                faults,
            },
        )
}

/// A valid scenario of `profile`.
pub fn scenario(profile: Profile) -> impl Strategy<Value = Scenario> {
    raw(profile).prop_map(move |raw| build(profile, raw))
}

/// Turns raw choices into a scenario, bending each into the range the validator allows.
fn build(profile: Profile, raw: Raw) -> Scenario {
    let Raw {
        design,
        topology,
        lock,
        store,
        network,
        resource,
        until_ms,
        starve_after_ms,
        seed,
        workers,
        faults,
    } = raw;
    let nodes = match topology {
        Topology::Single => 1,
        Topology::Replicated | Topology::MultiPrimary => 2 + store.extra_nodes,
        Topology::Redlock | Topology::Consensus => 3 + store.extra_nodes,
    };
    let has_lease = design.has_lease();
    // Without a lock there is nothing to take again, and no lease to check.
    let locked = design != Design::None;
    let workers: Vec<Worker> = workers
        .into_iter()
        .enumerate()
        .map(|(i, w)| Worker {
            stores: None,
            // Each on its own member, round the cluster: two of them share none of its locks.
            store_node: (topology == Topology::MultiPrimary)
                .then(|| format!("store{}", i as u32 % nodes + 1)),
            name: ["A", "B", "C", "D"][i].to_string(),
            start_ms: w.start_ms.min(until_ms - 1),
            work_ms: w.work_ms,
            writes: w.writes,
            repeat: w.repeat,
            retry_ms: w.retry_ms,
            key: if w.other_key { "other" } else { "lock" }.to_string(),
            nested: w.nested && locked,
            check_lease: w.check_lease && locked,
            write_timeout_ms: w.write_timeout_ms,
            clock_offset_ms: w.clock_offset_ms,
            clock_drift_ppm: w.clock_drift_ppm,
            lease_clock: if w.wall_lease_clock {
                LeaseClock::Wall
            } else {
                LeaseClock::Monotonic
            },
            on_lock_loss: if w.stop_on_loss {
                OnLockLoss::Stop
            } else {
                OnLockLoss::Continue
            },
            on_timeout: OnTimeout::HandBack,
            lease_from: LeaseFrom::Request,
            lease_check_every_ms: 0,
        })
        .collect();
    let worker_names: Vec<String> = workers.iter().map(|w| w.name.clone()).collect();
    let first_key = workers[0].key.clone();
    let mut all_names = worker_names.clone();
    all_names.extend((1..=nodes).map(store_name));
    all_names.push(RESOURCE.to_string());
    // Fenced: crashes and restarts hit workers only, so the store keeps its fencing counter.
    let crashable = match profile {
        Profile::Fenced => &worker_names,
        _ => &all_names,
    };
    let pick = |names: &[String], i: &Index| names[i.index(names.len())].clone();
    let faults = faults
        .into_iter()
        .map(|(at_ms, f)| {
            let kind = match f {
                RawFault::Pause { node, for_ms } => FaultKind::Pause {
                    node: pick(&all_names, &node),
                    for_ms,
                },
                RawFault::Stall { worker, for_ms } => FaultKind::Stall {
                    node: pick(&worker_names, &worker),
                    for_ms,
                },
                RawFault::Crash { node } => FaultKind::Crash {
                    node: pick(crashable, &node),
                },
                RawFault::Restart { node } => FaultKind::Restart {
                    node: pick(crashable, &node),
                },
                RawFault::KillStore { for_ms } => FaultKind::KillStore { for_ms },
                RawFault::Partition { sides, for_ms } => FaultKind::Partition {
                    groups: groups(&all_names, &sides),
                    for_ms,
                },
                RawFault::Heal => FaultKind::Heal,
                RawFault::ClockJump { node, delta_ms } => FaultKind::ClockJump {
                    node: pick(&all_names, &node),
                    delta_ms,
                },
                RawFault::Delay {
                    from,
                    to,
                    extra_ms,
                    for_ms,
                } => {
                    let n = all_names.len();
                    let f = from.index(n);
                    // Any node but `from` itself.
                    let t = (f + 1 + to.index(n - 1)) % n;
                    FaultKind::Delay {
                        from: all_names[f].clone(),
                        to: all_names[t].clone(),
                        extra_ms,
                        for_ms,
                    }
                }
                RawFault::ForceRelease { node } => FaultKind::ForceRelease {
                    key: first_key.clone(),
                    node: node.map(|i| store_name(i.index(nodes as usize) as u32 + 1)),
                    by: DeletedBy::Operator,
                },
                RawFault::ConnectionReset { worker, store } => FaultKind::ConnectionReset {
                    from: pick(&worker_names, &worker),
                    to: store_name(store.index(nodes as usize) as u32 + 1),
                },
            };
            Fault {
                at_ms: at_ms % until_ms,
                kind,
            }
        })
        .collect();
    let client_expiry = lock.client_expiry
        && has_lease
        && topology == Topology::Single
        && profile != Profile::Authority;
    // A contender's clock decides: half of them (the seed picks) by the holder's "held until",
    // the other half by how long they saw the record unchanged.
    let expiry = match (client_expiry, seed % 2) {
        (false, _) => Expiry::Store,
        (true, 0) => Expiry::Observed,
        (true, _) => Expiry::Client,
    };
    let renewal = if has_lease {
        lock.renewal
    } else {
        Renewal::None
    };
    // Timestamp order is the only queue a `timestamp` lock has; Redlock's nodes share none;
    // without a lock nobody queues.
    let fair = lock.fair
        && !matches!(design, Design::Timestamp | Design::None | Design::Session)
        && topology != Topology::Redlock;
    let defaults = Lock::default();
    Scenario {
        version: scenario::VERSION,
        name: "generated".to_string(),
        description: String::new(),
        source: String::new(),
        seed,
        until_ms,
        network,
        lock: Lock {
            design,
            // Without a lease only a fair queue uses ttl_ms (to time its turns).
            ttl_ms: if has_lease || fair {
                lock.ttl_ms
            } else {
                defaults.ttl_ms
            },
            expiry,
            renewal,
            renew_every_ms: lock.renew_every_ms.filter(|_| renewal != Renewal::None),
            // A reentrant lock recognises its holder by the owner token.
            reentrant: lock.reentrant && design.checks_owner(),
            waiting: if fair { Waiting::Fair } else { Waiting::Retry },
            retry_ms: lock.retry_ms,
            // Only a store-side expiry starts a lock-delay (observed expiry refuses one).
            lock_delay_ms: if has_lease && expiry != Expiry::Observed {
                lock.lock_delay_ms
            } else {
                0
            },
            retry_jitter_ms: lock.retry_jitter_ms,
            // SETNX then EXPIRE: Redis's commands, with the store timing the lease.
            acquire: if lock.two_step
                && has_lease
                && !client_expiry
                && topology != Topology::Consensus
            {
                Acquire::TwoStep
            } else {
                Acquire::OneStep
            },
            hold_count: !(lock.uncounted && lock.reentrant && design.checks_owner()),
            settle_ms: if design == Design::Timestamp {
                lock.settle_ms
            } else {
                defaults.settle_ms
            },
            // A waiters' health check on a quarter of the scenarios that can have one (the
            // seed picks them, so no strategy needs a thirteenth field).
            ping_timeout_ms: (seed % 4 == 0
                && matches!(
                    design,
                    Design::Setnx | Design::Ttl | Design::Token | Design::Fencing
                )
                && topology == Topology::Single
                && !fair
                && !(lock.reentrant && design.checks_owner()))
            .then_some(100 + seed % 900),
        },
        store: Store {
            topology,
            nodes,
            clock: Some(if store.wall_clock && profile != Profile::Authority {
                StoreClock::Wall
            } else {
                StoreClock::Monotonic
            }),
            persistence: match store.persistence {
                _ if profile == Profile::Authority => Persistence::Fsync,
                1 => Persistence::None,
                // Redis's AOF setting; a consensus store syncs before it answers.
                2 if topology != Topology::Consensus => Persistence::Everysec,
                _ => Persistence::Fsync,
            },
            replication_lag_ms: store.replication_lag_ms,
            failover_ms: store.failover_ms,
            prevote: true,
            check_quorum: true,
            ttl_multiplier: 1,
            ..Store::default()
        },
        resource: {
            let fencing = match profile {
                Profile::Fenced => true,
                _ => resource.fencing && design == Design::Fencing,
            };
            Resource {
                fencing,
                fence_reads: fencing && resource.fence_reads,
                mode: resource.mode,
            }
        },
        check: Check { starve_after_ms },
        workers,
        store_clocks: Vec::new(),
        faults,
        expect: None,
    }
}

/// Partition groups from one side number per node (0: unlisted). Fewer than two non-empty
/// groups would cut nothing (and is invalid), so then the first worker is cut from the rest.
fn groups(names: &[String], sides: &[u8]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = vec![Vec::new(); 3];
    for (name, &side) in names.iter().zip(sides) {
        if side > 0 {
            groups[usize::from(side) - 1].push(name.clone());
        }
    }
    groups.retain(|g| !g.is_empty());
    if groups.len() < 2 {
        groups = vec![names[..1].to_vec(), names[1..].to_vec()];
    }
    groups
}

// ---------------------------------------------------------------------------------------------
// Running, and saying what reproduces a failure
// ---------------------------------------------------------------------------------------------

/// The seed and the whole scenario as TOML: what a failure message must carry.
/// When a waiters' health check (`lock.ping_timeout_ms`) deleted a lock: the times its
/// deletes reached a store. Like an operator's `force_release`, such a delete comes from
/// outside the owner's protocol, so owner tokens do not stop it.
pub fn health_check_deletes(trace: &locksim::trace::Trace) -> Vec<u64> {
    use locksim::trace::{EventKind, Label};
    let sent: Vec<_> = trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Send {
                msg,
                what: Label::Evict { .. },
                ..
            } => Some(*msg),
            _ => None,
        })
        .collect();
    trace
        .events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Deliver { msg, .. } if sent.contains(msg)))
        .map(|e| e.at_ms)
        .collect()
}

pub fn repro(sc: &Scenario) -> String {
    format!(
        "reproduce with seed {} — save this as a file and `locksim run FILE`:\n{}",
        sc.seed,
        scenario::to_toml(sc)
    )
}
