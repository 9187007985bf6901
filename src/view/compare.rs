//! Two designs side by side on one seed: both scenarios run with the same seed (each with its
//! own faults), both timelines laid out on one time axis, the first moment their runs part,
//! and each side's verdict in words. A front end stacks the two timelines and moves one
//! playhead over both.
//!
//! The runs are compared event by event in trace order, each as its node and what happened
//! ([`Told::gist`]): the event with the design's own annotations — its fencing token, its
//! lease length — left out, so that a fenced and an unfenced grant match and the runs part
//! where an outcome differs (a write accepted on one side and refused on the other). Times
//! count only past [`SAME_MOMENT`]: two designs that send a message more or fewer draw
//! different network delays from one seed, and a grant a millisecond later is jitter, not
//! the lesson; but the same pause a second later is a moment the shared axis shows the runs
//! part at. The message plumbing the timeline hides ([`wording::is_network`])
//! is left out too: two designs that send different messages are told apart by what those
//! messages did, which the other events say.

use crate::checker::{Verdict, ViolationKind};
use crate::course::Step;
use crate::scenario::{Scenario, ScenarioError};
use crate::text::fmt_ms;
use crate::trace::{EventKind, Trace};
use crate::view::timeline::{Lanes, Swatch};
use crate::view::verdict::{summary, work};
use crate::view::wording::{self, Labels};

/// One event as the comparison reads it: when, where, and what the timeline says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Told {
    /// True ms.
    pub at_ms: u64,
    /// The node it happened at (`network` for a partition).
    pub node: String,
    /// Its sentence, from [`wording`].
    pub text: String,
    /// What happened, as the comparison matches it: the event without its `fence` and
    /// `lease_ms` ([`gist`]).
    pub gist: EventKind,
}

impl Told {
    /// `store1 granted 'lock' to A#1 (lease 10 000 ms)`.
    pub fn line(&self) -> String {
        format!("{} {}", self.node, self.text)
    }
}

/// One of the two runs.
#[derive(Clone, Debug)]
pub struct Side {
    /// What this side is, e.g. `Your call: …` or `B · Step 5 · Fencing token`.
    pub title: String,
    /// How the caption names it in a few words, e.g. `Your call` or `B`.
    pub tag: String,
    /// The scenario as given (its own seed is not the one used: see [`Comparison::seed`]).
    pub scenario: Scenario,
    /// What happened, with the shared seed.
    pub trace: Trace,
    /// The checker's verdict on it.
    pub verdict: Verdict,
    /// Its timeline, on the shared time axis: `until_ms` is the later of the two horizons,
    /// so the two plots line up at every zoom.
    pub lanes: Lanes,
    /// Its events as compared, in trace order, message plumbing left out.
    told: Vec<Told>,
}

impl Side {
    /// Runs `scenario` with `seed` and lays it out.
    fn new(tag: String, title: String, scenario: Scenario, seed: u64) -> Self {
        let crate::Run { trace, verdict, .. } = crate::run(&scenario, seed);
        let lanes = Lanes::build(&trace, &verdict);
        let told = told(&trace);
        Side {
            title,
            tag,
            scenario,
            trace,
            verdict,
            lanes,
            told,
        }
    }

    /// The verdict in words: the badges' words, what they mean, and the kinds found, e.g.
    /// `UNSAFE · LIVE. The protected data went wrong: … Found: overlap, stale_write.`
    pub fn verdict_in_words(&self) -> String {
        verdict_in_words(&self.verdict)
    }

    /// The last event told at or before `now_ms`: what this side's run had just done when
    /// the playhead is there.
    pub fn latest(&self, now_ms: f64) -> Option<&Told> {
        let reached = self.told.partition_point(|t| t.at_ms as f64 <= now_ms);
        reached.checked_sub(1).map(|i| &self.told[i])
    }

    /// Where this run ends, true ms: its horizon, or where the engine's budget cut it short.
    pub fn ends_ms(&self) -> u64 {
        self.trace.cut_short_at_ms.unwrap_or(self.trace.until_ms)
    }
}

