//! One linear pass over the trace that gathers everything the checks need: per-token facts,
//! node-level lease intervals, accepted writes, foreign releases, waits, each node's fault
//! state and time off, and what the store nodes hold at the horizon.
//!
//! "The horizon" is [`Trace::simulated_until_ms`]: where the run ended, or where the engine's
//! event budget cut it.
//!
//! Tokens get dense numbers (in order of first appearance) so per-token facts live in a `Vec`
//! rather than a map: the checker runs once per seed in the many-seeds benchmark.

use std::collections::BTreeMap;

use crate::order;
use crate::scenario::{DeletedBy, Head, Topology};
use crate::trace::{EventKind, KeyId, Label, LetGoReason, MsgId, NodeId, Role, Token, Trace};

/// "No entry" in the dense lookup tables.
const NONE: u32 = u32::MAX;

/// When something happened: true time in ms, and the event's index to break ties in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Stamp {
    pub at_ms: u64,
    pub event: usize,
}

impl Stamp {
    /// Sorts after every real stamp (a token with nothing to order it by).
    pub const NEVER: Stamp = Stamp {
        at_ms: u64::MAX,
        event: usize::MAX,
    };
}

/// What the trace says about one token (one acquisition attempt).
#[derive(Clone, Debug)]
pub(super) struct TokenFacts {
    pub token: Token,
    /// The key of the first event that named the token (every attempt is for one key).
    pub key: KeyId,
    /// Its fencing token, from the grant, the worker or the resource, when the design has one.
    pub fence: Option<u64>,
    /// First `Granted` at a store node.
    pub granted: Option<Stamp>,
    /// First `Acquired` at the worker.
    pub acquired: Option<Stamp>,
    /// First `LetGo`, true ms, and why.
    pub let_go_ms: Option<u64>,
    pub let_go_reason: Option<LetGoReason>,
    /// First release request its worker sent for it, true ms (for a token never acquired:
    /// a grant handed back after the worker gave up that attempt).
    pub release_sent_ms: Option<u64>,
    /// First `Read` at the resource, true ms.
    pub read_ms: Option<u64>,
    /// First and last accepted write.
    pub first_write: Option<Stamp>,
    pub last_write_ms: Option<u64>,
    /// When its worker, still believing it held this token, started acquiring the same key
    /// with another token that has not come through (a non-reentrant nested acquire), ms.
    pub self_wait_ms: Option<u64>,
    /// A store's hold of it ends by itself: it was granted with a lease, or given a TTL
    /// afterwards (EXPIRE after SETNX).
    pub expires: bool,
    /// The last time a store extended its lease (a renewal), true ms.
    pub renewed_ms: Option<u64>,
    /// Where the worker's own count of its lease ends, true ms: the latest `Acquired` or
    /// `Renewed` plus the lease it then believed it had (Redlock: the validity left).
    pub valid_until_ms: Option<u64>,
}

/// A node-level validity interval `[start_ms, end_ms)` in true ms: what one store node promised
/// one token. Store-side expiry, forgetting and crashes do not end it: the promise stands in
/// true time whatever the node later believes (Kleppmann 2016: leases assume clocks behave).
#[derive(Clone, Copy, Debug)]
pub(super) struct Lease {
    pub token: u32,
    pub key: KeyId,
    pub node: NodeId,
    pub start_ms: u64,
    /// Exclusive. A lease with no expiry ends at the horizon.
    pub end_ms: u64,
    /// The `Granted` or `LeaseExtended` event that opened it.
    pub event: usize,
}

impl TokenFacts {
    /// The worker counted its lease to `end_ms` (true ms); a later count moves the end.
    fn counts_until(&mut self, end_ms: u64) {
        self.valid_until_ms = Some(end_ms);
    }
}

impl Lease {
    /// Whether the promise covers true instant `x`.
    pub fn covers(&self, x: u64) -> bool {
        self.start_ms <= x && x < self.end_ms
    }
}

