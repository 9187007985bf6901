//! One run of a schedule, judged as [`crate::judged`] judges it, and read on the way for what
//! the enumeration needs next: the moments a further fault can start at, and a fingerprint
//! of the whole trace.

use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::checker::{self, Exercised, Verdict};
use crate::engine;
use crate::scenario::{Fault, Scenario};
use crate::trace::{EventKind, NodeId};

/// What one run of a schedule gave.
#[derive(Clone, Debug)]
pub struct Probe {
    /// The checker's verdict, the one [`crate::judged`] gives.
    pub verdict: Verdict,
    /// The dangers the run went through ([`checker::exercised`]).
    pub exercised: Exercised,
    /// The start times a further fault can take in this run: one per gap between the true
    /// times of consecutive events that are not the network's own ([`is_moment`]), 1 ms after
    /// the earlier event (and 0 when nothing happens at 0), each before the horizon.
    pub starts_ms: Vec<u64>,
    /// A hash of every recorded event (time, node, clock reading, kind, and for a moment its
    /// fields): two runs with the same fingerprint recorded the same events at the same
    /// times, alike in all but what their messages carried.
    pub fingerprint: u64,
}

/// Runs `scenario` (its own faults and `added`, on `seed`) and reads it.
pub fn probe(scenario: &Scenario, added: &[Fault], seed: u64) -> Probe {
    let mut with = scenario.clone();
    with.seed = seed;
    with.faults.extend(added.iter().cloned());
    crate::order::sort_by_key(&mut with.faults, |f| f.at_ms);
    let (trace, reader) = engine::run_into(&with, seed, |trace| Reader {
        stream: checker::Stream::new(trace),
        moments: Moments::default(),
        dangers: Vec::new(),
    });
    let Reader {
        stream,
        moments,
        dangers,
    } = reader;
    let (verdict, exercised) = match stream.finish_exercised(&with, &trace, &dangers) {
        Some((verdict, _, exercised)) => (verdict, exercised),
        None => {
            // Cut short: the checker needs the recorded trace (see `checker::Stream::finish`),
            // and the moments are read from it again so both come from the same run.
            let run = crate::run(&with, seed);
            let mut again = Moments::default();
            for e in &run.trace.events {
                again.record(e.at_ms, e.node, e.local_ms, &e.kind);
            }
            let exercised = checker::exercised(&run.trace);
            return again.into_probe(run.verdict, exercised, with.until_ms);
        }
    };
    moments.into_probe(verdict, exercised, with.until_ms)
}

/// The engine's events, handed to the checker and read for moments and the fingerprint.
struct Reader {
    stream: checker::Stream,
    moments: Moments,
    dangers: Vec<checker::Moment>,
}

impl engine::Recorder for Reader {
    fn record(&mut self, at_ms: u64, node: NodeId, local_ms: i64, kind: EventKind) {
        self.moments.record(at_ms, node, local_ms, &kind);
        self.dangers.extend(checker::Moment::of(at_ms, node, &kind));
        self.stream.happened(at_ms, node, &kind);
    }
}

#[derive(Default)]
struct Moments {
    /// Distinct true times of the events that are moments, in order.
    times: Vec<u64>,
    hash: DefaultHasher,
}

impl Moments {
    fn record(&mut self, at_ms: u64, node: NodeId, local_ms: i64, kind: &EventKind) {
        self.hash.write_u64(at_ms);
        node.hash(&mut self.hash);
        self.hash.write_i64(local_ms);
        std::mem::discriminant(kind).hash(&mut self.hash);
        if is_moment(kind) {
            // Its fields too, through its Debug form (EventKind has no Hash); a message's
            // travel is told by its kind, time and node, and what it carried by the moments
            // it caused.
            let _ = write!(HashWriter(&mut self.hash), "{kind:?}");
            if self.times.last() != Some(&at_ms) {
                self.times.push(at_ms);
            }
        }
    }

    fn into_probe(self, verdict: Verdict, exercised: Exercised, until_ms: u64) -> Probe {
        let mut starts_ms = Vec::with_capacity(self.times.len() + 1);
        if self.times.first().is_none_or(|&t| t > 0) {
            starts_ms.push(0);
        }
        for (i, &t) in self.times.iter().enumerate() {
            let next = self.times.get(i + 1).copied().unwrap_or(until_ms);
            if t + 1 < next {
                starts_ms.push(t + 1);
            }
        }
        Probe {
            verdict,
            exercised,
            starts_ms,
            fingerprint: self.hash.finish(),
        }
    }
}

/// Whether an event marks a moment a fault can start after: every event but a message's
/// own travel (sent, delivered, held, retransmitted, dropped), which between two moments
/// only carries what the earlier one decided.
pub fn is_moment(kind: &EventKind) -> bool {
    !matches!(
        kind,
        EventKind::Send { .. }
            | EventKind::Deliver { .. }
            | EventKind::Held { .. }
            | EventKind::Retransmitted { .. }
            | EventKind::Drop { .. }
    )
}

struct HashWriter<'h>(&'h mut DefaultHasher);

impl std::fmt::Write for HashWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::library::COURSE;

    fn course(file: &str) -> Scenario {
        let (_, src) = COURSE.iter().find(|(f, _)| *f == file).unwrap();
        crate::scenario::parse(src).unwrap()
    }

    #[test]
    fn a_probe_judges_as_judged_does_and_starts_one_past_each_moment() {
        let scenario = course("step5-fencing-token.toml");
        let probe = probe(&scenario, &[], scenario.seed);
        assert_eq!(
            probe.verdict,
            crate::judged(&scenario, scenario.seed).verdict
        );
        let run = crate::run(&scenario, scenario.seed);
        assert_eq!(probe.exercised, checker::exercised(&run.trace));
        for &t in &probe.starts_ms {
            assert!(t < scenario.until_ms);
            assert!(
                t == 0
                    || run
                        .trace
                        .events
                        .iter()
                        .any(|e| e.at_ms + 1 == t && is_moment(&e.kind))
            );
            assert!(
                !run.trace
                    .events
                    .iter()
                    .any(|e| e.at_ms == t && is_moment(&e.kind)),
                "{t}"
            );
        }
        // The pause at 1 000 ms and A's wake-up at 16 000 ms are moments.
        assert!(probe.starts_ms.contains(&1_001) && probe.starts_ms.contains(&16_001));
    }

    #[test]
    fn the_fingerprint_tells_runs_apart_and_same_runs_alike() {
        let scenario = course("step5-fencing-token.toml");
        let a = probe(&scenario, &[], 1);
        assert_eq!(a.fingerprint, probe(&scenario, &[], 1).fingerprint);
        assert_ne!(a.fingerprint, probe(&scenario, &[], 2).fingerprint);
    }
}
