//! The one source of plain-English sentences about a run: a line per trace event
//! ([`describe`], or [`Labels`] for every event of a run), what each kind of violation means
//! ([`gloss`]), and the verdict in a line and its notes ([`verdict_line`], [`cut_short`],
//! [`and_more`]). The command line's timeline and report print them; the app's timeline shows
//! them as hover text and its transcript as a list, in the course and the tools alike. A violation's own sentence is the checker's
//! [`crate::checker::Violation::explanation`]: front ends show that, not a rewording.
//!
//! A description never starts with the event's own node: every front end already shows the
//! node beside it (a column, a lane), so "A: acquired 'lock' as A#1" would say A twice.

use std::collections::HashMap;

use crate::checker::ViolationKind;
use crate::scenario::{DeletedBy, Head};
use crate::text::{fmt_clock_ms, fmt_count, fmt_ms, printable};
use crate::trace::{
    DropReason, Event, EventKind, IgnoredWhy, KeyId, Label, LetGoReason, MsgId, NodeId,
    RejectReason, Role, SessionEnd, Token, Trace,
};

/// The head of `trace`'s store, whose role changes the words name. Only a topology with a
/// head records role changes ([`crate::scenario::Topology::head`]); for any other, a
/// leader's words.
pub fn head(trace: &Trace) -> Head {
    trace.topology.head().unwrap_or(Head::Leader)
}

/// The engine's budget in words: "500 000 steps, 1 000 000 recorded events or 200 000 waiting
/// at once" ([`crate::engine::MAX_STEPS`], [`crate::engine::MAX_EVENTS`],
/// [`crate::engine::MAX_PENDING`]). A step handles one queued message, timer or fault and may
/// record several events; whichever count runs out first stops the run.
pub fn budget() -> String {
    format!(
        "{} steps, {} recorded events or {} waiting at once",
        fmt_count(crate::engine::MAX_STEPS),
        fmt_count(crate::engine::MAX_EVENTS),
        fmt_count(crate::engine::MAX_PENDING as u64),
    )
}

/// The sentence every front end shows for a run the engine's budget cut short at `at_ms`
/// (true ms, see [`crate::trace::Trace::cut_short_at_ms`]).
pub fn cut_short(at_ms: u64) -> String {
    format!(
        "Cut short: the engine's budget ({}) ran out at {}. Nothing after that was \
         simulated, so liveness is judged only up to {}.",
        budget(),
        fmt_ms(at_ms),
        fmt_ms(at_ms),
    )
}

/// The line every front end shows for violations found but not kept
/// ([`crate::checker::Verdict::more`]): "and 277 305 more foreign_release".
pub fn and_more(kind: ViolationKind, count: u64) -> String {
    format!("and {} more {kind}", fmt_count(count))
}

/// The verdict in a line, as `locksim run` prints it after "verdict: ": SAFE or UNSAFE, LIVE or
/// NOT LIVE, how many violations, and where the engine's budget cut the run short, if it did:
/// "UNSAFE, LIVE, 1 violation".
pub fn verdict_line(trace: &Trace, verdict: &crate::checker::Verdict) -> String {
    let safe = if verdict.safe { "SAFE" } else { "UNSAFE" };
    let live = if verdict.live { "LIVE" } else { "NOT LIVE" };
    let more: u64 = verdict.more.iter().map(|(_, n)| n).sum();
    let n = verdict.violations.len() as u64 + more;
    // A safe run whose only violations are the lock's (an overlap that fencing turned away)
    // says whose they are, so "SAFE, 1 violation" does not read as a contradiction.
    let lock_only = verdict.safe
        && verdict
            .violations
            .iter()
            .all(|v| v.kind.is_lock_misbehaviour())
        && verdict.more.iter().all(|(k, _)| k.is_lock_misbehaviour());
    let found = match n {
        0 => "no violations".to_string(),
        1 if lock_only => "1 lock violation".to_string(),
        _ if lock_only && more == 0 => format!("{} lock violations", fmt_count(n)),
        1 => "1 violation".to_string(),
        _ if more > 0 => format!(
            "{} violations (the first {} of each kind listed)",
            fmt_count(n),
            crate::checker::MAX_KEPT_PER_KIND
        ),
        _ => format!("{} violations", fmt_count(n)),
    };
    let cut = verdict
        .cut_short_at_ms
        .map(|at| {
            format!(
                ", CUT SHORT at {} of {}",
                fmt_ms(at),
                fmt_ms(trace.until_ms)
            )
        })
        .unwrap_or_default();
    format!("{safe}, {live}, {found}{cut}")
}

