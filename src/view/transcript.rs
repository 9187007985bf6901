//! The run as a list of sentences beside its timeline, for reading at one's own pace and for
//! screen readers: each event in the one wording of events ([`super::wording`], the lines
//! `locksim run` prints, network plumbing left out as it leaves it out), each violation at the
//! moment the checker places it (its own sentence, so a write drawn in the violation colour is
//! also called stale in words), then the verdict once it is told.
//!
//! Like the timeline, the list never gets ahead of the playhead: until the run has been seen to
//! its end (or the learner asks to see what is ahead), the entries after the playhead are not
//! listed, and the verdict is not either. Finding the entry at the playhead is a binary search
//! on time, and the words of an entry are made only when it is shown, so a trace of 100 000
//! events costs nothing per frame beyond the rows on screen.

use crate::checker::Verdict;
use crate::text::fmt_ms;
use crate::trace::Trace;
use crate::view::verdict::summary;
use crate::view::wording::{describe, is_network, node_label, verdict_line};

/// Where an entry's words come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Event `i` of the trace.
    Event(usize),
    /// Violation `i` of the verdict.
    Violation(usize),
}

/// One entry: when, and what it tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// True time, ms.
    pub at_ms: u64,
    /// What it tells.
    pub source: Source,
}

/// An entry's words, in the columns a row shows them in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// "1 840 ms".
    pub time: String,
    /// The node it happened at ("A", "store1", "network"), or the violation's name.
    pub who: String,
    /// What happened: the event's description, or the violation's explanation.
    pub what: String,
}

impl Words {
    /// The whole entry as one sentence, as a screen reader reads it and the timeline's hover
    /// text writes it: "1 840 ms · A: acquired 'lock' as A#1".
    pub fn sentence(&self) -> String {
        format!("{} · {}: {}", self.time, self.who, self.what)
    }
}

/// Every entry of one run, in time order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    entries: Vec<Entry>,
}

impl Transcript {
    /// The entries of `trace` and its `verdict`: every event but the network's plumbing, and
    /// every violation the verdict keeps, after the events of the same moment (the event is
    /// what the checker judged).
    pub fn build(trace: &Trace, verdict: &Verdict) -> Self {
        let events = trace
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| !is_network(trace, e))
            .map(|(i, e)| Entry {
                at_ms: e.at_ms,
                source: Source::Event(i),
            });
        let violations = verdict.violations.iter().enumerate().map(|(i, v)| Entry {
            at_ms: v.at_ms,
            source: Source::Violation(i),
        });
        let mut entries: Vec<Entry> = events.chain(violations).collect();
        // Stable: the trace's own order within a moment, violations after its events.
        crate::order::sort_by_key(&mut entries, |e| {
            (e.at_ms, matches!(e.source, Source::Violation(_)))
        });
        Transcript { entries }
    }

    /// Every entry.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many entries the playhead at `now_ms` has reached (those at or before it).
    pub fn reached(&self, now_ms: f64) -> usize {
        self.entries.partition_point(|e| e.at_ms as f64 <= now_ms)
    }

    /// The entry at the playhead: the last at or before `now_ms`; none before the first.
    pub fn current(&self, now_ms: f64) -> Option<usize> {
        self.reached(now_ms).checked_sub(1)
    }

    /// How many entries are listed with the playhead at `now_ms`: those it has reached, or
    /// all of them once `ahead` (the run was seen to its end, or the learner asked to see
    /// what is ahead; those after the playhead are then shown dimmed).
    pub fn listed(&self, now_ms: f64, ahead: bool) -> usize {
        if ahead {
            self.entries.len()
        } else {
            self.reached(now_ms)
        }
    }

    /// The words of entry `i`.
    pub fn words(&self, trace: &Trace, verdict: &Verdict, i: usize) -> Words {
        let entry = self.entries[i];
        let time = fmt_ms(entry.at_ms);
        match entry.source {
            Source::Event(e) => {
                let event = &trace.events[e];
                Words {
                    time,
                    who: node_label(trace, event).to_string(),
                    what: describe(trace, event),
                }
            }
            Source::Violation(v) => {
                let violation = &verdict.violations[v];
                Words {
                    time,
                    who: violation.kind.to_string(),
                    what: violation.explanation.clone(),
                }
            }
        }
    }
}

/// The verdict as the transcript's last row says it, once told: at the run's horizon, the
/// line `locksim run` prints and what it means for the data and the lock ("UNSAFE, LIVE, 1
/// violation. The protected data went wrong: …").
pub fn verdict_words(trace: &Trace, verdict: &Verdict) -> Words {
    Words {
        time: fmt_ms(trace.simulated_until_ms()),
        who: "verdict".to_string(),
        what: format!("{}. {}", verdict_line(trace, verdict), summary(verdict)),
    }
}

/// The verdict in a sentence, as a screen reader is told it: "verdict: UNSAFE, LIVE, 1
/// violation. The protected data went wrong: …".
pub fn verdict_sentence(trace: &Trace, verdict: &Verdict) -> String {
    format!("verdict: {}", verdict_words(trace, verdict).what)
}