/// The first moment the two runs part.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// True ms: the earlier of the two events that differ.
    pub at_ms: u64,
    /// Side A's event there, `None` if its run has no more to tell.
    pub a: Option<Told>,
    /// Side B's event there, `None` if its run has no more to tell.
    pub b: Option<Told>,
}

/// Two runs of one seed, ready to be drawn one above the other.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The seed both sides ran with.
    pub seed: u64,
    /// The shared time axis' right end: the later of the two horizons, true ms.
    pub until_ms: u64,
    /// The upper timeline.
    pub a: Side,
    /// The lower timeline.
    pub b: Side,
    /// Where they part; `None` if every told event is the same.
    pub divergence: Option<Divergence>,
    /// Both runs' moments (where something visible changes), merged: the step buttons stop
    /// at each, whichever side it is on.
    pub moments: Vec<u64>,
    /// Both timelines' legends as one, in legend order, each entry at the earlier of the
    /// times it first appears: the legend under the two explains both.
    pub legend: Vec<(Swatch, u64)>,
}

impl Comparison {
    /// Runs `a` and `b` (each a tag, a title and a scenario) with `seed` and compares them.
    pub fn new(a: (String, String, Scenario), b: (String, String, Scenario), seed: u64) -> Self {
        let mut a = Side::new(a.0, a.1, a.2, seed);
        let mut b = Side::new(b.0, b.1, b.2, seed);
        let until_ms = a.lanes.until_ms.max(b.lanes.until_ms);
        a.lanes.until_ms = until_ms;
        b.lanes.until_ms = until_ms;
        let divergence = first_divergence(&a.told, &b.told, until_ms / SAME_MOMENT);
        let mut moments: Vec<u64> = a
            .lanes
            .moments
            .iter()
            .chain(&b.lanes.moments)
            .copied()
            .collect();
        crate::order::sort(&mut moments);
        moments.dedup();
        let mut legend: Vec<(Swatch, u64)> = Vec::new();
        for &(swatch, at) in a.lanes.legend.iter().chain(&b.lanes.legend) {
            match legend.iter_mut().find(|(s, _)| *s == swatch) {
                Some(entry) => entry.1 = entry.1.min(at),
                None => legend.push((swatch, at)),
            }
        }
        crate::order::sort(&mut legend);
        Comparison {
            seed,
            until_ms,
            a,
            b,
            divergence,
            moments,
            legend,
        }
    }

    /// The caption by the divergence marker: `First difference at 2 ms`, or that there is
    /// none.
    pub fn caption(&self) -> String {
        match &self.divergence {
            Some(d) => format!("First difference at {}", fmt_ms(d.at_ms)),
            None => format!(
                "No difference: both runs tell the same events at the same times (seed {}).",
                self.seed
            ),
        }
    }

    /// What each side did at the divergence, upper side first, e.g. `store1 granted 'lock'
    /// to A#1 (lease 10 000 ms)`; `None` when there is no divergence.
    pub fn details(&self) -> Option<[String; 2]> {
        let d = self.divergence.as_ref()?;
        Some([&d.a, &d.b].map(|told| match told {
            Some(t) if t.at_ms == d.at_ms => t.line(),
            Some(t) => format!("nothing yet (next, at {}: {})", fmt_ms(t.at_ms), t.line()),
            None => "nothing more happens in this run".to_string(),
        }))
    }
}

/// Option `a` of `step` (the learner's call) above option `b`, both run with `a`'s seed.
/// Within a step the options' scenarios are written for the same situation, and each keeps
/// the verdict the course shows for it on the other's seed (a test holds every pair to that).
pub fn of_options(step: &Step, a: usize, b: usize) -> Option<Result<Comparison, ScenarioError>> {
    let (first, second) = (step.options.get(a)?, step.options.get(b)?);
    let other = if second.right {
        "The right call"
    } else {
        "Another call"
    };
    Some((|| {
        let (sa, sb) = (first.scenario()?, second.scenario()?);
        let seed = sa.seed;
        Ok(Comparison::new(
            side("Your call", first.label, sa),
            side(other, second.label, sb),
            seed,
        ))
    })())
}

