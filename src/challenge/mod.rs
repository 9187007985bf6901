//! Challenges: a design from the course with its own faults taken out, a budget of faults the
//! learner may place, and a goal the checker judges ("make the unfenced lock accept a stale
//! write with one pause of at most 12 s"). Some are impossible by design, and say why once
//! the learner gives up.
//!
//! The list is data, `assets/challenges.toml`, read once with serde. [`attempt`] judges a
//! learner's faults against a challenge and searches a budget for a win; what is kept of the
//! learner's tries is the course's saved progress ([`crate::course::Record`]).

pub mod attempt;

use std::sync::OnceLock;

use serde::Deserialize;

use crate::Run;
use crate::scenario::{self, Scenario, library};
use crate::search::Budget;
use crate::violation::ViolationKind;

pub use attempt::{Attempt, play, search};

/// The challenges file, built into the binary (the browser build reads no files).
const FILE: &str = include_str!("../../assets/challenges.toml");

/// One challenge, as `assets/challenges.toml` gives it, with its design read.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    /// Stable name, used in links and saved progress.
    pub id: String,
    /// Shown in the list.
    pub title: String,
    /// The design: the shipped scenario the file names (`scenarios/NAME` or `cases/NAME`),
    /// without its own faults and its `[expect]` (both were written for the course's story,
    /// not for the learner's).
    #[serde(deserialize_with = "read_design")]
    pub design: Scenario,
    /// What to do, in a sentence or two.
    pub brief: String,
    /// The attempt wins when the run reports a violation of any of these kinds.
    pub goal: Vec<ViolationKind>,
    /// A node the winning violation must involve (a worker or store node name).
    #[serde(default)]
    pub goal_node: Option<String>,
    /// What the learner may place.
    pub budget: Budget,
    /// How it can be won, in words; shown once the learner gives up. Empty for a challenge
    /// that is impossible by design.
    #[serde(default)]
    pub hint: String,
    /// Why no attempt can win, for a challenge that is impossible by design; shown once the
    /// learner gives up.
    #[serde(default)]
    pub impossible: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    challenge: Vec<Challenge>,
}

/// Every challenge, in the order the page lists them.
pub fn all() -> &'static [Challenge] {
    static ALL: OnceLock<Vec<Challenge>> = OnceLock::new();
    ALL.get_or_init(|| {
        // The file ships inside the binary and a test reads it, so a broken one never runs.
        // Read as a scenario file is: toml's own serde reader would be a second one in the
        // web module.
        scenario::read_document::<File>(FILE, |_| Ok(()))
            .map_or_else(|_| Vec::new(), |f| f.challenge)
    })
}

/// The challenge named `id`, if there is one.
pub fn find(id: &str) -> Option<&'static Challenge> {
    all().iter().find(|c| c.id == id)
}

/// Reads `design = "scenarios/NAME"` (or `cases/NAME`) as the shipped scenario
/// `assets/scenarios/NAME.toml` (or `assets/cases/NAME.toml`), without its faults and
/// `[expect]`.
fn read_design<'de, D: serde::Deserializer<'de>>(reader: D) -> Result<Scenario, D::Error> {
    let path = String::deserialize(reader)?;
    let (list, name) = match path.split_once('/') {
        Some(("scenarios", name)) => (library::COURSE, name),
        Some(("cases", name)) => (library::INCIDENTS, name),
        _ => {
            return Err(serde::de::Error::custom(format!(
                "design {path:?} is not scenarios/NAME or cases/NAME"
            )));
        }
    };
    let file = format!("{name}.toml");
    let (_, text) = list
        .iter()
        .find(|(n, _)| *n == file)
        .ok_or_else(|| serde::de::Error::custom(format!("no shipped scenario {path}")))?;
    let mut scenario = scenario::parse(text).map_err(serde::de::Error::custom)?;
    scenario.faults.clear();
    scenario.expect = None;
    Ok(scenario)
}

impl Challenge {
    /// Whether `run` meets the goal: its verdict reports a violation of one of the goal's
    /// kinds, involving [`Challenge::goal_node`] if one is named.
    pub fn met(&self, run: &Run) -> bool {
        run.verdict.violations.iter().any(|v| {
            self.goal.contains(&v.kind)
                && self
                    .goal_node
                    .as_ref()
                    .is_none_or(|node| v.nodes.iter().any(|&n| run.trace.node_name(n) == node))
        })
    }

    /// The goal in words: "stale_write or interleaved_writes (involving B)".
    pub fn goal_words(&self) -> String {
        let kinds: Vec<&str> = self.goal.iter().map(|k| k.as_str()).collect();
        let mut words = kinds.join(" or ");
        if let Some(node) = &self.goal_node {
            words.push_str(&format!(" involving {node}"));
        }
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run;

    #[test]
    fn the_file_reads_and_names_real_designs() {
        let file: File = toml::from_str(FILE).expect("assets/challenges.toml reads");
        assert_eq!(file.challenge, all());
        assert!(all().len() >= 10, "at least ten challenges");
        assert!(all().iter().filter(|c| c.impossible.is_some()).count() >= 2);
        let mut ids: Vec<&str> = all().iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all().len(), "ids are unique");
        for c in all() {
            assert!(!c.goal.is_empty(), "{}: a goal", c.id);
            assert_ne!(
                c.hint.is_empty(),
                c.impossible.is_none(),
                "{}: a hint, or why it is impossible, not both",
                c.id
            );
            assert!(c.design.faults.is_empty() && c.design.expect.is_none());
        }
    }

    /// A fault with a duration or a clock step, dropped with the palette's defaults on any
    /// lane at any moment, wins no challenge by itself: the learner has to work out how
    /// long and how far, not only where.
    #[test]
    fn a_dropped_chip_with_its_defaults_wins_no_challenge_alone() {
        use crate::scenario::FaultTag;
        use crate::view::fault_edit::dropped;
        use strum::VariantArray;

        let tuned = |tag: FaultTag| tag.has_duration() || tag == FaultTag::ClockJump;
        for c in all() {
            let lanes = c.design.node_names().len();
            // Every instant the run without faults changes, and just after, as `prove`
            // places its faults; and a grid between them.
            let bare = run(&c.design, c.design.seed);
            let mut times: Vec<u64> = bare
                .trace
                .events
                .iter()
                .flat_map(|e| [e.at_ms, e.at_ms + 1])
                .chain((0..c.design.until_ms).step_by(250))
                .filter(|&t| t < c.design.until_ms)
                .collect();
            times.sort_unstable();
            times.dedup();
            let kinds = FaultTag::VARIANTS
                .iter()
                .copied()
                .filter(|&tag| tuned(tag) && c.budget.allows(tag) > 0);
            for tag in kinds {
                for lane in 0..lanes {
                    for &at in &times {
                        let Ok(fault) = dropped(&c.design, tag, lane, at) else {
                            continue;
                        };
                        assert!(
                            !play(c, std::slice::from_ref(&fault)).won,
                            "{}: won by a default chip alone: {fault:?}",
                            c.id
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn no_design_meets_its_goal_without_faults() {
        for c in all() {
            let run = run(&c.design, c.design.seed);
            assert!(!c.met(&run), "{} is won with no faults", c.id);
        }
    }
}
