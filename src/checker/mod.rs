//! The checker: reads a trace with ground truth and names what went wrong (DESIGN §3).
//!
//! Pure: no I/O, no clock. Each kind of violation has one function in its own module.

use serde::{Deserialize, Serialize};

use crate::scenario::Scenario;
use crate::trace::{NodeId, Token, Trace};

/// The named properties of DESIGN §3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
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

impl Kind {
    /// Every kind, safety first.
    pub const ALL: [Kind; 7] = [
        Kind::StaleWrite,
        Kind::InterleavedWrites,
        Kind::Overlap,
        Kind::DoubleGrant,
        Kind::ForeignRelease,
        Kind::Stuck,
        Kind::Starved,
    ];

    /// The name used in files, the CLI and the JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::StaleWrite => "stale_write",
            Kind::InterleavedWrites => "interleaved_writes",
            Kind::Overlap => "overlap",
            Kind::DoubleGrant => "double_grant",
            Kind::ForeignRelease => "foreign_release",
            Kind::Stuck => "stuck",
            Kind::Starved => "starved",
        }
    }

    /// Whether a violation of this kind makes the run unsafe.
    pub fn breaks_safety(self) -> bool {
        matches!(self, Kind::StaleWrite | Kind::InterleavedWrites)
    }

    /// Whether a violation of this kind makes the run not live.
    pub fn breaks_liveness(self) -> bool {
        matches!(self, Kind::Stuck | Kind::Starved)
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing that went wrong.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Violation {
    pub kind: Kind,
    /// True time at which it happened (became true), ms.
    pub at_ms: u64,
    /// Nodes involved (workers, store nodes), sorted, no repeats.
    pub nodes: Vec<NodeId>,
    /// Grants involved (their owner tokens).
    pub grants: Vec<Token>,
    /// One sentence a student can read.
    pub explanation: String,
}

/// The checker's answer for one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// No `stale_write`, no `interleaved_writes`: the protected data stayed correct.
    pub safe: bool,
    /// No `stuck`, no `starved`.
    pub live: bool,
    /// Sorted by time, then kind.
    pub violations: Vec<Violation>,
}

impl Verdict {
    /// Whether at least one violation of `kind` was found.
    pub fn has(&self, kind: Kind) -> bool {
        self.violations.iter().any(|v| v.kind == kind)
    }
}

/// Checks a trace. `scenario` supplies thresholds (`check.starve_after_ms`) and the resource
/// mode (in `idempotent` mode no resource-level violation is reported).
pub fn check(scenario: &Scenario, trace: &Trace) -> Verdict {
    let _ = (scenario, trace);
    Verdict {
        safe: true,
        live: true,
        violations: Vec::new(),
    }
}