/// What a violation of `kind` means, in a line.
pub fn gloss(kind: ViolationKind) -> &'static str {
    match kind {
        ViolationKind::StaleWrite => {
            "a write from an older grant landed after a newer grant's write"
        }
        ViolationKind::InterleavedWrites => {
            "two grants' critical sections overlapped at the resource"
        }
        ViolationKind::Overlap => "two workers believed they held the lock at the same time",
        ViolationKind::DoubleGrant => "the store side granted the lock to two owners at once",
        ViolationKind::ForeignRelease => "a release removed a lock that belonged to someone else",
        ViolationKind::Stuck => "the lock stayed held by a holder that can make no progress",
        ViolationKind::Starved => "a live worker waited too long for the lock",
    }
}

/// How every sentence names lock `key` of `trace`: `'lock'`, quoted, with anything a terminal
/// would obey escaped.
pub fn key(trace: &Trace, key: KeyId) -> String {
    format!("'{}'", printable(trace.key_name(key), false))
}

/// Whether an event of `trace` is message plumbing (a send, a delivery, a loss, and the
/// store nodes' own traffic held by TCP). Front ends hide these by default: the worker and store
/// events around them already say what the messages did. A worker's request or write that TCP
/// holds across a cut link is not plumbing: it is rare, and it explains what lands late.
pub fn is_network(trace: &Trace, event: &Event) -> bool {
    match event.kind {
        EventKind::Send { .. } | EventKind::Deliver { .. } | EventKind::Drop { .. } => true,
        EventKind::Held { .. } | EventKind::Retransmitted { .. } => {
            trace.nodes[event.node.index()].role != Role::Worker
        }
        _ => false,
    }
}

/// The name to show beside an event: its node's, except for partitions and heals, which the
/// engine records at node 0 but which hit the whole network.
pub fn node_label<'t>(trace: &'t Trace, event: &Event) -> &'t str {
    match event.kind {
        EventKind::PartitionStarted { .. }
        | EventKind::PartitionEnded { .. }
        | EventKind::Healed => "network",
        _ => trace.node_name(event.node),
    }
}

/// A partition's groups as `[A] | [store1, store2]`.
fn sides(trace: &Trace, groups: &[Vec<NodeId>]) -> String {
    let groups: Vec<String> = groups
        .iter()
        .map(|g| {
            let names: Vec<&str> = g.iter().map(|&n| trace.node_name(n)).collect();
            format!("[{}]", names.join(", "))
        })
        .collect();
    groups.join(" | ")
}

/// One short line saying what `event` (an event of `trace`) was. A delivery or a loss names
/// its message by a search of the trace: fine for one event; to label many, use [`Labels`].
pub fn describe(trace: &Trace, event: &Event) -> String {
    line(trace, event, &|msg| message(trace, msg))
}

/// Labels every event of one trace. What each message carried is indexed once, so labelling
/// a whole run is linear in its events (a search per delivery made `run --all` quadratic).
pub struct Labels<'t> {
    trace: &'t Trace,
    /// What each message carried, by id, from its send event.
    sent: HashMap<MsgId, &'t Label>,
}