/// A `WriteAccepted` at the resource.
#[derive(Clone, Copy, Debug)]
pub(super) struct Write {
    pub at_ms: u64,
    pub token: u32,
    pub key: KeyId,
    pub node: NodeId,
}

/// A `Removed` whose holder is not the releaser.
#[derive(Clone, Copy, Debug)]
pub(super) struct Removal {
    pub at_ms: u64,
    pub node: NodeId,
    pub holder: u32,
    /// The releasing grant, or who deleted the key from outside the protocol
    /// (`force_release`).
    pub by: Remover,
}

/// Who removed a lock that was not theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Remover {
    /// Another grant's release (its index among the run's tokens).
    Grant(u32),
    /// An operator, an eviction or a flush (`force_release`).
    Fault(DeletedBy),
}

/// One wait of a worker for a lock: from the first `AcquireStarted` after its previous
/// `Acquired` (or the run start) to its next `Acquired` or the horizon.
#[derive(Clone, Copy, Debug)]
pub(super) struct Wait {
    pub worker: NodeId,
    pub key: KeyId,
    /// The attempt that started the wait.
    pub token: u32,
    pub start_ms: u64,
    pub end_ms: u64,
    /// A token of the same key the worker believed it held when the wait began: a nested
    /// acquire, waiting on itself unless the lock is reentrant.
    pub held: Option<u32>,
    /// Whether it ended in `Acquired` (otherwise the horizon cut it).
    pub acquired: bool,
}

/// Fault state and beliefs of one node while the pass runs; at the end, its state at the horizon.
#[derive(Clone, Debug, Default)]
pub(super) struct NodeFacts {
    /// Crashed (no later `Restarted`) since, ms.
    pub crashed_since: Option<u64>,
    /// Paused (no later `Resumed`) since, ms.
    pub paused_since: Option<u64>,
    /// Stalled (no later `Unstalled`) since, ms.
    pub stalled_since: Option<u64>,
    /// Time the node could not act on its own: paused, crashed or stalled, as disjoint
    /// `[start_ms, end_ms)` stretches in time order, the last one closed at the horizon.
    pub off: Vec<(u64, u64)>,
    /// The wait in progress: start ms, its first token, key, the token it held meanwhile.
    waiting: Option<(u64, u32, KeyId, Option<u32>)>,
    /// Tokens this worker currently believes it holds (acquired, not let go).
    holding: Vec<u32>,
}

/// Everything the checks read, gathered in one pass.
#[derive(Debug)]
pub(super) struct Facts {
    /// Indexed by dense token number.
    pub tokens: Vec<TokenFacts>,
    /// Non-empty node-level lease intervals, in the order they were opened.
    pub leases: Vec<Lease>,
    /// Accepted writes in trace order.
    pub writes: Vec<Write>,
    /// Releases that removed another grant's lock, in trace order.
    pub removals: Vec<Removal>,
    /// Every wait, finished ones in order of their end, then those cut by the horizon.
    pub waits: Vec<Wait>,
    /// Indexed by `NodeId`; state at the horizon.
    pub nodes: Vec<NodeFacts>,
    /// What the store nodes hold at the horizon.
    pub store_end: StoreEnd,
}

/// The store side's own state at the horizon, from its events alone (what `stuck` is judged on):
/// each node's lock table as its grants, extensions and replicated copies set it and its
/// expiries, removals, forgetting and resyncs cleared it.
#[derive(Debug, Default)]
pub(super) struct StoreEnd {
    /// Per store node that holds a key at the horizon: `(node, key, dense token)`, by node.
    /// `timestamp`: every claim still recorded, which blocks whoever stamps later for good.
    pub holds: Vec<(NodeId, KeyId, u32)>,
    /// `replicated`: store nodes that are primary at the horizon, the most recently promoted
    /// first (store1 is primary from the start).
    pub primaries: Vec<NodeId>,
    /// `consensus`: per key, the committed holder as the leaders recorded it, with the leader
    /// that recorded its last grant or extension, unless a majority of nodes forgot it since.
    pub committed: Vec<Option<(u32, NodeId)>>,
    /// Release requests sent but neither delivered nor dropped: `(dense token, store node)`.
    pub releases_in_flight: Vec<(u32, NodeId)>,
}