/// What a screen reader is told with the playhead at `now_ms`: the entry there, and the
/// verdict once `told`. Empty before the first entry while the verdict is untold.
pub fn announcement(
    transcript: &Transcript,
    trace: &Trace,
    verdict: &Verdict,
    now_ms: f64,
    told: bool,
) -> String {
    let current = transcript
        .current(now_ms)
        .map(|i| transcript.words(trace, verdict, i).sentence());
    let verdict = told.then(|| verdict_sentence(trace, verdict));
    [current, verdict]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::{Violation, ViolationKind};
    use crate::testkit::{A, A1, STORE1, event, trace, verdict};
    use crate::trace::{EventKind, KeyId, MsgId};

    fn send(at_ms: u64) -> crate::trace::Event {
        let kind = EventKind::Send {
            msg: MsgId::new(0),
            to: STORE1,
            what: crate::trace::Label::Acquire {
                token: A1,
                reenter: false,
            },
        };
        event(at_ms, A, at_ms as i64, kind)
    }

    fn granted(at_ms: u64) -> crate::trace::Event {
        let kind = EventKind::Granted {
            key: KeyId::new(0),
            token: A1,
            fence: Some(1),
            lease_ms: Some(10_000),
            took_over: false,
        };
        event(at_ms, STORE1, at_ms as i64, kind)
    }

    /// A send at 0, a grant at 5, a crash at 5 judged a violation, a pause at 1 000.
    fn run() -> (Trace, Verdict) {
        let t = trace(vec![
            send(0),
            granted(5),
            event(5, A, 5, EventKind::Crashed),
            event(1_000, A, 1_000, EventKind::Paused { for_ms: 15_000 }),
        ]);
        let mut v = verdict(false, &[ViolationKind::StaleWrite]);
        v.violations[0] = Violation {
            at_ms: 5,
            explanation: "A#1's write landed after A#2's".to_string(),
            ..v.violations[0].clone()
        };
        (t, v)
    }

    #[test]
    fn events_then_violations_in_time_order_without_plumbing() {
        let (t, v) = run();
        let tr = Transcript::build(&t, &v);
        let sources: Vec<Source> = tr.entries().iter().map(|e| e.source).collect();
        assert_eq!(
            sources,
            [
                Source::Event(1),
                Source::Event(2),
                Source::Violation(0),
                Source::Event(3)
            ]
        );
        assert_eq!(
            tr.words(&t, &v, 0).sentence(),
            "5 ms · store1: granted 'lock' to A#1 (fence 1, lease 10 000 ms)"
        );
        assert_eq!(
            tr.words(&t, &v, 2).sentence(),
            "5 ms · stale_write: A#1's write landed after A#2's"
        );
    }

    #[test]
    fn the_current_entry_is_the_last_at_or_before_the_playhead() {
        let (t, v) = run();
        let tr = Transcript::build(&t, &v);
        assert_eq!(tr.current(0.0), None);
        assert_eq!(tr.current(4.9), None);
        assert_eq!(tr.current(5.0), Some(2));
        assert_eq!(tr.current(999.0), Some(2));
        assert_eq!(tr.current(1_000.0), Some(3));
        assert_eq!(tr.current(20_000.0), Some(3));
    }

    #[test]
    fn the_future_is_listed_only_once_ahead() {
        let (t, v) = run();
        let tr = Transcript::build(&t, &v);
        assert_eq!(tr.listed(0.0, false), 0);
        assert_eq!(tr.listed(5.0, false), 3);
        assert_eq!(tr.listed(5.0, true), 4);
    }

    #[test]
    fn the_verdict_is_told_only_once_told() {
        let (t, v) = run();
        let tr = Transcript::build(&t, &v);
        assert_eq!(announcement(&tr, &t, &v, 0.0, false), "");
        let at_grant = announcement(&tr, &t, &v, 5.0, false);
        assert_eq!(
            at_grant,
            "5 ms · stale_write: A#1's write landed after A#2's"
        );
        let told = announcement(&tr, &t, &v, 20_000.0, true);
        assert_eq!(
            told,
            "1 000 ms · A: paused for 15 000 ms\nverdict: UNSAFE, LIVE, 1 violation. The \
             protected data went wrong: the resource accepted a write it should have refused."
        );
    }

    /// A long trace: the entry at any time is found by halving, and matches a scan.
    #[test]
    fn long_traces_find_the_current_entry_by_time() {
        let events: Vec<_> = (0..100_000u64).map(|i| granted(i * 3)).collect();
        let t = trace(events);
        let v = verdict(true, &[]);
        let tr = Transcript::build(&t, &v);
        assert_eq!(tr.entries().len(), 100_000);
        for now in [0.0, 1.0, 2.9, 3.0, 150_000.5, 299_997.0, 1e9] {
            let scan = tr.entries().iter().rposition(|e| e.at_ms as f64 <= now);
            assert_eq!(tr.current(now), scan, "at {now}");
        }
        assert_eq!(tr.listed(4.0, false), 2);
    }
}
