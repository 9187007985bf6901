//! The worker state machine, one transition per row: a worker in a starting state gets one
//! event; the row lists the commands it must push and says what state it must end in. Node
//! ids: workers A = 0 and B = 1, then the store nodes (`store1` = 2), then the resource (3
//! with one store node). True time is 1000 ms and every clock is exact, so the lease clock
//! reads 1000 too.

use super::super::Timer;
use super::super::clock::Clock;
use super::super::layout::StoreIx;
use super::super::msg::{AcquireAnswer, Msg};
use super::super::outbox::Outbox;
use super::super::testkit::{ctx, layout, scenario, shown};
use super::state::{Attempt, Hold, Op, OpKind, Phase, State};
use super::{Notice, Worker};
use crate::trace::{KeyId, NodeId, Refusal, Token};

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

/// What reaches the worker.
enum In {
    Msg(NodeId, Msg),
    Timer(Timer),
    Notice(Notice),
}

struct Row {
    name: &'static str,
    /// Scenario lines for `[lock]`, `[store]` and A's `[[worker]]`.
    lock: &'static str,
    store: &'static str,
    worker: &'static str,
    /// Puts worker A in the starting state.
    given: fn(&mut Worker),
    event: In,
    want: &'static [&'static str],
    then: fn(&Worker) -> bool,
}

/// A's request number 1 of `kind` under `token` to `store1`, sent at lease-clock `sent`.
fn op(kind: OpKind, token: Token, sent: i64) -> Op {
    Op {
        req: 1,
        kind,
        token,
        target: StoreIx::FIRST,
        tries: 0,
        started_local: sent,
        replies: 0,
        oks: 0,
        queued: false,
        heard: false,
    }
}

/// `op` sent to `store2`, the member a pinned client is connected to.
fn on_store2(op: Op) -> Op {
    Op {
        target: StoreIx::new(1),
        ..op
    }
}

fn acquire(token: Token) -> Op {
    op(OpKind::Acquire { reenter: false }, token, 950)
}

fn acquiring(w: &mut Worker, op: Op) {
    w.seq = op.token.seq;
    w.next_req = op.req;
    w.state = State::Acquiring(Attempt {
        op: Some(op),
        claimed: None,
    });
}

/// A holds A#1, lease until 1500, at `step`, 200 ms of its work done.
fn holding(w: &mut Worker, step: Phase) {
    let mut hold = Hold::new(A1, None, Some(1500));
    hold.work_done = 200;
    w.seq = 1;
    w.next_req = 1;
    w.resource_req = 1;
    w.state = State::Holding { hold, step };
}

fn hold(w: &Worker) -> Hold {
    *w.state.hold().expect("holds")
}

fn releasing(w: &Worker) -> bool {
    matches!(w.state, State::Releasing { op } if op.kind == OpKind::Release && op.token == A1)
}

fn backing_off(w: &Worker) -> bool {
    matches!(w.state, State::Acquiring(Attempt { op: None, .. }))
}

fn granted(token: Token, lease_ms: Option<u64>) -> Msg {
    let answer = AcquireAnswer::Granted {
        fence: None,
        lease_ms,
    };
    Msg::AcquireReply {
        key: KeyId::new(0),
        token,
        answer,
    }
}

fn refused(token: Token, why: Refusal) -> Msg {
    let answer = AcquireAnswer::Refused { why };
    Msg::AcquireReply {
        key: KeyId::new(0),
        token,
        answer,
    }
}

const SINGLE: &str = "topology = \"single\"";
const REDLOCK: &str = "topology = \"redlock\"\nnodes = 3";
const CONSENSUS: &str = "topology = \"consensus\"\nnodes = 3";
const MULTI_PRIMARY: &str = "topology = \"multi_primary\"\nnodes = 3";
const STOP: &str = "on_lock_loss = \"stop\"";

