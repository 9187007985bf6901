//! Faults placed on a run's timeline by hand: what a fault dropped on a lane at a time is,
//! which lane a placed fault sits on, moving and resizing it, and checking the result as the
//! scenario file is checked. Free of any UI toolkit, so the app's drag and drop, its keyboard
//! and a challenge's judge share the same arithmetic.
//!
//! A timeline has one lane per node, in the scenario's own order ([`Scenario::node_names`]:
//! the workers, `store1` .. `storeN`, `resource`), so a lane is an index into that list. Every
//! time is true simulated time, ms.

// A new kind of fault must be decided on in every match here, never passed over by `_`.
#![deny(clippy::wildcard_enum_match_arm)]

use crate::scenario::names::{RESOURCE, store_name};
use crate::scenario::{DeletedBy, Fault, FaultKind, FaultTag, Scenario, Worker};
use crate::text::fmt_ms;

/// What the palette shows of each kind of fault (`FaultTag::VARIANTS` is the palette and
/// its order: the file's).
impl FaultTag {
    /// What the palette calls it: the file's `kind` in words.
    pub fn label(self) -> &'static str {
        match self {
            FaultTag::Pause => "pause",
            FaultTag::Stall => "stall",
            FaultTag::Crash => "crash",
            FaultTag::Restart => "restart",
            FaultTag::Partition => "partition",
            FaultTag::Heal => "heal",
            FaultTag::ClockJump => "clock jump",
            FaultTag::Delay => "delay",
            FaultTag::KillStore => "kill store",
            FaultTag::ForceRelease => "force release",
            FaultTag::ConnectionReset => "connection reset",
        }
    }

    /// The letter that places it at the playhead on the selected lane. None is a playback
    /// key (Space, arrows, Home, End) or a digit (the course's options).
    pub fn key(self) -> char {
        match self {
            FaultTag::Pause => 'P',
            FaultTag::Stall => 'S',
            FaultTag::Crash => 'C',
            FaultTag::Restart => 'R',
            FaultTag::Partition => 'N',
            FaultTag::Heal => 'H',
            FaultTag::ClockJump => 'J',
            FaultTag::Delay => 'D',
            FaultTag::KillStore => 'K',
            FaultTag::ForceRelease => 'F',
            FaultTag::ConnectionReset => 'X',
        }
    }

    /// What dropping it on a lane does, in a sentence.
    pub fn what(self) -> &'static str {
        match self {
            FaultTag::Pause => {
                "The lane's node freezes (a GC pause): it handles nothing until the pause ends."
            }
            FaultTag::Stall => {
                "The worker's work stops advancing; its process (and a watchdog) lives."
            }
            FaultTag::Crash => "The lane's node stops; messages in flight to it are lost.",
            FaultTag::Restart => "The lane's node, crashed earlier, comes back.",
            FaultTag::Partition => "Cuts the lane's node off from every other node for a while.",
            FaultTag::Heal => "Ends every partition (on any lane: it is global).",
            FaultTag::ClockJump => {
                "The lane's node's wall clock steps forward (half a second, until you change it)."
            }
            FaultTag::Delay => {
                "Messages from the lane's node to the store (from a store node: to the first \
                 worker) take longer for a while."
            }
            FaultTag::KillStore => "Every store node crashes, and restarts later (on any lane).",
            FaultTag::ForceRelease => {
                "An operator deletes the lock on every store node, whoever holds it."
            }
            FaultTag::ConnectionReset => {
                "The lane's worker loses its connection to the store (a session lock goes \
                 with it)."
            }
        }
    }

    /// Whether a fault of this kind lasts a while (drawn as a bar, resized by its right edge).
    pub fn has_duration(self) -> bool {
        matches!(
            self,
            FaultTag::Pause
                | FaultTag::Stall
                | FaultTag::Partition
                | FaultTag::Delay
                | FaultTag::KillStore
        )
    }
}

/// The lane of node `name` (an index into [`Scenario::node_names`]).
pub fn lane_of_node(scenario: &Scenario, name: &str) -> Option<usize> {
    scenario.node_names().iter().position(|n| n == name)
}

/// The first store node's lane: where the faults that hit the whole store are drawn.
fn store_lane(scenario: &Scenario) -> usize {
    scenario.workers.len()
}