impl<'t> Labels<'t> {
    /// Reads what every message of `trace` carried, so that deliveries and losses can say it.
    pub fn new(trace: &'t Trace) -> Self {
        let mut sent = HashMap::new();
        for e in &trace.events {
            if let EventKind::Send { msg, what, .. } = &e.kind {
                // The first send of an id, as `describe` finds it.
                sent.entry(*msg).or_insert(what);
            }
        }
        Labels { trace, sent }
    }

    /// The same line as [`describe`], without searching the trace.
    pub fn describe(&self, event: &Event) -> String {
        line(self.trace, event, &|msg| match self.sent.get(&msg) {
            Some(what) => self.trace.label_text(what),
            None => unknown_message(msg),
        })
    }
}

/// The line for `event`; `message` says what a message id carried.
fn line(trace: &Trace, event: &Event, message: &dyn Fn(MsgId) -> String) -> String {
    let key = |k| key(trace, k);
    let tok = |t| trace.token_name(t);
    let name = |n| trace.node_name(n);
    match &event.kind {
        EventKind::Send { to, what, .. } => {
            format!("send {} → {}", trace.label_text(what), name(*to))
        }
        EventKind::Deliver { msg, from } => {
            format!("receive {} from {}", message(*msg), name(*from))
        }
        EventKind::Held { msg, to } => format!(
            "link to {} cut: TCP holds {} and retransmits it",
            name(*to),
            message(*msg)
        ),
        EventKind::Retransmitted { msg, to } => format!(
            "TCP's next retransmission of {} to {} gets through (the link is up again)",
            message(*msg),
            name(*to)
        ),
        EventKind::Drop { msg, from, reason } => {
            let why = match reason {
                DropReason::Loss => "lost at random",
                DropReason::Partition => "the link is cut by a partition",
                DropReason::Crashed => "this node is down",
                DropReason::Reset => "its sender crashed before it got through",
                DropReason::GaveUp => "TCP gave up retransmitting it and dropped the connection",
                DropReason::ConnectionReset => "its connection was reset",
            };
            format!("never got {} from {}: {why}", message(*msg), name(*from))
        }

        EventKind::Paused { for_ms } => format!("paused for {}", fmt_ms(*for_ms)),
        EventKind::Resumed => "resumed after its pause".to_string(),
        EventKind::Stalled { for_ms } => {
            format!(
                "work stalled for {} (the process still runs)",
                fmt_ms(*for_ms)
            )
        }
        EventKind::Unstalled => "work moves again".to_string(),
        EventKind::Crashed => "crashed".to_string(),
        EventKind::Restarted => "restarted".to_string(),
        EventKind::FaultIgnored { fault, why } => {
            let why = match why {
                IgnoredWhy::Down => "it is down (crashed, not restarted)",
                IgnoredWhy::Up => "it is not down, so there is nothing to restart",
                IgnoredWhy::Paused => "it is already paused (a pause does not lengthen another)",
                IgnoredWhy::Stalled => {
                    "its work is already stalled (a stall does not lengthen another)"
                }
                IgnoredWhy::ReadOnly => {
                    "it is a replica or follower, which takes no writes (Redis: -READONLY)"
                }
            };
            format!("{fault} fault ignored: {why}")
        }
        EventKind::ClockJumped { delta_ms } => {
            let way = if *delta_ms < 0 { "back" } else { "forward" };
            format!(
                "wall clock jumped {way} {}",
                fmt_ms(delta_ms.unsigned_abs())
            )
        }
        EventKind::PartitionStarted { groups } => {
            format!("partition: no messages between {}", sides(trace, groups))
        }
        EventKind::PartitionEnded { groups } => {
            format!(
                "partition over: links between {} work again",
                sides(trace, groups)
            )
        }
        EventKind::Healed => "partition healed: every link works again".to_string(),
        EventKind::DelayStarted {
            to,
            extra_ms,
            for_ms,
        } => format!(
            "messages to {} take {} longer for {}",
            name(*to),
            fmt_ms(*extra_ms),
            fmt_ms(*for_ms)
        ),

        EventKind::AcquireStarted { key: k, token } => {
            format!("tries to acquire {} as {}", key(*k), tok(*token))
        }
        EventKind::Acquired {
            key: k,
            token,
            fence,
            lease_ms,
        } => format!(
            "acquired {} as {}{}",
            key(*k),
            tok(*token),
            grant_terms(*fence, *lease_ms, "")
        ),
        EventKind::AcquireFailed { key: k, token } => {
            format!("did not get {} with {}; will retry", key(*k), tok(*token))
        }
        EventKind::Queued { key: k, token } => {
            format!("queued for {} as {}; waits its turn", key(*k), tok(*token))
        }
        EventKind::LetGo {
            key: k,
            token,
            reason,
        } => {
            let why = match reason {
                LetGoReason::Released => "done, release sent",
                LetGoReason::Rejected => "the resource rejected its write",
                LetGoReason::ReadRejected => "the resource refused its read",
                LetGoReason::LeaseOver => "it saw its lease had run out",
                LetGoReason::Crashed => "it crashed",
                LetGoReason::LockLost => "it learned its lease was gone and stopped its work",
            };
            format!("no longer holds {} ({}): {why}", key(*k), tok(*token))
        }
        EventKind::Reentered { key: k, token, .. } if trace.uncounted_reentry => format!(
            "re-entered {} as {}: let in, not counted",
            key(*k),
            tok(*token)
        ),
        EventKind::Reentered {
            key: k,
            token,
            count,
        } => format!(
            "re-entered {} as {} (hold count {count})",
            key(*k),
            tok(*token)
        ),
        EventKind::WriteTimedOut { key: k, token } => format!(
            "no answer to its write to {} as {} in time: goes on as if it landed",
            key(*k),
            tok(*token)
        ),
        EventKind::LeftNested { key: k, token, .. } if trace.uncounted_reentry => format!(
            "left the nested section: released {} as {}; nothing counted the re-entry, so \
             this frees the lock",
            key(*k),
            tok(*token)
        ),
        EventKind::LeftNested {
            key: k,
            token,
            count,
        } => format!(
            "left the nested section: released {} once as {} (hold count {count})",
            key(*k),
            tok(*token)
        ),
        EventKind::Renewed {
            key: k,
            token,
            lease_ms,
        } => format!(
            "renewed {} ({}): lease {} from now",
            key(*k),
            tok(*token),
            fmt_ms(*lease_ms)
        ),
        EventKind::RenewFailed { key: k, token } => format!(
            "renewal of {} ({}) failed: refused or unanswered",
            key(*k),
            tok(*token)
        ),

        EventKind::Granted {
            key: k,
            token,
            fence,
            lease_ms,
            took_over: false,
        } => format!(
            "granted {} to {}{}",
            key(*k),
            tok(*token),
            grant_terms(*fence, *lease_ms, "no expiry")
        ),
        EventKind::Granted {
            key: k,
            token,
            fence,
            lease_ms,
            took_over: true,
        } => format!(
            "took over {}'s lease on {} from its log{}",
            tok(*token),
            key(*k),
            grant_terms(*fence, *lease_ms, "no expiry")
        ),
        EventKind::Logged {
            key: k,
            token,
            index,
        } => format!(
            "logged {}'s acquire of {} as log entry {index}",
            tok(*token),
            key(*k)
        ),
        EventKind::Refused { key: k, token, why } => format!(
            "refused {} to {}: {}",
            key(*k),
            tok(*token),
            why.phrase(tok)
        ),
        EventKind::LeaseExtended {
            key: k,
            token,
            lease_ms,
        } => format!(
            "extended the lease of {} on {} to {} from now",
            tok(*token),
            key(*k),
            fmt_ms(*lease_ms)
        ),
        EventKind::Removed { key: k, holder, by } if holder == by => {
            format!("released {} held by {}", key(*k), tok(*holder))
        }
        EventKind::Removed { key: k, holder, by } => format!(
            "released {} for {}: removed the lock of {} (not its own!)",
            key(*k),
            tok(*by),
            tok(*holder)
        ),
        EventKind::ReleaseIgnored { key: k, by } => format!(
            "release from {} removed nothing: {} was free or held by another grant",
            tok(*by),
            key(*k)
        ),
        EventKind::Expired { key: k, token } => format!(
            "lease of {} on {} expired: lock removed",
            tok(*token),
            key(*k)
        ),
        EventKind::ExpiredByClient {
            key: k,
            token,
            until_ms,
            asker,
            asker_ms,
        } => format!(
            "by {}'s clock ({}), {}'s 'held until' on {} ({}) has passed: lock removed",
            name(asker.worker),
            fmt_clock_ms(*asker_ms),
            tok(*token),
            key(*k),
            fmt_clock_ms(*until_ms),
        ),
        EventKind::ExpiredUnchanged {
            key: k,
            token,
            seen_ms,
            asker,
            asker_ms,
        } => format!(
            "by {}'s clock ({}), {}'s record on {} has not changed since {} read it at {}: \
             lock removed",
            name(asker.worker),
            fmt_clock_ms(*asker_ms),
            tok(*token),
            key(*k),
            name(asker.worker),
            fmt_clock_ms(*seen_ms),
        ),
        EventKind::Unflushed { key: k, token } => format!(
            "crashing before its log was flushed to disk: the grant of {} to {} is lost",
            key(*k),
            tok(*token)
        ),
        EventKind::Forgot => "forgot every lock (restarted without persistence)".to_string(),
        EventKind::Reloaded { key: k, holder } => match holder {
            Some(t) => format!(
                "restarted from its log as last flushed: {} is {}'s again, later changes lost",
                key(*k),
                tok(*t)
            ),
            None => format!(
                "restarted from its log as last flushed: {} is free, its newer grant lost",
                key(*k)
            ),
        },
        EventKind::TtlSet {
            key: k,
            token,
            lease_ms,
        } => format!(
            "set a TTL of {} on {} for {} (EXPIRE after SETNX)",
            fmt_ms(*lease_ms),
            key(*k),
            tok(*token)
        ),
        EventKind::ForceReleased { key: k, holder, by } => {
            let deleted = match by {
                DeletedBy::Operator => format!("an operator deleted {}", key(*k)),
                DeletedBy::Eviction => format!("evicted {} to free memory", key(*k)),
                DeletedBy::Flush => format!("a flush deleted {}", key(*k)),
            };
            match holder {
                Some(t) => format!("{deleted} while {} held it", tok(*t)),
                None => format!("{deleted}; nobody held it"),
            }
        }
        EventKind::SessionEnded {
            key: k,
            holder,
            why,
        } => {
            let why = match why {
                SessionEnd::Reset => "its connection was reset",
                SessionEnd::GaveUp => "its connection gave up",
                SessionEnd::HolderCrashed => "its process died",
                SessionEnd::ServerStopped => "the server stopped",
            };
            format!(
                "{}'s session ended ({why}): {} released with it",
                name(holder.worker),
                key(*k)
            )
        }
        EventKind::ConnectionReset { to } => {
            format!("the connection to {} was reset", name(*to))
        }
        EventKind::Claimed {
            key: k,
            token,
            stamp_ms,
        } => format!(
            "recorded {}'s claim on {}, stamped {} by {}'s own clock",
            tok(*token),
            key(*k),
            fmt_clock_ms(*stamp_ms),
            name(token.worker)
        ),
        EventKind::Unclaimed { key: k, token } => {
            format!("deleted {}'s claim on {}", tok(*token), key(*k))
        }
        EventKind::Replicated { key: k, holder } => match holder {
            Some(h) => format!("copied from the primary: {} held by {}", key(*k), tok(*h)),
            None => format!("copied from the primary: {} is free", key(*k)),
        },
        EventKind::Resynced {
            from,
            full: false,
            offset,
        } => format!(
            "caught up from {}'s backlog (partial resync, now at offset {offset})",
            trace.node_name(*from)
        ),
        EventKind::Resynced {
            from,
            full: true,
            offset,
        } => format!(
            "replaced its data with a full copy from {} (offset {offset}): dropped what it had",
            trace.node_name(*from)
        ),
        EventKind::BecameLeader { term } => match head(trace) {
            Head::Leader => format!("became leader (term {term})"),
            Head::Primary => format!("promoted to primary (epoch {term})"),
        },
        EventKind::SteppedDown { term } => {
            let head = head(trace);
            format!(
                "stepped down to {} ({} {term})",
                head.follower(),
                head.round()
            )
        }

        EventKind::Read {
            key: k,
            token,
            fence,
            value,
            version,
        } => format!(
            "read of {} by {}: value {value} (version {version})",
            trace.record_name(*k),
            requester(trace, *token, *fence)
        ),
        EventKind::ReadRejected { token, fence, .. } => format!(
            "read by {} rejected: stale fencing token",
            requester(trace, *token, *fence)
        ),
        EventKind::WriteAccepted {
            key: k,
            token,
            fence,
            value,
            version,
        } => format!(
            "write by {} accepted: {} is now {value} (version {version})",
            requester(trace, *token, *fence),
            trace.record_name(*k)
        ),
        EventKind::WriteRejected {
            token,
            fence,
            reason,
            ..
        } => {
            let why = match reason {
                RejectReason::StaleToken => "stale fencing token",
                RejectReason::VersionMoved => "the version moved since it read",
            };
            format!(
                "write by {} rejected: {why}",
                requester(trace, *token, *fence)
            )
        }
    }
}

