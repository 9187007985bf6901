//! The engine: a deterministic discrete-event simulation of one scenario.
//!
//! Pure: no UI, no I/O, no wall clock, and one seeded ChaCha generator for every random
//! choice, so a scenario and a seed give the same trace on every platform.
//!
//! Layout: [`queue`] orders events; [`net`] decides delays and cuts; [`clock`] gives each
//! node its local time; [`layout`] says which node id is which; [`worker`], [`store`] and
//! [`resource`] are the three kinds of node; [`faults`] injects the scenario's faults.
//!
//! Workers and store nodes are state machines: a handler gets the node's state, one event
//! and a read-only [`outbox::Ctx`], and pushes [`outbox::Cmd`]s that [`Sim`] applies in order
//! right after it returns (sending draws the message's delay then, as it always did).

mod clock;
mod faults;
mod layout;
mod mail;
mod marks;
mod msg;
mod net;
mod outbox;
mod queue;
mod resource;
mod store;
#[cfg(test)]
mod testkit;
mod worker;

/// A single store node's lock table, for tests that hold the model to a real store
/// (`tests/redis_conformance.rs`).
pub use store::{Acquire, LockTable, Release};
/// The consensus leader's flow-control bounds (etcd's `MaxSizePerMsg`, `MaxInflightMsgs`).
pub use store::{MAX_APPEND_ENTRIES, MAX_INFLIGHT_APPENDS};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::scenario::names::{RESOURCE, store_name};
use crate::scenario::{Persistence, Scenario, Transport};
use crate::trace::{
    DropReason, Event, EventKind, KeyId, MsgId, NodeId, NodeInfo, Role, Token, Trace,
};
use clock::Clock;
use layout::Layout;
use mail::{Mail, Slot};
use msg::Msg;
use net::Net;
use outbox::{Cmd, Ctx, Outbox};
use queue::Queue;

/// Plays `scenario` out with `seed` (used instead of `scenario.seed`) and records every event.
/// The scenario must be valid ([`Scenario::validate`]); the engine never panics on a valid one.
pub fn run(scenario: &Scenario, seed: u64) -> Trace {
    let (mut trace, events) = run_into(scenario, seed, |_| Vec::with_capacity(1024));
    trace.events = events;
    trace
}

/// Plays `scenario` out without recording; returns how many queue events were handled.
/// For benchmarks: the cost of the simulation alone.
pub fn run_unrecorded(scenario: &Scenario, seed: u64) -> u64 {
    run_into(scenario, seed, |_| ()).0.steps
}

/// Where a run's events go, in the order they happen: kept as a trace, or consumed as they
/// come by a checker that never needs the whole trace ([`crate::judged`]).
pub trait Recorder {
    /// Whether events are wanted at all: a recorder that drops them spares the engine
    /// building them.
    const WANTS_EVENTS: bool = true;

    /// Takes the next event: `kind` at `node`, true time `at_ms`, `local_ms` on the node's
    /// wall clock (an [`Event`]'s fields, handed over apart so a recorder that only reads
    /// them never copies the whole event).
    fn record(&mut self, at_ms: u64, node: NodeId, local_ms: i64, kind: EventKind);
}

/// The whole trace, kept.
impl Recorder for Vec<Event> {
    fn record(&mut self, at_ms: u64, node: NodeId, local_ms: i64, kind: EventKind) {
        self.push(Event {
            at_ms,
            node,
            local_ms,
            kind,
        });
    }
}

/// Nothing kept: the simulation alone.
impl Recorder for () {
    const WANTS_EVENTS: bool = false;

    fn record(&mut self, _: u64, _: NodeId, _: i64, _: EventKind) {}
}

