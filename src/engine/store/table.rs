//! A lock table: what one store node (or the consensus state machine) holds, per key.
//!
//! The commands a single node decides alone — acquire, release, renew and lazy expiry — are
//! pure transitions here: each takes the node's lease-clock reading and returns what happened.
//! The engine records the trace events, arms the timers, replicates and replies from those
//! outcomes, and `tests/redis_conformance.rs` drives the same transitions beside a real Redis.

use std::collections::VecDeque;

use crate::engine::marks::mark;
use crate::scenario::{Acquire as AcquireSteps, Design, Expiry, Lock, Waiting};
use crate::trace::{NodeId, Refusal, Token};

/// One held lock.
#[derive(Clone, Debug)]
pub(crate) struct Held {
    /// Whose grant this is (for `flag`, the first setter).
    pub token: Token,
    pub fence: Option<u64>,
    /// Reentrant hold count.
    pub count: u32,
    /// When the lease ends on this node's lease clock, local ms (`None`: no expiry here).
    pub expires: Option<i64>,
    /// `expiry = "client"`: "held until" as written by the client, in its wall clock.
    pub client_until: Option<i64>,
    /// `expiry = "observed"`: each contender that has seen this version of the record (no
    /// renewal since), with its lease clock when it first saw it, ms.
    pub seen: Vec<(NodeId, i64)>,
    /// `flag`: every token that set `locked = true` while it was already true.
    pub also_set_by: Vec<Token>,
}

impl Held {
    /// A renewal or a reentrant acquire: the lease runs `ttl_ms` again from now, as whoever times
    /// it counts (the store's lease clock, the client's wall clock, or each contender's reading).
    fn restart_lease(&mut self, lock: &Lock, now_ms: i64, client_now_ms: i64) {
        let ttl = lock.ttl_ms as i64;
        match lock.expiry {
            Expiry::Store => self.expires = Some(now_ms + ttl),
            Expiry::Client => self.client_until = Some(client_now_ms + ttl),
            // The record changed: every contender's count starts again when it next reads it.
            Expiry::Observed => self.seen.clear(),
        }
    }

    /// `expiry = "observed"`: `asker` reads the record at `now_ms` on its own lease clock. The
    /// first read of this version starts its count; returns when it started once `ttl_ms` have
    /// passed since, as client-go's elector waits `LeaseDuration` from its `observedTime`.
    fn observe(&mut self, asker: NodeId, now_ms: i64, ttl_ms: u64) -> Option<i64> {
        let since = match self.seen.iter().find(|(w, _)| *w == asker) {
            Some(&(_, since)) => since,
            None => {
                self.seen.push((asker, now_ms));
                now_ms
            }
        };
        (now_ms - since >= ttl_ms as i64).then_some(since)
    }

    pub fn new(token: Token, fence: Option<u64>) -> Self {
        Held {
            token,
            fence,
            count: 1,
            expires: None,
            client_until: None,
            seen: Vec::new(),
            also_set_by: Vec::new(),
        }
    }
}

/// What [`LockTable::acquire`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acquire {
    /// The requester's token already holds the key. `reentered`: a reentrant acquire, so its
    /// hold count went up and a lease restarted; otherwise a retransmitted request that changed
    /// nothing.
    Own {
        /// The fencing token of the grant, if the design issues one.
        fence: Option<u64>,
        /// Whether this was a reentrant acquire that raised the hold count.
        reentered: bool,
    },
    /// A new grant. `expired`: the grant before it, whose lease the requester found over by its
    /// own clock, with the "held until" its holder wrote (`expiry = "client"`, the holder's wall
    /// clock) or the reading of the requester's clock when it first saw the record as it still
    /// stood (`expiry = "observed"`), ms.
    Granted {
        /// The new grant's fencing token, if the design issues one.
        fence: Option<u64>,
        /// The grant before it, found over by the requester's clock, and the "held until" its
        /// holder wrote (`client`) or when the requester first saw the record (`observed`).
        expired: Option<(Token, i64)>,
    },
    /// Refused, for `why`: another grant holds the key, lock-delay runs after an expiry, or
    /// (`fair`) the free key awaits the waiter whose turn it is. `queued`: the requester now
    /// waits in the key's fair queue. `expired` as for [`Acquire::Granted`].
    Refused {
        /// Why it was refused.
        why: Refusal,
        /// Whether the requester now waits in the key's fair queue.
        queued: bool,
        /// As for [`Acquire::Granted`].
        expired: Option<(Token, i64)>,
    },
}

