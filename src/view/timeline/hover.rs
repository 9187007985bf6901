//! The hover text of everything on the timeline: what a span, a mark, a message or a partition
//! is, and what is summed up where things are too dense to draw one by one.
//!
//! What an event did is said in the words of [`crate::view::wording`], as the command line's
//! timeline says it; this module adds only what the lanes know beyond one event (how long a
//! belief outlived its lease, which fence the resource had seen), and tells no more than a
//! student watching at the playhead may know.

use super::{
    LeaseEnd, Mark, MarkClass, MarkKind, Message, Partition, Span, SpanKind, WriteOutcome,
};
use crate::checker::{Verdict, Violation, ViolationKind};
use crate::text::fmt_ms;
use crate::trace::{NodeId, RejectReason, Token, Trace};
use crate::view::wording::{self, describe, node_label};

/// Event `i` of `trace` as one line: `10 002 ms · store1: lease of A#1 on 'lock' expired:
/// lock removed`, the columns of the command line's timeline.
pub fn event_line(trace: &Trace, i: usize) -> String {
    let event = &trace.events[i];
    format!(
        "{} · {}: {}",
        fmt_ms(event.at_ms),
        node_label(trace, event),
        describe(trace, event)
    )
}

/// `\n` and the line of event `i`, if there is one and it happened by `now_ms`.
fn then(trace: &Trace, event: Option<usize>, now_ms: u64) -> String {
    event
        .filter(|&i| trace.events[i].at_ms <= now_ms)
        .map(|i| format!("\n{}", event_line(trace, i)))
        .unwrap_or_default()
}

