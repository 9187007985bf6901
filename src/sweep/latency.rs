//! [`Latencies`]: acquire latencies over many runs in bounded memory, for their percentiles.
//!
//! A sweep of 10 000 seeds of a busy scenario makes hundreds of thousands of acquisitions, so
//! they are counted in a fixed log-linear histogram (the layout of HdrHistogram) rather than
//! kept: one bucket per ms below 64 ms, then 32 buckets per power of two, so a percentile is
//! exact below 64 ms and at most 1/32 (3 %) low above. At most 1 920 counters, whatever the
//! sweep.

use serde::{Serialize, Serializer};

use crate::checker::nearest_rank;

/// Sub-buckets per power of two, as a number of bits.
const SUB_BITS: u32 = 5;
/// Below this many ms every value has its own bucket.
const EXACT: u64 = 1 << (SUB_BITS + 1);

/// Acquire latencies counted in a log-linear histogram. Serialises as `{"p50": .., "p99": ..}`,
/// simulated ms (`null` when no acquisition was counted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Latencies {
    /// Count per bucket; grown to the highest bucket used.
    counts: Vec<u64>,
    total: u64,
}

impl Latencies {
    /// Counts one acquisition that took `ms`.
    pub fn add(&mut self, ms: u64) {
        let i = bucket(ms);
        if self.counts.len() <= i {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
        self.total += 1;
    }

    /// Acquisitions counted.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The `pct`-th percentile (0 to 100) by nearest rank, simulated ms: exact below 64 ms,
    /// the lower edge of its bucket above; `None` when none was counted.
    pub fn percentile_ms(&self, pct: u64) -> Option<u64> {
        let rank = nearest_rank(pct, self.total)?;
        let mut seen = 0;
        self.counts
            .iter()
            .position(|&n| {
                seen += n;
                seen >= rank
            })
            .map(lower_edge)
    }
}

impl Serialize for Latencies {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map([
            ("p50", self.percentile_ms(50)),
            ("p99", self.percentile_ms(99)),
        ])
    }
}

/// The bucket of `ms`: itself below [`EXACT`]; above, its power of two and the next
/// [`SUB_BITS`] bits below its leading one.
fn bucket(ms: u64) -> usize {
    if ms < EXACT {
        return ms as usize;
    }
    let exp = u64::from(ms.ilog2());
    let sub = (ms >> (exp - u64::from(SUB_BITS))) - (1 << SUB_BITS);
    (EXACT + (exp - u64::from(SUB_BITS) - 1) * (1 << SUB_BITS) + sub) as usize
}

/// The smallest value in bucket `i`.
fn lower_edge(i: usize) -> u64 {
    let i = i as u64;
    if i < EXACT {
        return i;
    }
    let per = 1 << SUB_BITS;
    let exp = (i - EXACT) / per + u64::from(SUB_BITS) + 1;
    let sub = (i - EXACT) % per + per;
    sub << (exp - u64::from(SUB_BITS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_exact_below_64_ms_and_within_1_in_32_above() {
        for ms in (0..5_000).chain([u64::MAX / 3, u64::MAX]) {
            let edge = lower_edge(bucket(ms));
            assert!(edge <= ms, "{ms}");
            if ms < EXACT {
                assert_eq!(edge, ms);
            } else {
                assert!(ms - edge <= ms / 32, "{ms} in a bucket from {edge}");
            }
            assert_eq!(bucket(edge), bucket(ms));
        }
        assert_eq!(bucket(u64::MAX), 1_919);
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let mut l = Latencies::default();
        assert_eq!(l.percentile_ms(50), None);
        for ms in [4, 4, 5, 6, 2_000] {
            l.add(ms);
        }
        assert_eq!(l.count(), 5);
        assert_eq!(l.percentile_ms(50), Some(5));
        assert_eq!(
            l.percentile_ms(99),
            Some(1_984),
            "2 000 ms, to its bucket's edge"
        );
        assert_eq!(
            serde_json::to_string(&l).unwrap(),
            r#"{"p50":5,"p99":1984}"#
        );
    }
}