/// What [`LockTable::release`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Release {
    /// Nothing: the key was free, or held under another token (compare-and-delete refused).
    Ignored,
    /// One level of a reentrant hold let go; the lock is still held.
    Decremented,
    /// The lock is gone. `holder` held it; with `flag`, so did every token in `also_set_by`.
    Removed {
        /// The grant that held it.
        holder: Token,
        /// `flag`: every other token that also set it.
        also_set_by: Vec<Token>,
    },
}

/// Locks by key index, with the fencing counter and the fair queue of each key.
///
/// Times are the node's lease clock in local ms (`now_ms`), or for `expiry = "client"` the
/// requesting client's wall clock (`client_now_ms`). With `design = "token"`, `expiry =
/// "store"`, `waiting = "retry"` and no lock-delay, the transitions follow Redis's commands as
/// the Redis docs give them: [`acquire`](Self::acquire) is `SET key token NX PX ttl`,
/// [`release`](Self::release) the release script of "Distributed Locks with Redis", and
/// [`renew`](Self::renew) the script that page describes for extending a lock (`PEXPIRE` if the
/// value is still the token); [`expire_if_due`](Self::expire_if_due) is Redis's passive expiry
/// of a key when it is accessed ("How Redis expires keys", `EXPIRE` docs).
#[derive(Clone, Debug)]
pub struct LockTable {
    pub(crate) held: Vec<Option<Held>>,
    /// Last fencing token issued per key.
    pub(crate) fence_counter: Vec<u64>,
    /// `fair` waiting: each waiter's token in arrival order, with when its place lapses on
    /// this node's lease clock (local ms; `i64::MAX` with no lease): see [`enqueue`](Self::enqueue).
    pub(crate) queue: Vec<VecDeque<(Token, i64)>>,
    /// Lock-delay: no new grant before this local time.
    pub(crate) delay_until: Vec<i64>,
    /// `fair`: the waiter told it is its turn, whose claim the free key awaits.
    pub(crate) turn: Vec<Option<Token>>,
    /// `fair`: how long the turn's session has kept it alive past the lease length it is
    /// given when told, on this node's lease clock (local ms; `i64::MIN`: not renewed since it
    /// was told): see [`heartbeat`](Self::heartbeat).
    pub(crate) turn_until: Vec<i64>,
    /// `consensus`: an expiry started lock-delay and no `GrantNext` has ended it yet. Part of
    /// the replicated state, so every node refuses the same acquires.
    pub(crate) delayed: Vec<bool>,
    /// `timestamp`: each key's claims, `(token, stamp)` with the claimant's wall-clock stamp,
    /// kept earliest first (ties: the lower token, i.e. the worker listed first).
    pub(crate) claims: Vec<Vec<(Token, i64)>>,
}

impl LockTable {
    /// A table of `keys` free keys.
    pub fn new(keys: usize) -> Self {
        LockTable {
            held: vec![None; keys],
            fence_counter: vec![0; keys],
            queue: vec![VecDeque::new(); keys],
            delay_until: vec![i64::MIN; keys],
            turn: vec![None; keys],
            turn_until: vec![i64::MIN; keys],
            delayed: vec![false; keys],
            claims: vec![Vec::new(); keys],
        }
    }

    /// How many keys the table has.
    pub fn keys(&self) -> usize {
        self.held.len()
    }

    /// `timestamp`: records `token`'s claim on `key` stamped `stamp_ms`, once per token (a
    /// repeated claim keeps its first stamp); returns whether it is new. The table stays in
    /// timestamp order, so a read returns it as the claimants compare it.
    pub fn claim(&mut self, key: usize, token: Token, stamp_ms: i64) -> bool {
        let claims = &mut self.claims[key];
        if claims.iter().any(|&(t, _)| t == token) {
            return false;
        }
        let at = claims.partition_point(|&(t, s)| (s, t) < (stamp_ms, token));
        claims.insert(at, (token, stamp_ms));
        true
    }

    /// `timestamp`: deletes `token`'s own claim on `key` (no one else's); returns whether
    /// there was one.
    pub fn unclaim(&mut self, key: usize, token: Token) -> bool {
        let before = self.claims[key].len();
        self.claims[key].retain(|&(t, _)| t != token);
        self.claims[key].len() < before
    }

    /// `timestamp`: the key's claims, earliest stamp first.
    pub fn claims(&self, key: usize) -> &[(Token, i64)] {
        &self.claims[key]
    }