impl Span {
    /// The hover text: what the span is, when, and how it ended — as far as a student
    /// watching at `now_ms` may know: nothing after it is told.
    pub fn details(&self, trace: &Trace, node: NodeId, now_ms: u64) -> String {
        let who = trace.node_name(node);
        let ended = self.end_ms <= now_ms;
        let when = if ended {
            format!(
                "from {} to {} ({})",
                fmt_ms(self.start_ms),
                fmt_ms(self.end_ms),
                fmt_ms(self.end_ms - self.start_ms)
            )
        } else {
            format!(
                "since {} ({} so far)",
                fmt_ms(self.start_ms),
                fmt_ms(now_ms.saturating_sub(self.start_ms))
            )
        };
        let end = if ended {
            then(trace, self.end_event, now_ms)
        } else {
            String::new()
        };
        match self.kind {
            SpanKind::Belief {
                key,
                token,
                fence,
                let_go,
                ref lease_lost,
                ..
            } => {
                let mut text = format!(
                    "{who} believes it holds {} as {}{}\n{when}{end}",
                    wording::key(trace, key),
                    trace.token_name(token),
                    fence
                        .map(|f| format!(" with fence {f}"))
                        .unwrap_or_default()
                );
                if ended && let_go.is_none() {
                    text.push_str("\nand still does at the end of the run");
                }
                if let Some(lost) = lease_lost.as_ref().filter(|l| l.at_ms <= now_ms) {
                    text.push_str(&format!(
                        "\nBut the store stopped holding it at {} ({}): {} believing in a lock it no longer had.",
                        fmt_ms(lost.at_ms),
                        lost.label,
                        fmt_ms(self.end_ms.min(now_ms) - lost.at_ms)
                    ));
                }
                text
            }
            SpanKind::Lease {
                key,
                token,
                fence,
                promised_end_ms,
                end: how,
                took_over,
                on_disk,
                ..
            } => {
                let grant = format!(
                    "{} for {}{}",
                    wording::key(trace, key),
                    trace.token_name(token),
                    fence.map(|f| format!(" (fence {f})")).unwrap_or_default()
                );
                let mut text = if on_disk {
                    format!(
                        "{who} is down {when}.\nOn its disk it still has {grant}, frozen: a \
                         down node grants nothing and answers no one."
                    )
                } else if took_over {
                    format!(
                        "{who} holds {grant}\n{when}\nAs the new leader it took this lease \
                         over from its log, where an earlier leader had decided it, and \
                         restarted its countdown in full (as etcd does): not a new grant."
                    )
                } else {
                    format!("{who} holds {grant}\n{when}")
                };
                match promised_end_ms {
                    Some(p) => text.push_str(&format!("\nlease promised until {}", fmt_ms(p))),
                    None => text.push_str("\nno expiry"),
                }
                if !ended {
                    return text;
                }
                text.push_str(&end);
                if how == LeaseEnd::BackAsFollower {
                    let head = wording::head(trace);
                    text.push_str(&format!(
                        "\nIt came back as a {}: a newer {} decides now.",
                        head.follower(),
                        head.title()
                    ));
                }
                text.push_str(match how {
                    LeaseEnd::RanOut => "\nthen the lease ran out",
                    LeaseEnd::Horizon if on_disk => "\nstill down at the end of the run",
                    LeaseEnd::Horizon => "\nstill held at the end of the run",
                    LeaseEnd::NodeUp => "\nIts disk still had the grant: it holds it again.",
                    LeaseEnd::BackAsFollower
                    | LeaseEnd::Expired
                    | LeaseEnd::Removed { .. }
                    | LeaseEnd::Forgot
                    | LeaseEnd::Unflushed
                    | LeaseEnd::Forced(_)
                    | LeaseEnd::SessionEnded(_)
                    | LeaseEnd::Replaced { .. }
                    | LeaseEnd::NodeDown => "",
                });
                text
            }
            SpanKind::Logged {
                key, token, index, ..
            } => format!(
                "{who} has logged {}'s acquire of {} (log entry {index}) {when}.\nA follower's \
                 copy: the leader decides a grant once a majority of the nodes has logged it, \
                 so a new leader is sure to know it (Raft §5.3–5.4).{end}",
                trace.token_name(token),
                wording::key(trace, key)
            ),
            SpanKind::Waiting {
                key,
                attempts,
                ref refusals,
            } => {
                let mut text = format!("{who} wants {} {when}", wording::key(trace, key));
                if let Some(r) = refusals.iter().rev().find(|r| r.at_ms <= now_ms) {
                    text.push_str(&format!("\n{}", event_line(trace, r.event)));
                }
                if ended {
                    text.push_str(&format!(
                        "{end}\n{attempts} attempt{} in all",
                        if attempts == 1 { "" } else { "s" }
                    ));
                }
                text
            }
            SpanKind::Paused => format!(
                "{who} is paused (like a long GC pause) {when}:\nit handles nothing; its timers fire late{end}"
            ),
            SpanKind::Stalled => format!(
                "{who} is stalled {when}:\nthe process lives, but its work does not advance{end}"
            ),
            SpanKind::Crashed => format!("{who} is down {when}{end}"),
            SpanKind::SlowLink { to, extra_ms } => format!(
                "messages from {who} to {} take {} longer {when}",
                trace.node_name(to),
                fmt_ms(extra_ms)
            ),
        }
    }
}

