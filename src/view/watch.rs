//! The line under the verdict that tells a learner where to look first ("watch A's bar
//! outlive its lease"). Worked out once per run from the verdict and the trace; egui-free.

use crate::checker::{Verdict, Violation, ViolationKind};
use crate::trace::{EventKind, NodeId, Token, Trace};

/// One sentence naming the lanes where this run's lesson happens. The root cause wins: a
/// store granting twice, then a release that frees someone else's lock, then a holder
/// outliving its lease, then two holders at once, then a lock nobody gets back.
pub fn what_to_watch(trace: &Trace, verdict: &Verdict) -> String {
    let first = |kind: ViolationKind| verdict.violations.iter().find(|v| v.kind == kind);
    let name = |node: NodeId| trace.node_name(node).to_string();
    let after_the_fact = writes_after(trace, verdict);

    if let Some(v) = first(ViolationKind::DoubleGrant) {
        let [a, b] = pair(v);
        return format!(
            "Watch the store grant {} the lock while {} still holds it{after_the_fact}.",
            name(b.worker),
            name(a.worker)
        );
    }
    if let Some(v) = first(ViolationKind::ForeignRelease) {
        let [by, holder] = pair(v);
        let holder_name = name(holder.worker);
        return if v.grants.len() < 2 {
            format!(
                "Watch the operator's delete remove {holder_name}'s lock on the store \
                 lane{after_the_fact}."
            )
        } else if held_ever(trace, by) {
            format!(
                "Watch {}'s late release delete {holder_name}'s lock on the store \
                 lane{after_the_fact}.",
                name(by.worker)
            )
        } else {
            format!(
                "Watch {}'s health check delete {holder_name}'s lock while {holder_name} \
                 cannot answer{after_the_fact}.",
                name(by.worker)
            )
        };
    }
    if let Some(v) = first(ViolationKind::Overlap) {
        let [a, b] = pair(v);
        let outlived = [a, b]
            .into_iter()
            .find(|t| lease_gone_before(trace, *t, v.at_ms));
        return match outlived {
            Some(t) if freed_by_itself(trace, t, v.at_ms) => format!(
                "Watch the nested release free {}'s lock while {} still works{after_the_fact}.",
                name(t.worker),
                name(t.worker)
            ),
            Some(t) => format!(
                "Watch {}'s bar outlive its lease{}.",
                name(t.worker),
                late_write(trace, t)
            ),
            None => format!(
                "Watch {}'s and {}'s bars: both believe they hold the lock{after_the_fact}.",
                name(a.worker),
                name(b.worker)
            ),
        };
    }
    let starved = starved(trace, verdict);
    if let Some(v) = first(ViolationKind::Stuck) {
        let holder = name(pair(v)[0].worker);
        let waiting = starved.as_ref().map_or(String::new(), |w| {
            let verb = if w.contains(" and ") { "wait" } else { "waits" };
            format!(", while {w} {verb}")
        });
        return format!(
            "Watch {holder}'s lock stay on the store lane long after {holder} can use it{waiting}."
        );
    }
    if let Some(w) = starved {
        return format!("Watch {w} wait for the lock.");
    }
    if let Some(t) = rejected_writer(trace) {
        return format!(
            "Watch the resource lane turn {}'s write away.",
            name(t.worker)
        );
    }
    if trace.keys.len() > 1 {
        return "Watch the store lane: one lease per key at a time, and work on different keys \
                side by side."
            .to_string();
    }
    "Watch the store lane: one lease at a time, each worker in its turn.".to_string()
}

/// The first two grants a violation names (one grant counts twice).
fn pair(v: &Violation) -> [Token; 2] {
    let a = v.grants.first().copied().unwrap_or(Token {
        worker: NodeId::new(0),
        seq: 0,
    });
    [a, v.grants.get(1).copied().unwrap_or(a)]
}

/// Whether `token` was ever granted to its worker.
fn held_ever(trace: &Trace, token: Token) -> bool {
    trace
        .events
        .iter()
        .any(|e| matches!(e.kind, EventKind::Acquired { token: t, .. } if t == token))
}

/// Whether the store freed `token`'s lock at its own release before `at_ms` while its worker
/// still believed it held it: a nested section's release of a lock that keeps no count.
fn freed_by_itself(trace: &Trace, token: Token, at_ms: u64) -> bool {
    trace
        .events
        .iter()
        .take_while(|e| e.at_ms <= at_ms)
        .any(|e| {
            matches!(e.kind,
            EventKind::Removed { holder, by, .. } if holder == token && by == token)
        })
}

/// Whether the store side let go of `token` (expiry or someone's release) before `at_ms`.
fn lease_gone_before(trace: &Trace, token: Token, at_ms: u64) -> bool {
    trace
        .events
        .iter()
        .take_while(|e| e.at_ms <= at_ms)
        .any(|e| {
            matches!(e.kind,
            EventKind::Expired { token: t, .. }
                | EventKind::ExpiredByClient { token: t, .. }
                | EventKind::ExpiredUnchanged { token: t, .. }
                | EventKind::Removed { holder: t, .. } if t == token)
        })
}