/// Plays `scenario` out with `seed` into the recorder `recorder` makes from the run's
/// [`Trace`] before it starts (its nodes and keys, no events yet). Returns that trace as the
/// run ended ([`Trace::steps`], [`Trace::cut_short_at_ms`] filled in, `events` empty) and the
/// recorder.
pub fn run_into<R: Recorder>(
    scenario: &Scenario,
    seed: u64,
    recorder: impl FnOnce(&Trace) -> R,
) -> (Trace, R) {
    let mut trace = skeleton(scenario, seed);
    let mut rec = recorder(&trace);
    (trace.steps, trace.cut_short_at_ms) = if R::WANTS_EVENTS {
        Sim::<true>::new(scenario, seed, &mut rec).run()
    } else {
        Sim::<false>::new(scenario, seed, &mut rec).run()
    };
    (trace, rec)
}

/// The engine's side of a [`Recorder`]: one copy of the engine serves every recorder that
/// wants events (the trace kept, the checker judging as it goes), called through this.
trait Sink {
    fn take(&mut self, at_ms: u64, node: NodeId, local_ms: i64, kind: EventKind);
}

impl<R: Recorder> Sink for R {
    fn take(&mut self, at_ms: u64, node: NodeId, local_ms: i64, kind: EventKind) {
        self.record(at_ms, node, local_ms, kind);
    }
}

/// Hard bound on handled queue events per run, so a pathological scenario still ends, in time
/// and memory alike. A run that reaches it, or [`MAX_EVENTS`] or [`MAX_PENDING`], stops early
/// and says where ([`Trace::cut_short_at_ms`]). Why this number: a recorded run keeps about
/// 1.75 events per step, and engine, trace and checker together peak near 200 bytes per step,
/// so 64 workers on a `flag` lock take about 1 s and 100 MB natively (a browser tab stays
/// responsive too); the largest scenario the project ships needs about 65 000 steps.
pub const MAX_STEPS: u64 = 500_000;

/// Hard bound on events recorded per run (counted whether or not a recorder keeps them, so a
/// run kept as a trace and one judged as it goes stop at the same point). One step may record
/// many events — a retry that sends to nine Redlock nodes over a lossy network records a send
/// and a loss for each — so the step budget alone would let a trace grow to millions of
/// events; this keeps a trace near 100 MB and its text and JSON within a few hundred MB.
pub const MAX_EVENTS: u64 = 1_000_000;

/// Hard bound on events waiting in the queue at once: messages in flight, retransmissions and
/// timers, each holding memory until it comes due. A run whose messages are delayed far past
/// its steps' pace (a slowed link, a cut link's retransmissions) would otherwise hold millions
/// of them. Shipped scenarios keep at most a few hundred waiting.
pub const MAX_PENDING: usize = 200_000;

/// Something due at a true time. A message waits in [`Sim::mail`], so every event is small.
enum Ev {
    /// A transmission reaches the far end of its link.
    Deliver {
        from: NodeId,
        to: NodeId,
        id: MsgId,
        msg: Slot,
    },
    /// TCP: the sender's kernel transmits a held message again.
    Retransmit {
        from: NodeId,
        to: NodeId,
        id: MsgId,
        msg: Slot,
    },
    /// The receiving process reads the message (deferred while it was paused).
    Receive {
        from: NodeId,
        to: NodeId,
        id: MsgId,
        msg: Slot,
    },
    Timer {
        node: NodeId,
        incarnation: u32,
        timer: Timer,
    },
    /// The scenario's fault number `i` starts.
    Fault(usize),
    Resume(NodeId),
    Unstall(NodeId),
    Restart(NodeId),
    EndCut(u32),
}