impl Mark {
    /// The hover text: the event's line, and what the lanes know beyond it. A write the
    /// checker names gets the checker's own explanation from `verdict`.
    pub fn details(&self, trace: &Trace, verdict: &Verdict, node: NodeId) -> String {
        let Some(i) = self.event else {
            // A role held from the start: no event says so.
            let (MarkKind::BecameLeader { term, .. }, Some(head)) =
                (self.kind.clone(), trace.topology.head())
            else {
                return String::new();
            };
            let (what, round) = (head.title(), head.round());
            return format!(
                "{} is the {what} from the start ({round} {term}): it decides the grants, and \
                 the others copy them",
                trace.node_name(node)
            );
        };
        let mut text = event_line(trace, i);
        match self.kind {
            MarkKind::Write {
                token,
                outcome: WriteOutcome::Violating(kind),
                ..
            } => {
                if let Some(v) = violation(verdict, kind, token, self.at_ms) {
                    text.push_str(&format!(
                        "\nThe checker reports {} at {}: {}",
                        v.kind,
                        fmt_ms(v.at_ms),
                        v.explanation
                    ));
                }
            }
            MarkKind::Write {
                outcome:
                    WriteOutcome::Rejected {
                        reason: RejectReason::StaleToken,
                        highest_fence: Some(highest),
                    },
                ..
            } => text.push_str(&format!(
                "\nThe resource had already accepted fence {highest}."
            )),
            MarkKind::Claim {
                stamp_ms: Some(_), ..
            } => text.push_str(
                "\nThe store decides nothing: each claimant reads the claims and goes in if its \
                 stamp is the earliest.",
            ),
            MarkKind::Hold { entered: true, .. } => {
                text.push_str("\nThe lock is reentrant, so its holder goes straight in.");
            }
            MarkKind::Hold { entered: false, .. } => text.push_str(&format!(
                "\nThe lock stays {}'s until the count is zero.",
                trace.node_name(node)
            )),
            _ => {}
        }
        text
    }
}

/// The violation of `kind` the verdict reports for a write of `token` at `at_ms`: the one at
/// that time, or else the first naming the grant (a later write of a stale grant is stale
/// by the same violation).
fn violation(
    verdict: &Verdict,
    kind: ViolationKind,
    token: Token,
    at_ms: u64,
) -> Option<&Violation> {
    let of = |v: &&Violation| v.kind == kind && v.grants.contains(&token);
    let mut named = verdict.violations.iter().filter(of);
    named
        .clone()
        .find(|v| v.at_ms == at_ms)
        .or_else(|| named.next())
}

impl Message {
    /// The hover text: who sent what to whom, and what became of it, as far as a student
    /// watching at `now_ms` may know.
    pub fn details(&self, trace: &Trace, now_ms: u64) -> String {
        // Worded, not "A → B": the default fonts have no arrow glyph.
        let mut text = format!(
            "from {} to {}: \"{}\", sent at {}",
            trace.node_name(self.from),
            trace.node_name(self.to),
            self.what,
            fmt_ms(self.sent_ms)
        );
        for event in [self.held_event, self.resent_event, self.end_event] {
            text.push_str(&then(trace, event, now_ms));
        }
        if self
            .end_event
            .is_none_or(|i| trace.events[i].at_ms > now_ms)
        {
            text.push_str("\nstill on its way");
        }
        text
    }
}

impl Partition {
    /// The hover text: the cut, and its end once the playhead is past it.
    pub fn details(&self, trace: &Trace, now_ms: u64) -> String {
        format!(
            "{}{}",
            event_line(trace, self.start_event),
            then(trace, self.end_event, now_ms)
        )
    }
}

/// What `count` spans like `kind` are, in words.
fn thin_noun(kind: &SpanKind, count: usize) -> &'static str {
    let one = count == 1;
    match kind {
        SpanKind::Belief { .. } if one => "belief it held the lock",
        SpanKind::Belief { .. } => "beliefs it held the lock",
        SpanKind::Lease { .. } if one => "lease",
        SpanKind::Lease { .. } => "leases",
        SpanKind::Logged { .. } if one => "logged acquire",
        SpanKind::Logged { .. } => "logged acquires",
        SpanKind::Waiting { .. } if one => "wait for the lock",
        SpanKind::Waiting { .. } => "waits for the lock",
        SpanKind::Paused if one => "pause",
        SpanKind::Paused => "pauses",
        SpanKind::Stalled if one => "stall",
        SpanKind::Stalled => "stalls",
        SpanKind::Crashed if one => "crash",
        SpanKind::Crashed => "crashes",
        SpanKind::SlowLink { .. } if one => "slow link",
        SpanKind::SlowLink { .. } => "slow links",
    }
}

