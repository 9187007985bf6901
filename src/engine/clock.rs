//! Per-node clocks: an offset, a rate error (drift) and steps (jumps) on top of true time.

/// One node's clock. True time `t` is in simulated ms.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// Initial offset of the wall clock from true time, ms.
    pub offset_ms: i64,
    /// Rate error in parts per million; positive runs fast.
    pub drift_ppm: i64,
    /// Sum of all `clock_jump` steps so far, ms (wall clock only).
    pub jumped_ms: i64,
}

impl Clock {
    /// Monotonic reading at true time `t`: drifts, never jumps, starts at 0.
    pub fn monotonic(&self, t: u64) -> i64 {
        let t = t as i64;
        t + t.saturating_mul(self.drift_ppm) / 1_000_000
    }

    /// Wall-clock reading at true time `t`: offset, drift and jumps.
    pub fn wall(&self, t: u64) -> i64 {
        self.monotonic(t) + self.offset_ms + self.jumped_ms
    }

    /// True ms that pass while this clock advances `local_ms` (a timer set for `local_ms`).
    pub fn true_span(&self, local_ms: i64) -> u64 {
        if local_ms <= 0 {
            return 0;
        }
        let rate = (1_000_000 + self.drift_ppm).max(1);
        // Round up so a timer never fires before its local deadline.
        (local_ms as u64 * 1_000_000).div_ceil(rate as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_and_jumps() {
        let mut c = Clock {
            offset_ms: 5,
            drift_ppm: 10_000,
            jumped_ms: 0,
        };
        assert_eq!(c.monotonic(1000), 1010);
        assert_eq!(c.wall(1000), 1015);
        c.jumped_ms = 20_000;
        assert_eq!(c.wall(1000), 21_015);
        assert_eq!(c.monotonic(1000), 1010);
        // A fast clock reaches 1010 local ms after 1000 true ms.
        assert_eq!(c.true_span(1010), 1000);
    }
}
