//! A worker's state: where it is in its lifecycle, as one enum, and the bookkeeping that
//! outlives any one phase (request counters, reply deadlines, a renewal in flight).

use super::super::layout::StoreIx;
use crate::scenario::Scenario;
use crate::scenario::names::parse_store_name;
use crate::trace::{KeyId, NodeId, Token};

/// What a request to the store asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OpKind {
    FlagRead,
    FlagSet,
    /// `timestamp`: record a claim stamped `stamp` (the worker's wall clock when it asked).
    Claim {
        stamp: i64,
    },
    /// `timestamp`: read the key's claims to see whose stamp is earliest.
    ReadClaims,
    Acquire {
        reenter: bool,
    },
    Release,
    Renew,
}

/// A request to the store in flight (to one node, or to all of them for Redlock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Op {
    pub req: u32,
    pub kind: OpKind,
    pub token: Token,
    /// Store node the request went to (unicast).
    pub target: StoreIx,
    pub tries: u32,
    /// When the request was first sent, on the worker's lease clock (local ms): a lease
    /// counts from here, not from the reply.
    pub started_local: i64,
    pub replies: u32,
    pub oks: u32,
    /// `fair`: the store put this acquire in its queue; the worker waits for its turn.
    pub queued: bool,
    /// `fair`: the target answered this acquire since it was last sent ("queued").
    pub heard: bool,
}

/// The lock as the worker believes it holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Hold {
    pub token: Token,
    pub fence: Option<u64>,
    /// When it believes the lease ends, on its lease clock, local ms (`None`: no lease).
    pub lease_until: Option<i64>,
    pub count: u32,
    /// A second token from a non-reentrant nested acquire.
    pub inner: Option<Token>,
    pub nested_done: bool,
    /// The nested (inner) section ended and released its hold.
    pub inner_released: bool,
    /// Running time spent on the critical section so far, ms.
    pub work_done: u64,
    /// True time the work last resumed, if it is advancing now.
    pub running_since: Option<u64>,
    pub writes_done: u32,
    /// The record as last read or written by this holder.
    pub value: u64,
    pub version: u64,
    /// `progress` renewal: work done at the last renewal.
    pub renew_mark: u64,
}

impl Hold {
    /// A fresh hold of `token`, nothing done yet.
    pub(super) fn new(token: Token, fence: Option<u64>, lease_until: Option<i64>) -> Self {
        Hold {
            token,
            fence,
            lease_until,
            count: 1,
            inner: None,
            nested_done: false,
            inner_released: false,
            work_done: 0,
            running_since: None,
            writes_done: 0,
            value: 0,
            version: 0,
            renew_mark: 0,
        }
    }

    /// Whether the nested section took the lock and has not yet released it.
    pub(super) fn inner_open(&self) -> bool {
        self.nested_done && !self.inner_released && (self.count > 1 || self.inner.is_some())
    }

    /// Whether `token` is this hold's, outer or inner.
    pub(super) fn has(&self, token: Token) -> bool {
        self.token == token || self.inner == Some(token)
    }
}

/// An acquisition attempt between its requests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Attempt {
    /// The request in flight; `None` while backing off before the next one.
    pub op: Option<Op>,
    /// `timestamp`: the claim the store acknowledged; the worker reads the claims until that
    /// stamp is the earliest.
    pub claimed: Option<Token>,
}

/// Where a holder is in its critical section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Reading the record at the start of its critical section.
    Reading,
    Working,
    /// Checked its lease; the write follows 1 ms of running time later.
    CheckedLease,
    Writing,
}

/// A worker's lifecycle. Each state carries exactly what it needs: only a holder has a
/// [`Hold`], only an attempt has a pending acquire, only a release a pending release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    /// Between acquisitions (or freshly restarted), waiting for its start or retry timer.
    Idle,
    /// Taking the lock under a fresh token.
    Acquiring(Attempt),
    /// Believes it holds the lock.
    Holding { hold: Hold, step: Phase },
    /// Holds the lock and is acquiring it again from inside its critical section.
    Nesting { hold: Hold, attempt: Attempt },
    /// Let go and waits for the store to confirm the release.
    Releasing { op: Op },
    /// Made all its acquisitions.
    Done,
}

impl State {
    pub(super) fn hold(&self) -> Option<&Hold> {
        match self {
            State::Holding { hold, .. } | State::Nesting { hold, .. } => Some(hold),
            _ => None,
        }
    }

    pub(super) fn hold_mut(&mut self) -> Option<&mut Hold> {
        match self {
            State::Holding { hold, .. } | State::Nesting { hold, .. } => Some(hold),
            _ => None,
        }
    }

    pub(super) fn attempt(&self) -> Option<&Attempt> {
        match self {
            State::Acquiring(attempt) | State::Nesting { attempt, .. } => Some(attempt),
            _ => None,
        }
    }

    pub(super) fn attempt_mut(&mut self) -> Option<&mut Attempt> {
        match self {
            State::Acquiring(attempt) | State::Nesting { attempt, .. } => Some(attempt),
            _ => None,
        }
    }

    /// The acquire or release request in flight.
    pub(super) fn op(&self) -> Option<Op> {
        match self {
            State::Releasing { op } => Some(*op),
            _ => self.attempt().and_then(|a| a.op),
        }
    }

    pub(super) fn op_mut(&mut self) -> Option<&mut Op> {
        match self {
            State::Releasing { op } => Some(op),
            _ => self.attempt_mut().and_then(|a| a.op.as_mut()),
        }
    }

    pub(super) fn step(&self) -> Option<Phase> {
        match self {
            State::Holding { step, .. } => Some(*step),
            _ => None,
        }
    }