/// The hover text of `count` spans like `kind` on lane `lane`, from `from_ms` to `to_ms`,
/// summed up because each is too short to draw at this zoom.
pub fn thin_spans(lane: &str, kind: &SpanKind, count: usize, from_ms: u64, to_ms: u64) -> String {
    format!(
        "{lane}: {count} {} from {} to {}, too short to draw one by one at this zoom.\nCtrl \
         + scroll to zoom in.",
        thin_noun(kind, count),
        fmt_ms(from_ms),
        fmt_ms(to_ms)
    )
}

/// `3 writes accepted`, `1 clock jump`.
fn class_count(class: MarkClass, n: u32) -> String {
    let s = if n == 1 { "" } else { "s" };
    match class {
        MarkClass::Accepted => format!("{n} write{s} accepted"),
        MarkClass::Rejected => format!("{n} write{s} rejected"),
        MarkClass::Violating => format!("{n} write{s} that corrupted the data"),
        MarkClass::Claim => format!("{n} claim{s} recorded or deleted"),
        MarkClass::Hold => format!("{n} change{s} of a hold count"),
        MarkClass::ClockJump => format!("{n} clock jump{s}"),
        MarkClass::Leader => format!("became leader {n} time{s}"),
        MarkClass::SteppedDown => format!("stepped down {n} time{s}"),
    }
}

/// The hover text of marks on lane `lane` from `from_ms` to `to_ms` too close together to
/// draw one by one; `counts` holds how many of each [`MarkClass`] there are.
pub fn crowded_marks(
    lane: &str,
    counts: &[u32; MarkClass::COUNT],
    from_ms: u64,
    to_ms: u64,
) -> String {
    let parts: Vec<String> = MarkClass::ALL
        .into_iter()
        .rev()
        .filter(|&k| counts[k as usize] > 0)
        .map(|k| class_count(k, counts[k as usize]))
        .collect();
    format!(
        "{lane}: {} between {} and {}, too close together to draw one by one.\nCtrl + scroll to zoom in.",
        parts.join(", "),
        fmt_ms(from_ms),
        fmt_ms(to_ms)
    )
}

/// The hover text of `count` messages sent from `from_ms` to `to_ms`, drawn as haze.
pub fn message_haze(count: usize, from_ms: u64, to_ms: u64) -> String {
    format!(
        "{count} messages sent from {} to {}: too many to draw as arrows at this zoom.\nCtrl \
         + scroll to zoom in.",
        fmt_ms(from_ms),
        fmt_ms(to_ms)
    )
}

/// The hover text of the marker of violation `v` on the axis: the checker's own words.
pub fn violation_marker(v: &Violation) -> String {
    format!(
        "{} at {}\n{}\n(click to select it and move the playhead there)",
        v.kind,
        fmt_ms(v.at_ms),
        v.explanation
    )
}

/// The hover text of a marker summing up `violations` (in time order, at least two), whose
/// first of the gravest kind, `first`, a click selects.
pub fn violation_markers(violations: &[&Violation], first: ViolationKind) -> String {
    let mut kinds: Vec<&str> = violations.iter().map(|v| v.kind.as_str()).collect();
    crate::order::sort(&mut kinds);
    kinds.dedup();
    let (from, to) = (
        violations.first().map_or(0, |v| v.at_ms),
        violations.last().map_or(0, |v| v.at_ms),
    );
    format!(
        "{} violations from {} to {} ({}).\nClick to select the first {first} and move the \
         playhead there; ctrl + scroll to zoom in and tell them apart.",
        violations.len(),
        fmt_ms(from),
        fmt_ms(to),
        kinds.join(", "),
    )
}