/// The lane a placed fault is drawn on: its node's; a delay on its sending end's; a
/// partition on the lane of the node it cuts off alone (else of its first group's first
/// node); the faults that hit the whole store (kill store, heal, a force release on every
/// store node) on the first store node's lane. `None` when it names no node of the scenario.
pub fn lane_of(scenario: &Scenario, fault: &Fault) -> Option<usize> {
    if let FaultKind::Partition { groups, .. } = &fault.kind {
        return lane_of_node(scenario, cut_off(groups)?);
    }
    match fault.kind.nodes().first() {
        Some(node) => lane_of_node(scenario, node),
        None => Some(store_lane(scenario)),
    }
}

/// Whether a fault of `kind` hits the whole store rather than one node (it names none): a
/// killed store, a heal of every partition, a force release on every store node. It has no
/// node to choose.
pub fn on_whole_store(kind: &FaultKind) -> bool {
    kind.nodes().is_empty()
}

/// The node a partition is drawn for: the one a group holds alone, else the first group's
/// first node.
fn cut_off(groups: &[Vec<String>]) -> Option<&String> {
    groups
        .iter()
        .find(|g| g.len() == 1)
        .or(groups.first())?
        .first()
}

/// A partition's two sides when it cuts one node off: that node, and the nodes it is cut off
/// from. `None` for any other fault, or a partition of another shape (three groups, say).
pub fn cut_sides(fault: &Fault) -> Option<(&String, &[String])> {
    let FaultKind::Partition { groups, .. } = &fault.kind else {
        return None;
    };
    match groups.as_slice() {
        [alone, rest] if alone.len() == 1 => Some((&alone[0], rest)),
        [rest, alone] if alone.len() == 1 => Some((&alone[0], rest)),
        _ => None,
    }
}

/// `fault`, a partition that cuts one node off ([`cut_sides`]), with `node` put on the far
/// side of the cut (`cut`) or taken off it: a node on neither side keeps every link. Anything
/// else comes back unchanged.
pub fn with_cut_from(fault: &Fault, node: &str, cut: bool) -> Fault {
    let mut fault = fault.clone();
    let Some((alone, _)) = cut_sides(&fault) else {
        return fault;
    };
    let alone = alone.clone();
    if let FaultKind::Partition { groups, .. } = &mut fault.kind
        && node != alone
        && let Some(rest) = groups.iter_mut().find(|g| !g.contains(&alone))
    {
        rest.retain(|n| n != node);
        if cut {
            rest.push(node.to_string());
        }
    }
    fault
}

/// How long a fault dropped from the palette lasts, ms, and how far a dropped clock jump
/// steps: well inside every lease the challenges and the course hold, and inside a worker's
/// default wait for a write's reply (1 s), so that a fault as it comes wins no challenge by
/// itself and how long (or how far) it must be is the learner's to work out.
pub const DEFAULT_FOR_MS: u64 = 500;

/// The fault of `kind` dropped on lane `lane` at `at_ms`, with neutral defaults: a duration
/// fault lasts [`DEFAULT_FOR_MS`]; a partition cuts the lane's node off from every other
/// node; a delay slows the link from the lane's node to `store1` (from a store node, to the
/// first worker) by half that; a clock jump steps the wall clock forward by
/// [`DEFAULT_FOR_MS`]; a force release deletes the lock of the lane's worker (else
/// the first worker's) on every store node; kill store and heal hit everything, whatever
/// the lane.
///
/// Returns why not, in a sentence, when the fault cannot go there (a stall on a lane that
/// is not a worker's) or the scenario would not be valid with it ([`Scenario::validate`]).
pub fn dropped(
    scenario: &Scenario,
    kind: FaultTag,
    lane: usize,
    at_ms: u64,
) -> Result<Fault, String> {
    let nodes = scenario.node_names();
    let node = nodes
        .get(lane)
        .ok_or_else(|| format!("There is no lane {} in this run.", lane + 1))?
        .clone();
    let for_ms = DEFAULT_FOR_MS;
    let worker = scenario.workers.iter().find(|w| w.name == node);
    let kind = match kind {
        FaultTag::Pause => FaultKind::Pause { node, for_ms },
        FaultTag::Stall => {
            if worker.is_none() {
                return Err(not_a_worker(&node));
            }
            FaultKind::Stall { node, for_ms }
        }
        FaultTag::Crash => FaultKind::Crash { node },
        FaultTag::Restart => FaultKind::Restart { node },
        FaultTag::Partition => FaultKind::Partition {
            groups: vec![
                vec![node.clone()],
                nodes.iter().filter(|n| **n != node).cloned().collect(),
            ],
            for_ms: Some(for_ms),
        },
        FaultTag::Heal => FaultKind::Heal,
        FaultTag::ClockJump => FaultKind::ClockJump {
            node,
            delta_ms: DEFAULT_FOR_MS as i64,
        },
        FaultTag::Delay => {
            let to = link_end(scenario, &node);
            FaultKind::Delay {
                from: node,
                to,
                extra_ms: (for_ms / 2).max(1),
                for_ms,
            }
        }
        FaultTag::KillStore => FaultKind::KillStore {
            for_ms: Some(for_ms),
        },
        FaultTag::ConnectionReset => {
            let to = link_end(scenario, &node);
            FaultKind::ConnectionReset { from: node, to }
        }
        FaultTag::ForceRelease => FaultKind::ForceRelease {
            key: worker
                .or(scenario.workers.first())
                .map_or_else(|| "lock".to_string(), |w| w.key.clone()),
            node: None,
            by: DeletedBy::Operator,
        },
    };
    let fault = Fault { at_ms, kind };
    apply(scenario, &Edit::Add(fault.clone()))?;
    Ok(fault)
}