/// Node-local timers. A crashed node's timers die with it (incarnation check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    // worker
    Start,
    Retry,
    /// One of the worker's reply deadlines (see `worker::Wait`), armed for true time `at_ms`.
    Deadline {
        wait: u8,
        at_ms: u64,
    },
    RenewTick,
    /// `ping_timeout_ms`: the waiter's ping of `holder` has had its time to be answered.
    PingTimeout {
        holder: Token,
    },
    /// `on_lock_loss = "stop"`: the worker's own count of `token`'s lease may be over.
    LeaseCheck {
        token: Token,
    },
    WorkPoint {
        generation: u32,
    },
    WriteNow {
        generation: u32,
    },
    // store
    Expire {
        key: KeyId,
        token: Token,
    },
    /// `replicated`: send the stream up to this offset (`replication_lag_ms` after it grew).
    Replicate {
        up_to: u64,
    },
    /// `replicated` with `min_replicas_to_write`: a replica's second to acknowledge.
    ReplAck,
    /// `replicated`: the failover of `epoch` has waited long enough for replicas' offsets.
    ChoosePrimary {
        epoch: u64,
    },
    Heartbeat,
    LeaderCheck,
    LockDelayOver {
        key: KeyId,
    },
    /// `persistence = "everysec"`: the node flushes its log to disk.
    Flush,
    /// `fair`: the waiter told it is its turn has had a lease length to claim it.
    TurnOver {
        key: KeyId,
        token: Token,
    },
}

/// State every node has.
struct Node {
    alive: bool,
    paused: bool,
    /// Events that arrived while paused, handled in order when it resumes.
    backlog: Vec<Ev>,
    clock: Clock,
    incarnation: u32,
}

/// The whole simulated world, recording into `R`.
/// `EVENTS`: whether the recorder wants events ([`Recorder::WANTS_EVENTS`]); without, the
/// engine does not build them.
struct Sim<'a, const EVENTS: bool> {
    sc: &'a Scenario,
    rng: ChaCha8Rng,
    queue: Queue<Ev>,
    /// The messages the queue's events name.
    mail: Mail,
    now: u64,
    nodes: Vec<Node>,
    workers: Vec<worker::Worker>,
    stores: Vec<store::StoreNode>,
    resource: resource::Resource,
    net: Net,
    keys: Vec<String>,
    layout: Layout,
    /// Reused by every handler: the commands it pushed, applied right after it returns.
    outbox: Outbox,
    rec: &'a mut dyn Sink,
    msg_count: u32,
    steps: u64,
    /// Events recorded so far, kept or not ([`MAX_EVENTS`]).
    events: u64,
    /// Where the event budget stopped the run, true ms (see [`Trace::cut_short_at_ms`]).
    cut_short_at_ms: Option<u64>,
}