#[cfg(test)]
mod tests {
    use super::event_line;
    use crate::trace::{NodeId, Trace};
    use crate::view::timeline::fixtures::{
        A, CONSENSUS, RESOURCE, STORE1, engine_run, laid_out, node, step5, step5_run,
    };
    use crate::view::timeline::{Lanes, MarkKind, Span, SpanKind};
    use crate::view::wording::describe;

    /// The first span on `name`'s lane that `pick` accepts, and its node.
    fn span<'l>(
        trace: &Trace,
        lanes: &'l Lanes,
        name: &str,
        pick: impl Fn(&Span) -> bool,
    ) -> (&'l Span, NodeId) {
        let n = node(trace, name);
        let s = lanes.lanes[n.index()].spans.iter().find(|s| pick(s));
        (s.expect("a span"), n)
    }

    #[test]
    fn hover_text_tells_the_lesson() {
        let lanes = step5();
        let (trace, verdict) = step5_run();
        let a = lanes.lanes[A.index()].spans[1].details(&trace, A, 20_000);
        assert_eq!(
            a,
            "A believes it holds 'lock' as A#1 with fence 1\n\
             from 3 ms to 17 008 ms (17 005 ms)\n\
             17 008 ms · A: no longer holds 'lock' (A#1): the resource rejected its write\n\
             But the store stopped holding it at 10 002 ms (lease expired): 7 006 ms believing \
             in a lock it no longer had."
        );
        let rejected = lanes.lanes[RESOURCE.index()].marks[1].details(&trace, &verdict, RESOURCE);
        assert_eq!(
            rejected,
            "17 007 ms · resource: write by A#1 (fence 1) rejected: stale fencing token\n\
             The resource had already accepted fence 2."
        );
    }

    #[test]
    fn hover_text_tells_nothing_past_the_playhead() {
        let lanes = step5();
        let (trace, _) = step5_run();
        let a = lanes.lanes[A.index()].spans[1].details(&trace, A, 12_000);
        assert!(a.contains("since 3 ms (11 997 ms so far)"), "{a}");
        assert!(a.contains("(lease expired): 1 998 ms"), "{a}");
        assert!(!a.contains("17 008") && !a.contains("rejected"), "{a}");
        let lease = lanes.lanes[STORE1.index()].spans[1].details(&trace, STORE1, 11_000);
        assert!(!lease.contains("released"), "{lease}");
        let early = lanes.lanes[A.index()].spans[1].details(&trace, A, 9_000);
        assert!(!early.contains("stopped holding"), "{early}");
    }

    #[test]
    fn marks_say_what_the_command_line_says_of_their_event() {
        let lanes = step5();
        let (trace, verdict) = step5_run();
        for (n, lane) in lanes.lanes.iter().enumerate() {
            for mark in &lane.marks {
                let i = mark.event.expect("step 5 has no role held from the start");
                let hover = mark.details(&trace, &verdict, NodeId::from_index(n));
                assert!(hover.starts_with(&event_line(&trace, i)), "{hover}");
                assert!(hover.contains(&describe(&trace, &trace.events[i])));
            }
        }
    }

    #[test]
    fn a_write_the_checker_names_gets_the_checker_s_explanation() {
        let (trace, verdict, lanes) = laid_out(include_str!(
            "../../../assets/scenarios/step5-pause-unfenced.toml"
        ));
        let resource = node(&trace, "resource");
        let stale = lanes.lanes[resource.index()]
            .marks
            .iter()
            .find(|m| m.at_ms == 17_007)
            .expect("A's late write");
        let v = verdict
            .violations
            .iter()
            .find(|v| v.at_ms == 17_007)
            .expect("a violation at A's write");
        let hover = stale.details(&trace, &verdict, resource);
        assert!(
            hover.ends_with(&format!(
                "The checker reports {} at 17 007 ms: {}",
                v.kind, v.explanation
            )),
            "{hover}"
        );
    }

    #[test]
    fn a_nested_acquire_tells_its_hold_count() {
        let (trace, verdict, lanes) = laid_out(include_str!(
            "../../../assets/scenarios/step7-nested-reentrant.toml"
        ));
        let a = node(&trace, "A");
        let hold = lanes.lanes[a.index()]
            .marks
            .iter()
            .find(|m| matches!(m.kind, MarkKind::Hold { .. }))
            .expect("a nested acquire");
        let hover = hold.details(&trace, &verdict, a);
        assert!(hover.contains("(hold count 2)"), "{hover}");
        assert!(hover.contains("reentrant"), "{hover}");
    }

    #[test]
    fn a_message_held_by_tcp_tells_its_story_up_to_the_playhead() {
        let (trace, lanes) = engine_run(include_str!(
            "../../../assets/cases/partition-holds-write-until-heal.toml"
        ));
        let write = lanes
            .held
            .iter()
            .map(|&i| &lanes.messages[i])
            .find(|m| m.what.starts_with("write"))
            .expect("A's write is held");
        let before = write.details(&trace, 5_000);
        assert!(before.contains("TCP holds"), "{before}");
        assert!(before.ends_with("still on its way"), "{before}");
        let after = write.details(&trace, 20_000);
        assert!(
            after.contains("13 608 ms · A: TCP's next retransmission"),
            "{after}"
        );
        assert!(after.contains("· resource: receive write"), "{after}");
        let cut = &lanes.partitions[0];
        assert!(!cut.details(&trace, 5_000).contains("8 990"));
        assert!(
            cut.details(&trace, 9_000)
                .contains("8 990 ms · network: partition")
        );
    }

    #[test]
    fn store_lanes_tell_who_leads_and_what_a_crash_leaves_on_disk() {
        let (trace, verdict, lanes) = laid_out(CONSENSUS);
        let store1 = node(&trace, "store1");
        let first = &lanes.lanes[store1.index()].marks[0];
        let hover = first.details(&trace, &verdict, store1);
        assert!(
            hover.starts_with("store1 is the leader from the start (term 1)"),
            "{hover}"
        );
        let (frozen, n) = span(&trace, &lanes, "store1", |s| {
            s.start_ms == 50 && s.kind.bar_row().is_some()
        });
        let hover = frozen.details(&trace, n, 25_000);
        assert!(hover.starts_with("store1 is down"), "{hover}");
        assert!(
            hover.contains("On its disk it still has 'lock' for A#1 (fence 1)"),
            "{hover}"
        );
        let (took, n) = span(&trace, &lanes, "store2", |s| {
            s.start_ms == 1_510 && s.kind.bar_row().is_some()
        });
        let hover = took.details(&trace, n, 2_000);
        assert!(
            hover.contains("took this lease over from its log"),
            "{hover}"
        );
    }

    #[test]
    fn a_wait_tells_why_the_store_refuses_as_far_as_the_playhead() {
        let (trace, lanes) = engine_run(include_str!(
            "../../../assets/cases/isolated-leader-steps-down.toml"
        ));
        let (wait, b) = span(&trace, &lanes, "B", |s| {
            matches!(s.kind, SpanKind::Waiting { .. })
        });
        let hover = |now_ms| wait.details(&trace, b, now_ms);
        assert!(!hover(1_001).contains("refused"), "{}", hover(1_001));
        assert!(
            hover(1_010).ends_with("1 002 ms · store1: refused 'lock' to B#1: held by A#1"),
            "{}",
            hover(1_010)
        );
        // Cut off from the majority, store1 says so until it steps down; then the new
        // leader refuses B while A's lease lasts.
        assert!(
            hover(1_200).ends_with("1 066 ms · store1: refused 'lock' to B#2: no majority"),
            "{}",
            hover(1_200)
        );
        assert!(
            hover(6_000).contains("· store2: refused"),
            "{}",
            hover(6_000)
        );
        assert!(hover(6_000).ends_with("held by A#1"), "{}", hover(6_000));
    }
}