/// The sandbox's scenario `a` above `b` (one from the library, or the one `a` was edited
/// from), both run with `a`'s seed. Each is titled by its name after a tag that says where
/// it comes from (not "A" and "B", which name workers): the same name is taken for an edit
/// and where it started.
pub fn of_scenarios(a: Scenario, b: Scenario) -> Comparison {
    let seed = a.seed;
    let (upper, lower) = if a.name == b.name {
        ("Your edit", "As it started")
    } else {
        ("Sandbox", "Library")
    };
    let (a_name, b_name) = (a.name.clone(), b.name.clone());
    Comparison::new(side(upper, &a_name, a), side(lower, &b_name, b), seed)
}

/// A side's tag, its title (`tag: what`) and its scenario.
fn side(tag: &str, what: &str, scenario: Scenario) -> (String, String, Scenario) {
    (tag.to_string(), format!("{tag}: {what}"), scenario)
}

/// The events of `trace` a comparison reads, in trace order.
fn told(trace: &Trace) -> Vec<Told> {
    let labels = Labels::new(trace);
    trace
        .events
        .iter()
        .filter(|e| !wording::is_network(trace, e))
        .map(|e| Told {
            at_ms: e.at_ms,
            node: wording::node_label(trace, e).to_string(),
            text: labels.describe(e),
            gist: gist(&e.kind),
        })
        .collect()
}

/// `kind` with its design annotations — its fencing token, its lease length — taken out,
/// for matching (see the module's docs). A test holds it to every `fence` and `lease_ms`
/// field [`EventKind`] has.
fn gist(kind: &EventKind) -> EventKind {
    let mut gist = kind.clone();
    match &mut gist {
        EventKind::Acquired {
            fence, lease_ms, ..
        }
        | EventKind::Granted {
            fence, lease_ms, ..
        } => {
            *fence = None;
            *lease_ms = None;
        }
        EventKind::Renewed { lease_ms, .. }
        | EventKind::LeaseExtended { lease_ms, .. }
        | EventKind::TtlSet { lease_ms, .. } => *lease_ms = 0,
        EventKind::Read { fence, .. }
        | EventKind::WriteAccepted { fence, .. }
        | EventKind::ReadRejected { fence, .. }
        | EventKind::WriteRejected { fence, .. } => *fence = None,
        _ => {}
    }
    gist
}

/// Two events told alike are one moment when they are at most this share of the shared time
/// axis apart (a hundredth: 10 px of a 1 000 px timeline), the jitter the eye cannot see.
const SAME_MOMENT: u64 = 100;

/// The first place, in order, where `a` and `b` tell a different event (or one has run out),
/// or tell the same event more than `within_ms` apart.
fn first_divergence(a: &[Told], b: &[Told], within_ms: u64) -> Option<Divergence> {
    let same = a
        .iter()
        .zip(b)
        .take_while(|(x, y)| {
            (&x.node, &x.gist) == (&y.node, &y.gist) && x.at_ms.abs_diff(y.at_ms) <= within_ms
        })
        .count();
    let (x, y) = (a.get(same), b.get(same));
    let at_ms = match (x, y) {
        (None, None) => return None,
        (Some(x), Some(y)) => x.at_ms.min(y.at_ms),
        (Some(t), None) | (None, Some(t)) => t.at_ms,
    };
    Some(Divergence {
        at_ms,
        a: x.cloned(),
        b: y.cloned(),
    })
}

