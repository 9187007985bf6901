//! The legend: what each kind of thing on the timeline means, in a few words, and when a run
//! first shows it, so a legend that grows as the run plays gives nothing away.

use super::{Lane, MarkClass, Message, Partition, SpanKind};
use crate::trace::Role;

/// One entry of the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Swatch {
    /// A worker believes it holds the lock.
    Belief,
    /// A store node holds the grant (its lease).
    Lease,
    /// A store node holds a grant with no expiry: no lease, it lasts until deleted.
    Grant,
    /// A new leader took the lease over from its log.
    TookOver,
    /// A down node: the grant is only on its disk.
    OnDisk,
    /// A follower logged the acquire.
    Logged,
    /// A worker believes it holds the lock; the store no longer does.
    LeaseLost,
    /// A worker waits for the lock.
    Waiting,
    /// A paused process.
    Paused,
    /// Stalled work: the process lives, the work does not advance.
    Stalled,
    /// A crashed node.
    Crashed,
    /// A slowed link.
    SlowLink,
    /// A node cut off by a partition.
    Partition,
    /// A clock step.
    ClockJump,
    /// A node became leader (or primary).
    Leader,
    /// A node stepped down.
    SteppedDown,
    /// `timestamp`: a store node recorded (or deleted) a claim.
    Claim,
    /// Reentrancy: a nested acquire or release and the hold count.
    Hold,
    /// A write the resource accepted.
    Accepted,
    /// A write, or a fenced read, the resource rejected.
    Rejected,
    /// A write that corrupted the data.
    Violating,
    /// A message.
    Message,
    /// A message TCP held across a cut link, then resent.
    Held,
    /// A lost message.
    Dropped,
}

impl Swatch {
    /// What the legend says for it.
    pub fn text(self) -> &'static str {
        match self {
            Swatch::Belief => "worker believes it holds the lock",
            Swatch::Lease => "store holds the grant (its lease)",
            Swatch::Grant => "store holds the grant (no expiry)",
            Swatch::TookOver => "new leader took the lease over from its log",
            Swatch::OnDisk => "node down: the grant only on its disk, frozen",
            Swatch::Logged => "follower logged the acquire",
            Swatch::LeaseLost => "believes it holds, but the store no longer does",
            Swatch::Waiting => "waiting for the lock",
            Swatch::Paused => "paused",
            Swatch::Stalled => "stalled: alive, but no progress",
            Swatch::Crashed => "crashed",
            Swatch::SlowLink => "slow link",
            Swatch::Partition => "cut off by a partition",
            Swatch::ClockJump => "clock jump",
            Swatch::Leader => "became leader (primary)",
            Swatch::SteppedDown => "stepped down",
            Swatch::Claim => "store recorded a claim (hollow: deleted it)",
            Swatch::Hold => "reentrant: nested acquire or release, and the hold count",
            Swatch::Accepted => "write accepted",
            Swatch::Rejected => "write (or fenced read) rejected",
            Swatch::Violating => "write that corrupted the data",
            Swatch::Message => "message (blue haze: too many)",
            Swatch::Held => "held by TCP across a cut link (dashed), then resent",
            Swatch::Dropped => "message lost",
        }
    }

    /// Whether it is about messages, which a front end may hide.
    pub fn is_message(self) -> bool {
        matches!(self, Swatch::Message | Swatch::Held | Swatch::Dropped)
    }

    /// Whether it is a grant's bar, which [`ATTEMPT_NOTE`] explains the label of.
    pub fn is_grant(self) -> bool {
        matches!(self, Swatch::Belief | Swatch::Lease | Swatch::Grant)
    }
}

/// The legend's note on how grants are named, once a bar is shown, in a run whose bars carry
/// fencing tokens.
pub const ATTEMPT_NOTE: &str = "A#3 is worker A's third try at the lock, not a fencing token; \
     \"fence 4\" is the fencing token, which only has to grow, not go up by one.";

/// The note in a run without fencing tokens: no "fence 4" to explain.
pub const ATTEMPT_NOTE_UNFENCED: &str = "A#3 is worker A's third try at the lock.";

/// The note for a run that is `fenced` ([`Lanes::fenced`](super::Lanes::fenced)) or not.
pub fn attempt_note(fenced: bool) -> &'static str {
    if fenced {
        ATTEMPT_NOTE
    } else {
        ATTEMPT_NOTE_UNFENCED
    }
}