    /// Puts `token` at the back of the key's queue until `until_ms` (this node's lease clock,
    /// as `now_ms`), or, if it already has a place that has not lapsed, keeps that place until
    /// then: each ask of a waiter renews its place as a session heartbeat does. A place whose
    /// time has passed is gone, as a ZooKeeper lock waiter's sequential ephemeral node is
    /// deleted when its session ends (ZooKeeper Programmer's Guide, "Ephemeral Nodes"; the
    /// recipe's waiters are such nodes) and an etcd `concurrency.Mutex` waiter's key goes with
    /// its session's lease: asking again then joins the back of the line.
    pub(crate) fn enqueue(&mut self, key: usize, token: Token, now_ms: i64, until_ms: i64) {
        let queue = &mut self.queue[key];
        match queue.iter().position(|(t, _)| *t == token) {
            Some(i) if queue[i].1 > now_ms => queue[i].1 = until_ms,
            Some(i) => {
                queue.remove(i);
                queue.push_back((token, until_ms));
            }
            None => queue.push_back((token, until_ms)),
        }
    }

    /// `fair`: an ask of `asker`'s, a heartbeat of its worker's session, reached this node at
    /// `now_ms` (its lease clock, local ms): everything the session owns on the key lives on
    /// until `until_ms`. In
    /// ZooKeeper every node a client creates lives as long as its session, and any request of
    /// the session keeps the session alive (ZooKeeper Programmer's Guide, "Ephemeral Nodes"
    /// and "ZooKeeper Sessions"); an etcd `concurrency.Session` puts every key it creates on
    /// one lease, which each keepalive renews. So one ask renews every place of the worker in
    /// the queue that has not lapsed, whichever attempt it was made for — one the client has
    /// forgotten too (ZOOKEEPER-1262's "ghost" node) —, and the turn and the grant if they
    /// are another attempt's of the worker's (`asker`'s own grant runs on its own renewals,
    /// its own turn ends as it claims it), the grant only while its lease (timed here,
    /// `expires`) still runs: that grant is returned, for the caller to record and re-arm. A
    /// place, turn or grant already over is not revived: it is gone, as a deleted node is.
    pub(crate) fn heartbeat(
        &mut self,
        key: usize,
        asker: Token,
        now_ms: i64,
        until_ms: i64,
    ) -> Option<Token> {
        let worker = asker.worker;
        let sibling = |t: Token| t.worker == worker && t != asker;
        for place in self.queue[key].iter_mut() {
            if place.0.worker == worker && place.1 > now_ms {
                place.1 = until_ms;
            }
        }
        if self.turn[key].is_some_and(sibling) {
            self.turn_until[key] = self.turn_until[key].max(until_ms);
        }
        let h = self.held[key]
            .as_mut()
            .filter(|h| sibling(h.token) && h.expires.is_some_and(|e| e > now_ms))?;
        h.expires = h.expires.max(Some(until_ms));
        Some(h.token)
    }

    /// `fair`: the key's turn is `token`'s from now. It lasts the lease length it is given
    /// when told unless its worker's session renews it ([`heartbeat`](Self::heartbeat)).
    pub(crate) fn give_turn(&mut self, key: usize, token: Token) {
        self.turn[key] = Some(token);
        self.turn_until[key] = i64::MIN;
    }

    /// `fair`: when the turn of `token`, whose lease length from its telling ran out at
    /// `now_ms`, lapses instead because its session renewed it (`None`: it is over now, or
    /// it is not the turn).
    pub(crate) fn turn_renewed_until(&self, key: usize, token: Token, now_ms: i64) -> Option<i64> {
        (self.turn[key] == Some(token) && self.turn_until[key] > now_ms)
            .then_some(self.turn_until[key])
    }

    /// Whether `token` holds a place in the key's queue that has not lapsed by `now_ms`.
    pub(crate) fn waits(&self, key: usize, token: Token, now_ms: i64) -> bool {
        self.queue[key]
            .iter()
            .any(|&(t, until)| t == token && until > now_ms)
    }

    /// Takes the head of the key's queue: its token and whether its place lapsed by `now_ms`.
    pub(crate) fn pop_next(&mut self, key: usize, now_ms: i64) -> Option<(Token, bool)> {
        self.queue[key]
            .pop_front()
            .map(|(token, until)| (token, until <= now_ms))
    }

