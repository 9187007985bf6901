//! Checks a typed scenario for values and combinations the engine cannot run, or that would
//! show a learner something the real systems cannot do.
//!
//! Each check names the field to change. The first problem found is reported, in file order.

use std::collections::BTreeMap;

use super::names::{RESOURCE, is_reserved_for_stores, parse_store_name, store_name};
use super::{
    Acquire, DeletedBy, Design, Expect, Expiry, FaultKind, LeaseFrom, Lock, Network, OnLockLoss,
    OnTimeout, Persistence, REPLICA_ACK_EVERY_MS, Renewal, Scenario, ScenarioError, Store,
    Topology, VERSION, Waiting, Worker,
};

/// Longest horizon, ms (a little under 3 simulated hours): every case fits far inside it, and it
/// keeps a run with `repeat = 0` workers short.
pub const MAX_UNTIL_MS: u64 = 10_000_000;
/// Longest one-way network delay, ms.
const MAX_DELAY_MS: u64 = 60_000;
const MAX_WORKERS: usize = 64;
const MAX_WRITES: u32 = 1000;
const MAX_FAULTS: usize = 1000;
/// Largest clock offset or jump, ms (about 11.6 days): far past any lesson, and far from
/// overflowing the engine's clock arithmetic.
const MAX_CLOCK_STEP_MS: u64 = 1_000_000_000;
/// Largest clock drift, ppm: a clock running at half or one and a half times true speed.
const MAX_DRIFT_PPM: u64 = 500_000;
/// Largest `store.ttl_multiplier`: Consul's is 2; ten times the TTL is past any store's grace.
const MAX_TTL_MULTIPLIER: u32 = 10;

type Check = Result<(), ScenarioError>;

impl Scenario {
    /// Checks ranges, names and combinations. The error names the offending field; it has no
    /// line or column (there is no file here; [`parse`](super::parse()) adds them).
    pub fn validate(&self) -> Check {
        ensure(self.version == VERSION, "version", || {
            format!(
                "this build reads scenario files of version {VERSION} only; got {}",
                self.version
            )
        })?;
        ensure(!self.name.trim().is_empty(), "name", || {
            "must not be empty: the app and the CLI show it as the title".to_string()
        })?;
        plain_text(&self.name, "name", false)?;
        plain_text(&self.description, "description", true)?;
        plain_text(&self.source, "source", true)?;
        ensure(
            (1..=MAX_UNTIL_MS).contains(&self.until_ms),
            "until_ms",
            || format!("must be from 1 to {MAX_UNTIL_MS} ms; got {}", self.until_ms),
        )?;
        check_network(&self.network)?;
        check_lock(&self.lock, &self.store)?;
        check_store(&self.store)?;
        check_ttl_multiplier(&self.lock, &self.store)?;
        check_min_replicas(&self.lock, &self.store)?;
        ensure(
            !self.resource.fencing || self.lock.design == Design::Fencing,
            "resource.fencing",
            || {
                format!(
                    "the resource can check fencing tokens only if the lock hands them out: \
                     that needs lock.design = \"fencing\", not \"{}\"",
                    self.lock.design.as_str()
                )
            },
        )?;
        ensure(
            !self.resource.fence_reads || self.resource.fencing,
            "resource.fence_reads",
            || {
                "checking fencing tokens on reads needs the resource to check them at all: \
                 set resource.fencing = true"
                    .to_string()
            },
        )?;
        at_least_one(self.check.starve_after_ms, "check.starve_after_ms")?;
        self.check_workers()?;
        self.check_store_clocks()?;
        self.check_faults()?;
        self.expect.as_ref().map_or(Ok(()), check_expect)
    }