fn rows() -> Vec<Row> {
    vec![
        Row {
            name: "start: a fresh token asks the store, with a reply deadline",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |_| {},
            event: In::Timer(Timer::Start),
            want: &[
                "record AcquireStarted",
                "2 <- acquire A#1",
                "timer Deadline at 1100",
            ],
            then: |w| w.state.op() == Some(op(OpKind::Acquire { reenter: false }, A1, 1000)),
        },
        Row {
            name: "grant: holds until a lease counted from the request, reads the record",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| acquiring(w, acquire(A1)),
            event: In::Msg(NodeId::new(2), granted(A1, Some(1000))),
            want: &[
                "record Acquired",
                "3 <- read (A#1)",
                "timer Deadline at 2000",
            ],
            then: |w| w.state.step() == Some(Phase::Reading) && hold(w).lease_until == Some(1950),
        },
        Row {
            name: "refused: backs off for retry_ms plus jitter",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| acquiring(w, acquire(A1)),
            event: In::Msg(NodeId::new(2), refused(A1, Refusal::Held { holder: B1 })),
            want: &["record AcquireFailed", "timer Retry in 50+0..=25"],
            then: backing_off,
        },
        Row {
            name: "a grant whose lease ran out on the way is a failure, handed back",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| acquiring(w, op(OpKind::Acquire { reenter: false }, A1, -100)),
            event: In::Msg(NodeId::new(2), granted(A1, Some(1000))),
            want: &[
                "record AcquireFailed",
                "2 <- release A#1",
                "timer Retry in 50+0..=25",
            ],
            then: backing_off,
        },
        Row {
            name: "a grant for an attempt given up is handed back",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |_| {},
            event: In::Msg(NodeId::new(2), granted(A1, Some(1000))),
            want: &["2 <- release A#1"],
            then: |w| w.state == State::Idle,
        },
        Row {
            name: "fair: queued, it asks again a third of a lease later, keeping its place alive",
            lock: "waiting = \"fair\"",
            store: SINGLE,
            worker: "",
            given: |w| acquiring(w, acquire(A1)),
            event: In::Msg(
                NodeId::new(2),
                Msg::AcquireReply {
                    key: KeyId::new(0),
                    token: A1,
                    answer: AcquireAnswer::Queued,
                },
            ),
            want: &["record Queued", "timer Deadline at 1333"],
            then: |w| w.state.op().is_some_and(|o| o.queued && o.req == 2),
        },
        Row {
            name: "fair: a queued waiter whose ask went unanswered asks the next node",
            lock: "waiting = \"fair\"",
            store: CONSENSUS,
            worker: "",
            given: |w| {
                let mut o = acquire(A1);
                o.queued = true;
                acquiring(w, o);
                w.deadlines.due[0] = Some((NOW, 1));
                w.deadlines.armed[0] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 0,
                at_ms: NOW,
            }),
            want: &["3 <- acquire A#1", "timer Deadline at 1100"],
            then: |w| w.leader == StoreIx::new(1) && w.state.op().is_some_and(|o| o.queued),
        },
        Row {
            name: "fair: a queued waiter's heartbeat ask goes to its node again",
            lock: "waiting = \"fair\"",
            store: CONSENSUS,
            worker: "",
            given: |w| {
                let mut o = acquire(A1);
                (o.queued, o.heard) = (true, true);
                acquiring(w, o);
                w.deadlines.due[0] = Some((NOW, 1));
                w.deadlines.armed[0] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 0,
                at_ms: NOW,
            }),
            want: &["2 <- acquire A#1", "timer Deadline at 1100"],
            then: |w| w.leader == StoreIx::FIRST,
        },
        Row {
            name: "fair: told its turn by another node, it asks that node",
            lock: "waiting = \"fair\"",
            store: CONSENSUS,
            worker: "",
            given: |w| {
                let mut o = acquire(A1);
                (o.queued, o.heard) = (true, true);
                acquiring(w, o);
            },
            event: In::Msg(
                NodeId::new(3),
                Msg::YourTurn {
                    key: KeyId::new(0),
                    token: A1,
                },
            ),
            want: &["3 <- acquire A#1", "timer Deadline at 1100"],
            then: |w| w.leader == StoreIx::new(1) && w.state.op().is_some_and(|o| o.queued),
        },
        Row {
            name: "forget: an unanswered create fails, and the next attempt is a fresh create",
            lock: FAIR,
            store: CONSENSUS,
            worker: FORGET,
            given: |w| {
                acquiring(w, acquire(A1));
                w.deadlines.due[0] = Some((NOW, 1));
                w.deadlines.armed[0] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 0,
                at_ms: NOW,
            }),
            want: &["record AcquireFailed", "timer Retry in 50+0..=25"],
            then: |w| backing_off(w) && w.seq == 1,
        },
        Row {
            name: "hand_back, fair: an unanswered create is deleted before the next attempt",
            lock: FAIR,
            store: CONSENSUS,
            worker: "",
            given: |w| {
                acquiring(w, acquire(A1));
                w.deadlines.due[0] = Some((NOW, 1));
                w.deadlines.armed[0] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 0,
                at_ms: NOW,
            }),
            want: &[
                "2 <- release A#1",
                "record AcquireFailed",
                "timer Retry in 50+0..=25",
            ],
            then: backing_off,
        },
        Row {
            name: "forget: backed off, it creates again under a new token",
            lock: FAIR,
            store: CONSENSUS,
            worker: FORGET,
            given: |w| {
                w.seq = 1;
                w.state = State::Acquiring(Attempt::default());
            },
            event: In::Timer(Timer::Retry),
            want: &[
                "record AcquireStarted",
                "2 <- acquire A#2",
                "timer Deadline at 1100",
            ],
            then: |w| w.state.op().is_some_and(|o| o.token == A2 && !o.queued),
        },
        Row {
            name: "forget: the late grant of the forgotten create is ignored, nothing handed back",
            lock: FAIR,
            store: CONSENSUS,
            worker: FORGET,
            given: queued_as_a2,
            event: In::Msg(NodeId::new(2), granted(A1, Some(1000))),
            want: &[],
            then: |w| w.state.op().is_some_and(|o| o.token == A2 && o.queued),
        },
        Row {
            name: "forget: the forgotten create's turn goes unanswered",
            lock: FAIR,
            store: CONSENSUS,
            worker: FORGET,
            given: queued_as_a2,
            event: In::Msg(NodeId::new(2), your_turn(A1)),
            want: &[],
            then: |w| w.state.op().is_some_and(|o| o.token == A2 && o.queued),
        },
        Row {
            name: "hand_back: the turn of an attempt given up is handed back",
            lock: FAIR,
            store: CONSENSUS,
            worker: "",
            given: queued_as_a2,
            event: In::Msg(NodeId::new(2), your_turn(A1)),
            want: &["2 <- release A#1"],
            then: |w| w.state.op().is_some_and(|o| o.token == A2 && o.queued),
        },
        Row {
            name: "hand_back: the late grant of an attempt given up is handed back",
            lock: FAIR,
            store: CONSENSUS,
            worker: "",
            given: queued_as_a2,
            event: In::Msg(NodeId::new(2), granted(A1, Some(1000))),
            want: &["2 <- release A#1"],
            then: |w| w.state.op().is_some_and(|o| o.token == A2 && o.queued),
        },
        Row {
            name: "flag: the flag is down, so it sets it",
            lock: "design = \"flag\"",
            store: SINGLE,
            worker: "",
            given: |w| acquiring(w, op(OpKind::FlagRead, A1, 950)),
            event: In::Msg(
                NodeId::new(2),
                Msg::FlagValue {
                    key: KeyId::new(0),
                    token: A1,
                    locked: false,
                },
            ),
            want: &["2 <- set flag (A#1)", "timer Deadline at 1100"],
            then: |w| w.state.op().is_some_and(|o| o.kind == OpKind::FlagSet),
        },
        Row {
            name: "an unanswered acquire fails; the next attempt goes to the next node",
            lock: "",
            store: "topology = \"replicated\"\nnodes = 2",
            worker: "",
            given: |w| {
                acquiring(w, acquire(A1));
                w.deadlines.due[0] = Some((NOW, 1));
                w.deadlines.armed[0] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 0,
                at_ms: NOW,
            }),
            want: &["record AcquireFailed", "timer Retry in 50+0..=25"],
            then: |w| backing_off(w) && w.leader == StoreIx::new(1),
        },
        Row {
            name: "multi_primary: a client starts on the member it is pinned to",
            lock: "design = \"setnx\"\nttl_ms = 0",
            store: MULTI_PRIMARY,
            worker: "store_node = \"store2\"",
            given: |_| {},
            event: In::Timer(Timer::Start),
            want: &[
                "record AcquireStarted",
                "3 <- acquire A#1",
                "timer Deadline at 1100",
            ],
            then: |w| w.leader == StoreIx::new(1),
        },
        Row {
            name: "multi_primary: an unanswered acquire fails; the next attempt stays on its \
                   member",
            lock: "design = \"setnx\"\nttl_ms = 0",
            store: MULTI_PRIMARY,
            worker: "store_node = \"store2\"",
            given: |w| {
                acquiring(w, on_store2(acquire(A1)));
                w.deadlines.due[0] = Some((NOW, 1));
                w.deadlines.armed[0] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 0,
                at_ms: NOW,
            }),
            want: &["record AcquireFailed", "timer Retry in 50+0..=25"],
            then: |w| backing_off(w) && w.leader == StoreIx::new(1),
        },
        Row {
            name: "multi_primary: an unanswered release is sent to its member again, not to \
                   another, which never held its lock",
            lock: "design = \"setnx\"\nttl_ms = 0",
            store: MULTI_PRIMARY,
            worker: "store_node = \"store2\"",
            given: |w| {
                w.state = State::Releasing {
                    op: on_store2(op(OpKind::Release, A1, 950)),
                };
                w.deadlines.due[0] = Some((NOW, 1));
                w.deadlines.armed[0] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 0,
                at_ms: NOW,
            }),
            want: &["3 <- release A#1", "timer Deadline at 1100"],
            then: |w| {
                w.state
                    .op()
                    .is_some_and(|o| o.tries == 1 && o.target == StoreIx::new(1))
            },
        },
        Row {
            name: "not the leader: the request goes where it is pointed",
            lock: "",
            store: "topology = \"replicated\"\nnodes = 3",
            worker: "",
            given: |w| acquiring(w, acquire(A1)),
            event: In::Msg(
                NodeId::new(2),
                Msg::NotLeader {
                    token: A1,
                    leader: Some(StoreIx::new(2)),
                },
            ),
            want: &["4 <- acquire A#1", "timer Deadline at 1100"],
            then: |w| w.leader == StoreIx::new(2),
        },
        Row {
            name: "redlock: a majority granted and validity is left, so it holds",
            lock: "",
            store: REDLOCK,
            worker: "",
            given: |w| {
                let mut o = acquire(A1);
                (o.started_local, o.replies, o.oks) = (990, 2, 2);
                acquiring(w, o);
            },
            event: In::Msg(NodeId::new(3), refused(A1, Refusal::Held { holder: B1 })),
            // Validity: ttl 1000 - 10 ms spent - drift allowance 12 ms.
            want: &[
                "record Acquired",
                "5 <- read (A#1)",
                "timer Deadline at 2000",
            ],
            then: |w| hold(w).lease_until == Some(1978),
        },
        Row {
            name: "redlock: no majority, so it unlocks every node",
            lock: "",
            store: REDLOCK,
            worker: "",
            given: |w| {
                let mut o = acquire(A1);
                (o.replies, o.oks) = (2, 1);
                acquiring(w, o);
            },
            event: In::Msg(NodeId::new(3), refused(A1, Refusal::Held { holder: B1 })),
            want: &[
                "record AcquireFailed",
                "2 <- release A#1",
                "3 <- release A#1",
                "4 <- release A#1",
                "timer Retry in 50+0..=25",
            ],
            then: backing_off,
        },
        Row {
            name: "redlock, its own view of 3 nodes of 5: its third answer decides, and 2 \
                   grants are its majority",
            lock: "",
            store: "topology = \"redlock\"\nnodes = 5",
            worker: "stores = [\"store1\", \"store2\", \"store3\"]",
            given: |w| {
                let mut o = acquire(A1);
                (o.replies, o.oks) = (2, 1);
                acquiring(w, o);
            },
            event: In::Msg(NodeId::new(4), granted(A1, Some(1000))),
            // Validity: ttl 1000 - 50 ms spent - drift allowance 12 ms.
            want: &[
                "record Acquired",
                "7 <- read (A#1)",
                "timer Deadline at 2000",
            ],
            then: |w| hold(w).lease_until == Some(1938),
        },
        Row {
            name: "redlock, every node of 5 known: after 3 answers it waits for the rest",
            lock: "",
            store: "topology = \"redlock\"\nnodes = 5",
            worker: "",
            given: |w| {
                let mut o = acquire(A1);
                (o.replies, o.oks) = (2, 1);
                acquiring(w, o);
            },
            event: In::Msg(NodeId::new(4), granted(A1, Some(1000))),
            want: &[],
            then: |w| matches!(w.state, State::Acquiring(Attempt { op: Some(o), .. }) if o.oks == 2),
        },
        Row {
            name: "renew tick: a watchdog renews while no renewal is out",
            lock: "renewal = \"watchdog\"",
            store: SINGLE,
            worker: "",
            given: |w| holding(w, Phase::Working),
            event: In::Timer(Timer::RenewTick),
            want: &[
                "timer RenewTick in 333",
                "2 <- renew A#1",
                "timer Deadline at 1100",
            ],
            then: |w| w.renewal.is_some_and(|o| o.kind == OpKind::Renew),
        },
        Row {
            name: "renewal ok: the lease runs a TTL from the renewal's send",
            lock: "renewal = \"watchdog\"",
            store: SINGLE,
            worker: "",
            given: |w| {
                holding(w, Phase::Working);
                w.renewal = Some(op(OpKind::Renew, A1, 900));
            },
            event: In::Msg(
                NodeId::new(2),
                Msg::RenewReply {
                    key: KeyId::new(0),
                    token: A1,
                    refused: None,
                },
            ),
            want: &["record Renewed"],
            then: |w| w.renewal.is_none() && hold(w).lease_until == Some(1900),
        },
        Row {
            name: "renewal refused, stop on lock loss: it lets go and releases",
            lock: "renewal = \"watchdog\"",
            store: SINGLE,
            worker: STOP,
            given: |w| {
                holding(w, Phase::Working);
                w.renewal = Some(op(OpKind::Renew, A1, 900));
            },
            event: In::Msg(
                NodeId::new(2),
                Msg::RenewReply {
                    key: KeyId::new(0),
                    token: A1,
                    refused: Some(Refusal::LeaseGone),
                },
            ),
            want: &[
                "record RenewFailed",
                "record LetGo",
                "2 <- release A#1",
                "timer Deadline at 1100",
            ],
            then: releasing,
        },
        Row {
            name: "redlock: an extension refused by a majority, stop on lock loss: it lets go",
            lock: "renewal = \"watchdog\"",
            store: REDLOCK,
            worker: STOP,
            given: |w| {
                holding(w, Phase::Working);
                let mut o = op(OpKind::Renew, A1, 900);
                (o.replies, o.oks) = (2, 1);
                w.renewal = Some(o);
            },
            event: In::Msg(
                NodeId::new(4),
                Msg::RenewReply {
                    key: KeyId::new(0),
                    token: A1,
                    refused: Some(Refusal::LeaseGone),
                },
            ),
            want: &[
                "record RenewFailed",
                "record LetGo",
                "2 <- release A#1",
                "3 <- release A#1",
                "4 <- release A#1",
                "timer Deadline at 1100",
            ],
            then: |w| w.renewal.is_none() && !matches!(w.state, State::Holding { .. }),
        },
        Row {
            name: "redlock: an extension that timed out on a majority proves nothing: it holds",
            lock: "renewal = \"watchdog\"",
            store: REDLOCK,
            worker: STOP,
            given: |w| {
                holding(w, Phase::Working);
                let mut o = op(OpKind::Renew, A1, 900);
                (o.replies, o.oks) = (1, 0);
                w.renewal = Some(o);
                w.deadlines.due[1] = Some((NOW, 1));
                w.deadlines.armed[1] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 1,
                at_ms: NOW,
            }),
            want: &["record RenewFailed"],
            then: |w| w.renewal.is_none() && w.state.step() == Some(Phase::Working),
        },
        Row {
            name: "renewal refused without stop: it goes on believing",
            lock: "renewal = \"watchdog\"",
            store: SINGLE,
            worker: "",
            given: |w| {
                holding(w, Phase::Working);
                w.renewal = Some(op(OpKind::Renew, A1, 900));
            },
            event: In::Msg(
                NodeId::new(2),
                Msg::RenewReply {
                    key: KeyId::new(0),
                    token: A1,
                    refused: Some(Refusal::LeaseGone),
                },
            ),
            want: &["record RenewFailed"],
            then: |w| w.state.step() == Some(Phase::Working) && w.renewal.is_none(),
        },
        Row {
            name: "its own count says the lease is over: it stops",
            lock: "",
            store: SINGLE,
            worker: STOP,
            given: |w| {
                holding(w, Phase::Working);
                if let Some(h) = w.state.hold_mut() {
                    h.lease_until = Some(900);
                }
            },
            event: In::Timer(Timer::LeaseCheck { token: A1 }),
            want: &["record LetGo", "2 <- release A#1", "timer Deadline at 1100"],
            then: releasing,
        },
        Row {
            name: "a lease check before the end looks again then",
            lock: "",
            store: SINGLE,
            worker: STOP,
            given: |w| holding(w, Phase::Working),
            event: In::Timer(Timer::LeaseCheck { token: A1 }),
            want: &["timer LeaseCheck in 500"],
            then: |w| w.state.step() == Some(Phase::Working),
        },
        Row {
            name: "read unanswered: it works on what it has",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| {
                holding(w, Phase::Reading);
                w.deadlines.due[2] = Some((NOW, 1));
                w.deadlines.armed[2] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 2,
                at_ms: NOW,
            }),
            want: &["timer WorkPoint at 1200"],
            then: |w| w.state.step() == Some(Phase::Working),
        },
        Row {
            name: "write unanswered: counted as done, and the work is over, so it lets go",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| {
                holding(w, Phase::Writing);
                if let Some(h) = w.state.hold_mut() {
                    h.work_done = 400;
                }
                w.deadlines.due[2] = Some((NOW, 1));
                w.deadlines.armed[2] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 2,
                at_ms: NOW,
            }),
            want: &[
                "record WriteTimedOut",
                "record LetGo",
                "2 <- release A#1",
                "timer Deadline at 1100",
            ],
            then: releasing,
        },
        Row {
            name: "write refused (fenced off): it learns it lost the lock",
            lock: "design = \"fencing\"",
            store: SINGLE,
            worker: "",
            given: |w| holding(w, Phase::Writing),
            event: In::Msg(
                NodeId::new(4),
                Msg::WriteReply {
                    key: KeyId::new(0),
                    token: A1,
                    ok: false,
                    version: 3,
                },
            ),
            want: &["record LetGo", "2 <- release A#1", "timer Deadline at 1100"],
            then: releasing,
        },
        Row {
            name: "no lock: a start reads the record at once, asking no store and believing nothing",
            lock: "design = \"none\"",
            store: SINGLE,
            worker: "",
            given: |_| {},
            event: In::Timer(Timer::Start),
            want: &["3 <- read (A#1)", "timer Deadline at 2000"],
            then: |w| w.state.step() == Some(Phase::Reading) && hold(w).lease_until.is_none(),
        },
        Row {
            name: "no lock: a write the compare-and-swap refused is tried again from a fresh read",
            lock: "design = \"none\"",
            store: SINGLE,
            worker: "",
            given: |w| holding(w, Phase::Writing),
            event: In::Msg(
                NodeId::new(3),
                Msg::WriteReply {
                    key: KeyId::new(0),
                    token: A1,
                    ok: false,
                    version: 3,
                },
            ),
            want: &["timer Retry in 0"],
            then: |w| w.state == State::Idle,
        },
        Row {
            name: "no lock: the next try has a new attempt id and releases nothing",
            lock: "design = \"none\"",
            store: SINGLE,
            worker: "",
            given: |w| w.seq = 1,
            event: In::Timer(Timer::Retry),
            want: &["3 <- read (A#2)", "timer Deadline at 2000"],
            then: |w| hold(w).token == A2,
        },
        Row {
            name: "read refused (fenced off): it lets go before doing any work",
            lock: "design = \"fencing\"",
            store: SINGLE,
            worker: "",
            given: |w| holding(w, Phase::Reading),
            event: In::Msg(
                NodeId::new(4),
                Msg::ReadReply {
                    key: KeyId::new(0),
                    token: A1,
                    ok: false,
                    value: 0,
                    version: 0,
                },
            ),
            want: &["record LetGo", "2 <- release A#1", "timer Deadline at 1100"],
            then: releasing,
        },
        Row {
            name: "a later deadline moved on: the timer re-arms for it",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| {
                acquiring(w, acquire(A1));
                w.deadlines.due[0] = Some((1050, 1));
                w.deadlines.armed[0] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 0,
                at_ms: NOW,
            }),
            want: &["timer Deadline at 1050"],
            then: |w| w.state.op().is_some(),
        },
        Row {
            name: "an unanswered release is sent again (compare-and-delete is idempotent)",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| {
                w.state = State::Releasing {
                    op: op(OpKind::Release, A1, 950),
                };
                w.deadlines.due[0] = Some((NOW, 1));
                w.deadlines.armed[0] = Some(NOW);
            },
            event: In::Timer(Timer::Deadline {
                wait: 0,
                at_ms: NOW,
            }),
            want: &["2 <- release A#1", "timer Deadline at 1100"],
            then: |w| w.state.op().is_some_and(|o| o.tries == 1),
        },
        Row {
            name: "release confirmed: idle until the next attempt",
            lock: "",
            store: SINGLE,
            worker: "repeat = 0",
            given: |w| {
                w.state = State::Releasing {
                    op: op(OpKind::Release, A1, 950),
                }
            },
            event: In::Msg(
                NodeId::new(2),
                Msg::ReleaseReply {
                    key: KeyId::new(0),
                    token: A1,
                },
            ),
            want: &["timer Retry in 50"],
            then: |w| w.state == State::Idle,
        },
        Row {
            name: "the last release confirmed: done",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| {
                w.state = State::Releasing {
                    op: op(OpKind::Release, A1, 950),
                }
            },
            event: In::Msg(
                NodeId::new(2),
                Msg::ReleaseReply {
                    key: KeyId::new(0),
                    token: A1,
                },
            ),
            want: &[],
            then: |w| w.state == State::Done,
        },
        Row {
            name: "reentrant: the nested grant counts the hold up and the work goes on",
            lock: "design = \"token\"\nreentrant = true",
            store: SINGLE,
            worker: "nested = true",
            given: |w| {
                holding(w, Phase::Working);
                let hold = Hold {
                    nested_done: true,
                    ..hold(w)
                };
                let op = op(OpKind::Acquire { reenter: true }, A1, 1000);
                w.state = State::Nesting {
                    hold,
                    attempt: Attempt {
                        op: Some(op),
                        claimed: None,
                    },
                };
            },
            event: In::Msg(NodeId::new(2), granted(A1, Some(1000))),
            // The inner section ends at 300 ms of running time: 100 ms from now.
            want: &["record Reentered", "timer WorkPoint at 1100"],
            then: |w| w.state.step() == Some(Phase::Working) && hold(w).count == 2,
        },
        Row {
            name: "not reentrant: the nested grant is a second token",
            lock: "",
            store: SINGLE,
            worker: "nested = true",
            given: |w| {
                holding(w, Phase::Working);
                let hold = Hold {
                    nested_done: true,
                    ..hold(w)
                };
                w.seq = 2;
                w.state = State::Nesting {
                    hold,
                    attempt: Attempt {
                        op: Some(acquire(A2)),
                        claimed: None,
                    },
                };
            },
            event: In::Msg(NodeId::new(2), granted(A2, Some(1000))),
            want: &["record Acquired", "timer WorkPoint at 1100"],
            then: |w| hold(w).inner == Some(A2) && hold(w).count == 1,
        },
        Row {
            name: "crash: both of a nested holder's beliefs end",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| {
                holding(w, Phase::Working);
                if let Some(h) = w.state.hold_mut() {
                    h.inner = Some(A2);
                }
            },
            event: In::Notice(Notice::Crashed),
            want: &["record LetGo", "record LetGo"],
            then: |w| w.state == State::Idle && w.generation == 1,
        },
        Row {
            name: "stall: the work clock stops and its timers go stale",
            lock: "",
            store: SINGLE,
            worker: "",
            given: |w| {
                holding(w, Phase::Working);
                if let Some(h) = w.state.hold_mut() {
                    h.running_since = Some(900);
                }
            },
            event: In::Notice(Notice::Stalled),
            want: &[],
            then: |w| w.stalled && hold(w).work_done == 300 && w.generation == 1,
        },
        Row {
            name: "health check: refused by B's grant, A pings B and waits for the answer",
            lock: PING,
            store: SINGLE,
            worker: "",
            given: |w| acquiring(w, acquire(A1)),
            event: In::Msg(NodeId::new(2), refused(A1, Refusal::Held { holder: B1 })),
            want: &[
                "record AcquireFailed",
                "1 <- ping (B#1 holds the lock: alive?)",
                "timer PingTimeout in 300",
            ],
            then: |w| backing_off(w) && w.pinging == Some(B1),
        },
        Row {
            name: "health check: its own grant is no one to ping",
            lock: PING,
            store: SINGLE,
            worker: "",
            given: |w| acquiring(w, acquire(A2)),
            event: In::Msg(NodeId::new(2), refused(A2, Refusal::Held { holder: A1 })),
            want: &["record AcquireFailed", "timer Retry in 50+0..=25"],
            then: |w| backing_off(w) && w.pinging.is_none(),
        },
        Row {
            name: "health check: B answers, so A leaves B's lock alone and asks again later",
            lock: PING,
            store: SINGLE,
            worker: "",
            given: pinging_b,
            event: In::Msg(
                NodeId::new(1),
                Msg::Pong {
                    key: KeyId::new(0),
                    holder: B1,
                },
            ),
            want: &["timer Retry in 50+0..=25"],
            then: |w| backing_off(w) && w.pinging.is_none(),
        },
        Row {
            name: "health check: no answer in time, A deletes B's lock if B still has it",
            lock: PING,
            store: SINGLE,
            worker: "",
            given: pinging_b,
            event: In::Timer(Timer::PingTimeout { holder: B1 }),
            want: &[
                "2 <- delete the lock if B#1 still holds it",
                "timer Retry in 50+0..=25",
            ],
            then: |w| backing_off(w) && w.pinging.is_none(),
        },
        Row {
            name: "health check: an answer after A gave up changes nothing",
            lock: PING,
            store: SINGLE,
            worker: "",
            given: |w| acquiring(w, acquire(A1)),
            event: In::Msg(
                NodeId::new(1),
                Msg::Pong {
                    key: KeyId::new(0),
                    holder: B1,
                },
            ),
            want: &[],
            then: |w| w.state.op().is_some(),
        },
        Row {
            name: "health check: a holder answers a ping, whatever its work is doing",
            lock: PING,
            store: SINGLE,
            worker: "",
            given: |w| holding(w, Phase::Working),
            event: In::Msg(
                NodeId::new(1),
                Msg::Ping {
                    key: KeyId::new(0),
                    holder: A1,
                },
            ),
            want: &["1 <- pong (A#1 is alive)"],
            then: |w| w.state.step() == Some(Phase::Working),
        },
        Row {
            name: "health check: a crash forgets the ping",
            lock: PING,
            store: SINGLE,
            worker: "",
            given: pinging_b,
            event: In::Notice(Notice::Crashed),
            want: &[],
            then: |w| w.pinging.is_none() && w.state == State::Idle,
        },
    ]
}