/// A verdict in words: `SAFE · LIVE` or what failed, what that means for the data and the
/// lock ([`summary`]), the work done ([`work`]: the price a throughput step compares), and
/// the kinds of violation found, in the order they were first found.
pub fn verdict_in_words(verdict: &Verdict) -> String {
    let safe = if verdict.safe { "SAFE" } else { "UNSAFE" };
    let live = if verdict.live { "LIVE" } else { "NOT LIVE" };
    let mut kinds: Vec<ViolationKind> = Vec::new();
    for v in &verdict.violations {
        if !kinds.contains(&v.kind) {
            kinds.push(v.kind);
        }
    }
    let mut words = format!("{safe} · {live}. {}", summary(verdict));
    if let Some(work) = work(verdict) {
        words.push_str(&format!(" {}.", upper_first(&work)));
    }
    if !kinds.is_empty() {
        let names: Vec<String> = kinds.iter().map(ToString::to_string).collect();
        words.push_str(&format!(" Found: {}.", names.join(", ")));
    }
    if let Some(at) = verdict.cut_short_at_ms {
        words.push_str(&format!(" {}", wording::cut_short(at)));
    }
    words
}

/// `text` with its first letter in upper case.
fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    const UNFENCED: &str = crate::scenario::library::text(
        crate::scenario::library::COURSE,
        "step5-pause-unfenced.toml",
    );
    const FENCED: &str = crate::scenario::library::text(
        crate::scenario::library::COURSE,
        "step5-fencing-token.toml",
    );

    fn side(tag: &str, source: &str) -> (String, String, Scenario) {
        let scenario = scenario::parse(source).unwrap();
        super::side(tag, &scenario.name.clone(), scenario)
    }

    #[test]
    fn a_scenario_never_parts_from_itself() {
        for seed in [1, 2, 99] {
            for source in [UNFENCED, FENCED] {
                let same = Comparison::new(side("A", source), side("B", source), seed);
                assert_eq!(same.divergence, None, "seed {seed}");
                assert_eq!(same.details(), None);
                assert!(same.caption().starts_with("No difference"));
                assert_eq!(same.a.verdict_in_words(), same.b.verdict_in_words());
            }
        }
    }

    #[test]
    fn fencing_parts_from_no_fencing_at_the_stale_write() {
        let c = Comparison::new(side("A", UNFENCED), side("B", FENCED), 1);
        // `locksim run` on both files, seed 1: the same events at the same times — grants
        // that differ only by the fencing design's "fence 1", reads that differ only by the
        // fence they carry — until 17 007 ms, where one resource accepts A's stale write and
        // the other refuses it.
        let d = c.divergence.clone().expect("they differ");
        assert_eq!(d.at_ms, 17_007);
        let (a, b) = (d.a.unwrap(), d.b.unwrap());
        assert_eq!(
            a.line(),
            "resource write by A#1 accepted: the record is now 1 (version 2)"
        );
        assert_eq!(
            b.line(),
            "resource write by A#1 (fence 1) rejected: stale fencing token"
        );
        assert_eq!(c.caption(), "First difference at 17 007 ms");
        let (a, b) = (c.a.verdict_in_words(), c.b.verdict_in_words());
        assert!(a.starts_with("UNSAFE · LIVE."), "{a}");
        assert!(a.contains("stale_write"), "{a}");
        assert!(b.starts_with("SAFE · LIVE."), "{b}");
        assert!(b.contains("1 critical section done by 11 113 ms"), "{b}");
        assert!(!b.contains("stale_write"), "{b}");
        // At the stale write, one side applied it and the other refused it.
        let (a, b) = (c.a.latest(17_007.0).unwrap(), c.b.latest(17_007.0).unwrap());
        assert!(a.text.contains("accepted"), "{a:?}");
        assert!(b.text.contains("rejected"), "{b:?}");
    }

    #[test]
    fn both_timelines_share_the_later_horizon() {
        let mut longer = scenario::parse(FENCED).unwrap();
        longer.until_ms = 30_000;
        let c = Comparison::new(
            side("A", UNFENCED),
            ("B".to_string(), "B".to_string(), longer),
            1,
        );
        assert_eq!(c.until_ms, 30_000);
        assert_eq!(c.a.lanes.until_ms, 30_000);
        assert_eq!(c.b.lanes.until_ms, 30_000);
        assert_eq!(c.a.ends_ms(), 20_000);
        assert!(c.moments.windows(2).all(|w| w[0] < w[1]));
        assert!(c.a.lanes.moments.iter().all(|m| c.moments.contains(m)));
        assert!(c.b.lanes.moments.iter().all(|m| c.moments.contains(m)));
        // The fenced run's refused write joins the legend at 17 007 ms.
        assert!(c.legend.windows(2).all(|w| w[0].0 < w[1].0));
        for (swatch, at) in c.a.lanes.legend.iter().chain(&c.b.lanes.legend) {
            assert!(c.legend.iter().any(|(s, t)| s == swatch && t <= at));
        }
    }

    #[test]
    fn a_run_that_stops_telling_parts_where_the_other_goes_on() {
        let told = |at_ms, text: &str| Told {
            at_ms,
            node: "A".to_string(),
            text: text.to_string(),
            gist: EventKind::Crashed,
        };
        let short = [told(0, "asks"), told(5, "acquires")];
        let long = [told(0, "asks"), told(5, "acquires"), told(9, "writes")];
        let d = first_divergence(&short, &long, 2).unwrap();
        assert_eq!((d.at_ms, d.a, d.b), (9, None, Some(told(9, "writes"))));
        // The same events at other times within the jitter allowed do not part the runs;
        // beyond it, the earlier one is where they part.
        let late = [told(0, "asks"), told(7, "acquires")];
        assert_eq!(first_divergence(&short, &late, 2), None);
        assert_eq!(first_divergence(&short, &short, 0), None);
        let d = first_divergence(&short, &late, 1).unwrap();
        assert_eq!(
            (d.at_ms, d.a, d.b),
            (5, Some(told(5, "acquires")), Some(told(7, "acquires")))
        );
        // Where the events differ, the earlier of the two times is where they part.
        let other = Told {
            gist: EventKind::Restarted,
            ..told(3, "restarts")
        };
        let d = first_divergence(&late, &[told(0, "asks"), other], 2).unwrap();
        assert_eq!(d.at_ms, 3);
    }

    #[test]
    fn step_5s_first_call_parts_from_the_right_one_where_the_pause_holds_back_a_write() {
        // The runs share every message until A's first write: the right call's lands at
        // 2 010 ms, while the lease check's write waits out the pause that fell after it.
        let step = crate::course::STEPS
            .iter()
            .find(|s| s.number == "5")
            .unwrap();
        let right = step.options.iter().position(|o| o.right).unwrap();
        let c = of_options(step, 0, right).unwrap().unwrap();
        assert_eq!(c.caption(), "First difference at 2 010 ms");
        let [_, theirs] = c.details().unwrap();
        assert!(
            theirs.contains("write by A#1 (fence 1) accepted"),
            "{theirs}"
        );
    }

    #[test]
    fn a_fault_moved_in_the_sandbox_parts_the_runs_where_it_first_strikes() {
        // Step 5's fencing design with its pause moved from 1 000 to 1 500 ms: the same
        // events in the same order, half a second apart from the pause on, which the shared
        // axis shows.
        let fenced = scenario::parse(FENCED).unwrap();
        let mut edit = fenced.clone();
        edit.faults[0].at_ms = 1_500;
        let c = of_scenarios(edit, fenced);
        assert_eq!(c.caption(), "First difference at 1 000 ms");
        assert_eq!(
            c.details().unwrap(),
            [
                "nothing yet (next, at 1 500 ms: A paused for 15 000 ms)".to_string(),
                "A paused for 15 000 ms".to_string()
            ]
        );
        // The check-the-lease call beside the fencing design: its pause at 2 009 ms, the
        // other's at 1 000 ms, after the 1 ms jitter of the grant and the read.
        let check = scenario::parse(crate::scenario::library::text(
            crate::scenario::library::COURSE,
            "step5-check-lease-then-pause.toml",
        ))
        .unwrap();
        let c = of_scenarios(check, scenario::parse(FENCED).unwrap());
        assert_eq!(c.caption(), "First difference at 1 000 ms");
    }

    #[test]
    fn the_side_at_the_playhead_is_its_latest_event() {
        let c = Comparison::new(side("A", UNFENCED), side("B", FENCED), 1);
        assert_eq!(c.a.latest(-1.0), None);
        assert_eq!(
            c.a.latest(0.0).unwrap().text,
            "tries to acquire 'lock' as A#1"
        );
        assert_eq!(c.a.latest(1.5).unwrap().at_ms, 0);
        assert_eq!(c.b.latest(f64::MAX).unwrap().at_ms, 17_010);
    }

    /// Each option keeps the verdict the course shows for it when run with the seed of the
    /// option it is compared with, so a comparison never contradicts the step.
    #[test]
    fn every_pair_of_options_keeps_the_courses_verdicts() {
        use crate::course::{self, STEPS};
        for step in STEPS.iter() {
            let demos: Vec<_> = step
                .options
                .iter()
                .map(|c| course::demonstrate(c).unwrap())
                .collect();
            for a in 0..demos.len() {
                for b in (0..demos.len()).filter(|&b| b != a) {
                    let c = of_options(step, a, b).unwrap().unwrap();
                    let no = step.number;
                    for (side, demo) in [(&c.a, &demos[a]), (&c.b, &demos[b])] {
                        assert_eq!(
                            (side.verdict.safe, side.verdict.live),
                            (demo.verdict.safe, demo.verdict.live),
                            "step {no}: {} beside the other option",
                            side.title
                        );
                    }
                    assert!(c.a.title.starts_with("Your call: "));
                    let right = step.options[b].right;
                    assert_eq!(c.b.title.starts_with("The right call: "), right);
                }
            }
            assert!(of_options(step, 0, step.options.len()).is_none());
        }
    }

    #[test]
    fn an_edit_is_told_apart_from_where_it_started() {
        let fenced = scenario::parse(FENCED).unwrap();
        let mut edit = fenced.clone();
        edit.resource.fencing = false;
        edit.seed = 4;
        let c = of_scenarios(edit, fenced.clone());
        assert_eq!(c.seed, 4);
        assert_eq!(
            c.a.title,
            "Your edit: Step 5 · Fencing token: the resource turns the stale holder away"
        );
        assert!(
            c.b.title.starts_with("As it started: Step 5"),
            "{}",
            c.b.title
        );
        let other = of_scenarios(fenced, scenario::parse(UNFENCED).unwrap());
        assert!(other.a.title.starts_with("Sandbox: Step 5 · Fencing token"));
        assert_eq!(
            other.b.title,
            "Library: Step 5 · Paused past the lease, no fencing"
        );
    }

    /// The event kinds of every shipped scenario's run, with the fields `gist` must clear
    /// found by name in each kind's serialised form: it clears exactly `fence` and
    /// `lease_ms`, whatever the kind.
    #[test]
    fn the_gist_leaves_out_every_fence_and_lease_and_nothing_else() {
        let strip = |kind: &EventKind| {
            let mut value = serde_json::to_value(kind).unwrap();
            let fields = value.as_object_mut().unwrap();
            fields.remove("fence");
            fields.remove("lease_ms");
            value
        };
        let mut kinds = 0;
        let library = crate::scenario::library::COURSE
            .iter()
            .chain(crate::scenario::library::INCIDENTS);
        for (_, text) in library {
            let s = crate::scenario::parse(text).unwrap();
            for event in crate::run(&s, s.seed).trace.events {
                let (kind, gist) = (&event.kind, gist(&event.kind));
                let mut cleared = serde_json::to_value(&gist).unwrap();
                let fields = cleared.as_object_mut().unwrap();
                // What `gist` set: `None` (null), or 0 for a lease that is always there.
                for name in ["fence", "lease_ms"] {
                    if let Some(v) = fields.remove(name) {
                        assert!(v.is_null() || v == 0, "{kind:?}: {name} left as {v}");
                    }
                }
                assert_eq!(cleared, strip(kind), "{kind:?}");
                kinds += 1;
            }
        }
        assert!(kinds > 1_000, "{kinds} events read");
    }
}