/// `consensus`: a key's committed holder while the pass runs.
#[derive(Clone, Debug)]
struct Committed {
    token: u32,
    /// The leader whose grant or extension recorded it last.
    node: NodeId,
    /// Store nodes that restarted without persistence since.
    forgot: Vec<NodeId>,
}

impl Facts {
    /// Reads `trace` once. Events naming unknown nodes are tolerated (they just carry less).
    pub fn gather(trace: &Trace) -> Facts {
        let mut g = Gatherer::new(trace, trace.events.len());
        for (i, e) in trace.events.iter().enumerate() {
            g.event(i, e.at_ms, e.node, &e.kind);
        }
        g.finish()
    }
}

/// Dense numbering of tokens: `[worker][seq]` for the usual small numbers, a map for the rest.
struct TokenIndex {
    dense: Vec<Vec<u32>>,
    /// Tokens with an unknown worker or an implausibly large seq (hand-made traces only).
    sparse: BTreeMap<Token, u32>,
    /// Largest seq kept dense: a trace of n events has at most n attempts, so real seqs fit
    /// and a bogus seq cannot make the table huge.
    limit: usize,
}

impl TokenIndex {
    fn get(&self, t: Token) -> Option<u32> {
        match self.dense.get(t.worker.index()) {
            Some(row) if (t.seq as usize) <= self.limit => {
                row.get(t.seq as usize).copied().filter(|&n| n != NONE)
            }
            _ => self.sparse.get(&t).copied(),
        }
    }

    fn insert(&mut self, t: Token, n: u32) {
        match self.dense.get_mut(t.worker.index()) {
            Some(row) if (t.seq as usize) <= self.limit => {
                let s = t.seq as usize;
                if row.len() <= s {
                    row.resize(s + 1, NONE);
                }
                row[s] = n;
            }
            _ => {
                self.sparse.insert(t, n);
            }
        }
    }
}

/// The pass itself, an event at a time: [`Facts::gather`] feeds it a whole trace, and
/// [`super::Stream`] the events of a run as the engine records them.
pub(super) struct Gatherer {
    until_ms: u64,
    /// Redlock's nodes and a multi-primary cluster's members keep their own locks; every other
    /// topology is one logical store, where a release on any node (the current primary or
    /// leader) ends the grant everywhere.
    independent_nodes: bool,
    /// Per token: a release removed it from the (one logical) store. Its grant is over for
    /// good; a late echo of it — a deposed leader applying an old entry, a new leader that has
    /// not yet caught up — promises nothing.
    released: Vec<bool>,
    index: TokenIndex,
    /// Per node: its position among the store nodes, or `NONE`.
    store_slot: Vec<u32>,
    stores: usize,
    /// `[token * stores + slot]`: index into `facts.leases` of that token's latest interval on
    /// that node, or `NONE`. Per (token, node) intervals never overlap, so a count of valid
    /// intervals is a count of distinct nodes (what Redlock's majority needs).
    latest: Vec<u32>,
    topology: Topology,
    keys: usize,
    /// `[slot * keys + key]`: the dense token that store node holds the key for now, or `NONE`.
    table: Vec<u32>,
    /// `replicated`: per slot, the index of the event that made it primary, while it is one
    /// (store1 starts as primary: 0).
    primary_since: Vec<Option<usize>>,
    /// `consensus`: per key.
    committed: Vec<Option<Committed>>,
    /// `timestamp`: the claims each store node records now: `(slot, key, dense token)`.
    claims: Vec<(usize, KeyId, u32)>,
    /// Release requests neither delivered nor dropped yet, by message id.
    releases: BTreeMap<MsgId, (u32, NodeId)>,
    /// Per node: whether it is a worker (only workers send releases).
    is_worker: Vec<bool>,
    facts: Facts,
}

