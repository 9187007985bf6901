//! A counterexample told as numbered steps a student can follow: the faults and the lock's
//! key events in true-time order, then what the checker found.
//!
//! Every event's sentence is the view model's ([`Labels`], the wording every front end
//! shares) and every violation's is the checker's own `explanation`; this module only picks
//! the events that carry the story (Kleppmann 2016 tells it: a grant with its fencing token,
//! a pause longer than the lease, the lease's expiry, a second grant, a stale write accepted)
//! and numbers them.

use super::{Finding, Goal};
use crate::Run;
use crate::scenario::Scenario;
use crate::text::{fmt_count, fmt_counted, fmt_ms};
use crate::trace::{Event, EventKind, LetGoReason, Token, Trace};
use crate::view::wording::{Labels, and_more, node_label};

/// At most this many event steps are told; the rest of a long run is counted in one line.
pub const MAX_EVENT_STEPS: usize = 40;

/// What a search came to, in one sentence: "Found an unsafe run at schedule 97 (2 faults),
/// shrunk in 32 runs to 1 fault (without it the run passes).", "None found in 10 000 schedules
/// — evidence, not proof.", or, for a search stopped early, "Stopped {stopped_by}after …"
/// (`stopped_by` is e.g. "by Ctrl-C ", or "").
pub fn headline(goal: Goal, outcome: &Finding, stopped_by: &str) -> String {
    let (failure, a_failure) = match goal {
        Goal::Unsafe => ("unsafe", "an unsafe"),
        Goal::NotLive => ("not live", "a not-live"),
    };
    let Some(found) = &outcome.found else {
        let tried = fmt_counted(outcome.tries, "schedule");
        return if outcome.interrupted {
            format!("Stopped {stopped_by}after {tried}: none found so far.")
        } else {
            format!("None found in {tried} — evidence, not proof.")
        };
    };
    if outcome.tries == 0 {
        return format!("The scenario is {failure} as it is, with no fault added.");
    }
    let faults = |n: usize| fmt_counted(n as u64, "fault");
    let why = match found.faults.len() {
        1 => "without it the run passes",
        _ => "removing any one of them makes the run pass",
    };
    // The file printed holds the scenario's own faults too: say so, or they read as found.
    let own = found
        .scenario
        .faults
        .len()
        .saturating_sub(found.faults.len());
    let on_top = match own {
        0 => String::new(),
        n => format!(" on top of the scenario's own {}", faults(n)),
    };
    if outcome.interrupted {
        return format!(
            "Found {a_failure} run at schedule {} ({}); stopped {stopped_by}while shrinking it, \
             after {}, at {}{on_top}: it fails, but it may not be the smallest that does.",
            fmt_count(outcome.tries),
            faults(found.drawn),
            fmt_counted(found.shrink_runs, "run"),
            faults(found.faults.len()),
        );
    }
    format!(
        "Found {a_failure} run at schedule {} ({}), shrunk in {} to {}{on_top} ({why}).",
        fmt_count(outcome.tries),
        faults(found.drawn),
        fmt_counted(found.shrink_runs, "run"),
        faults(found.faults.len()),
    )
}

/// The run's story as numbered lines ("1. at 12 ms, A: acquired 'lock' as A#1 (lease
/// 10 000 ms)"), ending with each violation the checker kept and a count of the rest.
/// The same sentence on several nodes at one instant (every Redlock node restarting) makes one
/// step naming them all. The story stops at the last violation the checker kept (what came
/// after cannot have caused it) and tells at most [`MAX_EVENT_STEPS`] events.
pub fn narrate(scenario: &Scenario, run: &Run) -> Vec<String> {
    moments(scenario, run)
        .into_iter()
        .enumerate()
        .map(|(i, moment)| format!("{}. {}", i + 1, moment.text))
        .collect()
}