/// Why a stall cannot go on `node`'s lane.
fn not_a_worker(node: &str) -> String {
    format!(
        "A stall stops a worker's work, and {node} is not a worker: drop it on a worker's lane \
         (a pause freezes any node)."
    )
}

/// The other end of a delayed link from `node`: `store1`, or from a store node the first
/// worker (its replies are what the worker waits for).
fn link_end(scenario: &Scenario, node: &str) -> String {
    let is_store = scenario.store_names().iter().any(|s| s == node);
    match scenario.workers.first() {
        Some(worker) if is_store || node == RESOURCE => worker.name.clone(),
        _ => store_name(1),
    }
}

/// A fault of kind `tag` for a form, keeping what `old` had that the new kind also has (its
/// node, its duration), else defaults that name `workers[0]` and `store1`: the Sandbox's
/// "Add fault" and its change of a fault's kind.
pub fn converted(tag: FaultTag, old: Option<&FaultKind>, workers: &[Worker]) -> FaultKind {
    let worker = || {
        workers
            .first()
            .map_or_else(|| "A".to_string(), |w| w.name.clone())
    };
    let old_node = old.and_then(|k| match k {
        FaultKind::Pause { node, .. }
        | FaultKind::Stall { node, .. }
        | FaultKind::Crash { node }
        | FaultKind::Restart { node }
        | FaultKind::ClockJump { node, .. } => Some(node.clone()),
        FaultKind::Delay { from, .. } | FaultKind::ConnectionReset { from, .. } => {
            Some(from.clone())
        }
        FaultKind::KillStore { .. }
        | FaultKind::Partition { .. }
        | FaultKind::Heal
        | FaultKind::ForceRelease { .. } => None,
    });
    let old_for = old.and_then(kind_duration_ms);
    let node = || old_node.clone().unwrap_or_else(worker);
    let for_ms = old_for.unwrap_or(1_000);
    match tag {
        FaultTag::Pause => FaultKind::Pause {
            node: node(),
            for_ms,
        },
        // Only a worker's work can stall.
        FaultTag::Stall => FaultKind::Stall {
            node: old_node
                .clone()
                .filter(|n| workers.iter().any(|w| &w.name == n))
                .unwrap_or_else(worker),
            for_ms,
        },
        FaultTag::Crash => FaultKind::Crash { node: node() },
        FaultTag::Restart => FaultKind::Restart { node: node() },
        FaultTag::KillStore => FaultKind::KillStore { for_ms: old_for },
        FaultTag::Partition => {
            let node = node();
            let other = other_end(&node);
            FaultKind::Partition {
                groups: vec![vec![node], vec![other]],
                for_ms: Some(for_ms),
            }
        }
        FaultTag::Heal => FaultKind::Heal,
        FaultTag::ClockJump => FaultKind::ClockJump {
            node: old_node.clone().unwrap_or_else(|| store_name(1)),
            delta_ms: 30_000,
        },
        FaultTag::Delay => {
            let from = node();
            let to = other_end(&from);
            FaultKind::Delay {
                from,
                to,
                extra_ms: 500,
                for_ms,
            }
        }
        FaultTag::ForceRelease => FaultKind::ForceRelease {
            key: workers
                .first()
                .map_or_else(|| "lock".to_string(), |w| w.key.clone()),
            node: None,
            by: DeletedBy::Operator,
        },
        // A worker's connection to the store; from any other node, its connection to the
        // first worker (a store node and the resource never connect).
        FaultTag::ConnectionReset => {
            let from = node();
            let to = if workers.iter().any(|w| w.name == from) {
                store_name(1)
            } else {
                worker()
            };
            FaultKind::ConnectionReset { from, to }
        }
    }
}