/// " (fence 1, lease 10 000 ms)", with the parts that apply; `no_lease` names a grant
/// without expiry ("" to leave it out).
fn grant_terms(fence: Option<u64>, lease_ms: Option<u64>, no_lease: &str) -> String {
    let mut parts = Vec::new();
    if let Some(f) = fence {
        parts.push(format!("fence {f}"));
    }
    match lease_ms {
        Some(ms) => parts.push(format!("lease {}", fmt_ms(ms))),
        None if !no_lease.is_empty() => parts.push(no_lease.to_string()),
        None => {}
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// What the resource checks, after "resource": "checks fencing tokens on reads and writes",
/// "checks fencing tokens on writes" or "does not check fencing tokens".
pub fn resource_checks(resource: &crate::scenario::Resource) -> &'static str {
    match (resource.fencing, resource.fence_reads) {
        (true, true) => "checks fencing tokens on reads and writes",
        (true, false) => "checks fencing tokens on writes",
        (false, _) => "does not check fencing tokens",
    }
}

/// "A#1 (fence 1)", or "A#1" when the design issues no fencing token.
fn requester(trace: &Trace, token: Token, fence: Option<u64>) -> String {
    match fence {
        Some(f) => format!("{} (fence {f})", trace.token_name(token)),
        None => trace.token_name(token),
    }
}

/// What message `msg` carried, from its send event. Deliveries and drops record only the id.
fn message(trace: &Trace, msg: MsgId) -> String {
    trace
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Send { msg: m, what, .. } if *m == msg => Some(trace.label_text(what)),
            _ => None,
        })
        .unwrap_or_else(|| unknown_message(msg))
}