impl Gatherer {
    /// A pass over the events of `trace`'s run, told the horizon, nodes and keys by `trace`
    /// (its events are not read). Token seqs up to `seq_limit` get dense numbers.
    pub(super) fn new(trace: &Trace, seq_limit: usize) -> Gatherer {
        let mut stores = 0usize;
        let store_slot = trace
            .nodes
            .iter()
            .map(|n| {
                if n.role == Role::Store {
                    stores += 1;
                    (stores - 1) as u32
                } else {
                    NONE
                }
            })
            .collect();
        let keys = trace.keys.len();
        Gatherer {
            until_ms: trace.simulated_until_ms(),
            independent_nodes: trace.topology.independent_nodes(),
            released: Vec::new(),
            index: TokenIndex {
                dense: vec![Vec::new(); trace.nodes.len()],
                sparse: BTreeMap::new(),
                limit: seq_limit,
            },
            store_slot,
            stores,
            latest: Vec::new(),
            topology: trace.topology,
            keys,
            table: vec![NONE; stores.saturating_mul(keys)],
            primary_since: (0..stores).map(|s| (s == 0).then_some(0)).collect(),
            committed: vec![None; keys],
            claims: Vec::new(),
            releases: BTreeMap::new(),
            is_worker: trace.nodes.iter().map(|n| n.role == Role::Worker).collect(),
            facts: Facts {
                tokens: Vec::new(),
                leases: Vec::new(),
                writes: Vec::new(),
                removals: Vec::new(),
                waits: Vec::new(),
                nodes: vec![NodeFacts::default(); trace.nodes.len()],
                store_end: StoreEnd::default(),
            },
        }
    }

    /// The dense number of `t`, creating its facts on first sight.
    /// Whether `worker` has crashed and not restarted: its grants died with its process, so
    /// whoever deletes its lock frees nothing a live holder counts on (what a lease's expiry
    /// does for a dead holder), and that is no `foreign_release`.
    fn is_down(&self, worker: NodeId) -> bool {
        self.facts
            .nodes
            .get(worker.index())
            .is_some_and(|n| n.crashed_since.is_some())
    }

    fn token(&mut self, t: Token, key: KeyId) -> u32 {
        if let Some(n) = self.index.get(t) {
            return n;
        }
        let n = self.facts.tokens.len() as u32;
        self.index.insert(t, n);
        self.facts.tokens.push(TokenFacts {
            token: t,
            key,
            fence: None,
            granted: None,
            acquired: None,
            let_go_ms: None,
            let_go_reason: None,
            release_sent_ms: None,
            read_ms: None,
            first_write: None,
            last_write_ms: None,
            self_wait_ms: None,
            expires: false,
            renewed_ms: None,
            valid_until_ms: None,
        });
        self.latest
            .resize(self.latest.len().saturating_add(self.stores), NONE);
        self.released.push(false);
        n
    }

    fn slot(&self, node: NodeId) -> Option<usize> {
        match self.store_slot.get(node.index()) {
            Some(&s) if s != NONE => Some(s as usize),
            _ => None,
        }
    }

    /// Index into `facts.leases` of `token`'s interval on store `slot` that is still valid at
    /// `at_ms`, if any.
    fn valid_lease(&self, token: u32, slot: usize, at_ms: u64) -> Option<usize> {
        let cell = (token as usize)
            .saturating_mul(self.stores)
            .saturating_add(slot);
        match self.latest.get(cell) {
            Some(&id) if id != NONE => {
                let id = id as usize;
                self.facts
                    .leases
                    .get(id)
                    .filter(|l| l.end_ms > at_ms)
                    .map(|_| id)
            }
            _ => None,
        }
    }