/// The other end of a link from `node` for a new delay or partition: the store, unless that
/// is `node` itself.
fn other_end(node: &str) -> String {
    let store1 = store_name(1);
    if node == store1 {
        RESOURCE.to_string()
    } else {
        store1
    }
}

/// How long a placed fault lasts, ms; `None` for an instant fault, or one that lasts until
/// the horizon (a partition or a killed store without `for_ms`).
pub fn duration_ms(fault: &Fault) -> Option<u64> {
    kind_duration_ms(&fault.kind)
}

/// How long a fault of `kind` lasts, ms, as [`duration_ms`] says.
fn kind_duration_ms(kind: &FaultKind) -> Option<u64> {
    match kind {
        FaultKind::Pause { for_ms, .. }
        | FaultKind::Stall { for_ms, .. }
        | FaultKind::Delay { for_ms, .. } => Some(*for_ms),
        FaultKind::Partition { for_ms, .. } | FaultKind::KillStore { for_ms } => *for_ms,
        FaultKind::Crash { .. }
        | FaultKind::Restart { .. }
        | FaultKind::Heal
        | FaultKind::ClockJump { .. }
        | FaultKind::ForceRelease { .. }
        | FaultKind::ConnectionReset { .. } => None,
    }
}

/// `fault` made to last `for_ms` (unchanged if it has no duration to set).
pub fn with_duration(fault: &Fault, for_ms: u64) -> Fault {
    let mut fault = fault.clone();
    match &mut fault.kind {
        FaultKind::Pause { for_ms: ms, .. }
        | FaultKind::Stall { for_ms: ms, .. }
        | FaultKind::Delay { for_ms: ms, .. } => *ms = for_ms,
        FaultKind::Partition { for_ms: ms, .. } | FaultKind::KillStore { for_ms: ms } => {
            *ms = Some(for_ms);
        }
        FaultKind::Crash { .. }
        | FaultKind::Restart { .. }
        | FaultKind::Heal
        | FaultKind::ClockJump { .. }
        | FaultKind::ForceRelease { .. }
        | FaultKind::ConnectionReset { .. } => {}
    }
    fault
}

/// `at_ms` moved by `by_ms`, kept inside the run (`0 .. until_ms`): a fault dragged or
/// stepped past either end stops there.
pub fn shifted(at_ms: u64, by_ms: i64, until_ms: u64) -> u64 {
    at_ms
        .saturating_add_signed(by_ms)
        .min(until_ms.saturating_sub(1))
}

/// How far apart the times a pointer can pick are, ms, when a screen point spans `ms_per_px`:
/// the round step (1, 2 or 5 times a power of ten) nearest above four points, so a fault
/// dragged or dropped by mouse lands on a round time (1 200 ms, not 1 187 ms).
pub fn snap_step_ms(ms_per_px: f64) -> u64 {
    let want = (ms_per_px * 4.0).max(1.0);
    let mut power = 1u64;
    loop {
        for step in [power, 2 * power, 5 * power] {
            if step as f64 >= want {
                return step;
            }
        }
        match power.checked_mul(10) {
            Some(next) => power = next,
            None => return power,
        }
    }
}

/// `ms` rounded to the nearest multiple of `step_ms`, within the run (`0 .. until_ms`).
pub fn snapped(ms: f64, step_ms: u64, until_ms: u64) -> u64 {
    let step = step_ms.max(1) as f64;
    let rounded = ((ms.max(0.0) / step).round() * step) as u64;
    rounded.min(until_ms.saturating_sub(1))
}

/// A duration whose end is dragged by `by_ms`, the end landing on a multiple of `step_ms`
/// (see [`snap_step_ms`]); at least 1 ms.
pub fn resized(at_ms: u64, for_ms: u64, by_ms: i64, step_ms: u64) -> u64 {
    let end = at_ms.saturating_add(for_ms).saturating_add_signed(by_ms);
    snapped(end as f64, step_ms, u64::MAX)
        .saturating_sub(at_ms)
        .max(1)
}

