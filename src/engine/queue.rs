//! The event queue: earliest true time first, ties broken by insertion order, so a run never
//! depends on heap internals.
//!
//! Simulated time is whole milliseconds and almost every event is due soon, so the queue is
//! a calendar: one FIFO bucket per millisecond for the next [`WINDOW_MS`], and a heap only for
//! the rare event further out. The heap's events move into their bucket as soon as the window
//! reaches them — before anything else can be pushed for that millisecond — so each bucket
//! stays in insertion order.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// Width of the calendar window, ms (a power of two).
const WINDOW_MS: u64 = 1024;

/// No node: the end of a bucket's list.
const NIL: u32 = u32::MAX;

/// A deterministic priority queue of items due at true times (ms).
pub struct Queue<T> {
    /// Every item in the ring is due in `[base, base + WINDOW_MS)`, listed in bucket
    /// `due % WINDOW_MS`.
    base: u64,
    /// Per bucket: first and last node of its FIFO list in `nodes`.
    buckets: Vec<(u32, u32)>,
    /// Items and their next node, in one slab so buckets allocate nothing of their own.
    nodes: Vec<(Option<T>, u32)>,
    free: Vec<u32>,
    /// One bit per bucket: set while it holds anything, so empty stretches are skipped a
    /// word (64 ms) at a time.
    occupied: [u64; (WINDOW_MS / 64) as usize],
    in_ring: usize,
    /// Items due later: `(at_ms, seq)` keys into `far_items`.
    far: BinaryHeap<Reverse<(u64, u64)>>,
    far_items: BTreeMap<u64, T>,
    seq: u64,
}

impl<T> Queue<T> {
    pub fn new() -> Self {
        Queue {
            base: 0,
            buckets: vec![(NIL, NIL); WINDOW_MS as usize],
            nodes: Vec::with_capacity(256),
            free: Vec::with_capacity(256),
            occupied: [0; (WINDOW_MS / 64) as usize],
            in_ring: 0,
            far: BinaryHeap::new(),
            far_items: BTreeMap::new(),
            seq: 0,
        }
    }

    /// Schedules `item` at true time `at_ms`, after everything already due at that time.
    /// A time already past is treated as now.
    pub fn push(&mut self, at_ms: u64, item: T) {
        let at_ms = at_ms.max(self.base);
        if at_ms < self.base + WINDOW_MS {
            self.append(at_ms, item);
        } else {
            self.seq += 1;
            self.far.push(Reverse((at_ms, self.seq)));
            self.far_items.insert(self.seq, item);
        }
    }

    /// How many items are scheduled.
    pub fn len(&self) -> usize {
        self.in_ring + self.far_items.len()
    }

    /// The earliest item and its time.
    pub fn pop(&mut self) -> Option<(u64, T)> {
        if self.in_ring == 0 {
            // Nothing soon: jump straight to the next far item.
            let Reverse((at_ms, _)) = *self.far.peek()?;
            self.base = at_ms;
            self.pull_in();
        }
        let skip = self.next_occupied();
        if skip > 0 {
            self.base += skip;
            self.pull_in();
        }
        let b = (self.base % WINDOW_MS) as usize;
        let (head, tail) = self.buckets[b];
        let (item, next) = &mut self.nodes[head as usize];
        let item = item.take();
        let next = *next;
        if head == tail {
            self.buckets[b] = (NIL, NIL);
            self.occupied[b / 64] &= !(1 << (b % 64));
        } else {
            self.buckets[b] = (next, tail);
        }
        self.free.push(head);
        self.in_ring -= 1;
        item.map(|item| (self.base, item))
    }

    /// Distance in ms from `base` to the first non-empty bucket (the ring is not empty).
    fn next_occupied(&self) -> u64 {
        let start = (self.base % WINDOW_MS) as usize;
        let words = self.occupied.len();
        // The first word without the bits before `start`, then whole words, wrapping round,
        // and the first word again for the bits before `start`.
        for k in 0..=words {
            let w = (start / 64 + k) % words;
            let mut bits = self.occupied[w];
            if k == 0 {
                bits &= !0u64 << (start % 64);
            }
            if bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                return ((b + WINDOW_MS as usize - start) % WINDOW_MS as usize) as u64;
            }
        }
        0
    }

    /// Adds `item` at the back of its bucket.
    fn append(&mut self, at_ms: u64, item: T) {
        let node = match self.free.pop() {
            Some(n) => {
                self.nodes[n as usize] = (Some(item), NIL);
                n
            }
            None => {
                self.nodes.push((Some(item), NIL));
                (self.nodes.len() - 1) as u32
            }
        };
        let b = (at_ms % WINDOW_MS) as usize;
        self.occupied[b / 64] |= 1 << (b % 64);
        match self.buckets[b] {
            (NIL, _) => self.buckets[b] = (node, node),
            (head, tail) => {
                self.nodes[tail as usize].1 = node;
                self.buckets[b] = (head, node);
            }
        }
        self.in_ring += 1;
    }

    /// Moves far items the window now covers into their buckets, in (time, seq) order.
    fn pull_in(&mut self) {
        while let Some(&Reverse((at_ms, seq))) = self.far.peek() {
            if at_ms >= self.base + WINDOW_MS {
                return;
            }
            self.far.pop();
            if let Some(item) = self.far_items.remove(&seq) {
                self.append(at_ms, item);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(q: &mut Queue<u32>) -> Vec<(u64, u32)> {
        std::iter::from_fn(|| q.pop()).collect()
    }

    #[test]
    fn earliest_first_then_insertion_order() {
        let mut q = Queue::new();
        q.push(5, 3);
        q.push(1, 1);
        q.push(5, 4);
        q.push(1, 2);
        assert_eq!(drain(&mut q), vec![(1, 1), (1, 2), (5, 3), (5, 4)]);
    }

    #[test]
    fn far_items_keep_their_order_against_items_pushed_later() {
        let mut q = Queue::new();
        let far = 3 * WINDOW_MS + 7;
        q.push(far, 1);
        q.push(far, 2);
        q.push(10, 0);
        assert_eq!(q.pop(), Some((10, 0)));
        // Pushed after the far ones, for the same instant: must come after them.
        q.push(far, 3);
        q.push(far - 1, 9);
        assert_eq!(
            drain(&mut q),
            vec![(far - 1, 9), (far, 1), (far, 2), (far, 3)]
        );
    }

    #[test]
    fn matches_a_sorted_reference_on_a_mixed_schedule() {
        let mut q = Queue::new();
        let mut reference: Vec<(u64, u64, u32)> = Vec::new();
        let mut now = 0;
        let mut seq = 0;
        let mut got = Vec::new();
        // A fixed pseudo-random schedule: pops interleaved with pushes near and far.
        let mut x: u64 = 12345;
        for i in 0..5_000u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let at = now + (x >> 33) % if i % 7 == 0 { 5_000 } else { 40 };
            q.push(at, i);
            seq += 1;
            reference.push((at, seq, i));
            if i % 3 == 0
                && let Some((t, item)) = q.pop()
            {
                now = t;
                got.push((t, item));
                reference.sort();
                let (rt, _, ri) = reference.remove(0);
                assert_eq!((t, item), (rt, ri));
            }
        }
        reference.sort();
        let rest: Vec<(u64, u32)> = reference.iter().map(|&(t, _, i)| (t, i)).collect();
        assert_eq!(drain(&mut q), rest);
    }
}