/// One step of a run's story: when it happens and what [`narrate`] says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    /// True time, ms; `None` for a line that counts what is left untold.
    pub at_ms: Option<u64>,
    /// The step's sentence, unnumbered.
    pub text: String,
}

/// The steps [`narrate`] numbers, each with its time: for a slide per step.
pub fn moments(scenario: &Scenario, run: &Run) -> Vec<Moment> {
    let trace = &run.trace;
    let last_violation = run.verdict.violations.iter().map(|v| v.at_ms).max();
    let labels = Labels::new(trace);
    let lease = scenario
        .lock
        .design
        .has_lease()
        .then_some(scenario.lock.ttl_ms);
    let mut steps: Vec<Beat> = Vec::new();
    let untold = untold_grants(trace);
    let told = trace
        .events
        .iter()
        .filter(|e| last_violation.is_none_or(|t| e.at_ms <= t))
        .filter(|e| tells(e) || granted_to(e, &untold));
    for event in told {
        let mut what = labels.describe(event);
        what.push_str(&remark(event, lease));
        let node = node_label(trace, event).to_string();
        let same = steps
            .iter_mut()
            .rev()
            .take_while(|s| s.at_ms == event.at_ms)
            .find(|s| s.what == what);
        match same {
            Some(step) if !step.nodes.contains(&node) => step.nodes.push(node),
            Some(_) => {}
            None => steps.push(Beat {
                at_ms: event.at_ms,
                nodes: vec![node],
                what,
            }),
        }
    }
    let mut lines: Vec<Moment> = steps
        .iter()
        .take(MAX_EVENT_STEPS)
        .map(|s| Moment {
            at_ms: Some(s.at_ms),
            text: format!("at {}, {}: {}", fmt_ms(s.at_ms), s.nodes.join(", "), s.what),
        })
        .collect();
    if let Some(more) = steps.len().checked_sub(MAX_EVENT_STEPS).filter(|&n| n > 0) {
        lines.push(Moment {
            at_ms: None,
            text: format!(
                "… and {more} more steps like these (`locksim run` the scenario to see them all)"
            ),
        });
    }
    let verdict = &run.verdict;
    lines.extend(verdict.violations.iter().map(|v| Moment {
        at_ms: Some(v.at_ms),
        text: format!("{} (at {}): {}", v.kind, fmt_ms(v.at_ms), v.explanation),
    }));
    lines.extend(verdict.more.iter().map(|&(kind, n)| Moment {
        at_ms: None,
        text: and_more(kind, n),
    }));
    lines
}

/// One numbered step: an event, or the same event on several nodes.
struct Beat {
    at_ms: u64,
    nodes: Vec<String>,
    what: String,
}

/// Whether `event` carries the story: a fault, a grant a worker acts on or a new leader takes
/// over, a lease lost or expired, a lock deleted or forgotten, a write landing or turned away.
fn tells(event: &Event) -> bool {
    match &event.kind {
        EventKind::Paused { .. }
        | EventKind::Stalled { .. }
        | EventKind::Crashed
        | EventKind::Restarted
        | EventKind::FaultIgnored { .. }
        | EventKind::ClockJumped { .. }
        | EventKind::PartitionStarted { .. }
        | EventKind::Healed
        | EventKind::DelayStarted { .. }
        | EventKind::Acquired { .. }
        | EventKind::Expired { .. }
        | EventKind::ExpiredByClient { .. }
        | EventKind::ExpiredUnchanged { .. }
        | EventKind::ForceReleased { .. }
        | EventKind::SessionEnded { .. }
        | EventKind::ConnectionReset { .. }
        | EventKind::Forgot
        | EventKind::Unflushed { .. }
        | EventKind::Reloaded { .. }
        | EventKind::BecameLeader { .. }
        | EventKind::WriteAccepted { .. }
        | EventKind::WriteRejected { .. } => true,
        // A new leader taking a grant over from its log restarts its lease in full.
        EventKind::Granted { took_over, .. } => *took_over,
        EventKind::Removed { holder, by, .. } => holder != by,
        EventKind::LetGo { reason, .. } => {
            matches!(reason, LetGoReason::LeaseOver | LetGoReason::LockLost)
        }
        _ => false,
    }
}

