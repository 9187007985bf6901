//! Sorting through one shared copy of the standard library's sort.
//!
//! Each `sort_by_key` or `sort_unstable` on a new element type or with a new key compiles a
//! copy of the standard library's sort of its own, a few KB each in the web build's module.
//! These sort the positions `0 .. len` instead (always `usize`, always through the same
//! comparator type), then move the elements into that order: one copy of the sort for all of
//! them. The result is the standard library's stable sort's: equal elements keep their order.
//! Where equal elements are indistinguishable (a total order on the whole value), that is
//! also what `sort_unstable` gives.

use std::cmp::Ordering;

/// The positions `0 .. len`, stably sorted by `compare`. Not generic, so compiled once.
#[inline(never)]
fn order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Sorts `items` by `compare`, stably, as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = order(items.len(), &|a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// Sorts `items` by `key`, stably, as `slice::sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in ascending order, as `slice::sort` does (and `slice::sort_unstable`, when
/// equal items are the same value).
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// Moves `items[order[i]]` to place `i` for every `i`, with swaps along each cycle of the
/// permutation; a place done is marked by pointing it at itself.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut here = start;
        loop {
            let from = order[here];
            order[here] = here;
            if from == start || from == here {
                break;
            }
            items.swap(here, from);
            here = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The same order as the standard library's stable sort, equal keys included.
        #[test]
        fn sorts_as_the_standard_library_does(items in proptest::collection::vec((0u8..6, any::<u16>()), 0..60)) {
            let mut ours = items.clone();
            let mut std = items.clone();
            sort_by_key(&mut ours, |&(key, _)| key);
            std.sort_by_key(|&(key, _)| key);
            prop_assert_eq!(&ours, &std);
            let mut ours = items.clone();
            let mut std = items;
            sort(&mut ours);
            std.sort_unstable();
            prop_assert_eq!(ours, std);
        }
    }
}