impl<'a, const EVENTS: bool> Sim<'a, EVENTS> {
    fn new(sc: &'a Scenario, seed: u64, rec: &'a mut dyn Sink) -> Self {
        let n_stores = sc.store.nodes.max(1);
        let keys = keys_of(sc);
        let mut nodes = Vec::new();
        for w in &sc.workers {
            nodes.push(Node {
                alive: true,
                paused: false,
                backlog: Vec::new(),
                clock: Clock {
                    offset_ms: w.clock_offset_ms,
                    drift_ppm: w.clock_drift_ppm,
                    jumped_ms: 0,
                },
                incarnation: 0,
            });
        }
        for i in 0..=n_stores {
            let name = store_name(i + 1);
            // `[[node]]` gives a store node its clock error; the resource keeps true time.
            let clock = sc
                .store_clocks
                .iter()
                .find(|c| i < n_stores && c.name == name)
                .map_or_else(Clock::default, |c| Clock {
                    offset_ms: c.clock_offset_ms,
                    drift_ppm: c.clock_drift_ppm,
                    jumped_ms: 0,
                });
            nodes.push(Node {
                alive: true,
                paused: false,
                backlog: Vec::new(),
                clock,
                incarnation: 0,
            });
        }
        let workers = sc
            .workers
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let key = KeyId::from_index(keys.iter().position(|k| *k == w.key).unwrap_or(0));
                worker::Worker::new(NodeId::from_index(i), key, sc)
            })
            .collect();
        let layout = Layout::new(sc.workers.len(), n_stores as usize);
        let stores = layout
            .store_ixs()
            .map(|ix| store::StoreNode::new(ix, layout.stores(), keys.len(), sc))
            .collect();
        Sim {
            sc,
            rng: ChaCha8Rng::seed_from_u64(seed),
            queue: Queue::new(),
            mail: Mail::default(),
            now: 0,
            nodes,
            workers,
            stores,
            resource: resource::Resource::new(keys.len()),
            net: Net::new(layout.nodes()),
            keys,
            layout,
            outbox: Outbox::default(),
            rec,
            msg_count: 0,
            steps: 0,
            events: 0,
            cut_short_at_ms: None,
        }
    }

    /// Plays the run out. Returns its steps and where the budget cut it short, if it did.
    fn run(mut self) -> (u64, Option<u64>) {
        for (i, f) in self.sc.faults.iter().enumerate() {
            self.queue.push(f.at_ms, Ev::Fault(i));
        }
        for w in 0..self.workers.len() {
            let start = self.sc.workers[w].start_ms;
            self.queue.push(
                start,
                Ev::Timer {
                    node: NodeId::from_index(w),
                    incarnation: 0,
                    timer: Timer::Start,
                },
            );
        }
        // Every node's first flush, then every node's heartbeat and failure detector.
        if self.sc.store.persistence == Persistence::Everysec {
            for ix in self.layout.store_ixs() {
                let id = self.layout.store_id(ix);
                self.with_store(id, |s, _, out| s.start_flushing(out));
            }
        }
        for ix in self.layout.store_ixs() {
            let id = self.layout.store_id(ix);
            self.with_store(id, |s, cx, out| s.start_watching(cx, out));
        }
        while let Some((at, ev)) = self.queue.pop() {
            if at >= self.sc.until_ms {
                break;
            }
            if self.steps >= MAX_STEPS
                || self.events >= MAX_EVENTS
                || self.queue.len() >= MAX_PENDING
            {
                // Events are handled in time order: every instant before `at` is complete.
                self.cut_short_at_ms = Some(at);
                break;
            }
            // The calendar hands events out in time order; one from the past would be handled
            // after what it caused.
            debug_assert!(
                at >= self.now,
                "event at {at} ms popped after {} ms",
                self.now
            );
            self.now = at;
            self.steps += 1;
            self.dispatch(ev);
        }
        (self.steps, self.cut_short_at_ms)
    }

    fn dispatch(&mut self, ev: Ev) {
        match ev {
            Ev::Deliver { from, to, id, msg } => {
                if let Some(msg) = self.mail.take(msg) {
                    self.arrive(from, to, id, msg);
                }
            }
            Ev::Retransmit { from, to, id, msg } => {
                let give_up = self.sc.network.tcp_give_up_ms;
                if let Some(msg) = self.mail.take(msg)
                    && self.net.carries(from, to, id)
                {
                    if self.net.gave_up(from, to, id, self.now, give_up) {
                        // The last timer was moved to the give-up time: the connection dies.
                        self.give_up(from, to);
                    } else {
                        self.transmit(from, to, id, msg, true);
                    }
                }
            }
            Ev::Receive { from, to, id, msg } => {
                if let Some(msg) = self.mail.take(msg) {
                    self.hand_over(from, to, id, msg);
                }
            }
            Ev::Timer {
                node,
                incarnation,
                timer,
            } => {
                let n = &mut self.nodes[node.index()];
                if !n.alive || n.incarnation != incarnation {
                    return;
                }
                if n.paused {
                    n.backlog.push(Ev::Timer {
                        node,
                        incarnation,
                        timer,
                    });
                    return;
                }
                self.on_timer(node, timer);
            }
            Ev::Fault(i) => self.fault(i),
            Ev::Resume(node) => self.resume(node),
            Ev::Unstall(node) => self.unstall(node),
            Ev::Restart(node) => self.restart(node),
            Ev::EndCut(id) => {
                if let Some(groups) = self.net.end_cut(id) {
                    self.record(NodeId::NETWORK_EVENTS, EventKind::PartitionEnded { groups });
                }
            }
        }
    }

    /// A transmission of message `id` reaches `to`'s side of the link.
    #[inline]
    fn arrive(&mut self, from: NodeId, to: NodeId, id: MsgId, msg: Msg) {
        match self.sc.network.transport {
            Transport::Datagram => {
                if self.net.is_cut(from, to) {
                    self.dropped(from, to, id, DropReason::Partition);
                } else {
                    self.hand_over(from, to, id, msg);
                }
            }
            Transport::Tcp => {
                if !self.net.carries(from, to, id) {
                    return;
                }
                if self.net.is_cut(from, to) {
                    // Cut while it travelled: the sender hears no acknowledgement and retransmits.
                    self.record(from, EventKind::Held { msg: id, to });
                    self.retry(from, to, id, msg);
                    return;
                }
                if let Some(msg) = self.net.arrive(from, to, id, msg) {
                    self.hand_over(from, to, id, msg);
                    while let Some(ready) = self.net.next_ready(from, to) {
                        self.hand_over(from, to, ready.id, ready.msg);
                    }
                }
            }
        }
    }

    /// The receiving process gets the message: now, after its pause, or never if it is down.
    #[inline]
    fn hand_over(&mut self, from: NodeId, to: NodeId, id: MsgId, msg: Msg) {
        let node = &mut self.nodes[to.index()];
        if !node.alive {
            self.dropped(from, to, id, DropReason::Crashed);
            if self.sc.network.transport == Transport::Tcp {
                for lost in self.net.kill(from, to) {
                    self.dropped(from, to, lost, DropReason::Crashed);
                }
            }
        } else if node.paused {
            let msg = self.mail.put(msg);
            node.backlog.push(Ev::Receive { from, to, id, msg });
        } else {
            self.record(to, EventKind::Deliver { msg: id, from });
            self.receive(from, to, msg);
        }
    }

    #[inline]
    fn dropped(&mut self, from: NodeId, to: NodeId, id: MsgId, reason: DropReason) {
        self.record(
            to,
            EventKind::Drop {
                msg: id,
                from,
                reason,
            },
        );
    }

    fn receive(&mut self, from: NodeId, to: NodeId, msg: Msg) {
        if self.is_worker(to) {
            self.with_worker(to, |w, cx, out| w.on_msg(cx, out, from, msg));
        } else if to == self.layout.resource() {
            self.resource_receive(from, msg);
        } else {
            self.with_store(to, |s, cx, out| s.on_msg(cx, out, from, msg));
        }
    }

    fn on_timer(&mut self, node: NodeId, timer: Timer) {
        if self.is_worker(node) {
            self.with_worker(node, |w, cx, out| w.on_timer(cx, out, timer));
        } else {
            self.with_store(node, |s, cx, out| s.on_timer(cx, out, timer));
        }
    }

    fn is_worker(&self, node: NodeId) -> bool {
        self.layout.is_worker(node)
    }

    /// Runs a handler of worker `w` and applies what it asked for.
    fn with_worker(
        &mut self,
        w: NodeId,
        handler: impl FnOnce(&mut worker::Worker, &Ctx, &mut Outbox),
    ) {
        let mut out = std::mem::take(&mut self.outbox);
        let node = &self.nodes[w.index()];
        let cx = Ctx::of(self.now, &node.clock, node.paused, self.sc, self.layout);
        handler(&mut self.workers[w.index()], &cx, &mut out);
        self.apply_outbox(w, &mut out);
        self.outbox = out;
    }

    /// Runs a handler of store node `id` (if it is one) and applies what it asked for.
    fn with_store(
        &mut self,
        id: NodeId,
        handler: impl FnOnce(&mut store::StoreNode, &Ctx, &mut Outbox),
    ) {
        let Some(ix) = self.layout.store_ix(id) else {
            return;
        };
        let mut out = std::mem::take(&mut self.outbox);
        let node = &self.nodes[id.index()];
        let cx = Ctx::of(self.now, &node.clock, node.paused, self.sc, self.layout);
        handler(&mut self.stores[ix.index()], &cx, &mut out);
        self.apply_outbox(id, &mut out);
        self.outbox = out;
    }

    /// Carries out `node`'s commands in the order its handler pushed them.
    fn apply_outbox(&mut self, node: NodeId, out: &mut Outbox) {
        for cmd in out.drain() {
            match cmd {
                Cmd::Send { to, msg } => self.send(node, to, msg),
                Cmd::Timer { local_ms, timer } => self.set_timer(node, local_ms, timer),
                Cmd::TimerAt { at_ms, timer } => {
                    let incarnation = self.nodes[node.index()].incarnation;
                    self.queue.push(
                        at_ms,
                        Ev::Timer {
                            node,
                            incarnation,
                            timer,
                        },
                    );
                }
                Cmd::Jittered {
                    local_ms,
                    jitter_ms,
                    timer,
                } => {
                    let extra = if jitter_ms > 0 {
                        self.rng.random_range(0..=jitter_ms) as i64
                    } else {
                        0
                    };
                    self.set_timer(node, local_ms + extra, timer);
                }
                Cmd::Record(kind) => self.record(node, kind),
            }
        }
    }

    /// Sends `msg`. Over TCP it is delivered in order, late if its link is cut or a packet is
    /// lost, and lost only with its connection; as a datagram it is dropped by a cut or `loss`.
    #[inline]
    fn send(&mut self, from: NodeId, to: NodeId, msg: Msg) {
        self.msg_count += 1;
        let id = MsgId::new(self.msg_count);
        if EVENTS {
            let what = msg.label();
            self.record(from, EventKind::Send { msg: id, to, what });
        } else {
            // Counted as `record` counts it, so the budget cuts every kind of run alike.
            self.events += 1;
        }
        match self.sc.network.transport {
            Transport::Tcp => {
                self.net.open(from, to, id, self.now);
                self.transmit(from, to, id, msg, false);
            }
            Transport::Datagram => {
                if self.lost() {
                    self.dropped(from, to, id, DropReason::Loss);
                } else if self.net.is_cut(from, to) {
                    self.dropped(from, to, id, DropReason::Partition);
                } else {
                    self.put_on_wire(from, to, id, msg);
                }
            }
        }
    }

    /// TCP: one transmission of message `id` (the first, or a retransmission).
    #[inline]
    fn transmit(&mut self, from: NodeId, to: NodeId, id: MsgId, msg: Msg, again: bool) {
        if self.lost() || self.net.is_cut(from, to) {
            if !again {
                self.record(from, EventKind::Held { msg: id, to });
            }
            self.retry(from, to, id, msg);
            return;
        }
        if again {
            self.net.on_wire(from, to, id);
            self.record(from, EventKind::Retransmitted { msg: id, to });
        }
        self.put_on_wire(from, to, id, msg);
    }

    /// TCP: schedules the next retransmission, or kills the connection if it waited too long.
    fn retry(&mut self, from: NodeId, to: NodeId, id: MsgId, msg: Msg) {
        let give_up = self.sc.network.tcp_give_up_ms;
        match self.net.retry_at(from, to, id, self.now, give_up) {
            Some(at) => {
                let msg = self.mail.put(msg);
                self.queue.push(at, Ev::Retransmit { from, to, id, msg });
            }
            None => self.give_up(from, to),
        }
    }

    /// TCP: the connection `from → to` waited `tcp_give_up_ms` and dies with what it carried.
    /// `session`: the connection is dead whichever end gave up, and the session with it: a
    /// worker whose own send gave up speaks next on a new connection, a new session that owns
    /// nothing of the old one's. (A real server may hold the old session until its keepalive
    /// notices; an idle connection that never gives up keeps its lock, as PostgreSQL's does.)
    fn give_up(&mut self, from: NodeId, to: NodeId) {
        for lost in self.net.kill(from, to) {
            self.dropped(from, to, lost, DropReason::GaveUp);
        }
        self.connection_died(from, to, crate::trace::SessionEnd::GaveUp);
    }

    /// Whether `network.loss` takes this transmission.
    #[inline]
    fn lost(&mut self) -> bool {
        let loss = self.sc.network.loss;
        loss > 0.0 && self.rng.random_bool(loss.min(1.0))
    }

    /// The message travels the link's delay (plus any `delay` window on it).
    #[inline]
    fn put_on_wire(&mut self, from: NodeId, to: NodeId, id: MsgId, msg: Msg) {
        let [lo, hi] = self.sc.network.delay_ms;
        let delay = if hi > lo {
            self.rng.random_range(lo..=hi)
        } else {
            lo
        };
        let at = self.now + delay + self.net.extra_ms(from, to, self.now);
        let msg = self.mail.put(msg);
        self.queue.push(at, Ev::Deliver { from, to, id, msg });
    }

    /// Sets a timer on `node` that fires after `local_ms` of that node's clock.
    fn set_timer(&mut self, node: NodeId, local_ms: i64, timer: Timer) {
        let n = &self.nodes[node.index()];
        let at = self.now + n.clock.true_span(local_ms);
        let incarnation = n.incarnation;
        self.queue.push(
            at,
            Ev::Timer {
                node,
                incarnation,
                timer,
            },
        );
    }

    #[inline]
    fn record(&mut self, node: NodeId, kind: EventKind) {
        self.events += 1;
        if EVENTS {
            let local_ms = self.nodes[node.index()].clock.wall(self.now);
            self.rec.take(self.now, node, local_ms, kind);
        }
    }

    /// Node id of a name used in the scenario (validated beforehand).
    fn node_id(&self, name: &str) -> Option<NodeId> {
        if name == RESOURCE {
            return Some(self.layout.resource());
        }
        if let Some(i) = self.sc.workers.iter().position(|w| w.name == name) {
            return Some(NodeId::from_index(i));
        }
        self.layout.store_named(name)
    }
}