const PING: &str = "ping_timeout_ms = 300";
const FAIR: &str = "waiting = \"fair\"";
const FORGET: &str = "on_timeout = \"forget\"";

/// A gave up A#1 and waits in the fair queue as A#2, on `store1`.
fn queued_as_a2(w: &mut Worker) {
    let mut o = acquire(A2);
    (o.queued, o.heard) = (true, true);
    acquiring(w, o);
}

fn your_turn(token: Token) -> Msg {
    Msg::YourTurn {
        key: KeyId::new(0),
        token,
    }
}

/// A was refused by B#1's grant and has pinged B.
fn pinging_b(w: &mut Worker) {
    w.seq = 1;
    w.state = State::Acquiring(Attempt {
        op: None,
        claimed: None,
    });
    w.pinging = Some(B1);
}

#[test]
fn transitions() {
    let clock = Clock::default();
    for row in rows() {
        let sc = scenario(row.lock, row.store, row.worker);
        let cx = ctx(&sc, &clock, NOW);
        let mut w = Worker::new(NodeId::new(0), KeyId::new(0), &sc);
        (row.given)(&mut w);
        let mut out = Outbox::default();
        match row.event {
            In::Msg(from, msg) => w.on_msg(&cx, &mut out, from, msg),
            In::Timer(timer) => w.on_timer(&cx, &mut out, timer),
            In::Notice(notice) => w.on_notice(&cx, &mut out, notice),
        }
        assert_eq!(shown(out.cmds()), row.want, "{}", row.name);
        assert!((row.then)(&w), "{}: ended in {:?}", row.name, w.state);
    }
}

#[test]
fn a_paused_worker_does_not_start_its_work_clock() {
    let sc = scenario("", SINGLE, "");
    let clock = Clock::default();
    let cx = super::super::outbox::Ctx::of(NOW, &clock, true, &sc, layout(&sc));
    let mut w = Worker::new(NodeId::new(0), KeyId::new(0), &sc);
    holding(&mut w, Phase::Reading);
    let mut out = Outbox::default();
    w.on_msg(
        &cx,
        &mut out,
        NodeId::new(4),
        Msg::ReadReply {
            key: KeyId::new(0),
            token: A1,
            ok: true,
            value: 7,
            version: 2,
        },
    );
    assert!(out.cmds().is_empty());
    assert_eq!((hold(&w).value, hold(&w).running_since), (7, None));
}
