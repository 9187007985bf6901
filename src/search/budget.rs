//! A fault budget: which fault kinds and how many of each may be placed, how many in all, and
//! how long pauses and stalls may last together. A challenge gives the learner one, and the
//! search draws its schedules within one ([`super::Space::within`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::scenario::{Fault, FaultKind, FaultTag};
use crate::text::fmt_ms;

/// A fault budget, as a challenge or an assignment's task gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// At most this many faults, of all kinds together.
    pub faults: usize,
    /// The kinds allowed, each with the most that may be placed; a file names them as a
    /// scenario's `[[fault]] kind` does (`clock_jump = 1`). A kind not listed may not be placed.
    pub kinds: BTreeMap<FaultTag, usize>,
    /// The most that pauses and stalls may last in total, ms; `None`: no limit beyond the
    /// scenario file's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_ms: Option<u64>,
}

impl Budget {
    /// How many faults of `kind` may be placed: 0 if it is not allowed.
    pub fn allows(&self, kind: FaultTag) -> usize {
        self.kinds.get(&kind).copied().unwrap_or(0)
    }

    /// How far `faults` go past the budget in a run that ends at `until_ms`, each overrun as
    /// a sentence; empty when they are within it. Pause and stall time after the run's end
    /// does not count: it never happens.
    pub fn overruns(&self, faults: &[Fault], until_ms: u64) -> Vec<String> {
        let mut over = Vec::new();
        let too_many = faults.len() > self.faults;
        if too_many {
            over.push(format!(
                "{} placed, the budget allows {}",
                count(faults.len(), "fault"),
                self.faults
            ));
        }
        let mut placed: BTreeMap<FaultTag, usize> = BTreeMap::new();
        for fault in faults {
            *placed.entry(FaultTag::from(&fault.kind)).or_default() += 1;
        }
        for (kind, n) in placed {
            let allowed = self.allows(kind);
            // All of one kind, which is allowed as many as faults in all: said above.
            let said = too_many && n == faults.len() && allowed == self.faults;
            if allowed == 0 {
                over.push(format!("{} is not in this budget", words(kind)));
            } else if n > allowed && !said {
                over.push(format!(
                    "{} placed, the budget allows {allowed}",
                    count(n, &words(kind))
                ));
            }
        }
        if let Some(limit) = self.pause_ms {
            let paused = paused_ms(&within_run(faults, until_ms));
            if paused > limit {
                over.push(format!(
                    "pauses and stalls last {} in all, the budget allows {}",
                    fmt_ms(paused),
                    fmt_ms(limit)
                ));
            }
        }
        over
    }

    /// The budget in words: "at most 1 pause", or "at most 2 faults in all, with at most
    /// 1 partition and 1 clock jump" (kinds in the file's order of [`FaultKind`]).
    pub fn words(&self) -> String {
        let kinds: Vec<String> = self
            .kinds
            .iter()
            .map(|(&kind, n)| count(*n, &words(kind)))
            .collect();
        let all = count(self.faults, "fault");
        let mut text = match kinds.as_slice() {
            [] => "no faults".to_string(),
            [only] if self.kinds.values().all(|&n| n == self.faults) => format!("at most {only}"),
            [only] => format!("at most {all} in all, with at most {only}"),
            [rest @ .., last] => format!(
                "at most {all} in all, with at most {} and {last}",
                rest.join(", ")
            ),
        };
        if let Some(limit) = self.pause_ms {
            text.push_str(&format!(
                "; pauses and stalls at most {} in all",
                fmt_ms(limit)
            ));
        }
        text
    }
}

/// How long the pauses and stalls among `faults` last together, ms.
pub fn paused_ms(faults: &[Fault]) -> u64 {
    faults
        .iter()
        .map(|f| match f.kind {
            FaultKind::Pause { for_ms, .. } | FaultKind::Stall { for_ms, .. } => for_ms,
            _ => 0,
        })
        .fold(0, u64::saturating_add)
}