    /// A store node promises `token` the key until `end_ms`. While an earlier promise on the
    /// same node is still valid this moves its end (an extension, or a repeated grant); once
    /// it has run out, the node makes a fresh promise from now, so the gap stays uncovered.
    fn promise(&mut self, token: u32, slot: usize, node: NodeId, key: KeyId, at: Stamp, end: u64) {
        if self.released.get(token as usize).copied().unwrap_or(false) {
            return;
        }
        if let Some(id) = self.valid_lease(token, slot, at.at_ms) {
            self.facts.leases[id].end_ms = end;
            return;
        }
        let cell = (token as usize)
            .saturating_mul(self.stores)
            .saturating_add(slot);
        if let Some(c) = self.latest.get_mut(cell) {
            *c = self.facts.leases.len() as u32;
        }
        self.facts.leases.push(Lease {
            token,
            key,
            node,
            start_ms: at.at_ms,
            end_ms: end,
            event: at.event,
        });
    }

    /// Store node `slot` now holds `key` for dense token `t` (`NONE`: for nobody).
    fn set_table(&mut self, slot: usize, key: KeyId, t: u32) {
        if (key.index()) < self.keys
            && let Some(c) = self.table.get_mut(slot * self.keys + key.index())
        {
            *c = t;
        }
    }

    /// Store node `slot` lost its whole table (a restart without persistence, or a demoted
    /// primary that drops its data to resync).
    fn clear_table(&mut self, slot: usize) {
        let row = slot * self.keys;
        if let Some(cells) = self.table.get_mut(row..row + self.keys) {
            cells.fill(NONE);
        }
    }

    /// Whether grants are entries of a replicated log, tracked as the committed state rather
    /// than per node ([`Head::grants_are_log_entries`]).
    fn in_log(&self) -> bool {
        self.topology
            .head()
            .is_some_and(Head::grants_are_log_entries)
    }

    /// A grant or extension on store node `node`: what its table, or for `consensus` the
    /// committed state, now holds.
    fn store_holds(&mut self, slot: usize, node: NodeId, key: KeyId, t: u32) {
        if self.in_log() {
            if let Some(c) = self.committed.get_mut(key.index()) {
                *c = Some(Committed {
                    token: t,
                    node,
                    forgot: Vec::new(),
                });
            }
        } else {
            self.set_table(slot, key, t);
        }
    }

    /// The key is gone from store node `slot` (expired or removed), or for `consensus` from
    /// the committed state.
    fn store_drops(&mut self, slot: usize, key: KeyId) {
        if self.in_log() {
            if let Some(c) = self.committed.get_mut(key.index()) {
                *c = None;
            }
        } else {
            self.set_table(slot, key, NONE);
        }
    }

    /// The token a worker's message releases, as a dense number: a release request the worker
    /// sent for one of its own attempts.
    fn release_token(&self, worker: NodeId, what: &Label) -> Option<u32> {
        match *what {
            Label::Release { token }
                if token.worker == worker && self.is_worker.get(worker.index()) == Some(&true) =>
            {
                self.index.get(token)
            }
            _ => None,
        }
    }

    fn node(&mut self, node: NodeId) -> Option<&mut NodeFacts> {
        self.facts.nodes.get_mut(node.index())
    }

