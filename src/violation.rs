//! The names of the properties the checker judges a run by. A leaf: scenarios name them in
//! `[expect]`, the checker reports them, and neither needs the other to know them.

use serde::{Deserialize, Serialize};

/// A named property the checker can report a run breaking. Two make the run unsafe
/// ([`ViolationKind::breaks_safety`]), two make it not live ([`ViolationKind::breaks_liveness`]); the other three
/// name how the lock itself failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationKind {
    /// Safety: the resource accepted a write from an older grant after one from a newer grant.
    StaleWrite,
    /// Safety: the resource accepted writes from two grants whose read-to-last-write spans
    /// overlapped, so a read-modify-write could lose an update.
    InterleavedWrites,
    /// Two workers believed they held the same lock at the same true instant.
    Overlap,
    /// The store side granted the lock to two owners for overlapping validity.
    DoubleGrant,
    /// A release removed a lock that belonged to another grant.
    ForeignRelease,
    /// Liveness: the lock stayed held until the horizon by a holder that can make no progress.
    Stuck,
    /// Liveness: a live worker waited longer than `check.starve_after_ms` for the lock.
    Starved,
}

impl ViolationKind {
    /// Every kind, safety first.
    pub const ALL: [ViolationKind; 7] = [
        ViolationKind::StaleWrite,
        ViolationKind::InterleavedWrites,
        ViolationKind::Overlap,
        ViolationKind::DoubleGrant,
        ViolationKind::ForeignRelease,
        ViolationKind::Stuck,
        ViolationKind::Starved,
    ];

    /// The name used in files, the CLI and the JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            ViolationKind::StaleWrite => "stale_write",
            ViolationKind::InterleavedWrites => "interleaved_writes",
            ViolationKind::Overlap => "overlap",
            ViolationKind::DoubleGrant => "double_grant",
            ViolationKind::ForeignRelease => "foreign_release",
            ViolationKind::Stuck => "stuck",
            ViolationKind::Starved => "starved",
        }
    }

    /// Whether a violation of this kind makes the run unsafe.
    pub fn breaks_safety(self) -> bool {
        matches!(
            self,
            ViolationKind::StaleWrite | ViolationKind::InterleavedWrites
        )
    }

    /// Whether a violation of this kind makes the run not live.
    pub fn breaks_liveness(self) -> bool {
        matches!(self, ViolationKind::Stuck | ViolationKind::Starved)
    }

    /// Whether this kind is the lock itself misbehaving (overlap, double grant, foreign
    /// release): harmful only where the resource does not fence the bad writes off.
    pub fn is_lock_misbehaviour(self) -> bool {
        !self.breaks_safety() && !self.breaks_liveness()
    }

    /// Whether this kind can only be known at the end of the run: `stuck` (until then a
    /// lease could still free the lock). Shown before the end, it would give the verdict away.
    pub fn judged_at_end(self) -> bool {
        self == ViolationKind::Stuck
    }
}

impl std::fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A dangerous moment a run can go through, as `[expect] exercised` names it: a pass in which
/// none happened says nothing about it (counted by the checker's `exercised`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Danger {
    /// A holder's own count of its lease ran out while it still believed it held the lock.
    LeaseOutlived,
    /// A store node granted the lock while another grant was still believed held.
    GrantedWhileHeld,
    /// The resource refused a read or write for a stale fencing token.
    FenceRejected,
    /// A clock stepped across the end of a lease its node promised or counted.
    ClockJumpAcrossLease,
    /// A grant was lost while its lease still ran (a crash before the log was flushed, a
    /// failover to a node that did not hold it).
    GrantLost,
}

impl Danger {
    /// The name scenario files use.
    pub fn as_str(self) -> &'static str {
        match self {
            Danger::LeaseOutlived => "lease_outlived",
            Danger::GrantedWhileHeld => "granted_while_held",
            Danger::FenceRejected => "fence_rejected",
            Danger::ClockJumpAcrossLease => "clock_jump_across_lease",
            Danger::GrantLost => "grant_lost",
        }
    }
}