/// `faults` with each pause and stall cut short at `until_ms`, the run's end.
fn within_run(faults: &[Fault], until_ms: u64) -> Vec<Fault> {
    let mut cut = faults.to_vec();
    for fault in &mut cut {
        if let FaultKind::Pause { for_ms, .. } | FaultKind::Stall { for_ms, .. } = &mut fault.kind {
            *for_ms = (*for_ms).min(until_ms.saturating_sub(fault.at_ms));
        }
    }
    cut
}

/// A kind's scenario-file name as words: `clock_jump` → "clock jump".
fn words(kind: FaultTag) -> String {
    <&str>::from(kind).replace('_', " ")
}

/// "1 pause", "2 pauses".
fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ if noun.ends_with("sh") => format!("{n} {noun}es"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget() -> Budget {
        Budget {
            faults: 2,
            kinds: BTreeMap::from([(FaultTag::Pause, 1), (FaultTag::Crash, 2)]),
            pause_ms: Some(12_000),
        }
    }

    fn pause(for_ms: u64) -> Fault {
        Fault {
            at_ms: 5,
            kind: FaultKind::Pause {
                node: "A".into(),
                for_ms,
            },
        }
    }

    #[test]
    fn within_the_budget_nothing_is_over() {
        assert!(budget().overruns(&[pause(12_000)], 20_000).is_empty());
        assert!(budget().overruns(&[], 20_000).is_empty());
    }

    #[test]
    fn each_overrun_is_named() {
        let heal = Fault {
            at_ms: 1,
            kind: FaultKind::Heal,
        };
        assert_eq!(
            budget().overruns(&[pause(10_000), pause(3_000), heal], 20_000),
            vec![
                "3 faults placed, the budget allows 2".to_string(),
                "2 pauses placed, the budget allows 1".to_string(),
                "heal is not in this budget".to_string(),
                "pauses and stalls last 13 000 ms in all, the budget allows 12 000 ms".to_string(),
            ]
        );
    }

    #[test]
    fn the_budget_reads_as_words() {
        assert_eq!(
            budget().words(),
            "at most 2 faults in all, with at most 1 pause and 2 crashes; pauses and stalls \
             at most 12 000 ms in all"
        );
        let one = Budget {
            faults: 1,
            kinds: BTreeMap::from([(FaultTag::Partition, 1)]),
            pause_ms: None,
        };
        assert_eq!(one.words(), "at most 1 partition");
        let three = Budget {
            faults: 3,
            kinds: BTreeMap::from([
                (FaultTag::ClockJump, 1),
                (FaultTag::Crash, 1),
                (FaultTag::Pause, 1),
            ]),
            pause_ms: None,
        };
        assert_eq!(
            three.words(),
            "at most 3 faults in all, with at most 1 pause, 1 crash and 1 clock jump"
        );
    }

    #[test]
    fn one_kind_over_the_total_is_said_once() {
        let one = Budget {
            faults: 1,
            kinds: BTreeMap::from([(FaultTag::Pause, 1)]),
            pause_ms: Some(12_000),
        };
        assert_eq!(
            one.overruns(&[pause(10_000), pause(10_000)], 20_000),
            vec![
                "2 faults placed, the budget allows 1".to_string(),
                "pauses and stalls last 20 000 ms in all, the budget allows 12 000 ms".to_string(),
            ]
        );
    }

    #[test]
    fn pause_time_after_the_run_ends_is_not_counted() {
        let late = Fault {
            at_ms: 16_000,
            kind: FaultKind::Pause {
                node: "A".into(),
                for_ms: 20_000,
            },
        };
        // 4 s of it happen in a 20 s run; all 20 s in a 40 s one.
        assert!(
            budget()
                .overruns(std::slice::from_ref(&late), 20_000)
                .is_empty()
        );
        assert_eq!(
            budget().overruns(&[late], 40_000),
            vec![
                "pauses and stalls last 20 000 ms in all, the budget allows 12 000 ms".to_string()
            ]
        );
    }
}
