//! The store state machines, one transition per row: a store node in a starting state gets
//! one event; the row lists the commands it must push and says what state it must end in.
//! Node ids: workers A = 0 and B = 1, then `store1` = 2, `store2` = 3, `store3` = 4. True
//! time is 1000 ms and every clock is exact, so lease clocks read 1000 too.

use super::super::Timer;
use super::super::clock::Clock;
use super::super::layout::StoreIx;
use super::super::msg::{Command, LogEntry, Msg, ReplId};
use super::super::outbox::Outbox;
use super::super::testkit::{ctx, scenario, shown};
use super::consensus::{Raft, RaftRole};
use super::replicated::{ReplicaRole, Replication, Round};
use super::{Protocol, StoreNode};
use crate::trace::{KeyId, NodeId, Token};

const NOW: u64 = 1000;
const A1: Token = Token {
    worker: NodeId::new(0),
    seq: 1,
};
const A2: Token = Token {
    worker: NodeId::new(0),
    seq: 2,
};
const B1: Token = Token {
    worker: NodeId::new(1),
    seq: 1,
};
const B2: Token = Token {
    worker: NodeId::new(1),
    seq: 2,
};
const STORE2: StoreIx = StoreIx::new(1);

/// What reaches the node.
enum In {
    Msg(NodeId, Msg),
    Timer(Timer),
}

struct Row {
    name: &'static str,
    /// Scenario lines for `[lock]` and `[store]`.
    lock: &'static str,
    store: &'static str,
    /// Which store node the row is about.
    node: usize,
    given: fn(&mut StoreNode),
    event: In,
    want: &'static [&'static str],
    then: fn(&StoreNode) -> bool,
}

fn acquire(token: Token, reenter: bool) -> Msg {
    Msg::Acquire {
        key: KeyId::new(0),
        token,
        reenter,
        client_now: 1000,
    }
}

fn release(token: Token) -> Msg {
    Msg::Release {
        key: KeyId::new(0),
        token,
    }
}

/// B#1's health check deletes `holder`'s lock.
fn evict(holder: Token) -> Msg {
    Msg::Evict {
        key: KeyId::new(0),
        holder,
        by: B1,
    }
}

fn renew(token: Token) -> Msg {
    Msg::Renew {
        key: KeyId::new(0),
        token,
        client_now: 1000,
    }
}

/// A1 holds key 0 until lease-clock `expires`.
fn held_by_a(s: &mut StoreNode, expires: i64) {
    let mut held = super::table::Held::new(A1, None);
    held.expires = Some(expires);
    s.table.held[0] = Some(held);
}

/// B1 holds key 0 until lease-clock `expires`.
fn held_by_b(s: &mut StoreNode, expires: i64) {
    let mut held = super::table::Held::new(B1, None);
    held.expires = Some(expires);
    s.table.held[0] = Some(held);
}

/// `fair`: the free key's turn is A#1's (A gave that attempt up), renewed until `until`.
fn a1s_turn(s: &mut StoreNode, until: i64) {
    s.table.turn[0] = Some(A1);
    s.table.turn_until[0] = until;
}

fn raft(s: &StoreNode) -> &Raft {
    match &s.protocol {
        Protocol::Consensus(r) => r,
        _ => panic!("not a consensus node"),
    }
}

fn raft_mut(s: &mut StoreNode) -> &mut Raft {
    match &mut s.protocol {
        Protocol::Consensus(r) => r,
        _ => panic!("not a consensus node"),
    }
}

fn repl(s: &StoreNode) -> &Replication {
    match &s.protocol {
        Protocol::Replicated(r) => r,
        _ => panic!("not a replicated node"),
    }
}

fn repl_mut(s: &mut StoreNode) -> &mut Replication {
    match &mut s.protocol {
        Protocol::Replicated(r) => r,
        _ => panic!("not a replicated node"),
    }
}

const SINGLE: &str = "topology = \"single\"";
const FAIR: &str = "waiting = \"fair\"";
const REPLICATED: &str = "topology = \"replicated\"\nnodes = 3\nfailover_ms = 400";
const CONSENSUS: &str = "topology = \"consensus\"\nnodes = 3\nfailover_ms = 2000";
const MIN_REPLICAS: &str = "topology = \"replicated\"\nnodes = 3\nfailover_ms = 400\n\
                            min_replicas_to_write = 1\nmin_replicas_max_lag_ms = 1000";
