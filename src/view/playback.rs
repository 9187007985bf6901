//! The playhead: a cursor over a finished trace. Moving it never re-runs anything, so
//! scrubbing and rewinding are free.

/// The slowest playback, simulated time per real time: a 5 ms message flight takes 50 ms.
pub const MIN_SPEED: f64 = 0.1;
/// The fastest: a run of two minutes plays in a little over a second.
pub const MAX_SPEED: f64 = 100.0;

/// Where the playhead is and whether it moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    now_ms: f64,
    end_ms: f64,
    playing: bool,
    /// Simulated ms per real ms.
    speed: f64,
}

impl Playback {
    /// At the start of a run that ends at `end_ms`, playing at 2× so a 20 s run takes 10 s.
    pub fn new(end_ms: u64) -> Self {
        Playback {
            now_ms: 0.0,
            end_ms: end_ms as f64,
            playing: true,
            speed: 2.0,
        }
    }

    /// The playhead's true time, ms.
    pub fn now_ms(&self) -> f64 {
        self.now_ms
    }

    /// The run's horizon, ms.
    pub fn end_ms(&self) -> f64 {
        self.end_ms
    }

    /// Whether the playhead is moving.
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// Simulated ms per real ms.
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// Sets simulated ms per real ms, within [`MIN_SPEED`]..=[`MAX_SPEED`].
    pub fn set_speed(&mut self, speed: f64) {
        self.speed = speed.clamp(MIN_SPEED, MAX_SPEED);
    }

    /// Play or pause; playing at the end starts over, which is what a student pressing ▶
    /// after a run means.
    pub fn toggle(&mut self) {
        if self.playing {
            self.playing = false;
        } else {
            if self.now_ms >= self.end_ms {
                self.now_ms = 0.0;
            }
            self.playing = true;
        }
    }

    /// Moves the playhead to `ms` (clamped to the run) and pauses there: someone who scrubs
    /// or jumps wants to look at that moment.
    pub fn seek(&mut self, ms: f64) {
        self.now_ms = ms.clamp(0.0, self.end_ms);
        self.playing = false;
    }

    /// Advances by `dt_s` real seconds when playing; stops at the end.
    pub fn advance(&mut self, dt_s: f64) {
        if !self.playing {
            return;
        }
        self.now_ms = (self.now_ms + dt_s * 1000.0 * self.speed).min(self.end_ms);
        if self.now_ms >= self.end_ms {
            self.playing = false;
        }
    }

    /// Jumps to the first of `moments` (sorted) after the playhead, or to the end.
    pub fn step_forward(&mut self, moments: &[u64]) {
        let after = moments.partition_point(|&m| m as f64 <= self.now_ms);
        let next = moments.get(after).map_or(self.end_ms, |&m| m as f64);
        self.seek(next);
    }

    /// Jumps to the last of `moments` (sorted) before the playhead, or to the start.
    pub fn step_back(&mut self, moments: &[u64]) {
        let before = moments.partition_point(|&m| (m as f64) < self.now_ms);
        let prev = before.checked_sub(1).map_or(0.0, |i| moments[i] as f64);
        self.seek(prev);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_at_speed_and_stops_at_the_end() {
        let mut p = Playback::new(20_000);
        p.advance(1.0);
        assert_eq!(p.now_ms(), 2_000.0);
        p.set_speed(10.0);
        p.advance(2.0);
        assert_eq!(p.now_ms(), 20_000.0);
        assert!(!p.is_playing());
        p.toggle();
        assert_eq!(p.now_ms(), 0.0, "play at the end starts over");
        assert!(p.is_playing());
    }

    #[test]
    fn paused_playhead_does_not_move() {
        let mut p = Playback::new(20_000);
        p.toggle();
        p.advance(1.0);
        assert_eq!(p.now_ms(), 0.0);
    }

    #[test]
    fn steps_between_moments_and_pauses() {
        let moments = [4, 1_000, 10_004];
        let mut p = Playback::new(20_000);
        p.step_forward(&moments);
        assert_eq!(p.now_ms(), 4.0);
        assert!(!p.is_playing());
        p.step_forward(&moments);
        p.step_forward(&moments);
        p.step_forward(&moments);
        assert_eq!(p.now_ms(), 20_000.0);
        p.step_back(&moments);
        assert_eq!(p.now_ms(), 10_004.0);
        p.seek(2.0);
        p.step_back(&moments);
        assert_eq!(p.now_ms(), 0.0);
    }

    #[test]
    fn speed_stays_within_the_scale() {
        let mut p = Playback::new(100);
        p.set_speed(1_000.0);
        assert_eq!(p.speed(), MAX_SPEED);
        p.set_speed(0.0);
        assert_eq!(p.speed(), MIN_SPEED);
    }

    #[test]
    fn seek_clamps_to_the_run() {
        let mut p = Playback::new(100);
        p.seek(-5.0);
        assert_eq!(p.now_ms(), 0.0);
        p.seek(500.0);
        assert_eq!(p.now_ms(), 100.0);
    }
}