/// A message whose send the trace does not hold.
fn unknown_message(msg: MsgId) -> String {
    format!("message #{msg}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{A, A1, B1, STORE1, STORE2, event, trace};
    use crate::trace::Refusal;

    /// Describes `kind` as the only event of a run, at store1.
    fn line(kind: EventKind) -> String {
        let t = trace(vec![event(0, STORE1, 0, kind)]);
        describe(&t, &t.events[0])
    }

    #[test]
    fn grants_and_writes_name_tokens_and_fences() {
        let granted = EventKind::Granted {
            key: KeyId::new(0),
            token: A1,
            fence: Some(1),
            lease_ms: Some(10_000),
            took_over: false,
        };
        assert_eq!(
            line(granted),
            "granted 'lock' to A#1 (fence 1, lease 10 000 ms)"
        );
        let forever = EventKind::Granted {
            key: KeyId::new(0),
            token: A1,
            fence: None,
            lease_ms: None,
            took_over: false,
        };
        assert_eq!(line(forever), "granted 'lock' to A#1 (no expiry)");
        let took_over = EventKind::Granted {
            key: KeyId::new(0),
            token: A1,
            fence: Some(1),
            lease_ms: Some(10_000),
            took_over: true,
        };
        assert_eq!(
            line(took_over),
            "took over A#1's lease on 'lock' from its log (fence 1, lease 10 000 ms)"
        );
        let logged = EventKind::Logged {
            key: KeyId::new(0),
            token: A1,
            index: 3,
        };
        assert_eq!(
            line(logged),
            "logged A#1's acquire of 'lock' as log entry 3"
        );
        let acquired = EventKind::Acquired {
            key: KeyId::new(0),
            token: A1,
            fence: Some(1),
            lease_ms: None,
        };
        assert_eq!(line(acquired), "acquired 'lock' as A#1 (fence 1)");
        let rejected = EventKind::WriteRejected {
            key: KeyId::new(0),
            token: A1,
            fence: Some(1),
            reason: RejectReason::StaleToken,
        };
        assert_eq!(
            line(rejected),
            "write by A#1 (fence 1) rejected: stale fencing token"
        );
    }

    #[test]
    fn an_ignored_fault_says_what_kept_it_from_acting() {
        let ignored = |fault, why| line(EventKind::FaultIgnored { fault, why });
        assert_eq!(
            ignored("restart", IgnoredWhy::Up),
            "restart fault ignored: it is not down, so there is nothing to restart"
        );
        assert_eq!(
            ignored("crash", IgnoredWhy::Down),
            "crash fault ignored: it is down (crashed, not restarted)"
        );
        assert_eq!(
            ignored("pause", IgnoredWhy::Paused),
            "pause fault ignored: it is already paused (a pause does not lengthen another)"
        );
        assert!(ignored("stall", IgnoredWhy::Stalled).starts_with("stall fault ignored: "));
    }

    #[test]
    fn a_foreign_release_says_whose_lock_it_removed() {
        let own = EventKind::Removed {
            key: KeyId::new(0),
            holder: A1,
            by: A1,
        };
        assert_eq!(line(own), "released 'lock' held by A#1");
        let foreign = EventKind::Removed {
            key: KeyId::new(0),
            holder: B1,
            by: A1,
        };
        assert_eq!(
            line(foreign),
            "released 'lock' for A#1: removed the lock of B#1 (not its own!)"
        );
    }

    #[test]
    fn a_refusal_says_its_true_reason() {
        let refused = |why| EventKind::Refused {
            key: KeyId::new(0),
            token: B1,
            why,
        };
        assert_eq!(
            line(refused(Refusal::Held { holder: A1 })),
            "refused 'lock' to B#1: held by A#1"
        );
        assert_eq!(
            line(refused(Refusal::NoMajority)),
            "refused 'lock' to B#1: no majority"
        );
        assert_eq!(
            line(refused(Refusal::LeaseGone)),
            "refused 'lock' to B#1: lease gone"
        );
        assert_eq!(
            line(refused(Refusal::LockDelay)),
            "refused 'lock' to B#1: lock-delay"
        );
    }

    #[test]
    fn a_resync_says_whether_the_replica_kept_its_data() {
        let resynced = |full| EventKind::Resynced {
            from: STORE1,
            full,
            offset: 4,
        };
        assert_eq!(
            line(resynced(false)),
            "caught up from store1's backlog (partial resync, now at offset 4)"
        );
        assert_eq!(
            line(resynced(true)),
            "replaced its data with a full copy from store1 (offset 4): dropped what it had"
        );
    }

    #[test]
    fn deliveries_name_what_their_send_carried() {
        let send = EventKind::Send {
            msg: MsgId::new(7),
            to: STORE1,
            what: Label::Acquire {
                token: A1,
                reenter: false,
            },
        };
        let lost = EventKind::Drop {
            msg: MsgId::new(8),
            from: A,
            reason: DropReason::Partition,
        };
        let t = trace(vec![
            event(0, A, 0, send),
            event(
                2,
                STORE1,
                2,
                EventKind::Deliver {
                    msg: MsgId::new(7),
                    from: A,
                },
            ),
            event(3, STORE1, 3, lost),
        ]);
        let lines: Vec<String> = t.events.iter().map(|e| describe(&t, e)).collect();
        assert_eq!(
            lines,
            [
                "send acquire A#1 → store1",
                "receive acquire A#1 from A",
                "never got message #8 from A: the link is cut by a partition",
            ]
        );
        assert!(t.events.iter().all(|e| is_network(&t, e)));
    }

    #[test]
    fn faults_read_as_plain_words() {
        assert_eq!(
            line(EventKind::Paused { for_ms: 15_000 }),
            "paused for 15 000 ms"
        );
        assert_eq!(
            line(EventKind::ClockJumped { delta_ms: -3_000 }),
            "wall clock jumped back 3 000 ms"
        );
        let cut = EventKind::PartitionStarted {
            groups: vec![vec![A], vec![STORE1, STORE2]],
        };
        let t = trace(vec![event(0, A, 0, cut)]);
        assert_eq!(
            describe(&t, &t.events[0]),
            "partition: no messages between [A] | [store1, store2]"
        );
        assert_eq!(node_label(&t, &t.events[0]), "network");
        assert!(!is_network(&t, &t.events[0]));
    }

    #[test]
    fn leadership_speaks_the_topology_s_language() {
        let mut t = trace(vec![event(
            0,
            STORE1,
            0,
            EventKind::BecameLeader { term: 2 },
        )]);
        t.topology = crate::scenario::Topology::Replicated;
        assert_eq!(describe(&t, &t.events[0]), "promoted to primary (epoch 2)");
        t.topology = crate::scenario::Topology::Consensus;
        assert_eq!(describe(&t, &t.events[0]), "became leader (term 2)");
    }

    #[test]
    fn labels_say_what_describe_says_for_every_event_of_a_run() {
        let src = "version = 1\nname = \"m\"\nuntil_ms = 3000\n[network]\ntransport = \"datagram\"\nloss = 0.3\n[[worker]]\nname = \"A\"\nrepeat = 0\nwork_ms = 100\n";
        let scenario = crate::scenario::parse(src).expect("valid");
        let t = crate::engine::run(&scenario, 3);
        assert!(
            t.events
                .iter()
                .any(|e| matches!(e.kind, EventKind::Drop { .. }))
        );
        let labels = Labels::new(&t);
        for e in &t.events {
            assert_eq!(labels.describe(e), describe(&t, e));
        }
        let unsent = event(
            0,
            A,
            0,
            EventKind::Deliver {
                msg: MsgId::new(999),
                from: A,
            },
        );
        assert_eq!(labels.describe(&unsent), "receive message #999 from A");
    }

    #[test]
    fn printed_text_escapes_what_a_terminal_would_obey() {
        assert_eq!(printable("lock", false), "lock");
        assert_eq!(
            printable("\u{1b}[2Jx\u{7}\n", false),
            "\\u{1b}[2Jx\\u{7}\\u{a}"
        );
        assert_eq!(printable("a\nb\tc\r", true), "a\nb\tc\\u{d}");
        assert_eq!(printable("R\u{202e}X", true), "R\\u{202e}X");
        let mut t = trace(vec![event(
            0,
            A,
            0,
            EventKind::AcquireStarted {
                key: KeyId::new(0),
                token: A1,
            },
        )]);
        t.keys[0] = "lock\nfake line".to_string();
        assert_eq!(
            describe(&t, &t.events[0]),
            "tries to acquire 'lock\\u{a}fake line' as A#1"
        );
    }
}
