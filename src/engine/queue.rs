//! The event queue: earliest true time first, ties broken by insertion order, so a run never
//! depends on heap internals.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<T> {
    at_ms: u64,
    seq: u64,
    item: T,
}

impl<T> PartialEq for Entry<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.at_ms, self.seq) == (other.at_ms, other.seq)
    }
}

impl<T> Eq for Entry<T> {}

impl<T> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Entry<T> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at_ms, other.seq).cmp(&(self.at_ms, self.seq))
    }
}

/// A deterministic priority queue of items due at true times (ms).
pub struct Queue<T> {
    heap: BinaryHeap<Entry<T>>,
    seq: u64,
}

impl<T> Queue<T> {
    pub fn new() -> Self {
        Queue {
            heap: BinaryHeap::with_capacity(256),
            seq: 0,
        }
    }

    /// Schedules `item` at true time `at_ms`, after everything already due at that time.
    pub fn push(&mut self, at_ms: u64, item: T) {
        self.seq += 1;
        self.heap.push(Entry {
            at_ms,
            seq: self.seq,
            item,
        });
    }

    /// The earliest item and its time.
    pub fn pop(&mut self) -> Option<(u64, T)> {
        self.heap.pop().map(|e| (e.at_ms, e.item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_then_insertion_order() {
        let mut q = Queue::new();
        q.push(5, 'c');
        q.push(1, 'a');
        q.push(5, 'd');
        q.push(1, 'b');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, c)| c)).collect();
        assert_eq!(order, vec!['a', 'b', 'c', 'd']);
    }
}