/// What the bars on a lane of this role mean, under the lane's name; `short` for a narrow
/// column (a phone).
pub fn role_caption(role: Role, short: bool) -> &'static str {
    match (role, short) {
        (Role::Worker, false) => "worker: believes it holds",
        (Role::Store, false) => "lock store: grants it holds",
        (Role::Resource, false) => "protected data: writes",
        (Role::Worker, true) => "worker",
        (Role::Store, true) => "lock store",
        (Role::Resource, true) => "writes",
    }
}

/// What kinds of thing a run shows, in legend order, each with the true time it first
/// appears: the legend explains exactly what has been shown so far.
pub(super) fn first_shown(
    lanes: &[Lane],
    partitions: &[Partition],
    messages: &[Message],
) -> Vec<(Swatch, u64)> {
    let spans = lanes.iter().flat_map(|l| &l.spans).flat_map(|s| {
        let lost = match &s.kind {
            SpanKind::Belief {
                lease_lost: Some(l),
                ..
            } => Some((Swatch::LeaseLost, l.at_ms)),
            _ => None,
        };
        let swatch = match s.kind {
            SpanKind::Belief { .. } => Swatch::Belief,
            SpanKind::Lease { on_disk: true, .. } => Swatch::OnDisk,
            SpanKind::Lease {
                took_over: true, ..
            } => Swatch::TookOver,
            SpanKind::Lease {
                promised_end_ms: None,
                ..
            } => Swatch::Grant,
            SpanKind::Lease { .. } => Swatch::Lease,
            SpanKind::Logged { .. } => Swatch::Logged,
            SpanKind::Waiting { .. } => Swatch::Waiting,
            SpanKind::Paused => Swatch::Paused,
            SpanKind::Stalled => Swatch::Stalled,
            SpanKind::Crashed => Swatch::Crashed,
            SpanKind::SlowLink { .. } => Swatch::SlowLink,
        };
        std::iter::once((swatch, s.start_ms)).chain(lost)
    });
    let marks = lanes.iter().flat_map(|l| &l.marks).map(|m| {
        let swatch = match m.kind.class() {
            MarkClass::Accepted => Swatch::Accepted,
            MarkClass::Rejected => Swatch::Rejected,
            MarkClass::Violating => Swatch::Violating,
            MarkClass::ClockJump => Swatch::ClockJump,
            MarkClass::Leader => Swatch::Leader,
            MarkClass::SteppedDown => Swatch::SteppedDown,
            MarkClass::Claim => Swatch::Claim,
            MarkClass::Hold => Swatch::Hold,
        };
        (swatch, m.at_ms)
    });
    let partitions = partitions.iter().map(|p| (Swatch::Partition, p.start_ms));
    // The first message and the first loss are enough: the legend needs no more.
    let sent = messages.first().map(|m| (Swatch::Message, m.sent_ms));
    let held = messages
        .iter()
        .filter(|m| m.held)
        .map(|m| (Swatch::Held, m.sent_ms))
        .min_by_key(|&(_, at)| at);
    let lost = messages
        .iter()
        .filter(|m| m.dropped.is_some())
        .map(|m| (Swatch::Dropped, m.end_ms))
        .min_by_key(|&(_, at)| at);
    let mut legend: Vec<(Swatch, u64)> = spans
        .chain(marks)
        .chain(partitions)
        .chain(sent)
        .chain(held)
        .chain(lost)
        .collect();
    // Sorting by swatch, then time, puts each swatch's first appearance first.
    crate::order::sort(&mut legend);
    legend.dedup_by_key(|(swatch, _)| *swatch);
    legend
}

#[cfg(test)]
mod tests {
    use crate::view::timeline::fixtures::step5;

    #[test]
    fn the_legend_lists_what_the_run_shows() {
        use super::Swatch::*;
        assert_eq!(
            step5().legend,
            [
                (Belief, 3),
                (Lease, 2),
                (LeaseLost, 10_002),
                (Waiting, 0),
                (Paused, 1_000),
                (Accepted, 11_110),
                (Rejected, 17_007),
                (Message, 0)
            ]
        );
    }
}