    /// Reads event number `i` (0-based) of the run: `kind` at `node`, true time `at_ms`.
    pub(super) fn event(&mut self, i: usize, at_ms: u64, node: NodeId, kind: &EventKind) {
        let at = Stamp { at_ms, event: i };
        let now = at_ms;
        match kind {
            // A takeover renews the old leader's promise: the checker reads it as a grant.
            EventKind::Granted {
                key,
                token,
                fence,
                lease_ms,
                ..
            } => {
                let Some(slot) = self.slot(node) else {
                    return;
                };
                let t = self.token(*token, *key);
                let f = &mut self.facts.tokens[t as usize];
                f.fence = f.fence.or(*fence);
                f.granted.get_or_insert(at);
                f.expires |= lease_ms.is_some();
                let end = lease_ms.map_or(self.until_ms, |l| now.saturating_add(l));
                self.promise(t, slot, node, *key, at, end);
                self.store_holds(slot, node, *key, t);
            }
            // An extension, or EXPIRE after SETNX (the key's promise, unbounded until then):
            // either way the promise now ends a lease from here.
            EventKind::LeaseExtended {
                key,
                token,
                lease_ms,
            }
            | EventKind::TtlSet {
                key,
                token,
                lease_ms,
            } => {
                let Some(slot) = self.slot(node) else {
                    return;
                };
                let t = self.token(*token, *key);
                let f = &mut self.facts.tokens[t as usize];
                f.expires = true;
                if matches!(kind, EventKind::LeaseExtended { .. }) {
                    f.renewed_ms = Some(now);
                }
                self.promise(t, slot, node, *key, at, now.saturating_add(*lease_ms));
                self.store_holds(slot, node, *key, t);
            }
            EventKind::Removed { key, holder, by } => {
                let Some(slot) = self.slot(node) else {
                    return;
                };
                let h = self.token(*holder, *key);
                if !self.independent_nodes
                    && let Some(r) = self.released.get_mut(h as usize)
                {
                    *r = true;
                }
                let slots = if self.independent_nodes {
                    slot..slot + 1
                } else {
                    0..self.stores
                };
                for s in slots {
                    if let Some(id) = self.valid_lease(h, s, now) {
                        self.facts.leases[id].end_ms = now;
                    }
                }
                self.store_drops(slot, *key);
                if holder != by && !self.is_down(holder.worker) {
                    let b = self.token(*by, *key);
                    self.facts.removals.push(Removal {
                        at_ms: now,
                        node,
                        holder: h,
                        by: Remover::Grant(b),
                    });
                }
            }
            EventKind::ForceReleased { key, holder, by } => {
                let Some(slot) = self.slot(node) else {
                    return;
                };
                self.store_drops(slot, *key);
                if let Some(holder) = holder {
                    // A delete from outside ends the promise: what follows is not a double
                    // grant, but the delete itself is a release by someone who did not own it.
                    let h = self.token(*holder, *key);
                    if let Some(id) = self.valid_lease(h, slot, now) {
                        self.facts.leases[id].end_ms = now;
                    }
                    if self.is_down(holder.worker) {
                        return;
                    }
                    self.facts.removals.push(Removal {
                        at_ms: now,
                        node,
                        holder: h,
                        by: Remover::Fault(*by),
                    });
                }
            }
            // `session`: the server's own rule ends the promise, as an expiry ends a lease;
            // no one else's hand was in it, so it is no foreign release. A holder that works
            // on is caught by what it believes and writes.
            EventKind::SessionEnded { key, holder, .. } => {
                let Some(slot) = self.slot(node) else {
                    return;
                };
                self.store_drops(slot, *key);
                let h = self.token(*holder, *key);
                if let Some(id) = self.valid_lease(h, slot, now) {
                    self.facts.leases[id].end_ms = now;
                }
            }
            EventKind::Claimed { key, token, .. } => {
                if let Some(slot) = self.slot(node) {
                    let t = self.token(*token, *key);
                    if !self.claims.contains(&(slot, *key, t)) {
                        self.claims.push((slot, *key, t));
                    }
                }
            }
            EventKind::Unclaimed { key, token } => {
                if let Some(slot) = self.slot(node) {
                    let t = self.token(*token, *key);
                    self.claims.retain(|&c| c != (slot, *key, t));
                }
            }
            EventKind::Reloaded { key, holder } => {
                if let Some(slot) = self.slot(node) {
                    let t = holder.map_or(NONE, |h| self.token(h, *key));
                    self.set_table(slot, *key, t);
                }
            }
            EventKind::AcquireStarted { key, token } => {
                let t = self.token(*token, *key);
                let Some(n) = self.facts.nodes.get_mut(node.index()) else {
                    return;
                };
                let mut own = None;
                for &h in &n.holding {
                    let held = &mut self.facts.tokens[h as usize];
                    if h != t && held.key == *key {
                        held.self_wait_ms.get_or_insert(now);
                        own.get_or_insert(h);
                    }
                }
                n.waiting.get_or_insert((now, t, *key, own));
            }
            EventKind::Acquired {
                key,
                token,
                fence,
                lease_ms,
            } => {
                let t = self.token(*token, *key);
                let f = &mut self.facts.tokens[t as usize];
                f.fence = f.fence.or(*fence);
                f.acquired.get_or_insert(at);
                if let Some(l) = lease_ms {
                    f.counts_until(now.saturating_add(*l));
                }
                let Some(n) = self.facts.nodes.get_mut(node.index()) else {
                    return;
                };
                if let Some((start_ms, first, wkey, held)) = n.waiting.take() {
                    self.facts.waits.push(Wait {
                        worker: node,
                        key: wkey,
                        token: first,
                        start_ms,
                        end_ms: now,
                        held,
                        acquired: true,
                    });
                }
                // A nested acquire that came through is no longer waiting on itself.
                for &h in &n.holding {
                    let held = &mut self.facts.tokens[h as usize];
                    if held.key == *key {
                        held.self_wait_ms = None;
                    }
                }
                if !n.holding.contains(&t) {
                    n.holding.push(t);
                }
            }
            EventKind::Renewed {
                key,
                token,
                lease_ms,
            } => {
                let t = self.token(*token, *key);
                self.facts.tokens[t as usize].counts_until(now.saturating_add(*lease_ms));
            }
            EventKind::LetGo { key, token, reason } => {
                let t = self.token(*token, *key);
                let f = &mut self.facts.tokens[t as usize];
                if f.let_go_ms.is_none() {
                    f.let_go_ms = Some(now);
                    f.let_go_reason = Some(*reason);
                }
                if let Some(n) = self.node(node) {
                    n.holding.retain(|&h| h != t);
                }
            }
            EventKind::Reentered { key, token, .. } => {
                // The nested acquire was granted by the hold count: no wait on itself.
                let t = self.token(*token, *key);
                self.facts.tokens[t as usize].self_wait_ms = None;
            }
            EventKind::Read { key, token, .. } => {
                let t = self.token(*token, *key);
                self.facts.tokens[t as usize].read_ms.get_or_insert(now);
            }
            EventKind::WriteAccepted {
                key, token, fence, ..
            } => {
                let t = self.token(*token, *key);
                let f = &mut self.facts.tokens[t as usize];
                f.fence = f.fence.or(*fence);
                f.first_write.get_or_insert(at);
                f.last_write_ms = Some(now);
                self.facts.writes.push(Write {
                    at_ms: now,
                    token: t,
                    key: *key,
                    node,
                });
            }
            EventKind::Paused { .. } => {
                if let Some(n) = self.node(node) {
                    n.paused_since.get_or_insert(now);
                }
            }
            EventKind::Resumed => {
                if let Some(n) = self.node(node)
                    && let Some(since) = n.paused_since.take()
                {
                    n.off.push((since, now));
                }
            }
            EventKind::Stalled { .. } => {
                if let Some(n) = self.node(node) {
                    n.stalled_since.get_or_insert(now);
                }
            }
            EventKind::Unstalled => {
                if let Some(n) = self.node(node)
                    && let Some(since) = n.stalled_since.take()
                {
                    n.off.push((since, now));
                }
            }
            EventKind::Crashed => {
                if let Some(n) = self.node(node) {
                    n.crashed_since.get_or_insert(now);
                }
            }
            EventKind::Restarted => {
                if let Some(n) = self.node(node)
                    && let Some(since) = n.crashed_since.take()
                {
                    n.off.push((since, now));
                }
            }
            EventKind::Expired { key, .. }
            | EventKind::ExpiredByClient { key, .. }
            | EventKind::ExpiredUnchanged { key, .. } => {
                if let Some(slot) = self.slot(node) {
                    self.store_drops(slot, *key);
                }
            }
            EventKind::Replicated { key, holder } => {
                if let Some(slot) = self.slot(node) {
                    let t = holder.map_or(NONE, |h| self.token(h, *key));
                    self.set_table(slot, *key, t);
                }
            }
            EventKind::Forgot => {
                let Some(slot) = self.slot(node) else {
                    return;
                };
                self.clear_table(slot);
                self.claims.retain(|&(s, ..)| s != slot);
                // A consensus store loses a committed entry only when a majority lost it.
                let majority = crate::scenario::majority(self.stores);
                for c in &mut self.committed {
                    if let Some(k) = c {
                        if !k.forgot.contains(&node) {
                            k.forgot.push(node);
                        }
                        if k.forgot.len() >= majority {
                            *c = None;
                        }
                    }
                }
            }
            EventKind::BecameLeader { .. } => {
                if let Some(slot) = self.slot(node)
                    && let Some(p) = self.primary_since.get_mut(slot)
                {
                    *p = Some(i);
                }
            }
            EventKind::SteppedDown { .. } => {
                let Some(slot) = self.slot(node) else {
                    return;
                };
                if let Some(p) = self.primary_since.get_mut(slot) {
                    *p = None;
                }
                if self.topology.head().is_some_and(Head::demoted_drops_data) {
                    self.clear_table(slot);
                }
            }
            EventKind::Send { msg, to, what } => {
                if self.slot(*to).is_some()
                    && let Some(t) = self.release_token(node, what)
                {
                    self.releases.insert(*msg, (t, *to));
                    self.facts.tokens[t as usize]
                        .release_sent_ms
                        .get_or_insert(now);
                }
            }
            EventKind::Deliver { msg, .. } | EventKind::Drop { msg, .. }
                if !self.releases.is_empty() =>
            {
                self.releases.remove(msg);
            }
            _ => {}
        }
    }