    /// Takes the first waiter of the key's queue whose place has not lapsed by `now_ms`,
    /// dropping the lapsed ones before it: a waiter that died in line is gone, wherever it
    /// stood, and costs the others nothing.
    pub(crate) fn next_alive(&mut self, key: usize, now_ms: i64) -> Option<Token> {
        loop {
            match self.pop_next(key, now_ms)? {
                (_, true) => {}
                (token, false) => return Some(token),
            }
        }
    }

    /// Where a place taken or renewed at `now_ms` lapses: `ttl_ms` later, the store's own lease
    /// length (with `store.ttl_multiplier`); never with no lease length.
    pub(crate) fn place_until(ttl_ms: u64, now_ms: i64) -> i64 {
        match ttl_ms {
            0 => i64::MAX,
            ttl => now_ms.saturating_add(ttl as i64),
        }
    }

    /// The token holding `key`, if any, as the table stands (call
    /// [`expire_if_due`](Self::expire_if_due) first to read it as Redis's `GET` would).
    pub fn holder(&self, key: usize) -> Option<Token> {
        self.held[key].as_ref().map(|h| h.token)
    }

    /// Drops the key's lock if its lease ended at or before `now_ms`, and starts the lock-delay;
    /// returns the token whose lease ended. Redis expires a key passively like this whenever a
    /// command touches it (`EXPIRE` docs, "How Redis expires keys").
    pub fn expire_if_due(&mut self, lock: &Lock, key: usize, now_ms: i64) -> Option<Token> {
        let h = self.held[key].take_if(|h| h.expires.is_some_and(|e| e <= now_ms))?;
        mark!("lease_expired_on_store");
        self.delay_until[key] = now_ms + lock.lock_delay_ms as i64;
        Some(h.token)
    }

    /// The atomic acquire of every design from `setnx` up: grants a free key to `token`,
    /// refuses a held one. As `SET key token NX PX ttl` (Redis `SET` docs: `NX` sets only if the
    /// key does not exist, `PX` gives it a time to live in ms), plus what the other rungs add:
    /// a fencing counter, a reentrant hold count, a client-written expiry, a lock-delay and a
    /// fair queue. Does not expire a lapsed lease itself: call
    /// [`expire_if_due`](Self::expire_if_due) first, as Redis looks the key up first.
    pub fn acquire(
        &mut self,
        lock: &Lock,
        key: usize,
        token: Token,
        reenter: bool,
        now_ms: i64,
        client_now_ms: i64,
    ) -> Acquire {
        let mut expired = None;
        if let Some(h) = &mut self.held[key] {
            if h.token == token {
                // Our own lock: a reentrant call, or a retransmitted request.
                let reentered = reenter && lock.reentrant;
                if reentered {
                    // Uncounted (`hold_count = false`): let in again, but the first release
                    // frees the lock (MySQL `GET_LOCK` before 5.7.5).
                    if lock.hold_count {
                        h.count += 1;
                    }
                    if lock.design.has_lease() {
                        h.restart_lease(lock, now_ms, client_now_ms);
                    }
                }
                return Acquire::Own {
                    fence: h.fence,
                    reentered,
                };
            }
            let holder = h.token;
            let client_expired = match lock.expiry {
                Expiry::Store => None,
                Expiry::Client => h.client_until.filter(|&until| until < client_now_ms),
                Expiry::Observed => h.observe(token.worker, client_now_ms, lock.ttl_ms),
            };
            let Some(until) = client_expired else {
                return self.refuse(lock, key, token, Refusal::Held { holder }, None, now_ms);
            };
            // The contender judged the lease over by comparing with ITS clock.
            self.held[key] = None;
            expired = Some((holder, until));
        }
        if self.delay_until[key] > now_ms {
            return self.refuse(lock, key, token, Refusal::LockDelay, expired, now_ms);
        }
        match self.turn[key] {
            Some(next) if next != token => {
                return self.refuse(lock, key, token, Refusal::Turn { next }, expired, now_ms);
            }
            Some(_) => self.turn[key] = None,
            None => {}
        }
        let fence = self.grant(lock, key, token, now_ms, client_now_ms);
        Acquire::Granted { fence, expired }
    }

    fn refuse(
        &mut self,
        lock: &Lock,
        key: usize,
        token: Token,
        why: Refusal,
        expired: Option<(Token, i64)>,
        now_ms: i64,
    ) -> Acquire {
        let queued = lock.waiting == Waiting::Fair;
        if queued {
            self.enqueue(key, token, now_ms, Self::place_until(lock.ttl_ms, now_ms));
        }
        Acquire::Refused {
            why,
            queued,
            expired,
        }
    }