    fn check_workers(&self) -> Check {
        ensure(!self.workers.is_empty(), "worker", || {
            "a scenario needs at least one [[worker]]".to_string()
        })?;
        ensure(
            self.workers.len() <= MAX_WORKERS,
            format!("worker[{MAX_WORKERS}]"),
            || {
                format!(
                    "at most {MAX_WORKERS} workers; this one is number {}",
                    MAX_WORKERS + 1
                )
            },
        )?;
        let mut first_named: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, worker) in self.workers.iter().enumerate() {
            let field = |name: &str| format!("worker[{i}].{name}");
            check_worker_name(&worker.name, &field("name"))?;
            if let Some(first) = first_named.insert(&worker.name, i) {
                return Err(ScenarioError::new(
                    field("name"),
                    format!("`{}` is already the name of worker[{first}]", worker.name),
                ));
            }
            check_worker(worker, field)?;
            self.check_lease_count(worker, field)?;
            self.check_view(worker, field)?;
            self.check_pin(worker, field)?;
            self.check_on_timeout(worker, field)?;
            ensure(
                self.lock.design != Design::None || !(worker.nested || worker.check_lease),
                field(if worker.nested {
                    "nested"
                } else {
                    "check_lease"
                }),
                || {
                    "needs a lock (a nested acquire, a check of the lease before each write), and \
                     with lock.design = \"none\" there is none: leave it out"
                        .to_string()
                },
            )?;
            ensure(worker.start_ms < self.until_ms, field("start_ms"), || {
                format!(
                    "must be before until_ms = {}, or the worker never runs; got {}",
                    self.until_ms, worker.start_ms
                )
            })?;
        }
        Ok(())
    }

    /// A worker's `lease_from` and `lease_check_every_ms` against the store and its other
    /// settings.
    fn check_lease_count(&self, worker: &Worker, field: impl Fn(&str) -> String) -> Check {
        let every = worker.lease_check_every_ms;
        at_most_horizon(every, &field("lease_check_every_ms"))?;
        ensure(
            every == 0 || worker.on_lock_loss == OnLockLoss::Stop,
            field("lease_check_every_ms"),
            || {
                format!(
                    "only a worker with on_lock_loss = \"stop\" watches its own count, so \
                     lease_check_every_ms = {every} would be ignored: leave it out, or add \
                     on_lock_loss = \"stop\""
                )
            },
        )?;
        ensure(
            !(worker.lease_from == LeaseFrom::Reply && self.store.topology == Topology::Redlock),
            field("lease_from"),
            || {
                "Redlock counts its validity from the first request (Redis docs: the TTL minus \
                 the time spent acquiring), so lease_from = \"reply\" would not be Redlock; \
                 use it with a single, replicated or consensus store"
                    .to_string()
            },
        )
    }

    /// A worker's own list of store nodes (`stores`): Redlock's, each a node of the store once.
    fn check_view(&self, worker: &Worker, field: impl Fn(&str) -> String) -> Check {
        let Some(view) = &worker.stores else {
            return Ok(());
        };
        ensure(
            self.store.topology == Topology::Redlock,
            field("stores"),
            || {
                format!(
                    "a client's own list of nodes is modelled for Redlock, whose client asks \
                     each node itself; store.topology is \"{}\", whose clients follow one \
                     primary or leader",
                    self.store.topology.as_str()
                )
            },
        )?;
        ensure(!view.is_empty(), field("stores"), || {
            "a client that knows no store node can never lock: name at least one, or leave it \
             out for every node"
                .to_string()
        })?;
        for (j, name) in view.iter().enumerate() {
            let known = parse_store_name(name).is_some_and(|n| n <= self.store.nodes);
            ensure(known, field(&format!("stores[{j}]")), || {
                format!(
                    "`{name}` is not a store node: store.nodes = {} names store1 to store{}",
                    self.store.nodes, self.store.nodes
                )
            })?;
            ensure(
                !view[..j].contains(name),
                field(&format!("stores[{j}]")),
                || format!("`{name}` is listed twice"),
            )?;
        }
        Ok(())
    }

    /// `on_timeout = "forget"`: only where a forgotten attempt outlives the timeout, in a
    /// fair queue whose entries and grants belong to the client's session.
    fn check_on_timeout(&self, worker: &Worker, field: impl Fn(&str) -> String) -> Check {
        ensure(
            !(worker.on_timeout == OnTimeout::Forget && self.lock.waiting != Waiting::Fair),
            field("on_timeout"),
            || {
                "forget models a ZooKeeper client that creates its lock node again after a timeout (ZOOKEEPER-1262): its first node waits on in the queue, kept alive by the client's session. Without a queue (lock.waiting = \"retry\") a late grant left unread is what drop_connection already models: use that, or add waiting = \"fair\" to [lock]"
                    .to_string()
            },
        )
    }

    /// The member a worker is pinned to (`store_node`): a multi-primary member of the store.
    fn check_pin(&self, worker: &Worker, field: impl Fn(&str) -> String) -> Check {
        let Some(name) = &worker.store_node else {
            return Ok(());
        };
        ensure(
            self.store.topology == Topology::MultiPrimary,
            field("store_node"),
            || {
                format!(
                    "pins a client to one member of a multi-primary cluster, where each member \
                     grants on its own: use store.topology = \"multi_primary\"; store.topology \
                     is \"{}\", whose clients find the node that decides themselves",
                    self.store.topology.as_str()
                )
            },
        )?;
        let known = parse_store_name(name).is_some_and(|n| n <= self.store.nodes);
        ensure(known, field("store_node"), || {
            format!(
                "`{name}` is not a store node: store.nodes = {} names store1 to store{}",
                self.store.nodes, self.store.nodes
            )
        })
    }

    fn check_faults(&self) -> Check {
        ensure(
            self.faults.len() <= MAX_FAULTS,
            format!("fault[{MAX_FAULTS}]"),
            || {
                format!(
                    "at most {MAX_FAULTS} faults; this one is number {}",
                    MAX_FAULTS + 1
                )
            },
        )?;
        for (i, fault) in self.faults.iter().enumerate() {
            let field = |name: &str| format!("fault[{i}].{name}");
            ensure(fault.at_ms < self.until_ms, field("at_ms"), || {
                format!(
                    "would never happen: it must be before until_ms = {}; got {}",
                    self.until_ms, fault.at_ms
                )
            })?;
            match &fault.kind {
                FaultKind::Pause { node, for_ms } => {
                    self.check_node(node, field("node"))?;
                    at_least_one(*for_ms, &field("for_ms"))?;
                }
                FaultKind::Stall { node, for_ms } => {
                    self.check_node(node, field("node"))?;
                    ensure(self.is_worker(node), field("node"), || {
                        format!(
                            "a stall stops a worker's work, and `{node}` is not a worker \
                             (pause or crash work on any node)"
                        )
                    })?;
                    at_least_one(*for_ms, &field("for_ms"))?;
                }
                FaultKind::Crash { node } | FaultKind::Restart { node } => {
                    self.check_node(node, field("node"))?;
                }
                FaultKind::KillStore { for_ms } => {
                    for_ms.map_or(Ok(()), |ms| at_least_one(ms, &field("for_ms")))?;
                }
                FaultKind::Partition { groups, for_ms } => {
                    self.check_groups(groups, &field("groups"))?;
                    for_ms.map_or(Ok(()), |ms| at_least_one(ms, &field("for_ms")))?;
                }
                FaultKind::Heal => {}
                FaultKind::ClockJump { node, delta_ms } => {
                    self.check_node(node, field("node"))?;
                    ensure(
                        delta_ms.unsigned_abs() <= MAX_CLOCK_STEP_MS,
                        field("delta_ms"),
                        || format!("must be within ±{MAX_CLOCK_STEP_MS} ms; got {delta_ms}"),
                    )?;
                }
                FaultKind::Delay {
                    from,
                    to,
                    for_ms,
                    extra_ms,
                } => {
                    at_most_horizon(*extra_ms, &field("extra_ms"))?;
                    self.check_node(from, field("from"))?;
                    self.check_node(to, field("to"))?;
                    ensure(from != to, field("to"), || {
                        format!(
                            "must differ from `from` (both are `{to}`): a delay slows the link between two nodes"
                        )
                    })?;
                    at_least_one(*for_ms, &field("for_ms"))?;
                }
                FaultKind::ConnectionReset { from, to } => {
                    self.check_node(from, field("from"))?;
                    self.check_node(to, field("to"))?;
                    ensure(from != to, field("to"), || {
                        format!(
                            "must differ from `from` (both are `{to}`): a reset ends the \
                             connection between two nodes"
                        )
                    })?;
                    let store = |n: &str| n != RESOURCE && !self.is_worker(n);
                    let workers = self.is_worker(from) && self.is_worker(to);
                    let resource_and_store =
                        (from == RESOURCE && store(to)) || (to == RESOURCE && store(from));
                    ensure(!(workers || resource_and_store), field("to"), || {
                        format!(
                            "`{from}` and `{to}` never connect to each other: a worker \
                                 talks to the store and the resource, the store to itself"
                        )
                    })?;
                }
                FaultKind::ForceRelease { key, node, by } => {
                    ensure(
                        *by != DeletedBy::Eviction || self.store.topology != Topology::Consensus,
                        field("by"),
                        || {
                            "a consensus store (etcd, ZooKeeper) never evicts a key to free \
                             memory; eviction is Redis's maxmemory policy: use by = \"operator\" \
                             or another topology"
                                .to_string()
                        },
                    )?;
                    if *by == DeletedBy::Flush {
                        ensure(key.is_empty(), field("key"), || {
                            "a flush deletes every key on the node, so it names none: leave \
                             it empty"
                                .to_string()
                        })?;
                    }
                    ensure(
                        *by == DeletedBy::Flush || self.workers.iter().any(|w| w.key == *key),
                        field("key"),
                        || {
                            let mut keys: Vec<&str> =
                                self.workers.iter().map(|w| w.key.as_str()).collect();
                            crate::order::sort(&mut keys);
                            keys.dedup();
                            format!(
                                "no worker uses the lock {key:?}, so there is nothing to delete; \
                                 the keys are {}",
                                keys.join(", ")
                            )
                        },
                    )?;
                    if let Some(node) = node {
                        self.check_store_node(node, field("node"))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `name` must be one of `store1` .. `storeN`.
    fn check_store_node(&self, name: &str, field: String) -> Check {
        let known = parse_store_name(name).is_some_and(|n| n <= self.store.nodes);
        ensure(known, field, || match self.store.nodes {
            1 => format!("must name the store node, {}; got {name:?}", store_name(1)),
            n => format!(
                "must name a store node, {} .. {}; got {name:?}",
                store_name(1),
                store_name(n)
            ),
        })
    }

    fn check_store_clocks(&self) -> Check {
        let mut first_named: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, node) in self.store_clocks.iter().enumerate() {
            let field = |name: &str| format!("node[{i}].{name}");
            self.check_store_node(&node.name, field("name"))?;
            if let Some(first) = first_named.insert(&node.name, i) {
                return Err(ScenarioError::new(
                    field("name"),
                    format!("`{}` already has its clock in node[{first}]", node.name),
                ));
            }
            check_clock(node.clock_offset_ms, node.clock_drift_ppm, field)?;
        }
        Ok(())
    }

    fn check_groups(&self, groups: &[Vec<String>], field: &str) -> Check {
        ensure(groups.len() >= 2, field, || {
            format!(
                "a partition needs at least 2 groups to cut the links between; got {}",
                groups.len()
            )
        })?;
        let mut group_of: BTreeMap<&str, usize> = BTreeMap::new();
        for (g, group) in groups.iter().enumerate() {
            ensure(!group.is_empty(), format!("{field}[{g}]"), || {
                "an empty group cuts nothing: name at least one node".to_string()
            })?;
            for (k, node) in group.iter().enumerate() {
                let node_field = format!("{field}[{g}][{k}]");
                self.check_node(node, node_field.clone())?;
                if let Some(first) = group_of.insert(node, g) {
                    return Err(ScenarioError::new(
                        node_field,
                        format!(
                            "`{node}` is already in group {first}; a node can be on one side of a \
                             partition only"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn is_worker(&self, name: &str) -> bool {
        self.workers.iter().any(|worker| worker.name == name)
    }

    fn check_node(&self, name: &str, field: String) -> Check {
        let names = self.node_names();
        ensure(names.iter().any(|known| known == name), field, || {
            format!(
                "there is no node named {name:?}; the nodes are {}",
                names.join(", ")
            )
        })
    }
}

fn check_network(network: &Network) -> Check {
    let [min, max] = network.delay_ms;
    ensure(min <= max, "network.delay_ms", || {
        format!(
            "is [shortest, longest], so the first must not be larger than the second; got [{min}, {max}]"
        )
    })?;
    ensure(max <= MAX_DELAY_MS, "network.delay_ms", || {
        format!("must be at most {MAX_DELAY_MS} ms; got [{min}, {max}]")
    })?;
    ensure(
        network.loss.is_finite() && (0.0..=1.0).contains(&network.loss),
        "network.loss",
        || {
            // A number far out of range is not printed: its every digit (309 for 1e308, or
            // 18446744073709552000 for 2^64 - 1 as the float it was read into) would read as
            // if the file held it.
            let got = if network.loss.is_nan() || network.loss.abs() < 1e6 {
                network.loss.to_string()
            } else {
                "a number beyond ±1 000 000".to_string()
            };
            format!("must be a probability from 0 to 1; got {got}")
        },
    )?;
    at_least_one(network.timeout_ms, "network.timeout_ms")?;
    at_least_one(network.tcp_give_up_ms, "network.tcp_give_up_ms")?;
    at_most_horizon(network.tcp_give_up_ms, "network.tcp_give_up_ms")
}

fn check_lock(lock: &Lock, store: &Store) -> Check {
    let design = lock.design.as_str();
    let has_lease = lock.design.has_lease();
    at_most_horizon(lock.ttl_ms, "lock.ttl_ms")?;
    if let Some(period) = lock.renew_every_ms {
        // A file's 0 reads as unset; a period of 0 set in code would renew in a busy loop.
        at_least_one(period, "lock.renew_every_ms")?;
    }
    ensure(!has_lease || lock.ttl_ms >= 1, "lock.ttl_ms", || {
        format!(
            "must be at least 1 for the {design} design: a lease of 0 ms is over before it begins"
        )
    })?;
    // A setting the design makes no use of is refused, as fencing without fencing tokens is:
    // whoever wrote it expects it to act. Its default stays accepted, since every file the app
    // saves spells ttl_ms out; 0 says "no lease" in so many words. Without a lease, ttl_ms still
    // times a turn in a fair queue.
    ensure(
        has_lease
            || lock.waiting == Waiting::Fair
            || lock.ttl_ms == 0
            || lock.ttl_ms == Lock::default().ttl_ms,
        "lock.ttl_ms",
        || {
            format!(
                "the {design} design has no lease, so ttl_ms = {} would be ignored: leave it \
                 out, or write 0 for no lease (only a fair queue, waiting = \"fair\", times its \
                 turns by it)",
                lock.ttl_ms
            )
        },
    )?;
    ensure(
        lock.renew_every_ms.is_none() || lock.renewal != Renewal::None,
        "lock.renew_every_ms",
        || {
            "sets how often a holder renews its lease, and renewal = \"none\" renews nothing: \
             leave it out, or choose renewal = \"watchdog\" or \"progress\""
                .to_string()
        },
    )?;
    ensure(
        has_lease || lock.renewal == Renewal::None,
        "lock.renewal",
        || {
            format!(
                "renewal extends a lease, and {design} locks have none: use a design with a \
                 lease (ttl, token or fencing), or renewal = \"none\""
            )
        },
    )?;
    if let Some(timeout) = lock.ping_timeout_ms {
        at_least_one(timeout, "lock.ping_timeout_ms")?;
        ensure(
            matches!(
                lock.design,
                Design::Setnx | Design::Ttl | Design::Token | Design::Fencing
            ),
            "lock.ping_timeout_ms",
            || {
                format!(
                    "a health check deletes the key a holder set, and {design} locks have no \
                     key to delete: use setnx, ttl, token or fencing"
                )
            },
        )?;
        ensure(
            store.topology == Topology::Single,
            "lock.ping_timeout_ms",
            || {
                format!(
                    "the health check is modelled with a single store node only; \
                     store.topology is \"{}\"",
                    store.topology.as_str()
                )
            },
        )?;
        ensure(
            lock.waiting == Waiting::Retry && !lock.reentrant,
            "lock.ping_timeout_ms",
            || {
                "the health check is modelled for waiters that retry (waiting = \"retry\") on \
                 a lock that is not reentrant"
                    .to_string()
            },
        )?;
    }
    if lock.expiry != Expiry::Store {
        let expiry: &str = lock.expiry.into();
        ensure(has_lease, "lock.expiry", || {
            format!(
                "expiry = \"{expiry}\" needs a design with a lease (ttl, token or fencing); \
                 {design} locks never expire"
            )
        })?;
        ensure(store.topology == Topology::Single, "lock.expiry", || {
            format!(
                "expiry = \"{expiry}\" is modelled with a single store node only; \
                 store.topology is \"{}\"",
                store.topology.as_str()
            )
        })?;
        // Lock-delay starts when the store expires a lease, which it never does here.
        ensure(
            lock.expiry == Expiry::Client || lock.lock_delay_ms == 0,
            "lock.lock_delay_ms",
            || {
                "starts when the store expires a lease, and with expiry = \"observed\" the \
                 store expires none (a contender takes over): leave it out, or use expiry = \
                 \"store\""
                    .to_string()
            },
        )?;
    }
    ensure(
        !lock.reentrant || lock.design.checks_owner(),
        "lock.reentrant",
        || {
            format!(
                "a reentrant lock recognises its holder by the owner token, and {design} locks carry none: use design = \"token\" or \"fencing\""
            )
        },
    )?;
    ensure(
        lock.design != Design::Flag
            || matches!(store.topology, Topology::Single | Topology::Replicated),
        "lock.design",
        || {
            format!(
                "the flag design is a row in one database: use store.topology = \"single\" or \
                 \"replicated\", not \"{}\"",
                store.topology.as_str()
            )
        },
    )?;
    if lock.design == Design::Timestamp {
        ensure(store.topology == Topology::Single, "lock.design", || {
            format!(
                "the timestamp design is modelled with one store node keeping the table of \
                 claims: use store.topology = \"single\", not \"{}\"",
                store.topology.as_str()
            )
        })?;
        ensure(lock.waiting == Waiting::Retry, "lock.waiting", || {
            "the timestamp design orders waiters by their stamps, not by a queue at the \
             store: use waiting = \"retry\""
                .to_string()
        })?;
    }
    if lock.design == Design::Session {
        ensure(
            matches!(store.topology, Topology::Single | Topology::MultiPrimary),
            "lock.design",
            || {
                format!(
                    "a session lock lives in one database server's memory (PostgreSQL's \
                     advisory locks, MySQL's GET_LOCK): use store.topology = \"single\" or \
                     \"multi_primary\", not \"{}\"",
                    store.topology.as_str()
                )
            },
        )?;
        ensure(lock.waiting == Waiting::Retry, "lock.waiting", || {
            "a session lock is modelled as a client trying again (pg_try_advisory_lock in a \
             loop): use waiting = \"retry\""
                .to_string()
        })?;
    }
    ensure(
        lock.design != Design::None || lock.waiting == Waiting::Retry,
        "lock.waiting",
        || {
            "with design = \"none\" nobody waits for a lock: use waiting = \"retry\" (a write \
             refused by a compare-and-swap is tried again from a fresh read)"
                .to_string()
        },
    )?;
    at_most_horizon(lock.settle_ms, "lock.settle_ms")?;
    ensure(
        lock.design == Design::Timestamp || lock.settle_ms == Lock::default().settle_ms,
        "lock.settle_ms",
        || {
            format!(
                "is how long a timestamp lock waits before it reads the claims, and the {design} \
                 design makes no claims: leave it out, or use design = \"timestamp\""
            )
        },
    )?;
    ensure(
        lock.acquire == Acquire::OneStep || has_lease,
        "lock.acquire",
        || {
            format!(
                "two_step is SETNX then EXPIRE, and {design} locks have no expiry to set: use a \
                 design with a lease (ttl, token or fencing), or acquire = \"one_step\""
            )
        },
    )?;
    ensure(
        lock.acquire == Acquire::OneStep
            || (lock.expiry == Expiry::Store && store.topology != Topology::Consensus),
        "lock.acquire",
        || {
            "two_step is Redis's SETNX then EXPIRE: it needs a Redis-like store \
             (single, replicated or redlock) timing the lease, expiry = \"store\""
                .to_string()
        },
    )?;
    ensure(lock.hold_count || lock.reentrant, "lock.hold_count", || {
        "says how a reentrant lock counts repeat acquires; it needs lock.reentrant = true"
            .to_string()
    })?;
    at_least_one(lock.retry_ms, "lock.retry_ms")?;
    if let Some(jitter) = lock.retry_jitter_ms {
        at_most_horizon(jitter, "lock.retry_jitter_ms")?;
    }
    ensure(
        lock.lock_delay_ms <= MAX_UNTIL_MS,
        "lock.lock_delay_ms",
        || {
            format!(
                "must be at most {MAX_UNTIL_MS} ms (the longest horizon); got {}",
                lock.lock_delay_ms
            )
        },
    )?;
    ensure(
        has_lease || lock.lock_delay_ms == 0,
        "lock.lock_delay_ms",
        || {
            format!(
                "holds new grants back after a lease expires, and {design} locks have no lease \
                 to expire: leave it out, or use a design with a lease (ttl, token or fencing)"
            )
        },
    )?;
    ensure(
        !(lock.waiting == Waiting::Fair && store.topology == Topology::Redlock),
        "lock.waiting",
        || {
            "Redlock's independent nodes keep no shared queue: each would queue the waiters on \
             its own, in its own order, and no majority would agree whose turn it is (Redis \
             docs, \"Distributed locks with Redis\": a client that fails retries after a random \
             delay); use waiting = \"retry\", or a consensus store for a fair queue"
                .to_string()
        },
    )?;
    ensure(
        !(lock.design == Design::Fencing && store.topology.independent_nodes()),
        "lock.design",
        || {
            format!(
                "the independent nodes of a {} store have no shared counter to issue fencing \
                 tokens (Kleppmann 2016); fencing with several nodes needs store.topology = \
                 \"consensus\"",
                store.topology.as_str()
            )
        },
    )
}

fn check_store(store: &Store) -> Check {
    let (fewest, most) = match store.topology {
        Topology::Single => (1, 1),
        Topology::Replicated | Topology::MultiPrimary => (2, 9),
        Topology::Redlock | Topology::Consensus => (3, 9),
    };
    ensure(
        (fewest..=most).contains(&store.nodes),
        "store.nodes",
        || match store.topology {
            Topology::Single => format!("a single store has exactly 1 node; got {}", store.nodes),
            Topology::Replicated => format!(
                "a replicated store needs a primary and 1 to 8 replicas, so 2 to 9 nodes; got {}",
                store.nodes
            ),
            Topology::MultiPrimary => format!(
                "a multi-primary cluster has 2 to 9 members; got {}",
                store.nodes
            ),
            topology => format!(
                "a {} store needs 3 to 9 nodes, so that a majority survives a failed node; got {}",
                topology.as_str(),
                store.nodes
            ),
        },
    )?;
    at_most_horizon(store.replication_lag_ms, "store.replication_lag_ms")?;
    ensure(
        !(store.persistence == Persistence::Everysec && store.topology == Topology::Consensus),
        "store.persistence",
        || {
            "everysec is Redis's AOF setting; a consensus store (etcd, ZooKeeper) syncs its log \
             to disk before it answers: use fsync or none"
                .to_string()
        },
    )?;
    for (off, field, what) in [
        (!store.prevote, "store.prevote", "PreVote"),
        (!store.check_quorum, "store.check_quorum", "CheckQuorum"),
    ] {
        ensure(!off || store.topology == Topology::Consensus, field, || {
            format!(
                "{what} is part of the consensus store's elections; a {} store holds none: \
                 leave it out or use topology = \"consensus\"",
                store.topology.as_str()
            )
        })?;
    }
    at_least_one(store.failover_ms, "store.failover_ms")
}

/// The store's own lease length: a multiple of the TTL the client counts, on a store that
/// times leases at all.
fn check_ttl_multiplier(lock: &Lock, store: &Store) -> Check {
    let m = store.ttl_multiplier;
    let field = "store.ttl_multiplier";
    ensure((1..=MAX_TTL_MULTIPLIER).contains(&m), field, || {
        format!("must be from 1 to {MAX_TTL_MULTIPLIER}; got {m}")
    })?;
    if m == 1 {
        return Ok(());
    }
    ensure(lock.design.has_lease(), field, || {
        format!(
            "the {} design has no lease for the store to keep longer: leave it out, or use a \
             design with one (ttl, token, fencing)",
            lock.design.as_str()
        )
    })?;
    ensure(lock.expiry == Expiry::Store, field, || {
        format!(
            "with expiry = \"{}\" the store does not time the lease, so it has nothing to \
             multiply: leave it out, or use expiry = \"store\"",
            <&str>::from(lock.expiry)
        )
    })?;
    let kept_ms = lock.ttl_ms * u64::from(m);
    ensure(kept_ms <= MAX_UNTIL_MS, field, || {
        format!(
            "ttl_ms × ttl_multiplier = {kept_ms} ms, the time the store keeps a lease, must be \
             at most {MAX_UNTIL_MS} ms (the longest horizon): lower either"
        )
    })
}

/// `min_replicas_to_write`: a primary's replicas, at most all of them, counted over a lag no
/// shorter than the second between their acknowledgements.
fn check_min_replicas(lock: &Lock, store: &Store) -> Check {
    let (n, lag) = (store.min_replicas_to_write, store.min_replicas_max_lag_ms);
    if n == 0 {
        return ensure(
            lag == Store::default().min_replicas_max_lag_ms,
            "store.min_replicas_max_lag_ms",
            || {
                "only matters with min_replicas_to_write: set that too, or leave this out"
                    .to_string()
            },
        );
    }
    ensure(
        store.topology == Topology::Replicated,
        "store.min_replicas_to_write",
        || {
            format!(
                "is a primary's check on its replicas, and a {} store has none: use topology \
                 = \"replicated\"",
                store.topology.as_str()
            )
        },
    )?;
    ensure(
        !matches!(lock.design, Design::Flag | Design::Timestamp | Design::None),
        "store.min_replicas_to_write",
        || {
            format!(
                "guards the lock commands from setnx up; the {} design's writes are not among \
                 them: use another design or leave it out",
                lock.design.as_str()
            )
        },
    )?;
    ensure(n < store.nodes, "store.min_replicas_to_write", || {
        format!(
            "the primary has {} replicas, so it could never write with {n}",
            store.nodes.saturating_sub(1)
        )
    })?;
    ensure(
        lag >= REPLICA_ACK_EVERY_MS,
        "store.min_replicas_max_lag_ms",
        || {
            format!(
                "must be at least {REPLICA_ACK_EVERY_MS}: replicas acknowledge once a second, so \
                 a shorter lag would count none between two acknowledgements; got {lag}"
            )
        },
    )?;
    at_most_horizon(lag, "store.min_replicas_max_lag_ms")
}

/// Text shown to people (a title, a lock's name, a description) holds no control characters:
/// on a terminal they clear the screen, retitle the window or hide the verdict, and a line
/// break in a key would fake a line of the timeline. Descriptions may break lines.
fn plain_text(text: &str, field: &str, newlines: bool) -> Check {
    let bad = text.chars().find(|&c| {
        (c.is_control() && !(newlines && matches!(c, '\n' | '\t')))
            || crate::text::is_bidi_control(c)
    });
    ensure(bad.is_none(), field, || {
        let c = bad.map_or(0, |c| c as u32);
        let allowed = if newlines {
            " (line breaks and tabs are fine)"
        } else {
            ""
        };
        format!("must not contain control characters{allowed}; found U+{c:04X}")
    })
}

/// A name or key reads as what it is ([`super::honest`]).
fn honest(text: &str, field: &str) -> Check {
    match super::honest::dishonesty(text) {
        Some(why) => Err(ScenarioError::new(field, why)),
        None => Ok(()),
    }
}

/// Names become lanes in the timeline and references in faults, so they must be short words
/// and must not collide with the store's and the resource's node names.
fn check_worker_name(name: &str, field: &str) -> Check {
    ensure(!name.is_empty(), field, || "must not be empty".to_string())?;
    honest(name, field)?;
    ensure(
        name.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-'),
        field,
        || format!("may contain only letters, digits, _ and -; got {name:?}"),
    )?;
    ensure(name != RESOURCE, field, || {
        "`resource` is the name of the protected storage node; choose another name".to_string()
    })?;
    ensure(!is_reserved_for_stores(name), field, || {
        format!("`{name}` is reserved for the store nodes (store1, store2, …); choose another name")
    })
}

fn check_worker(worker: &Worker, field: impl Fn(&str) -> String) -> Check {
    at_least_one(worker.work_ms, &field("work_ms"))?;
    ensure(
        (1..=MAX_WRITES).contains(&worker.writes),
        field("writes"),
        || format!("must be from 1 to {MAX_WRITES}; got {}", worker.writes),
    )?;
    worker
        .retry_ms
        .map_or(Ok(()), |ms| at_least_one(ms, &field("retry_ms")))?;
    ensure(!worker.key.is_empty(), field("key"), || {
        "must not be empty: it names the lock (and the record) the worker wants".to_string()
    })?;
    plain_text(&worker.key, &field("key"), false)?;
    honest(&worker.key, &field("key"))?;
    at_least_one(worker.write_timeout_ms, &field("write_timeout_ms"))?;
    check_clock(worker.clock_offset_ms, worker.clock_drift_ppm, field)
}

/// A node's clock error: `clock_offset_ms` and `clock_drift_ppm` within their bounds.
fn check_clock(offset_ms: i64, drift_ppm: i64, field: impl Fn(&str) -> String) -> Check {
    ensure(
        offset_ms.unsigned_abs() <= MAX_CLOCK_STEP_MS,
        field("clock_offset_ms"),
        || format!("must be within ±{MAX_CLOCK_STEP_MS} ms; got {offset_ms}"),
    )?;
    ensure(
        drift_ppm.unsigned_abs() <= MAX_DRIFT_PPM,
        field("clock_drift_ppm"),
        || {
            format!(
                "must be within ±{MAX_DRIFT_PPM} ppm (a clock at half or 1.5 times true speed); got {drift_ppm}"
            )
        },
    )
}

fn check_expect(expect: &Expect) -> Check {
    if let Some(within) = expect.proven_within {
        ensure(
            (1..=3).contains(&within.faults),
            "expect.proven_within.faults",
            || {
                format!(
                    "must be 1 to 3 (faults per schedule); got {}",
                    within.faults
                )
            },
        )?;
    }
    for (j, kind) in expect.absent.iter().enumerate() {
        ensure(
            !expect.kinds.contains(kind),
            format!("expect.absent[{j}]"),
            || format!("`{kind}` is in both kinds (must be reported) and absent (must not be)"),
        )?;
    }
    Ok(())
}

/// A duration that must be positive; like every duration, no longer than the longest horizon.
fn at_least_one(value: u64, field: &str) -> Check {
    ensure(value >= 1, field, || "must be at least 1".to_string())?;
    at_most_horizon(value, field)
}

/// Durations beyond the longest horizon mean nothing in a run and would overflow simulated
/// time arithmetic, so they are refused rather than silently misread.
fn at_most_horizon(value: u64, field: &str) -> Check {
    ensure(value <= MAX_UNTIL_MS, field, || {
        format!("must be at most {MAX_UNTIL_MS} ms (the longest horizon); got {value}")
    })
}

/// An error on `field` unless `ok`; the message is only built when needed.
fn ensure(ok: bool, field: impl Into<String>, message: impl FnOnce() -> String) -> Check {
    if ok {
        Ok(())
    } else {
        Err(ScenarioError::new(field, message()))
    }
}
