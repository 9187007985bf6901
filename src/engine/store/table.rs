//! A lock table: what one store node (or the consensus state machine) holds, per key.

use std::collections::VecDeque;

use crate::trace::Token;

/// One held lock.
#[derive(Clone, Debug)]
pub struct Held {
    /// Whose grant this is (for `flag`, the first setter).
    pub token: Token,
    pub fence: Option<u64>,
    /// Reentrant hold count.
    pub count: u32,
    /// When the lease ends on this node's lease clock, local ms (`None`: no expiry here).
    pub expires: Option<i64>,
    /// `expiry = "client"`: "held until" as written by the client, in its wall clock.
    pub client_until: Option<i64>,
    /// `flag`: every token that set `locked = true` while it was already true.
    pub also_set_by: Vec<Token>,
}

impl Held {
    pub fn new(token: Token, fence: Option<u64>) -> Self {
        Held {
            token,
            fence,
            count: 1,
            expires: None,
            client_until: None,
            also_set_by: Vec::new(),
        }
    }
}

/// Locks by key index, with the fencing counter and the fair queue of each key.
#[derive(Clone, Debug)]
pub struct LockTable {
    pub held: Vec<Option<Held>>,
    /// Last fencing token issued per key.
    pub fence_counter: Vec<u64>,
    /// `fair` waiting: tokens in arrival order.
    pub queue: Vec<VecDeque<Token>>,
    /// Lock-delay: no new grant before this local time.
    pub delay_until: Vec<i64>,
    /// `fair`: the waiter told it is its turn, whose claim the free key awaits.
    pub turn: Vec<Option<Token>>,
    /// `consensus`: an expiry started lock-delay and no `GrantNext` has ended it yet. Part of
    /// the replicated state, so every node refuses the same acquires.
    pub delayed: Vec<bool>,
}

impl LockTable {
    pub fn new(keys: usize) -> Self {
        LockTable {
            held: vec![None; keys],
            fence_counter: vec![0; keys],
            queue: vec![VecDeque::new(); keys],
            delay_until: vec![i64::MIN; keys],
            turn: vec![None; keys],
            delayed: vec![false; keys],
        }
    }

    /// Puts `token` at the back of the key's queue unless it is already waiting.
    pub fn enqueue(&mut self, key: usize, token: Token) {
        if !self.queue[key].contains(&token) {
            self.queue[key].push_back(token);
        }
    }
}