const NO_PREVOTE: &str = "topology = \"consensus\"\nnodes = 3\nfailover_ms = 2000\nprevote = false";
const NO_CHECK_QUORUM: &str =
    "topology = \"consensus\"\nnodes = 3\nfailover_ms = 2000\ncheck_quorum = false";

fn rows() -> Vec<Row> {
    vec![
        // The lock table node (`single`, a Redlock node).
        Row {
            name: "SET NX PX: a free key is granted with a lease and an expiry timer",
            lock: "",
            store: SINGLE,
            node: 0,
            given: |_| {},
            event: In::Msg(NodeId::new(0), acquire(A1, false)),
            want: &["record Granted", "timer Expire in 1000", "0 <- granted A#1"],
            then: |s| s.table.holder(0) == Some(A1),
        },
        Row {
            name: "a held key is refused, naming its holder",
            lock: "",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 2000),
            event: In::Msg(NodeId::new(1), acquire(B1, false)),
            want: &["record Refused", "1 <- refused B#1: held by A#1"],
            then: |s| s.table.holder(0) == Some(A1),
        },
        Row {
            name: "a lapsed lease expires when the key is touched, then the key is granted",
            lock: "",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 900),
            event: In::Msg(NodeId::new(1), acquire(B1, false)),
            want: &[
                "record Expired",
                "record Granted",
                "timer Expire in 1000",
                "1 <- granted B#1",
            ],
            then: |s| s.table.holder(0) == Some(B1),
        },
        Row {
            name: "compare-and-delete: a release by a non-owner is ignored",
            lock: "",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 2000),
            event: In::Msg(NodeId::new(1), release(B1)),
            want: &["record ReleaseIgnored", "1 <- released B#1"],
            then: |s| s.table.holder(0) == Some(A1),
        },
        Row {
            name: "a release by the owner deletes the key",
            lock: "",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 2000),
            event: In::Msg(NodeId::new(0), release(A1)),
            want: &["record Removed", "0 <- released A#1"],
            then: |s| s.table.holder(0).is_none(),
        },
        Row {
            name: "a health check's delete removes the key of the holder it pinged",
            lock: "ping_timeout_ms = 300",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 2000),
            event: In::Msg(NodeId::new(1), evict(A1)),
            want: &["record Removed"],
            then: |s| s.table.holder(0).is_none(),
        },
        Row {
            name: "a health check's delete leaves a lock that changed hands alone",
            lock: "ping_timeout_ms = 300",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 2000),
            event: In::Msg(NodeId::new(1), evict(B1)),
            want: &["record ReleaseIgnored"],
            then: |s| s.table.holder(0) == Some(A1),
        },
        Row {
            name: "fencing: the grant carries the next token of the key's counter",
            lock: "design = \"fencing\"",
            store: SINGLE,
            node: 0,
            given: |s| s.table.fence_counter[0] = 4,
            event: In::Msg(NodeId::new(0), acquire(A1, false)),
            want: &["record Granted", "timer Expire in 1000", "0 <- granted A#1"],
            then: |s| s.table.held[0].as_ref().is_some_and(|h| h.fence == Some(5)),
        },
        Row {
            name: "renewal by the owner: a full TTL from now",
            lock: "",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 1200),
            event: In::Msg(NodeId::new(0), renew(A1)),
            want: &[
                "record LeaseExtended",
                "timer Expire in 1000",
                "0 <- renew A#1 ok",
            ],
            then: |s| {
                s.table.held[0]
                    .as_ref()
                    .is_some_and(|h| h.expires == Some(2000))
            },
        },
        Row {
            name: "renewal of a lease that is gone is refused",
            lock: "",
            store: SINGLE,
            node: 0,
            given: |_| {},
            event: In::Msg(NodeId::new(0), renew(A1)),
            want: &["record Refused", "0 <- renew A#1 refused: lease gone"],
            then: |s| s.table.holder(0).is_none(),
        },
        Row {
            name: "expiry timer: the lease ends and lock-delay (Chubby) starts",
            lock: "lock_delay_ms = 300",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 1000),
            event: In::Timer(Timer::Expire {
                key: KeyId::new(0),
                token: A1,
            }),
            want: &["record Expired"],
            then: |s| s.table.holder(0).is_none() && s.table.delay_until[0] == 1300,
        },
        Row {
            name: "lock-delay: a free key is refused until it is over",
            lock: "lock_delay_ms = 300",
            store: SINGLE,
            node: 0,
            given: |s| s.table.delay_until[0] = 1300,
            event: In::Msg(NodeId::new(1), acquire(B1, false)),
            want: &["record Refused", "1 <- refused B#1: lock-delay"],
            then: |s| s.table.holder(0).is_none(),
        },
        Row {
            name: "reentrant: the holder's acquire counts the hold up and restarts the lease",
            lock: "reentrant = true",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 1200),
            event: In::Msg(NodeId::new(0), acquire(A1, true)),
            want: &[
                "record LeaseExtended",
                "timer Expire in 1000",
                "0 <- granted A#1",
            ],
            then: |s| s.table.held[0].as_ref().is_some_and(|h| h.count == 2),
        },
        Row {
            name: "fair: a release tells the next waiter its turn and waits a lease length",
            lock: "waiting = \"fair\"",
            store: SINGLE,
            node: 0,
            given: |s| {
                held_by_a(s, 2000);
                s.table.queue[0].push_back((B1, i64::MAX));
            },
            event: In::Msg(NodeId::new(0), release(A1)),
            want: &[
                "record Removed",
                "1 <- your turn, B#1",
                "timer TurnOver in 1000",
                "0 <- released A#1",
            ],
            then: |s| s.table.turn[0] == Some(B1),
        },
        Row {
            name: "fair: a new waiter is refused and queued until a lease length from now",
            lock: "waiting = \"fair\"",
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 5000),
            event: In::Msg(NodeId::new(1), acquire(B1, false)),
            want: &["record Refused", "1 <- queued B#1"],
            then: |s| s.table.queue[0] == [(B1, 2000)],
        },
        Row {
            name: "fair: a waiter's repeated ask is a heartbeat: its place renewed, no new refusal",
            lock: "waiting = \"fair\"",
            store: SINGLE,
            node: 0,
            given: |s| {
                held_by_a(s, 5000);
                s.table.queue[0].push_back((B1, 1500));
            },
            event: In::Msg(NodeId::new(1), acquire(B1, false)),
            want: &["1 <- queued B#1"],
            then: |s| s.table.queue[0] == [(B1, 2000)],
        },
        // Session ownership: every ask of a worker's renews all it owns on the key.
        Row {
            name: "fair session: A#2's ask renews the grant of A#1, the attempt A forgot",
            lock: FAIR,
            store: SINGLE,
            node: 0,
            given: |s| held_by_a(s, 1500),
            event: In::Msg(NodeId::new(0), acquire(A2, false)),
            want: &[
                "record LeaseExtended",
                "timer Expire in 1000",
                "record Refused",
                "0 <- queued A#2",
            ],
            then: |s| {
                s.table.held[0].as_ref().and_then(|h| h.expires) == Some(2000)
                    && s.table.queue[0] == [(A2, 2000)]
            },
        },
        Row {
            name: "fair session: one ask renews every live place of its worker, no one else's",
            lock: FAIR,
            store: SINGLE,
            node: 0,
            given: |s| {
                held_by_b(s, 5000);
                s.table.queue[0].push_back((A1, 1500));
                s.table.queue[0].push_back((B2, 1500));
            },
            event: In::Msg(NodeId::new(0), acquire(A2, false)),
            want: &["record Refused", "0 <- queued A#2"],
            then: |s| s.table.queue[0] == [(A1, 2000), (B2, 1500), (A2, 2000)],
        },
        Row {
            name: "fair session: a place that lapsed is gone, an ask does not revive it",
            lock: FAIR,
            store: SINGLE,
            node: 0,
            given: |s| {
                held_by_b(s, 5000);
                s.table.queue[0].push_back((A1, 1000));
            },
            event: In::Msg(NodeId::new(0), acquire(A2, false)),
            want: &["record Refused", "0 <- queued A#2"],
            then: |s| s.table.queue[0] == [(A1, 1000), (A2, 2000)],
        },
        Row {
            name: "fair session: another worker's grant is not its to renew",
            lock: FAIR,
            store: SINGLE,
            node: 0,
            given: |s| held_by_b(s, 1500),
            event: In::Msg(NodeId::new(0), acquire(A2, false)),
            want: &["record Refused", "0 <- queued A#2"],
            then: |s| s.table.held[0].as_ref().and_then(|h| h.expires) == Some(1500),
        },
        Row {
            name: "fair session: A#2's ask renews the turn of A#1, which A will never claim",
            lock: FAIR,
            store: SINGLE,
            node: 0,
            given: |s| a1s_turn(s, i64::MIN),
            event: In::Msg(NodeId::new(0), acquire(A2, false)),
            want: &["record Refused", "0 <- queued A#2"],
            then: |s| s.table.turn[0] == Some(A1) && s.table.turn_until[0] == 2000,
        },
        Row {
            name: "fair session: a turn its session renewed outlasts its lease length",
            lock: FAIR,
            store: SINGLE,
            node: 0,
            given: |s| {
                a1s_turn(s, 1400);
                s.table.queue[0].push_back((B1, 5000));
            },
            event: In::Timer(Timer::TurnOver {
                key: KeyId::new(0),
                token: A1,
            }),
            want: &["timer TurnOver in 400"],
            then: |s| s.table.turn[0] == Some(A1),
        },
        Row {
            name: "fair session: a turn not renewed since it was told passes on at its lease length",
            lock: FAIR,
            store: SINGLE,
            node: 0,
            given: |s| {
                a1s_turn(s, i64::MIN);
                s.table.queue[0].push_back((B1, 5000));
            },
            event: In::Timer(Timer::TurnOver {
                key: KeyId::new(0),
                token: A1,
            }),
            want: &["1 <- your turn, B#1", "timer TurnOver in 1000"],
            then: |s| s.table.turn[0] == Some(B1) && s.table.turn_until[0] == i64::MIN,
        },
        Row {
            name: "fair: a release passes over a waiter whose place lapsed (it died in line)",
            lock: "waiting = \"fair\"",
            store: SINGLE,
            node: 0,
            given: |s| {
                held_by_a(s, 2000);
                s.table.queue[0].push_back((B1, 1000));
                s.table.queue[0].push_back((B2, 1001));
            },
            event: In::Msg(NodeId::new(0), release(A1)),
            want: &[
                "record Removed",
                "1 <- your turn, B#2",
                "timer TurnOver in 1000",
                "0 <- released A#1",
            ],
            then: |s| s.table.turn[0] == Some(B2) && s.table.queue[0].is_empty(),
        },
        Row {
            name: "two-step: EXPIRE gives the SETNX key its TTL",
            lock: "acquire = \"two_step\"",
            store: SINGLE,
            node: 0,
            given: |s| s.table.held[0] = Some(super::table::Held::new(A1, None)),
            event: In::Msg(
                NodeId::new(0),
                Msg::Expire {
                    key: KeyId::new(0),
                    token: A1,
                },
            ),
            want: &["record TtlSet", "timer Expire in 1000"],
            then: |s| {
                s.table.held[0]
                    .as_ref()
                    .is_some_and(|h| h.expires == Some(2000))
            },
        },
        // `replicated`: a primary and its replicas.
        Row {
            name: "a replica sends clients to its primary",
            lock: "",
            store: REPLICATED,
            node: 1,
            given: |_| {},
            event: In::Msg(NodeId::new(0), acquire(A1, false)),
            want: &["0 <- not the leader"],
            then: |s| s.table.holder(0).is_none(),
        },
        Row {
            name: "the primary's grant goes down the replication stream",
            lock: "",
            store: REPLICATED,
            node: 0,
            given: |_| {},
            event: In::Msg(NodeId::new(0), acquire(A1, false)),
            want: &[
                "record Granted",
                "timer Expire in 1000",
                "3 <- command 1",
                "4 <- command 1",
                "0 <- granted A#1",
            ],
            then: |s| repl(s).offset == 1 && repl(s).sent == 1,
        },
        Row {
            name: "min-replicas: a primary no replica acknowledged within the lag refuses a grant",
            lock: "",
            store: MIN_REPLICAS,
            node: 0,
            given: |s| repl_mut(s).acked = vec![0, -5000, -5000],
            event: In::Msg(NodeId::new(0), acquire(A1, false)),
            want: &[
                "record Refused",
                "0 <- refused A#1: not enough good replicas",
            ],
            then: |s| s.table.holder(0).is_none(),
        },
        Row {
            name: "min-replicas: a primary refuses a renewal too, and the lease stays as it was",
            lock: "",
            store: MIN_REPLICAS,
            node: 0,
            given: |s| {
                held_by_a(s, 1500);
                repl_mut(s).acked = vec![0, -5000, -5000];
            },
            event: In::Msg(NodeId::new(0), renew(A1)),
            want: &[
                "record Refused",
                "0 <- renew A#1 refused: not enough good replicas",
            ],
            then: |s| {
                s.table.held[0]
                    .as_ref()
                    .is_some_and(|h| h.expires == Some(1500))
            },
        },
        Row {
            name: "min-replicas: one replica's fresh acknowledgement lets the grant through",
            lock: "",
            store: MIN_REPLICAS,
            node: 0,
            given: |s| repl_mut(s).acked = vec![0, 500, -5000],
            event: In::Msg(NodeId::new(0), acquire(A1, false)),
            want: &[
                "record Granted",
                "timer Expire in 1000",
                "3 <- command 1",
                "4 <- command 1",
                "0 <- granted A#1",
            ],
            then: |s| s.table.holder(0) == Some(A1),
        },
        Row {
            name: "min-replicas: a replica acknowledges its primary's stream each second",
            lock: "",
            store: MIN_REPLICAS,
            node: 1,
            given: |_| {},
            event: In::Timer(Timer::ReplAck),
            want: &["2 <- ack (offset 0)", "timer ReplAck in 1000"],
            then: |_| true,
        },
        Row {
            name: "min-replicas: the primary notes when each acknowledgement arrived",
            lock: "",
            store: MIN_REPLICAS,
            node: 0,
            given: |_| {},
            event: In::Msg(NodeId::new(3), Msg::ReplAck { offset: 0 }),
            want: &[],
            then: |s| repl(s).acked.get(1) == Some(&1000),
        },
        Row {
            name: "failover: a replica that heard nothing asks the others how far they got",
            lock: "",
            store: REPLICATED,
            node: 1,
            given: |_| {},
            event: In::Timer(Timer::LeaderCheck),
            want: &[
                "timer LeaderCheck in 100",
                "4 <- how far did you get?",
                "timer ChoosePrimary in 100",
            ],
            then: |s| repl(s).round.as_ref().is_some_and(|r| r.epoch == 2),
        },
        Row {
            name: "failover: the replica that got furthest is promoted",
            lock: "",
            store: REPLICATED,
            node: 1,
            given: |s| {
                repl_mut(s).round = Some(Round {
                    epoch: 2,
                    asked: 1,
                    reports: Vec::new(),
                })
            },
            event: In::Msg(
                NodeId::new(4),
                Msg::OffsetReport {
                    epoch: 2,
                    offset: 5,
                },
            ),
            want: &["4 <- you are the primary (epoch 2)"],
            then: |s| repl(s).round.is_none() && s.last_heard == 1000,
        },
        Row {
            name: "failover: a replica nobody answered does not promote itself (no majority)",
            lock: "",
            store: REPLICATED,
            node: 2,
            given: |s| {
                repl_mut(s).round = Some(Round {
                    epoch: 2,
                    asked: 1,
                    reports: Vec::new(),
                })
            },
            event: In::Timer(Timer::ChoosePrimary { epoch: 2 }),
            want: &[],
            then: |s| {
                repl(s).round.is_none() && matches!(repl(s).role, ReplicaRole::Replica { .. })
            },
        },
        Row {
            name: "failover: a replica that has not heard its primary for failover_ms votes",
            lock: "",
            store: REPLICATED,
            node: 2,
            given: |s| s.last_heard = 600,
            event: In::Msg(NodeId::new(3), Msg::OffsetQuery { epoch: 2 }),
            want: &["3 <- my offset is 0"],
            then: |s| matches!(repl(s).role, ReplicaRole::Replica { .. }),
        },
        Row {
            name: "failover: a replica that still hears its primary does not vote",
            lock: "",
            store: REPLICATED,
            node: 2,
            given: |s| s.last_heard = 601,
            event: In::Msg(NodeId::new(3), Msg::OffsetQuery { epoch: 2 }),
            want: &[],
            then: |s| matches!(repl(s).role, ReplicaRole::Replica { .. }),
        },
        Row {
            name: "promoted: primary of a new epoch, on a new history",
            lock: "",
            store: REPLICATED,
            node: 1,
            given: |_| {},
            event: In::Msg(NodeId::new(3), Msg::Promote { epoch: 2 }),
            want: &["record BecameLeader", "timer Heartbeat in 0"],
            then: |s| repl(s).role == ReplicaRole::Primary && repl(s).id.node == STORE2,
        },
        Row {
            name: "an old primary that hears a newer epoch steps down and resyncs",
            lock: "",
            store: REPLICATED,
            node: 0,
            given: |_| {},
            event: In::Msg(
                NodeId::new(3),
                Msg::Heartbeat {
                    epoch: 2,
                    id: ReplId {
                        node: STORE2,
                        era: 1,
                    },
                    offset: 0,
                },
            ),
            want: &["record SteppedDown", "3 <- resync me from offset 0"],
            then: |s| {
                repl(s).role
                    == ReplicaRole::Replica {
                        primary: Some(STORE2),
                    }
            },
        },
        // `consensus`: a Raft group.
        Row {
            name: "the leader logs an acquire and sends it to the followers",
            lock: "",
            store: CONSENSUS,
            node: 0,
            given: |_| {},
            event: In::Msg(NodeId::new(0), acquire(A1, false)),
            want: &["3 <- append 1 entries", "4 <- append 1 entries"],
            then: |s| raft(s).log.len() == 1 && raft(s).commit_len == 0,
        },
        Row {
            name: "consensus: the key an operator deleted is gone, its lease lives on (etcd)",
            lock: "",
            store: CONSENSUS,
            node: 0,
            given: |s| raft_mut(s).orphans.push((KeyId::new(0), A1, 1200)),
            event: In::Msg(NodeId::new(0), renew(A1)),
            want: &["0 <- renew A#1 ok"],
            then: |s| raft(s).orphans == [(KeyId::new(0), A1, 2000)] && s.table.holder(0).is_none(),
        },
        Row {
            name: "consensus: a lease that ran out is not renewed, key or no key",
            lock: "",
            store: CONSENSUS,
            node: 0,
            given: |s| raft_mut(s).orphans.push((KeyId::new(0), A1, 1000)),
            event: In::Msg(NodeId::new(0), renew(A1)),
            want: &["record Refused", "0 <- renew A#1 refused: lease gone"],
            then: |s| raft(s).orphans.is_empty(),
        },
        Row {
            name: "consensus: during lock-delay the leader refuses at once, logging nothing",
            lock: "lock_delay_ms = 300",
            store: CONSENSUS,
            node: 0,
            given: |s| s.table.delayed[0] = true,
            event: In::Msg(NodeId::new(0), acquire(A1, false)),
            want: &["record Refused", "0 <- refused A#1: lock-delay"],
            then: |s| raft(s).log.is_empty(),
        },
        Row {
            name: "consensus fair: a waiter's repeated ask renews its place on the leader, logging nothing",
            lock: "waiting = \"fair\"",
            store: CONSENSUS,
            node: 0,
            given: |s| {
                held_by_a(s, 5000);
                s.table.queue[0].push_back((B1, 1500));
            },
            event: In::Msg(NodeId::new(1), acquire(B1, false)),
            want: &["1 <- queued B#1"],
            then: |s| raft(s).log.is_empty() && s.table.queue[0] == [(B1, 2000)],
        },
        Row {
            name: "consensus fair session: A#2's heartbeat renews A#1's grant on the leader, logging nothing",
            lock: FAIR,
            store: CONSENSUS,
            node: 0,
            given: |s| {
                held_by_a(s, 1500);
                s.table.queue[0].push_back((A2, 1500));
            },
            event: In::Msg(NodeId::new(0), acquire(A2, false)),
            want: &[
                "record LeaseExtended",
                "timer Expire in 1000",
                "0 <- queued A#2",
            ],
            then: |s| {
                raft(s).log.is_empty()
                    && s.table.held[0].as_ref().and_then(|h| h.expires) == Some(2000)
                    && s.table.queue[0] == [(A2, 2000)]
            },
        },
        Row {
            name: "consensus fair session: a renewed turn is not skipped at its lease length",
            lock: FAIR,
            store: CONSENSUS,
            node: 0,
            given: |s| a1s_turn(s, 1400),
            event: In::Timer(Timer::TurnOver {
                key: KeyId::new(0),
                token: A1,
            }),
            want: &["timer TurnOver in 400"],
            then: |s| raft(s).log.is_empty() && s.table.turn[0] == Some(A1),
        },
        Row {
            name: "consensus fair session: a turn not renewed is skipped through the log",
            lock: FAIR,
            store: CONSENSUS,
            node: 0,
            given: |s| a1s_turn(s, i64::MIN),
            event: In::Timer(Timer::TurnOver {
                key: KeyId::new(0),
                token: A1,
            }),
            want: &["3 <- append 1 entries", "4 <- append 1 entries"],
            then: |s| raft(s).log.len() == 1,
        },
        Row {
            name: "consensus fair: a waiter whose place lapsed asks through the log",
            lock: "waiting = \"fair\"",
            store: CONSENSUS,
            node: 0,
            given: |s| {
                held_by_a(s, 5000);
                s.table.queue[0].push_back((B1, 1000));
            },
            event: In::Msg(NodeId::new(1), acquire(B1, false)),
            want: &["3 <- append 1 entries", "4 <- append 1 entries"],
            then: |s| raft(s).log.len() == 1,
        },
        Row {
            name: "a follower sends clients to its leader",
            lock: "",
            store: CONSENSUS,
            node: 1,
            given: |_| {},
            event: In::Msg(NodeId::new(0), acquire(A1, false)),
            want: &["0 <- not the leader"],
            then: |s| raft(s).log.is_empty(),
        },
        Row {
            name: "append: a follower logs the entry and acknowledges it",
            lock: "",
            store: CONSENSUS,
            node: 1,
            given: |_| {},
            event: In::Msg(
                NodeId::new(2),
                Msg::Append {
                    term: 1,
                    prev_len: 0,
                    prev_term: 0,
                    entries: vec![LogEntry {
                        term: 1,
                        cmd: Command::Acquire {
                            key: KeyId::new(0),
                            token: A1,
                            reenter: false,
                        },
                    }],
                    commit_len: 0,
                    sent_ms: 5,
                },
            ),
            want: &["record Logged", "2 <- append ok"],
            then: |s| raft(s).log.len() == 1 && s.last_heard == 1000,
        },
        Row {
            name: "commit: a majority has the entry, so the leader applies and grants it",
            lock: "",
            store: CONSENSUS,
            node: 0,
            given: |s| {
                let r = raft_mut(s);
                r.log.push(LogEntry {
                    term: 1,
                    cmd: Command::Acquire {
                        key: KeyId::new(0),
                        token: A1,
                        reenter: false,
                    },
                });
                r.match_len[0] = 1;
            },
            event: In::Msg(
                NodeId::new(3),
                Msg::AppendReply {
                    term: 1,
                    ok: true,
                    len: 1,
                    echo_ms: 900,
                },
            ),
            want: &["record Granted", "timer Expire in 1000", "0 <- granted A#1"],
            then: |s| raft(s).commit_len == 1 && s.table.holder(0) == Some(A1),
        },
        Row {
            name: "a leader that hears of a higher term steps down",
            lock: "",
            store: CONSENSUS,
            node: 0,
            given: |_| {},
            event: In::Msg(
                NodeId::new(3),
                Msg::AppendReply {
                    term: 3,
                    ok: false,
                    len: 0,
                    echo_ms: 900,
                },
            ),
            want: &["record SteppedDown"],
            then: |s| raft(s).term == 3 && !s.is_serving(),
        },
        Row {
            name: "vote: a node without a live leader votes for an up-to-date candidate",
            lock: "",
            store: CONSENSUS,
            node: 1,
            given: |s| raft_mut(s).become_follower(None),
            event: In::Msg(
                NodeId::new(4),
                Msg::Vote {
                    term: 2,
                    last_len: 0,
                    last_term: 0,
                    pre: false,
                },
            ),
            want: &["4 <- vote yes"],
            then: |s| raft(s).voted_for == Some(StoreIx::new(2)) && raft(s).term == 2,
        },
        Row {
            name: "vote: a node that hears its leader ignores the bid (CheckQuorum)",
            lock: "",
            store: CONSENSUS,
            node: 1,
            given: |s| s.last_heard = 900,
            event: In::Msg(
                NodeId::new(4),
                Msg::Vote {
                    term: 2,
                    last_len: 0,
                    last_term: 0,
                    pre: false,
                },
            ),
            want: &[],
            then: |s| raft(s).term == 1,
        },
        Row {
            name: "election won: it leads, proposes a no-op and starts heartbeats",
            lock: "",
            store: CONSENSUS,
            node: 1,
            given: |s| {
                let r = raft_mut(s);
                r.term = 2;
                r.role = RaftRole::Candidate;
                r.votes = 1 << 1;
            },
            event: In::Msg(
                NodeId::new(4),
                Msg::VoteReply {
                    term: 2,
                    granted: true,
                    pre: false,
                },
            ),
            want: &[
                "record BecameLeader",
                "2 <- append 1 entries",
                "4 <- append 1 entries",
                "timer Heartbeat in 500",
            ],
            then: |s| s.is_serving() && !raft(s).ready,
        },
        Row {
            name: "leader check: a leader no majority answered steps down",
            lock: "",
            store: CONSENSUS,
            node: 0,
            given: |s| raft_mut(s).last_ack = vec![-5000; 3],
            event: In::Timer(Timer::LeaderCheck),
            want: &["timer LeaderCheck in 500", "record SteppedDown"],
            then: |s| !s.is_serving(),
        },
        Row {
            name: "leader check without CheckQuorum: a leader no majority answered keeps leading",
            lock: "",
            store: NO_CHECK_QUORUM,
            node: 0,
            given: |s| raft_mut(s).last_ack = vec![-5000; 3],
            event: In::Timer(Timer::LeaderCheck),
            want: &["timer LeaderCheck in 500"],
            then: |s| s.is_serving(),
        },
        Row {
            name: "leader check: a follower that lost its leader asks for pre-votes, term unchanged",
            lock: "",
            store: CONSENSUS,
            node: 1,
            given: |s| s.last_heard = -5000,
            event: In::Timer(Timer::LeaderCheck),
            want: &[
                "timer LeaderCheck in 500",
                "2 <- would you vote for me? (term 2)",
                "4 <- would you vote for me? (term 2)",
            ],
            then: |s| raft(s).term == 1 && raft(s).role == RaftRole::PreCandidate,
        },
        Row {
            name: "leader check without PreVote: a follower that lost its leader raises its term",
            lock: "",
            store: NO_PREVOTE,
            node: 1,
            given: |s| s.last_heard = -5000,
            event: In::Timer(Timer::LeaderCheck),
            want: &[
                "timer LeaderCheck in 500",
                "2 <- vote for me (term 2)",
                "4 <- vote for me (term 2)",
            ],
            then: |s| raft(s).term == 2 && raft(s).role == RaftRole::Candidate,
        },
        Row {
            name: "vote without CheckQuorum: a node that hears its leader takes the newer term",
            lock: "",
            store: NO_CHECK_QUORUM,
            node: 1,
            given: |s| s.last_heard = 900,
            event: In::Msg(
                NodeId::new(4),
                Msg::Vote {
                    term: 2,
                    last_len: 0,
                    last_term: 0,
                    pre: false,
                },
            ),
            want: &["4 <- vote yes"],
            then: |s| raft(s).term == 2 && raft(s).voted_for == Some(StoreIx::new(2)),
        },
        Row {
            name: "vote without CheckQuorum: a leader asked for a newer term steps down and votes",
            lock: "",
            store: NO_CHECK_QUORUM,
            node: 0,
            given: |_| {},
            event: In::Msg(
                NodeId::new(4),
                Msg::Vote {
                    term: 2,
                    last_len: 0,
                    last_term: 0,
                    pre: false,
                },
            ),
            want: &["record SteppedDown", "4 <- vote yes"],
            then: |s| !s.is_serving() && raft(s).term == 2,
        },
    ]
}

#[test]
fn transitions() {
    let clock = Clock::default();
    for row in rows() {
        let sc = scenario(row.lock, row.store, "");
        let cx = ctx(&sc, &clock, NOW);
        let nodes = sc.store.nodes.max(1) as usize;
        let mut s = StoreNode::new(StoreIx::new(row.node), nodes, 1, &sc);
        (row.given)(&mut s);
        let mut out = Outbox::default();
        match row.event {
            In::Msg(from, msg) => s.on_msg(&cx, &mut out, from, msg),
            In::Timer(timer) => s.on_timer(&cx, &mut out, timer),
        }
        assert_eq!(shown(out.cmds()), row.want, "{}", row.name);
        assert!((row.then)(&s), "{}", row.name);
    }
}