    /// The facts, once every event has been read.
    pub(super) fn finish(mut self) -> Facts {
        let until = self.until_ms;
        for (id, n) in self.facts.nodes.iter_mut().enumerate() {
            if let Some((start_ms, token, key, held)) = n.waiting.take() {
                self.facts.waits.push(Wait {
                    worker: NodeId::from_index(id),
                    key,
                    token,
                    start_ms,
                    end_ms: until.max(start_ms),
                    held,
                    acquired: false,
                });
            }
            let open = [n.paused_since, n.crashed_since, n.stalled_since];
            n.off
                .extend(open.into_iter().flatten().map(|s| (s, until.max(s))));
            n.off = merged(std::mem::take(&mut n.off));
        }
        // Store slots are numbered in node order.
        let node_of: Vec<NodeId> = NodeId::all(self.store_slot.len())
            .filter(|&n| self.slot(n).is_some())
            .collect();
        let end = &mut self.facts.store_end;
        for (cell, &t) in self.table.iter().enumerate() {
            let slot = cell.checked_div(self.keys).and_then(|s| node_of.get(s));
            if let (Some(&node), true) = (slot, t != NONE) {
                end.holds
                    .push((node, KeyId::from_index(cell % self.keys), t));
            }
        }
        for &(slot, key, t) in &self.claims {
            if let Some(&node) = node_of.get(slot) {
                end.holds.push((node, key, t));
            }
        }
        order::sort_by_key(&mut end.holds, |&(node, ..)| node);
        let mut primaries: Vec<(usize, NodeId)> = self
            .primary_since
            .iter()
            .zip(&node_of)
            .filter_map(|(since, &node)| Some(((*since)?, node)))
            .collect();
        // Most recently promoted first.
        order::sort_by(&mut primaries, |a, b| b.cmp(a));
        end.primaries = primaries.into_iter().map(|(_, n)| n).collect();
        end.committed = self
            .committed
            .into_iter()
            .map(|c| c.map(|c| (c.token, c.node)))
            .collect();
        end.releases_in_flight = self.releases.into_values().collect();
        // An empty promise (zero lease, or removed the instant it was made) covers no instant.
        self.facts.leases.retain(|l| l.start_ms < l.end_ms);
        self.facts
    }
}

/// `[start, end)` stretches sorted and merged where they overlap or touch.
pub(super) fn merged(mut spans: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    order::sort(&mut spans);
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(spans.len());
    for (s, e) in spans {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}