/// Lock keys in order of first appearance among the workers ([`Trace::keys`]).
fn keys_of(sc: &Scenario) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for w in &sc.workers {
        if !keys.contains(&w.key) {
            keys.push(w.key.clone());
        }
    }
    keys
}

/// The trace of a run of `sc` with `seed` before it starts: its nodes and keys, no events.
fn skeleton(sc: &Scenario, seed: u64) -> Trace {
    let layout = Layout::new(sc.workers.len(), sc.store.nodes.max(1) as usize);
    let mut nodes: Vec<NodeInfo> = sc
        .workers
        .iter()
        .map(|w| NodeInfo {
            name: w.name.clone(),
            role: Role::Worker,
        })
        .collect();
    nodes.extend(layout.store_ixs().map(|ix| NodeInfo {
        name: ix.name(),
        role: Role::Store,
    }));
    nodes.push(NodeInfo {
        name: RESOURCE.to_string(),
        role: Role::Resource,
    });
    Trace {
        scenario: sc.name.clone(),
        seed,
        until_ms: sc.until_ms,
        design: sc.lock.design,
        topology: sc.store.topology,
        uncounted_reentry: sc.lock.reentrant && !sc.lock.hold_count,
        nodes,
        keys: keys_of(sc),
        events: Vec::new(),
        steps: 0,
        cut_short_at_ms: None,
    }
}

/// The queue's events stay a few words long: a message waits in [`Mail`], not in its event.
#[cfg(test)]
#[test]
fn a_queue_event_takes_at_most_32_bytes() {
    assert!(std::mem::size_of::<Ev>() <= 32);
}

/// Runs a scenario written inline, with its own seed: the store modules' tests read the trace.
#[cfg(test)]
fn run_src(src: &str) -> Trace {
    let sc = crate::scenario::parse(src).expect("a valid scenario");
    run(&sc, sc.seed)
}