    /// Moves a holder to `step` of its critical section.
    pub(super) fn set_step(&mut self, to: Phase) {
        if let State::Holding { step, .. } = self {
            *step = to;
        }
    }
}

/// Which request a reply or a deadline concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// The acquire or release in the worker's [`State`].
    Main,
    /// The renewal in flight.
    Renewal,
}

/// What a worker can be waiting for a reply to, each with its own deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wait {
    /// An acquire or release at the store.
    Op = 0,
    Renew = 1,
    /// A read or write at the resource.
    Resource = 2,
}

impl Wait {
    pub(super) const ALL: [Wait; 3] = [Wait::Op, Wait::Renew, Wait::Resource];

    pub(super) fn of(slot: Slot) -> Wait {
        match slot {
            Slot::Main => Wait::Op,
            Slot::Renewal => Wait::Renew,
        }
    }
}

/// Reply deadlines. Requests come far more often than timeouts: one timer per [`Wait`],
/// re-armed when it finds a later deadline, keeps the queue small where a timer per request
/// would fill it with dead ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Deadlines {
    /// Per [`Wait`]: the pending deadline (true ms) and the request it is for.
    pub due: [Option<(u64, u32)>; 3],
    /// Per [`Wait`]: the true time of the one timer in the queue for it, if any.
    pub armed: [Option<u64>; 3],
}

/// One worker: its lifecycle [`State`] and what lasts across it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worker {
    /// This worker's node id (the `worker` of its tokens).
    pub(super) id: NodeId,
    pub(super) key: KeyId,
    pub(super) retry_ms: i64,
    /// Acquisitions left (`None`: until the horizon).
    pub(super) left: Option<u32>,
    pub(super) seq: u32,
    /// A `stall` fault stopped its work (its process runs but makes no progress).
    pub(super) stalled: bool,
    pub(super) state: State,
    /// The renewal in flight. It may outlive the hold it renews: its answer can still come
    /// after the worker let go, and a new hold does not renew while it is out.
    pub(super) renewal: Option<Op>,
    /// Store node believed to be the primary / leader.
    pub(super) leader: StoreIx,
    pub(super) next_req: u32,
    /// Bumped whenever the work clock stops, so work timers set before are ignored.
    pub(super) generation: u32,
    pub(super) resource_req: u32,
    pub(super) deadlines: Deadlines,
    /// `ping_timeout_ms`: the holder whose process it pinged and has not heard from yet.
    pub(super) pinging: Option<Token>,
    /// Redlock: the store nodes it knows, from its `stores` (empty: every node).
    pub(super) view: Vec<StoreIx>,
    /// `multi_primary`: the member it is connected to, from its `store_node`, which it never
    /// leaves (`None`: it looks for the node that decides, moving on when one fails it).
    pub(super) pinned: Option<StoreIx>,
}

impl Worker {
    /// Worker `id` of `sc`, wanting `key`, idle until its start timer.
    pub fn new(id: NodeId, key: KeyId, sc: &Scenario) -> Self {
        let spec = &sc.workers[id.index()];
        let default_retry_ms = sc.lock.retry_ms;
        let store_ix = |name: &str| parse_store_name(name).map(|n| StoreIx::FIRST.plus(n - 1));
        // A client of a multi-primary cluster is connected to one member, `store1` unless
        // its file names another.
        let pinned = sc.store.topology.pins_clients().then(|| {
            spec.store_node
                .as_deref()
                .and_then(store_ix)
                .unwrap_or(StoreIx::FIRST)
        });
        Worker {
            id,
            key,
            retry_ms: spec.retry_ms.unwrap_or(default_retry_ms) as i64,
            left: (spec.repeat > 0).then_some(spec.repeat),
            seq: 0,
            stalled: false,
            state: State::Idle,
            renewal: None,
            leader: pinned.unwrap_or(StoreIx::FIRST),
            next_req: 0,
            generation: 0,
            resource_req: 0,
            deadlines: Deadlines::default(),
            pinging: None,
            view: spec
                .stores
                .iter()
                .flatten()
                .filter_map(|name| store_ix(name))
                .collect(),
            pinned,
        }
    }

    /// Whether a `stall` fault holds it now.
    pub fn stalled(&self) -> bool {
        self.stalled
    }

    pub(super) fn pending(&self, slot: Slot) -> Option<Op> {
        match slot {
            Slot::Main => self.state.op(),
            Slot::Renewal => self.renewal,
        }
    }

    pub(super) fn pending_mut(&mut self, slot: Slot) -> Option<&mut Op> {
        match slot {
            Slot::Main => self.state.op_mut(),
            Slot::Renewal => self.renewal.as_mut(),
        }
    }

    /// Takes the request in flight out of `slot`. A release leaves [`State::Releasing`] for
    /// `Idle`, which the caller then settles ([`Worker::after_release`]).
    pub(super) fn take_pending(&mut self, slot: Slot) -> Option<Op> {
        match slot {
            Slot::Renewal => self.renewal.take(),
            Slot::Main => match self.state {
                State::Releasing { op } => {
                    self.state = State::Idle;
                    Some(op)
                }
                _ => self.state.attempt_mut().and_then(|a| a.op.take()),
            },
        }
    }

    /// Puts `op` in `slot`; the main slot needs an attempt or a release to hold it.
    pub(super) fn put_pending(&mut self, slot: Slot, op: Op) {
        match slot {
            Slot::Renewal => self.renewal = Some(op),
            Slot::Main => match &mut self.state {
                State::Releasing { op: o } => *o = op,
                state => {
                    if let Some(a) = state.attempt_mut() {
                        a.op = Some(op);
                    }
                }
            },
        }
    }
}
