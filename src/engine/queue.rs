//! The event queue: earliest true time first, ties broken by insertion order, so a run never
//! depends on heap internals.
//!
//! Simulated time is whole milliseconds and almost every event is due soon, so the queue is
//! a calendar: one FIFO bucket per millisecond for the next [`WINDOW_MS`], and a heap only for
//! the rare event further out. The heap's events move into their bucket as soon as the window
//! reaches them — before anything else can be pushed for that millisecond — so each bucket
//! stays in insertion order.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Width of the calendar window, ms (a power of two).
const WINDOW_MS: u64 = 1024;

/// A deterministic priority queue of items due at true times (ms).
pub struct Queue<T> {
    /// Every item in `ring` is due in `[base, base + WINDOW_MS)`, at bucket `due % WINDOW_MS`.
    base: u64,
    ring: Vec<VecDeque<T>>,
    in_ring: usize,
    /// Items due later: `(at_ms, seq)` keys into `far_items`.
    far: BinaryHeap<Reverse<(u64, u64)>>,
    far_items: std::collections::BTreeMap<u64, T>,
    seq: u64,
}

impl<T> Queue<T> {
    pub fn new() -> Self {
        Queue {
            base: 0,
            ring: (0..WINDOW_MS).map(|_| VecDeque::new()).collect(),
            in_ring: 0,
            far: BinaryHeap::new(),
            far_items: std::collections::BTreeMap::new(),
            seq: 0,
        }
    }

    /// Schedules `item` at true time `at_ms`, after everything already due at that time.
    /// A time already past is treated as now.
    pub fn push(&mut self, at_ms: u64, item: T) {
        let at_ms = at_ms.max(self.base);
        if at_ms < self.base + WINDOW_MS {
            self.ring[(at_ms % WINDOW_MS) as usize].push_back(item);
            self.in_ring += 1;
        } else {
            self.seq += 1;
            self.far.push(Reverse((at_ms, self.seq)));
            self.far_items.insert(self.seq, item);
        }
    }

    /// The earliest item and its time.
    pub fn pop(&mut self) -> Option<(u64, T)> {
        loop {
            if self.in_ring == 0 {
                // Nothing soon: jump straight to the next far item.
                let Reverse((at_ms, _)) = *self.far.peek()?;
                self.base = at_ms;
                self.pull_in();
            }
            let bucket = &mut self.ring[(self.base % WINDOW_MS) as usize];
            if let Some(item) = bucket.pop_front() {
                self.in_ring -= 1;
                return Some((self.base, item));
            }
            self.base += 1;
            self.pull_in();
        }
    }

    /// Moves far items the window now covers into their buckets, in (time, seq) order.
    fn pull_in(&mut self) {
        while let Some(&Reverse((at_ms, seq))) = self.far.peek() {
            if at_ms >= self.base + WINDOW_MS {
                return;
            }
            self.far.pop();
            if let Some(item) = self.far_items.remove(&seq) {
                self.ring[(at_ms % WINDOW_MS) as usize].push_back(item);
                self.in_ring += 1;
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