/// What the holder of `token` did late, as the end of the sentence about its outlived lease:
/// a refused write, a write that landed, or a release the store ignored.
fn late_write(trace: &Trace, token: Token) -> &'static str {
    let (mut accepted, mut release_ignored) = (false, false);
    for e in &trace.events {
        match e.kind {
            EventKind::WriteRejected { token: t, .. } if t == token => {
                return ", and the resource refuse its write";
            }
            EventKind::WriteAccepted { token: t, .. } if t == token => accepted = true,
            EventKind::ReleaseIgnored { by, .. } if by == token => release_ignored = true,
            _ => {}
        }
    }
    if accepted {
        ", and its write still land on the resource"
    } else if release_ignored {
        ", and the store ignore its late release"
    } else {
        ""
    }
}

/// ", and the writes collide on the resource" when the data went wrong.
fn writes_after(trace: &Trace, verdict: &Verdict) -> &'static str {
    if !verdict.safe {
        ", then the writes collide on the resource"
    } else if rejected_writer(trace).is_some() {
        ", then the resource turn a write away"
    } else {
        ""
    }
}

/// "B waits" or "B and C wait": the workers the checker found starved.
fn starved(trace: &Trace, verdict: &Verdict) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    for v in verdict
        .violations
        .iter()
        .filter(|v| v.kind == ViolationKind::Starved)
    {
        for &node in &v.nodes {
            let n = trace.node_name(node);
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    match names.as_slice() {
        [] => None,
        [one] => Some((*one).to_string()),
        [init @ .., last] => Some(format!("{} and {last}", init.join(", "))),
    }
}

/// The first worker whose write the resource refused.
fn rejected_writer(trace: &Trace) -> Option<Token> {
    trace.events.iter().find_map(|e| match e.kind {
        EventKind::WriteRejected { token, .. } => Some(token),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::{STEPS, demonstrate, play};
    use crate::scenario::{self, library};

    /// The line for the course scenario `file` (without `.toml`).
    fn watch_file(file: &str) -> String {
        let name = format!("{file}.toml");
        let (_, src) = library::COURSE
            .iter()
            .find(|(f, _)| *f == name)
            .expect("a course scenario");
        let demo = play(scenario::parse(src).expect("course scenarios parse"));
        what_to_watch(&demo.trace, &demo.verdict)
    }

    fn watch(step: usize, option: usize) -> String {
        let demo = demonstrate(&STEPS[step].options[option]).expect("course scenarios parse");
        what_to_watch(&demo.trace, &demo.verdict)
    }

    #[test]
    fn the_fencing_step_points_at_the_outlived_lease() {
        assert_eq!(
            watch_file("step5-fencing-token"),
            "Watch A's bar outlive its lease, and the resource refuse its write."
        );
        assert_eq!(
            watch_file("step5-longer-ttl"),
            "Watch A's bar outlive its lease, and its write still land on the resource."
        );
    }

    #[test]
    fn an_owner_token_points_at_the_ignored_release() {
        assert_eq!(
            watch_file("step4-compare-and-delete"),
            "Watch A's bar outlive its lease, and the store ignore its late release."
        );
    }

    #[test]
    fn a_blind_release_points_at_the_release() {
        assert_eq!(
            watch_file("step4-blind-release"),
            "Watch A's late release delete B's lock on the store lane, then the writes collide on the resource."
        );
    }

    #[test]
    fn a_dead_holder_points_at_the_lock_left_behind() {
        assert_eq!(
            watch_file("step3-setnx-holder-crash"),
            "Watch A's lock stay on the store lane long after A can use it, while C and B wait."
        );
        assert_eq!(
            watch_file("step3-setnx-then-expire"),
            "Watch A's lock stay on the store lane long after A can use it, while C and B wait."
        );
        assert_eq!(
            watch_file("step6-single-store-down"),
            "Watch B and A wait for the lock."
        );
    }

    #[test]
    fn a_health_check_and_a_nested_release_are_named_for_what_they_are() {
        assert_eq!(
            watch_file("step3-ping-then-delete"),
            "Watch C's health check delete B's lock while B cannot answer, then the writes \
             collide on the resource."
        );
        assert_eq!(
            watch_file("step7-uncounted-reentry"),
            "Watch the nested release free A's lock while A still works, then the writes \
             collide on the resource."
        );
    }

    #[test]
    fn record_locks_point_at_leases_side_by_side() {
        assert_eq!(
            watch_file("step7-record-locks"),
            "Watch the store lane: one lease per key at a time, and work on different keys side by side."
        );
    }

    #[test]
    fn every_course_run_has_a_line() {
        for (n, step) in STEPS.iter().enumerate() {
            for i in 0..step.options.len() {
                let line = watch(n, i);
                assert!(line.starts_with("Watch ") && line.ends_with('.'), "{line}");
            }
        }
    }
}
