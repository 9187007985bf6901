//! What the learner has done on a challenge, kept between visits with the rest of their
//! progress.

use serde::{Deserialize, Serialize};

use crate::scenario::{self, Fault, Scenario};

/// One challenge's record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Record {
    /// An attempt within the budget met the goal.
    pub won: bool,
    /// The learner gave up, and was told whether and why it can (or cannot) be done.
    pub gave_up: bool,
    /// The latest attempt, as a scenario file (the design with the faults placed): the same
    /// text a shared link carries, read back with the same checks. Empty: none yet.
    pub attempt: String,
}

impl Record {
    /// The latest attempt's faults; none when there is no attempt, or it no longer reads as
    /// a valid scenario (a save from an older locksim).
    pub fn faults(&self) -> Vec<Fault> {
        scenario::parse(&self.attempt)
            .map(|s| s.faults)
            .unwrap_or_default()
    }

    /// Keeps `faults` placed on a challenge's `design` as the latest attempt.
    pub fn keep(&mut self, design: &Scenario, faults: &[Fault]) {
        let mut attempt = design.clone();
        attempt.faults = faults.to_vec();
        self.attempt = scenario::to_toml(&attempt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::FaultKind;

    #[test]
    fn an_attempt_is_kept_and_read_back() {
        let design = &crate::challenge::all()[0].design;
        let faults = vec![Fault {
            at_ms: 1_000,
            kind: FaultKind::Pause {
                node: "A".into(),
                for_ms: 12_000,
            },
        }];
        let mut record = Record::default();
        assert!(record.faults().is_empty());
        record.keep(design, &faults);
        assert_eq!(record.faults(), faults);
        record.attempt = "not a scenario".into();
        assert!(record.faults().is_empty());
    }
}