/// `fault` moved to lane `lane`: a node fault hits the lane's node; a delay's sending end
/// becomes the lane's node (its other end swaps in if it was that node); a partition swaps the
/// lane's node with the node it cut off; a force release on one store node moves to another
/// store node. The faults that hit the whole store stay where they are.
///
/// Returns why not when the lane's node cannot take the fault (a stall on a store lane, a
/// force release on a worker's).
pub fn moved_to_lane(scenario: &Scenario, fault: &Fault, lane: usize) -> Result<Fault, String> {
    let nodes = scenario.node_names();
    let new = nodes
        .get(lane)
        .ok_or_else(|| format!("There is no lane {} in this run.", lane + 1))?;
    let mut fault = fault.clone();
    match &mut fault.kind {
        FaultKind::Pause { node, .. }
        | FaultKind::Crash { node }
        | FaultKind::Restart { node }
        | FaultKind::ClockJump { node, .. } => *node = new.clone(),
        FaultKind::Stall { node, .. } => {
            if !scenario.workers.iter().any(|w| w.name == *new) {
                return Err(not_a_worker(new));
            }
            *node = new.clone();
        }
        FaultKind::Delay { from, to, .. } | FaultKind::ConnectionReset { from, to } => {
            if to == new {
                *to = from.clone();
            }
            *from = new.clone();
        }
        FaultKind::Partition { groups, .. } => {
            let Some(old) = cut_off(groups).cloned() else {
                return Ok(fault);
            };
            for name in groups.iter_mut().flatten() {
                if *name == old {
                    *name = new.clone();
                } else if name == new {
                    *name = old.clone();
                }
            }
        }
        FaultKind::ForceRelease {
            node: Some(node), ..
        } => {
            if !scenario.store_names().contains(new) {
                return Err(format!(
                    "This force release deletes the lock on one store node, and {new} is not \
                     a store node."
                ));
            }
            *node = new.clone();
        }
        FaultKind::KillStore { .. }
        | FaultKind::Heal
        | FaultKind::ForceRelease { node: None, .. } => {}
    }
    Ok(fault)
}

/// A change to a scenario's faults.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Place a new fault; it goes after every fault that starts no later, so the list stays
    /// in time order as far as it was.
    Add(Fault),
    /// Fault `i` becomes this one (moved, resized, a field edited). It keeps its place in the
    /// list.
    Replace(usize, Fault),
    /// Take fault `i` away.
    Remove(usize),
}

/// `scenario` with `edit` made, and the index of the fault it placed or changed (`None`
/// after a removal). The seed and everything else stay as they were, so a rerun differs only
/// by what the edit did.
///
/// Returns why not, in a sentence naming the field, when the result is not a valid scenario
/// (as a scenario file with it would be refused) or `edit` names a fault that is not there.
pub fn apply(scenario: &Scenario, edit: &Edit) -> Result<(Scenario, Option<usize>), String> {
    let mut s = scenario.clone();
    let missing = |i: usize| format!("There is no fault number {} in this scenario.", i + 1);
    let at = match edit {
        Edit::Add(fault) => {
            let i = s.faults.partition_point(|f| f.at_ms <= fault.at_ms);
            s.faults.insert(i, fault.clone());
            Some(i)
        }
        Edit::Replace(i, fault) => {
            *s.faults.get_mut(*i).ok_or_else(|| missing(*i))? = fault.clone();
            Some(*i)
        }
        Edit::Remove(i) => {
            if *i >= s.faults.len() {
                return Err(missing(*i));
            }
            s.faults.remove(*i);
            None
        }
    };
    s.validate()
        .map_err(|e| format!("That would not make a runnable scenario: {e}"))?;
    Ok((s, at))
}

/// A fault in a few words, as a list of changes shows it: `pause of A at 1 000 ms for 10 000 ms`.
pub fn describe(fault: &Fault) -> String {
    let at = fmt_ms(fault.at_ms);
    let label = FaultTag::from(&fault.kind).label();
    let lasting = |ms: &Option<u64>| match ms {
        Some(ms) => format!(" for {}", fmt_ms(*ms)),
        None => String::new(),
    };
    match &fault.kind {
        FaultKind::Pause { node, for_ms } | FaultKind::Stall { node, for_ms } => {
            format!("{label} of {node} at {at} for {}", fmt_ms(*for_ms))
        }
        FaultKind::Crash { node } | FaultKind::Restart { node } => {
            format!("{label} of {node} at {at}")
        }
        FaultKind::Partition { groups, for_ms } => {
            let sides: Vec<String> = groups.iter().map(|g| g.join(", ")).collect();
            format!("partition {} at {at}{}", sides.join(" | "), lasting(for_ms))
        }
        FaultKind::Heal => format!("heal at {at}"),
        FaultKind::ClockJump { node, delta_ms } => format!(
            "clock jump of {node} by {}{} at {at}",
            if *delta_ms < 0 { "-" } else { "+" },
            fmt_ms(delta_ms.unsigned_abs())
        ),
        FaultKind::Delay {
            from,
            to,
            extra_ms,
            for_ms,
        } => format!(
            "delay {from} → {to} by {} at {at} for {}",
            fmt_ms(*extra_ms),
            fmt_ms(*for_ms)
        ),
        FaultKind::KillStore { for_ms } => format!("kill store at {at}{}", lasting(for_ms)),
        FaultKind::ConnectionReset { from, to } => {
            format!("connection reset {from} ↔ {to} at {at}")
        }
        FaultKind::ForceRelease { key, node, by } => {
            let what = match by {
                DeletedBy::Operator => format!("force release of {key:?}"),
                DeletedBy::Eviction => format!("eviction of {key:?}"),
                DeletedBy::Flush => "flush".to_string(),
            };
            let node = node.as_deref().unwrap_or("every store node");
            format!("{what} on {node} at {at}")
        }
    }
}