    /// Hands the free key to `token`; returns its fencing token.
    fn grant(
        &mut self,
        lock: &Lock,
        key: usize,
        token: Token,
        now_ms: i64,
        client_now_ms: i64,
    ) -> Option<u64> {
        // A key has one holder: a second grant while it is held is the double grant the
        // checker exists to find, and must come from the model's stores, never from here.
        debug_assert!(self.held[key].is_none(), "key {key} granted while held");
        let fence = (lock.design == Design::Fencing).then(|| {
            self.fence_counter[key] += 1;
            self.fence_counter[key]
        });
        let mut held = Held::new(token, fence);
        // Two-step (SETNX, then EXPIRE): the key is created with no TTL; the EXPIRE sets one.
        let one_step = lock.acquire == AcquireSteps::OneStep;
        if lock.design.has_lease() {
            let ttl = lock.ttl_ms as i64;
            match lock.expiry {
                Expiry::Store if one_step => held.expires = Some(now_ms + ttl),
                Expiry::Store => {}
                Expiry::Client => held.client_until = Some(client_now_ms + ttl),
                Expiry::Observed => {}
            }
        }
        debug_assert!(
            held.expires.is_none_or(|end| end > now_ms)
                && held.client_until.is_none_or(|end| end > client_now_ms),
            "a lease must end after its grant"
        );
        self.held[key] = Some(held);
        fence
    }

    /// Release by `by`, who also leaves the key's fair queue: compare-and-delete for
    /// owner-token designs — the release script of "Distributed Locks with Redis" (Redis docs):
    /// `if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1])` — and a
    /// blind `DEL` below them. A reentrant hold lets go one level at a time.
    pub fn release(&mut self, lock: &Lock, key: usize, by: Token) -> Release {
        self.queue[key].retain(|(t, _)| *t != by);
        let checks_owner = lock.design.checks_owner();
        let Some(mut h) = self.held[key].take() else {
            return Release::Ignored;
        };
        if checks_owner && h.token != by {
            self.held[key] = Some(h);
            return Release::Ignored;
        }
        if checks_owner && h.count > 1 {
            h.count -= 1;
            self.held[key] = Some(h);
            return Release::Decremented;
        }
        if h.token != by {
            mark!("release_deleted_another_holders_key");
        }
        Release::Removed {
            holder: h.token,
            also_set_by: h.also_set_by,
        }
    }

    /// `session`: `worker`'s session ends. Every key one of its attempts holds is let go and
    /// its places in the queues and any turn it was told are gone; returns each key let go,
    /// with the grant that held it, in key order. A reentrant hold goes whole: its count
    /// belonged to the session (PostgreSQL releases all of a session's advisory locks).
    pub fn end_session(&mut self, worker: NodeId) -> Vec<(usize, Token)> {
        let mut ended = Vec::new();
        for key in 0..self.keys() {
            if let Some(h) = self.held[key].take_if(|h| h.token.worker == worker) {
                ended.push((key, h.token));
            }
            self.queue[key].retain(|(t, _)| t.worker != worker);
            self.turn[key].take_if(|t| t.worker == worker);
        }
        ended
    }

