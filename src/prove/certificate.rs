//! What a proof may claim, in words: exactly the menu, bounds, start times and seeds it
//! explored, and what it did not.

use super::{MenuKind, Proof, Stopped};
use crate::text::{fmt_count, fmt_counted};

/// The seeds as a half-open range, as `--seeds` takes them: "seeds 0..16", "seed 1".
pub fn seeds(outcome: &Proof) -> String {
    let seeds = &outcome.options.seeds;
    if seeds.end - seeds.start == 1 {
        format!("seed {}", seeds.start)
    } else {
        format!("seeds {}..{}", seeds.start, seeds.end)
    }
}

/// The certificate of a proof that holds, as lines: "holds: 3 106 schedules of ≤ 2 faults
/// (pause, crash, …) on seeds 0..16, 1 204 distinct runs, 0 unsafe", then the menu, the start
/// times and what was not explored.
pub fn claim(outcome: &Proof) -> Vec<String> {
    let k = outcome.options.faults;
    let mut lines = vec![format!(
        "holds: {} of ≤ {} ({}) on {}, {}, 0 unsafe",
        fmt_counted(outcome.explored, "schedule"),
        fmt_counted(k as u64, "fault"),
        kind_names(&outcome.menu.kinds),
        seeds(outcome),
        fmt_counted(outcome.distinct_runs, "distinct run"),
    )];
    lines.push(exercised(outcome));
    lines.extend(bounds(outcome));
    lines
}

/// What the runs went through: a proof whose runs never met a danger says nothing about it.
fn exercised(outcome: &Proof) -> String {
    match outcome.exercised.words() {
        Some(words) => format!("exercised: {words}"),
        None => "exercised: nothing dangerous occurred in any run: no holder outlived its \
                 lease, no grant came while another was held, no fence rejected anything, no \
                 clock jump crossed a lease end, no live grant was lost; this holds says \
                 nothing about those"
            .to_string(),
    }
}

/// What a proof stopped early may claim: "explored 40 000 of 112 000 schedules of ≤ 2
/// faults: none unsafe so far", why it stopped, and the bounds it was exploring.
pub fn partial_claim(outcome: &Proof) -> Vec<String> {
    let why = match outcome.stopped {
        Some(Stopped::Budget) => format!(
            "the budget of {} ran out",
            fmt_counted(outcome.options.budget, "schedule")
        ),
        Some(Stopped::Interrupted) => "stopped by Ctrl-C".to_string(),
        None => "complete".to_string(),
    };
    let deeper = if outcome.levels < outcome.options.faults {
        format!(
            " (schedules of {} to {} faults not yet counted)",
            outcome.levels + 1,
            outcome.options.faults
        )
    } else {
        String::new()
    };
    let mut lines = vec![
        format!(
            "partial: explored {} of {} of ≤ {} ({}) on {}{deeper}, {}, none unsafe so far",
            fmt_count(outcome.explored),
            fmt_counted(outcome.total, "schedule"),
            fmt_counted(outcome.levels as u64, "fault"),
            kind_names(&outcome.menu.kinds),
            seeds(outcome),
            fmt_counted(outcome.distinct_runs, "distinct run"),
        ),
        format!("{why}: nothing is claimed of the schedules not run."),
        exercised(outcome),
    ];
    lines.extend(bounds(outcome));
    lines
}

/// The bounds every claim states in full: the menu, the start times, what was not explored.
fn bounds(outcome: &Proof) -> Vec<String> {
    let own = match outcome.own_faults {
        0 => String::new(),
        n => format!(
            ", on top of the file's own {}",
            fmt_counted(n as u64, "fault")
        ),
    };
    let missing: Vec<&str> = MenuKind::ALL
        .iter()
        .filter(|k| !outcome.menu.kinds.contains(k))
        .map(|k| k.name())
        .collect();
    let other_kinds = if missing.is_empty() {
        "delay, force_release".to_string()
    } else {
        format!("{}, delay, force_release", missing.join(", "))
    };
    vec![
        format!("menu: {}{own}", outcome.menu.describe()),
        "start times: 0 ms and 1 ms after each event of the run the fault lands in (a \
         message's travel aside), a later fault no earlier than the one before it"
            .to_string(),
        format!(
            "not explored: other kinds ({other_kinds}), other durations, nodes or groups, \
             other instants between events, other seeds, more than {}",
            fmt_counted(outcome.options.faults as u64, "fault")
        ),
    ]
}

fn kind_names(kinds: &[MenuKind]) -> String {
    kinds
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}