/// What `edit` did to `scenario`'s faults, as a line in a list of changes made.
pub fn describe_edit(scenario: &Scenario, edit: &Edit) -> String {
    match edit {
        Edit::Add(fault) => format!("placed a {}", describe(fault)),
        Edit::Replace(i, fault) => match scenario.faults.get(*i) {
            Some(old) => format!("changed the {} to a {}", describe(old), describe(fault)),
            None => format!("placed a {}", describe(fault)),
        },
        Edit::Remove(i) => match scenario.faults.get(*i) {
            Some(old) => format!("removed the {}", describe(old)),
            None => "removed a fault".to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    #[test]
    fn a_partition_cuts_its_node_off_from_the_nodes_chosen() {
        let s = unfenced();
        let cut = dropped(&s, FaultTag::Partition, 0, 1_000).unwrap();
        let (alone, from) = cut_sides(&cut).unwrap();
        assert_eq!(alone, "A");
        assert!(from.contains(&"B".to_string()));
        let kept = with_cut_from(&cut, "B", false);
        let (_, from) = cut_sides(&kept).unwrap();
        assert!(!from.contains(&"B".to_string()));
        let again = with_cut_from(&kept, "B", true);
        assert!(cut_sides(&again).unwrap().1.contains(&"B".to_string()));
        // The lone node stays where it is; other faults are untouched.
        assert_eq!(with_cut_from(&cut, "A", false), cut);
        let pause = dropped(&s, FaultTag::Pause, 0, 1_000).unwrap();
        assert_eq!(with_cut_from(&pause, "B", false), pause);
        assert_eq!(cut_sides(&pause), None);
    }

    #[test]
    fn every_kind_is_named_as_the_scenario_file_names_it() {
        let s = unfenced();
        for &kind in FaultTag::VARIANTS {
            let fault = dropped(&s, kind, 0, 1_000).unwrap();
            assert_eq!(<&str>::from(kind), fault.kind.name());
        }
    }
    use crate::scenario::library::shipped;

    fn unfenced() -> Scenario {
        let mut s = shipped("scenarios/step5-pause-unfenced.toml");
        s.faults.clear();
        s
    }

    #[test]
    fn lanes_follow_the_runs_nodes() {
        let s = shipped("scenarios/step5-fencing-token.toml");
        let run = crate::run(&s, s.seed);
        let traced: Vec<&str> = run.trace.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(traced, s.node_names());
        assert_eq!(lane_of_node(&s, "store1"), Some(2));
        assert_eq!(lane_of(&s, &s.faults[0]), Some(0), "the pause is A's");
    }

    #[test]
    fn every_kind_drops_as_itself_and_has_its_own_key() {
        let s = unfenced();
        for &kind in FaultTag::VARIANTS {
            let fault = dropped(&s, kind, 0, 1_000).unwrap();
            assert_eq!(FaultTag::from(&fault.kind), kind);
            assert!(lane_of(&s, &fault).is_some());
            let keys = FaultTag::VARIANTS
                .iter()
                .filter(|k| k.key() == kind.key())
                .count();
            assert_eq!(keys, 1, "{kind:?}");
            assert_eq!(
                kind.has_duration(),
                duration_ms(&fault).is_some(),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn a_dropped_fault_takes_the_lanes_node_and_sensible_defaults() {
        let s = unfenced();
        let pause = dropped(&s, FaultTag::Pause, 0, 1_000).unwrap();
        assert_eq!(
            pause,
            Fault {
                at_ms: 1_000,
                kind: FaultKind::Pause {
                    node: "A".to_string(),
                    for_ms: 500
                }
            }
        );
        let cut = dropped(&s, FaultTag::Partition, 1, 500).unwrap();
        assert_eq!(
            cut.kind,
            FaultKind::Partition {
                groups: vec![
                    vec!["B".to_string()],
                    vec![
                        "A".to_string(),
                        "store1".to_string(),
                        "resource".to_string()
                    ]
                ],
                for_ms: Some(500)
            }
        );
        assert_eq!(lane_of(&s, &cut), Some(1));
        let slow = dropped(&s, FaultTag::Delay, 0, 0).unwrap();
        assert!(
            matches!(&slow.kind, FaultKind::Delay { from, to, extra_ms: 250, .. }
            if from == "A" && to == "store1")
        );
        let reply = dropped(&s, FaultTag::Delay, 2, 0).unwrap();
        assert!(matches!(&reply.kind, FaultKind::Delay { from, to, .. }
            if from == "store1" && to == "A"));
        let jump = dropped(&s, FaultTag::ClockJump, 2, 0).unwrap();
        assert!(matches!(
            jump.kind,
            FaultKind::ClockJump { delta_ms: 500, .. }
        ));
        let release = dropped(&s, FaultTag::ForceRelease, 1, 0).unwrap();
        assert_eq!(
            release.kind,
            FaultKind::ForceRelease {
                key: "lock".to_string(),
                node: None,
                by: DeletedBy::Operator,
            }
        );
        for global in [FaultTag::Heal, FaultTag::KillStore, FaultTag::ForceRelease] {
            let on_a = dropped(&s, global, 0, 0).unwrap();
            assert_eq!(
                lane_of(&s, &on_a),
                Some(2),
                "{global:?} is drawn on the store"
            );
        }
    }

    #[test]
    fn what_cannot_go_on_a_lane_is_refused_with_a_reason() {
        let s = unfenced();
        let stall = dropped(&s, FaultTag::Stall, 2, 1_000).unwrap_err();
        assert!(stall.contains("store1 is not a worker"), "{stall}");
        let late = dropped(&s, FaultTag::Pause, 0, s.until_ms).unwrap_err();
        assert!(late.contains("fault[0].at_ms"), "{late}");
        assert!(
            dropped(&s, FaultTag::Pause, 9, 0)
                .unwrap_err()
                .contains("no lane 10")
        );
    }

    #[test]
    fn a_pause_dropped_on_the_holder_breaks_the_unfenced_lock_once_made_longer() {
        let s = unfenced();
        assert!(crate::run(&s, s.seed).verdict.safe);
        let pause = dropped(&s, FaultTag::Pause, 0, 1_000).unwrap();
        let (paused, at) = apply(&s, &Edit::Add(pause.clone())).unwrap();
        assert_eq!(at, Some(0));
        assert_eq!(paused.seed, s.seed);
        assert!(
            crate::run(&paused, paused.seed).verdict.safe,
            "half a second is well inside the 10 s lease"
        );
        let (paused, _) = apply(&s, &Edit::Add(with_duration(&pause, 12_000))).unwrap();
        assert!(!crate::run(&paused, paused.seed).verdict.safe);
    }

    #[test]
    fn moving_and_resizing_stay_inside_the_run() {
        assert_eq!(shifted(1_000, -100, 20_000), 900);
        assert_eq!(shifted(50, -100, 20_000), 0);
        assert_eq!(shifted(19_950, 100, 20_000), 19_999);
        assert_eq!(resized(1_000, 10_000, 1_187, 200), 11_200);
        assert_eq!(resized(1_000, 1_000, -5_000, 200), 1);
        assert_eq!(snap_step_ms(28.0), 200);
        assert_eq!(snap_step_ms(0.1), 1);
        assert_eq!(snap_step_ms(1.0), 5);
        assert_eq!(snapped(1_187.0, 200, 20_000), 1_200);
        assert_eq!(snapped(-40.0, 200, 20_000), 0);
        assert_eq!(snapped(19_990.0, 200, 20_000), 19_999);
        let s = unfenced();
        let pause = dropped(&s, FaultTag::Pause, 0, 1_000).unwrap();
        assert_eq!(duration_ms(&with_duration(&pause, 3_000)), Some(3_000));
        let crash = dropped(&s, FaultTag::Crash, 0, 1_000).unwrap();
        assert_eq!(with_duration(&crash, 3_000), crash);
    }

    #[test]
    fn moving_to_another_lane_retargets_the_fault() {
        let s = unfenced();
        let pause = dropped(&s, FaultTag::Pause, 0, 1_000).unwrap();
        let on_store = moved_to_lane(&s, &pause, 2).unwrap();
        assert_eq!(lane_of(&s, &on_store), Some(2));
        let stall = dropped(&s, FaultTag::Stall, 0, 1_000).unwrap();
        assert!(moved_to_lane(&s, &stall, 2).is_err());
        assert_eq!(lane_of(&s, &moved_to_lane(&s, &stall, 1).unwrap()), Some(1));
        let cut = dropped(&s, FaultTag::Partition, 0, 1_000).unwrap();
        let cut_b = moved_to_lane(&s, &cut, 1).unwrap();
        assert_eq!(lane_of(&s, &cut_b), Some(1));
        assert!(apply(&s, &Edit::Add(cut_b)).is_ok(), "still one side each");
        let slow = dropped(&s, FaultTag::Delay, 0, 1_000).unwrap();
        let from_store = moved_to_lane(&s, &slow, 2).unwrap();
        assert!(matches!(&from_store.kind, FaultKind::Delay { from, to, .. }
            if from == "store1" && to == "A"));
        let heal = dropped(&s, FaultTag::Heal, 0, 1_000).unwrap();
        assert_eq!(moved_to_lane(&s, &heal, 0).unwrap(), heal);
        let one = Fault {
            at_ms: 0,
            kind: FaultKind::ForceRelease {
                key: "lock".to_string(),
                node: Some("store1".to_string()),
                by: DeletedBy::Operator,
            },
        };
        assert!(
            moved_to_lane(&s, &one, 0)
                .unwrap_err()
                .contains("not a store node")
        );
    }

    #[test]
    fn edits_are_checked_like_the_file() {
        let s = unfenced();
        let pause = dropped(&s, FaultTag::Pause, 0, 1_000).unwrap();
        let (one, _) = apply(&s, &Edit::Add(pause.clone())).unwrap();
        let zero = with_duration(&pause, 0);
        let refused = apply(&one, &Edit::Replace(0, zero)).unwrap_err();
        assert!(refused.contains("fault[0].for_ms"), "{refused}");
        let (none, at) = apply(&one, &Edit::Remove(0)).unwrap();
        assert_eq!((none, at), (s.clone(), None));
        assert!(apply(&s, &Edit::Remove(0)).is_err());
        let later = Fault {
            at_ms: 2_000,
            ..pause.clone()
        };
        let (two, at) = apply(&one, &Edit::Add(later)).unwrap();
        assert_eq!(at, Some(1), "in time order");
        let earlier = Fault {
            at_ms: 500,
            ..pause
        };
        assert_eq!(apply(&two, &Edit::Add(earlier)).unwrap().1, Some(0));
    }

    #[test]
    fn edits_are_told_in_words() {
        let s = unfenced();
        let pause = dropped(&s, FaultTag::Pause, 0, 1_000).unwrap();
        assert_eq!(
            describe_edit(&s, &Edit::Add(pause.clone())),
            "placed a pause of A at 1 000 ms for 500 ms"
        );
        let (one, _) = apply(&s, &Edit::Add(pause.clone())).unwrap();
        let moved = Fault {
            at_ms: 2_000,
            ..pause
        };
        assert_eq!(
            describe_edit(&one, &Edit::Replace(0, moved)),
            "changed the pause of A at 1 000 ms for 500 ms to a pause of A at 2 000 ms for \
             500 ms"
        );
        assert_eq!(
            describe_edit(&one, &Edit::Remove(0)),
            "removed the pause of A at 1 000 ms for 500 ms"
        );
        for &kind in FaultTag::VARIANTS {
            assert!(!describe(&dropped(&s, kind, 0, 0).unwrap()).is_empty());
        }
    }

    #[test]
    fn every_fault_kind_converts_to_every_other() {
        let s = shipped("scenarios/step5-fencing-token.toml");
        let w = &s.workers;
        for &from in FaultTag::VARIANTS {
            let old = converted(from, None, w);
            assert_eq!(FaultTag::from(&old), from);
            for &to in FaultTag::VARIANTS {
                let new = converted(to, Some(&old), w);
                assert_eq!(FaultTag::from(&new), to);
                let mut with = s.clone();
                with.faults = vec![Fault {
                    at_ms: 1_000,
                    kind: new,
                }];
                if let Err(e) = with.validate() {
                    panic!("{from:?} → {to:?}: {e}");
                }
            }
        }
        let pause = converted(FaultTag::Pause, None, w);
        assert_eq!(
            converted(FaultTag::Delay, Some(&pause), w),
            FaultKind::Delay {
                from: "A".to_string(),
                to: "store1".to_string(),
                extra_ms: 500,
                for_ms: 1_000
            }
        );
    }
}