/// The grants the story tells as the store made them, because their worker's acquire would
/// not introduce them in time: those an operator deleted before their worker heard of them
/// (the delete would name a holder not yet introduced), and those their worker never heard of
/// at all (it crashed or gave up first), which hold the lock all the same.
fn untold_grants(trace: &Trace) -> Vec<Token> {
    let mut heard = Vec::new();
    let mut granted = Vec::new();
    let mut unheard = Vec::new();
    for event in &trace.events {
        match &event.kind {
            EventKind::Acquired { token, .. } => heard.push(*token),
            EventKind::Granted { token, .. } if !granted.contains(token) => granted.push(*token),
            EventKind::ForceReleased {
                holder: Some(token),
                ..
            } if !heard.contains(token) => unheard.push(*token),
            _ => {}
        }
    }
    unheard.extend(granted.into_iter().filter(|t| !heard.contains(t)));
    unheard
}

/// Whether `event` is a store node granting the lock to one of `tokens`.
fn granted_to(event: &Event, tokens: &[Token]) -> bool {
    matches!(&event.kind, EventKind::Granted { token, .. } if tokens.contains(token))
}

/// What a student should notice about `event` beyond its sentence: a pause or stall at least
/// as long as the lease (`lease`, ms) outlasts any grant it holds.
fn remark(event: &Event, lease: Option<u64>) -> String {
    match (&event.kind, lease) {
        (EventKind::Paused { for_ms } | EventKind::Stalled { for_ms }, Some(ttl))
            if *for_ms >= ttl =>
        {
            format!(" — at least its whole lease ({})", fmt_ms(ttl))
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::library::{COURSE, INCIDENTS};
    use crate::search::Counterexample;

    #[test]
    fn the_headline_counts_faults_in_words() {
        let file = crate::scenario::library::shipped("scenarios/step5-pause-unfenced.toml");
        let mut bare = file.clone();
        bare.faults.clear();
        let found = Counterexample::remade(&bare, Goal::Unsafe, file.faults.clone(), 1, 3);
        let mut outcome = Finding {
            tries: 5,
            found: Some(found),
            interrupted: false,
        };
        assert_eq!(
            headline(Goal::Unsafe, &outcome, ""),
            "Found an unsafe run at schedule 5 (1 fault), shrunk in 3 runs to 1 fault (without \
             it the run passes)."
        );
        let once = Finding {
            tries: 1_500,
            found: Some(Counterexample::remade(
                &bare,
                Goal::Unsafe,
                file.faults.clone(),
                1,
                1,
            )),
            interrupted: false,
        };
        assert!(
            headline(Goal::Unsafe, &once, "")
                .starts_with("Found an unsafe run at schedule 1 500 (1 fault), shrunk in 1 run "),
            "{}",
            headline(Goal::Unsafe, &once, "")
        );
        // The same fault found on top of one the scenario had.
        let mut own = file.faults[0].clone();
        own.at_ms += 1;
        let mut with_own = bare.clone();
        with_own.faults.push(own);
        let found = Counterexample::remade(&with_own, Goal::Unsafe, file.faults.clone(), 1, 3);
        outcome.found = Some(found);
        assert!(
            headline(Goal::Unsafe, &outcome, "")
                .contains("to 1 fault on top of the scenario's own 1 fault ("),
            "{}",
            headline(Goal::Unsafe, &outcome, "")
        );
    }

    /// The position of the first step of `story` that says `needle`.
    fn step_of(story: &[String], needle: &str) -> usize {
        story
            .iter()
            .position(|line| line.contains(needle))
            .unwrap_or_else(|| panic!("no {needle:?} in {story:#?}"))
    }

    #[test]
    fn the_headline_of_a_search_that_found_nothing_counts_in_words() {
        let mut outcome = Finding {
            tries: 1,
            found: None,
            interrupted: false,
        };
        assert_eq!(
            headline(Goal::Unsafe, &outcome, ""),
            "None found in 1 schedule — evidence, not proof."
        );
        outcome.tries = 10_000;
        assert_eq!(
            headline(Goal::Unsafe, &outcome, ""),
            "None found in 10 000 schedules — evidence, not proof."
        );
        outcome.tries = 1_234;
        outcome.interrupted = true;
        assert_eq!(
            headline(Goal::NotLive, &outcome, "by Ctrl-C "),
            "Stopped by Ctrl-C after 1 234 schedules: none found so far."
        );
    }

    #[test]
    fn a_grant_deleted_before_its_worker_heard_of_it_is_told() {
        let mut s = crate::scenario::library::shipped("cases/force-release-live-holder.toml");
        let text = format!(
            "{}\n[[fault]]\nat_ms = 0\nkind = \"delay\"\nfrom = \"store1\"\nto = \"A\"\n\
             extra_ms = 3000\nfor_ms = 1000\n",
            crate::scenario::to_toml(&s).replace("at_ms = 2000", "at_ms = 1000")
        );
        s = crate::scenario::parse(&text).expect("valid");
        let run = crate::run(&s, s.seed);
        let story = narrate(&s, &run);
        let at = |needle: &str| step_of(&story, needle);
        assert!(
            at("granted 'lock' to A#1") < at("an operator deleted 'lock' while A#1 held it"),
            "{story:#?}"
        );
    }

    #[test]
    fn a_grant_its_worker_never_heard_of_and_its_takeover_are_told() {
        // A crashes before store1's grant reaches it; the new leader takes A#1's 30 s lease
        // over from its log, and B starves behind a grant nobody will release.
        let s = crate::scenario::library::shipped("scenarios/step6-consensus-failover.toml");
        let text = format!(
            "{}\n[[fault]]\nat_ms = 1\nkind = \"crash\"\nnode = \"A\"\n",
            crate::scenario::to_toml(&s)
        );
        let s = crate::scenario::parse(&text).expect("valid");
        let run = crate::run(&s, s.seed);
        assert!(!run.verdict.live);
        let story = narrate(&s, &run);
        let at = |needle: &str| step_of(&story, needle);
        assert!(at("A: crashed") < at("store1: granted 'lock' to A#1"));
        assert!(at("store1: granted 'lock' to A#1") < at("took over A#1's lease"));
        assert!(at("took over A#1's lease") < at("starved"));
    }

    #[test]
    fn the_story_ends_at_the_last_violation_and_is_bounded() {
        let mut left_out = 0;
        for (file, text) in COURSE.iter().chain(INCIDENTS) {
            let scenario = crate::scenario::parse(text).expect("valid");
            let run = crate::run(&scenario, scenario.seed);
            let Some(last) = run.verdict.violations.iter().map(|v| v.at_ms).max() else {
                continue;
            };
            left_out += run
                .trace
                .events
                .iter()
                .filter(|e| e.at_ms > last && tells(e))
                .count();
            let story = narrate(&scenario, &run);
            let kept = run.verdict.violations.len() + run.verdict.more.len();
            assert!(story.len() - kept <= MAX_EVENT_STEPS + 1, "{file}");
            for line in &story[..story.len() - kept] {
                let at = line
                    .split_once(". at ")
                    .and_then(|(_, rest)| rest.split_once(" ms,"))
                    .map(|(t, _)| t.replace(' ', ""))
                    .and_then(|t| t.parse::<u64>().ok());
                assert!(at.is_none_or(|t| t <= last), "{file}: {line}");
            }
        }
        assert!(
            left_out > 0,
            "some shipped run goes on after its last violation"
        );
    }
}