    /// Restarts the lease of the key's lock for a full `ttl_ms` if `token` holds it (any holder
    /// for designs that do not check the owner); returns the holder whose lease was renewed.
    /// The extension "Distributed Locks with Redis" describes: a script that sets a new TTL
    /// (`PEXPIRE key ttl`) only if the key's value is still the token.
    pub fn renew(
        &mut self,
        lock: &Lock,
        key: usize,
        token: Token,
        now_ms: i64,
        client_now_ms: i64,
    ) -> Option<Token> {
        let blind = !lock.design.checks_owner();
        let h = self.held[key]
            .as_mut()
            .filter(|h| blind || h.token == token)?;
        h.restart_lease(lock, now_ms, client_now_ms);
        Some(h.token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Token = Token {
        worker: NodeId::new(0),
        seq: 1,
    };
    const B: Token = Token {
        worker: NodeId::new(1),
        seq: 1,
    };
    const TTL_MS: u64 = 100;
    /// An hour of clock offset, ms.
    const HOUR_MS: i64 = 3_600_000;

    /// One command on key 0; times are the node's lease clock (and the client's wall clock for
    /// `expiry = "client"`), ms.
    enum Op {
        Acquire { by: Token, reenter: bool, at: i64 },
        Release { by: Token },
        Renew { by: Token, at: i64 },
        Expire { at: i64 },
    }

    /// What the command must return.
    #[derive(Debug, PartialEq)]
    enum Out {
        Acquire(Acquire),
        Release(Release),
        Renewed(Option<Token>),
        Expired(Option<Token>),
    }

    /// A name, the lock's rules, and commands on a fresh table with what each must return.
    type Case = (&'static str, Lock, Vec<(Op, Out)>);

    fn lock(design: Design) -> Lock {
        Lock {
            design,
            ttl_ms: TTL_MS,
            ..Lock::default()
        }
    }

    fn acq(by: Token, at: i64) -> Op {
        Op::Acquire {
            by,
            reenter: false,
            at,
        }
    }

    fn granted(fence: Option<u64>) -> Out {
        Out::Acquire(Acquire::Granted {
            fence,
            expired: None,
        })
    }

    fn refused(why: Refusal, queued: bool) -> Out {
        Out::Acquire(Acquire::Refused {
            why,
            queued,
            expired: None,
        })
    }

    fn held_by(holder: Token) -> Refusal {
        Refusal::Held { holder }
    }

    fn removed(holder: Token) -> Out {
        Out::Release(Release::Removed {
            holder,
            also_set_by: Vec::new(),
        })
    }

    #[test]
    fn transitions() {
        let token = lock(Design::Token);
        let cases: Vec<Case> = vec![
            (
                "SET NX PX: one holder, refusals name it, a lease runs ttl_ms",
                token.clone(),
                vec![
                    (acq(A, 0), granted(None)),
                    (acq(B, 10), refused(held_by(A), false)),
                    (Op::Expire { at: 99 }, Out::Expired(None)),
                    (Op::Expire { at: 100 }, Out::Expired(Some(A))),
                    (acq(B, 100), granted(None)),
                ],
            ),
            (
                "compare-and-delete and compare-and-PEXPIRE check the token",
                token.clone(),
                vec![
                    (acq(A, 0), granted(None)),
                    (Op::Release { by: B }, Out::Release(Release::Ignored)),
                    (Op::Renew { by: B, at: 50 }, Out::Renewed(None)),
                    (Op::Renew { by: A, at: 50 }, Out::Renewed(Some(A))),
                    (Op::Expire { at: 149 }, Out::Expired(None)),
                    (Op::Release { by: A }, removed(A)),
                    (Op::Release { by: A }, Out::Release(Release::Ignored)),
                    (Op::Renew { by: A, at: 160 }, Out::Renewed(None)),
                ],
            ),
            (
                "ttl: blind DEL and blind renewal act on whoever holds",
                lock(Design::Ttl),
                vec![
                    (acq(A, 0), granted(None)),
                    (Op::Renew { by: B, at: 50 }, Out::Renewed(Some(A))),
                    (Op::Release { by: B }, removed(A)),
                ],
            ),
            (
                "setnx: no lease, so nothing expires",
                lock(Design::Setnx),
                vec![
                    (acq(A, 0), granted(None)),
                    (Op::Expire { at: 1_000_000 }, Out::Expired(None)),
                ],
            ),
            (
                "fencing: each grant a higher fence; a retransmission gets the same one",
                lock(Design::Fencing),
                vec![
                    (acq(A, 0), granted(Some(1))),
                    (
                        acq(A, 5),
                        Out::Acquire(Acquire::Own {
                            fence: Some(1),
                            reentered: false,
                        }),
                    ),
                    (Op::Release { by: A }, removed(A)),
                    (acq(B, 10), granted(Some(2))),
                ],
            ),
            (
                "reentrant: a hold count, released a level at a time, lease restarted",
                Lock {
                    reentrant: true,
                    ..token.clone()
                },
                vec![
                    (acq(A, 0), granted(None)),
                    (
                        Op::Acquire {
                            by: A,
                            reenter: true,
                            at: 60,
                        },
                        Out::Acquire(Acquire::Own {
                            fence: None,
                            reentered: true,
                        }),
                    ),
                    (Op::Expire { at: 159 }, Out::Expired(None)),
                    (Op::Release { by: A }, Out::Release(Release::Decremented)),
                    (Op::Release { by: A }, removed(A)),
                ],
            ),
            (
                "fair: a refused requester queues; its release leaves the queue",
                Lock {
                    waiting: Waiting::Fair,
                    ..token.clone()
                },
                vec![
                    (acq(A, 0), granted(None)),
                    (acq(B, 10), refused(held_by(A), true)),
                    (Op::Release { by: B }, Out::Release(Release::Ignored)),
                    (acq(B, 20), refused(held_by(A), true)),
                ],
            ),
            (
                "lock-delay: after an expiry (not a release) a free key is refused a while",
                Lock {
                    lock_delay_ms: 30,
                    ..token.clone()
                },
                vec![
                    (acq(A, 0), granted(None)),
                    (Op::Expire { at: 100 }, Out::Expired(Some(A))),
                    (acq(B, 129), refused(Refusal::LockDelay, false)),
                    (acq(B, 130), granted(None)),
                    (Op::Release { by: B }, removed(B)),
                    (acq(A, 131), granted(None)),
                ],
            ),
            (
                "client expiry: the contender's clock decides, strictly after the written time",
                Lock {
                    expiry: Expiry::Client,
                    ..token.clone()
                },
                vec![
                    (acq(A, 0), granted(None)),
                    (Op::Expire { at: 1_000 }, Out::Expired(None)),
                    (acq(B, 100), refused(held_by(A), false)),
                    (
                        acq(B, 101),
                        Out::Acquire(Acquire::Granted {
                            fence: None,
                            expired: Some((A, TTL_MS as i64)),
                        }),
                    ),
                ],
            ),
            (
                "observed expiry: a contender counts a lease from its first read of the record, \
                 on its own clock, and starts again when a renewal changes the record",
                Lock {
                    expiry: Expiry::Observed,
                    ..token.clone()
                },
                vec![
                    (acq(A, 0), granted(None)),
                    // B's clock is an hour ahead: its first read starts its count.
                    (acq(B, HOUR_MS + 10), refused(held_by(A), false)),
                    (Op::Expire { at: 1_000_000 }, Out::Expired(None)),
                    (acq(B, HOUR_MS + 109), refused(held_by(A), false)),
                    (Op::Renew { by: A, at: 50 }, Out::Renewed(Some(A))),
                    (acq(B, HOUR_MS + 110), refused(held_by(A), false)),
                    (acq(B, HOUR_MS + 209), refused(held_by(A), false)),
                    (
                        acq(B, HOUR_MS + 210),
                        Out::Acquire(Acquire::Granted {
                            fence: None,
                            expired: Some((A, HOUR_MS + 110)),
                        }),
                    ),
                ],
            ),
        ];
        for (name, lock, steps) in cases {
            let mut table = LockTable::new(1);
            for (i, (op, want)) in steps.into_iter().enumerate() {
                let got = match op {
                    Op::Acquire { by, reenter, at } => {
                        Out::Acquire(table.acquire(&lock, 0, by, reenter, at, at))
                    }
                    Op::Release { by } => Out::Release(table.release(&lock, 0, by)),
                    Op::Renew { by, at } => Out::Renewed(table.renew(&lock, 0, by, at, at)),
                    Op::Expire { at } => Out::Expired(table.expire_if_due(&lock, 0, at)),
                };
                assert_eq!(got, want, "{name}: step {i}");
            }
        }
    }

    /// A waiter's place in a fair queue lasts a lease length (`TTL_MS`) from its last ask; the
    /// next turn skips a waiter whose place lapsed, wherever it stood.
    #[test]
    fn a_waiter_keeps_its_place_only_while_it_asks() {
        const C: Token = Token {
            worker: NodeId::new(2),
            seq: 1,
        };
        let lock = Lock {
            waiting: Waiting::Fair,
            ..lock(Design::Token)
        };
        // Name; (waiter, ask time) in order, A holding the key throughout; when the turn is
        // taken; whom it goes to; who still waits after it.
        type Row = (
            &'static str,
            &'static [(Token, i64)],
            i64,
            Option<Token>,
            &'static [Token],
        );
        let rows: &[Row] = &[
            (
                "both alive: the first in line",
                &[(B, 10), (C, 20)],
                100,
                Some(B),
                &[C],
            ),
            (
                "the first died in line: skipped",
                &[(B, 10), (C, 20)],
                110,
                Some(C),
                &[],
            ),
            (
                "the first asked again: still first",
                &[(B, 10), (C, 20), (B, 90)],
                180,
                Some(B),
                &[C],
            ),
            ("both died: nobody", &[(B, 10), (C, 20)], 120, None, &[]),
            (
                "a lapsed waiter asks again: the back of the line",
                &[(B, 10), (C, 20), (B, 115)],
                119,
                Some(C),
                &[B],
            ),
        ];
        for &(name, asks, at, want, rest) in rows {
            let mut table = LockTable::new(1);
            table.acquire(&lock, 0, A, false, 0, 0);
            for &(by, at) in asks {
                let out = table.acquire(&lock, 0, by, false, at, at);
                assert_eq!(
                    out,
                    Acquire::Refused {
                        why: held_by(A),
                        queued: true,
                        expired: None
                    },
                    "{name}"
                );
            }
            assert_eq!(table.next_alive(0, at), want, "{name}");
            let waiting: Vec<Token> = table.queue[0].iter().map(|p| p.0).collect();
            assert_eq!(waiting, rest, "{name}");
        }
    }

    #[test]
    fn holder_is_the_current_token_and_queue_has_no_duplicates() {
        let lock = Lock {
            waiting: Waiting::Fair,
            ..lock(Design::Token)
        };
        let mut table = LockTable::new(2);
        table.acquire(&lock, 1, A, false, 0, 0);
        table.acquire(&lock, 1, B, false, 1, 1);
        table.acquire(&lock, 1, B, false, 2, 2);
        assert_eq!((table.holder(0), table.holder(1)), (None, Some(A)));
        // B's second ask renewed its one place.
        assert_eq!(table.queue[1], [(B, 2 + TTL_MS as i64)]);
    }

    #[test]
    fn claims_are_kept_earliest_stamp_first_one_per_token() {
        const C: Token = Token {
            worker: NodeId::new(2),
            seq: 1,
        };
        let mut table = LockTable::new(2);
        assert!(table.claim(0, A, 1_000));
        // B's clock is behind: its later request carries the earlier stamp.
        assert!(table.claim(0, B, 703));
        // A tie goes to the lower token: the worker listed first.
        assert!(table.claim(0, C, 703));
        assert_eq!(table.claims(0), [(B, 703), (C, 703), (A, 1_000)]);
        // A repeated claim keeps its first stamp.
        assert!(!table.claim(0, A, 5));
        assert_eq!(table.claims(0)[2], (A, 1_000));
        assert!(table.claims(1).is_empty());
    }

    #[test]
    fn unclaim_deletes_only_the_callers_claim() {
        let mut table = LockTable::new(1);
        table.claim(0, A, 10);
        table.claim(0, B, 20);
        assert!(table.unclaim(0, B));
        assert!(!table.unclaim(0, B));
        assert_eq!(table.claims(0), [(A, 10)]);
    }

    /// One row per situation: what the ending session lets go, and who holds each key after.
    /// Key 0 and key 1; A's session ends.
    #[test]
    fn a_sessions_end_lets_go_of_its_locks_and_nothing_else() {
        let session = lock(Design::Session);
        type Row = (
            &'static str,
            [Option<Token>; 2],
            Vec<(usize, Token)>,
            [Option<Token>; 2],
        );
        let rows: [Row; 4] = [
            ("A holds key 0", [Some(A), None], vec![(0, A)], [None, None]),
            (
                "B holds key 0: untouched",
                [Some(B), None],
                vec![],
                [Some(B), None],
            ),
            (
                "A holds both keys: both go, in key order",
                [Some(A), Some(A)],
                vec![(0, A), (1, A)],
                [None, None],
            ),
            (
                "A holds key 1, B key 0",
                [Some(B), Some(A)],
                vec![(1, A)],
                [Some(B), None],
            ),
        ];
        for (name, before, ended, after) in rows {
            let mut table = LockTable::new(2);
            for (key, holder) in before.iter().enumerate() {
                if let Some(t) = holder {
                    let got = table.acquire(&session, key, *t, false, 0, 0);
                    assert!(matches!(got, Acquire::Granted { .. }), "{name}");
                }
            }
            assert_eq!(table.end_session(A.worker), ended, "{name}");
            assert_eq!([table.holder(0), table.holder(1)], after, "{name}");
        }
    }

    #[test]
    fn a_reentrant_session_hold_goes_whole_and_a_stale_unlock_is_ignored() {
        let session = Lock {
            reentrant: true,
            ..lock(Design::Session)
        };
        let mut table = LockTable::new(1);
        table.acquire(&session, 0, A, false, 0, 0);
        table.acquire(&session, 0, A, true, 0, 0);
        assert_eq!(table.end_session(A.worker), [(0, A)]);
        table.acquire(&session, 0, B, false, 0, 0);
        // A's unlock after its session ended: compare-and-delete finds B's lock, not A's.
        assert_eq!(table.release(&session, 0, A), Release::Ignored);
        assert_eq!(table.holder(0), Some(B));
    }
}
