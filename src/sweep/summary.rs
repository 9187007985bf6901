//! A sweep's results in words, for the app's "Across seeds" panel: what the runs were of,
//! shares of runs that never round a failure away, the rungs of the ladder compared in a
//! sentence, the run each row offers to open, and what each rung's lock cost.

use super::{Row, Tally};
use crate::checker::ViolationKind;
use crate::text::{fmt_count, fmt_counted, fmt_ms};

/// `n` of the tally's runs as "37 %", with a decimal below 10 % so a rare failure never reads
/// as 0.
pub fn percent(tally: &Tally, n: u64) -> String {
    let p = tally.percent(n);
    if n > 0 && p < 10.0 {
        format!("{p:.1} %")
    } else {
        format!("{p:.0} %")
    }
}

/// [`percent`] in a table's cell: a dash while the row has no runs yet, part-way through a
/// sweep, as [`price_cells`] gives, so a share of no runs does not read as 0 %.
pub fn share_cell(tally: &Tally, n: u64) -> String {
    if tally.runs() == 0 {
        "—".to_string()
    } else {
        percent(tally, n)
    }
}

/// The rungs of a sweep's rows (all but the first, this scenario) compared in a sentence, on
/// the safety kind seen most often (any kind if none breaks safety): e.g.
/// "flag: 100 % of 1 000 runs had stale_write; …; fencing: 0 % of 1 000 runs had
/// stale_write". A rung that also had other kinds names the gravest of them (safety first,
/// then the most frequent): "ttl: 0 % of 1 000 runs had stale_write, 64 % had starved".
///
/// Part-way through a sweep, a rung with no run yet says so ("token: not run yet"), and
/// before any rung has run the line says that, not that no rung had a violation: the chart
/// beside it already shows this scenario's runs.
pub fn ladder_line(rows: &[Row]) -> String {
    let rungs: Vec<&Row> = rows
        .iter()
        .skip(1)
        .filter(|row| row.scenario.is_ok())
        .collect();
    if rungs.is_empty() {
        return "No rung of the ladder can run on this scenario.".to_string();
    }
    let waiting: Vec<&str> = rungs
        .iter()
        .filter(|row| row.tally.runs() == 0)
        .map(|row| row.label.as_str())
        .collect();
    if waiting.len() == rungs.len() {
        return "The rungs of the ladder have not run yet.".to_string();
    }
    let total = |kind: ViolationKind| rungs.iter().map(|row| row.tally.count(kind)).sum::<u64>();
    let seen = |kinds: &mut dyn Iterator<Item = ViolationKind>| {
        kinds
            .map(|k| (total(k), k))
            .filter(|(n, _)| *n > 0)
            .max_by_key(|(n, k)| (*n, std::cmp::Reverse(*k)))
            .map(|(_, k)| k)
    };
    let headline = seen(&mut ViolationKind::ALL.into_iter().filter(|k| k.breaks_safety()))
        .or_else(|| seen(&mut ViolationKind::ALL.into_iter()));
    let Some(kind) = headline else {
        return match waiting.split_last() {
            None => "No rung showed any violation in these runs.".to_string(),
            Some((last, [])) => {
                format!("No rung showed any violation in the runs so far; {last} has not run yet.")
            }
            Some((last, others)) => format!(
                "No rung showed any violation in the runs so far; {} and {last} have not run \
                 yet.",
                others.join(", ")
            ),
        };
    };
    // One format for every rung, 0 included, so the rungs read side by side. A rung's own
    // worst other kind follows, so a rung that is safe only because it never got the lock
    // (starved, stuck) does not read as a fix.
    let parts: Vec<String> = rungs
        .iter()
        .map(|row| {
            let tally = &row.tally;
            if tally.runs() == 0 {
                return format!("{}: not run yet", row.label);
            }
            let mut part = format!(
                "{}: {} of {} had {}",
                row.label,
                percent(tally, tally.count(kind)),
                fmt_counted(tally.runs(), "run"),
                kind.as_str()
            );
            let other = ViolationKind::ALL
                .into_iter()
                .filter(|&k| k != kind && tally.count(k) > 0)
                .max_by_key(|&k| (k.breaks_safety(), tally.count(k), std::cmp::Reverse(k)));
            if let Some(other) = other {
                part += &format!(
                    ", {} had {}",
                    percent(tally, tally.count(other)),
                    other.as_str()
                );
            }
            part
        })
        .collect();
    parts.join("; ")
}

/// The run a row of the panel's table offers to open: the first bad one or, in a row with
/// none, the first in which the lock misbehaved — safe and live, yet not exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstRun {
    /// The first seed whose run was unsafe or not live.
    Bad(u64),
    /// No run was unsafe or not live; this seed's was the first in which the lock misbehaved,
    /// reporting this kind (`overlap`, `double_grant` or `foreign_release`).
    Misbehaved(ViolationKind, u64),
}

impl FirstRun {
    /// The run to open among a tally's, if any was bad or saw the lock misbehave.
    pub fn of(tally: &Tally) -> Option<FirstRun> {
        if let Some(seed) = tally.first_failing() {
            return Some(FirstRun::Bad(seed));
        }
        ViolationKind::ALL
            .into_iter()
            .filter(|k| k.is_lock_misbehaviour())
            .filter_map(|k| tally.first_seed(k).map(|seed| (seed, k)))
            .min_by_key(|&(seed, _)| seed)
            .map(|(seed, kind)| FirstRun::Misbehaved(kind, seed))
    }

    /// The seed to open.
    pub fn seed(self) -> u64 {
        match self {
            FirstRun::Bad(seed) | FirstRun::Misbehaved(_, seed) => seed,
        }
    }

    /// Its button's words: "open seed 3" in the column of first bad runs; "first overlap:
    /// open seed 1" for a run that was not bad, so it is not taken for one.
    pub fn button(self) -> String {
        match self {
            FirstRun::Bad(seed) => format!("open seed {seed}"),
            FirstRun::Misbehaved(kind, seed) => {
                format!("first {}: open seed {seed}", kind.as_str())
            }
        }
    }

    /// Its button's name for a screen reader, with the row's `name`: rows often share a
    /// first seed.
    pub fn spoken(self, name: &str) -> String {
        match self {
            FirstRun::Bad(seed) => format!("open seed {seed} of {name}"),
            FirstRun::Misbehaved(kind, seed) => format!(
                "open seed {seed} of {name}, its first {}; none of its runs was bad",
                kind.as_str()
            ),
        }
    }

    /// What the run is, on hover.
    pub fn about(self) -> String {
        match self {
            FirstRun::Bad(_) => "The first run that was unsafe or not live.".to_string(),
            FirstRun::Misbehaved(kind, _) => format!(
                "No run was unsafe or not live. This is the first in which the lock \
                 misbehaved ({}), although the data stayed correct.",
                kind.as_str()
            ),
        }
    }
}

/// What a sweep ran, for the line above its results: "Runs of "Step 5 · …", seeds 1 to
/// 1000." When Break it changed the scenario first, its changes follow the name in Break
/// it's own words (`changed`, oldest first), since the runs are not of the scenario as written:
/// "Runs of "Step 5 · …" changed by Break it (the resource stopped checking fencing tokens),
/// seeds 1 to 1000."
pub fn runs_of(name: &str, changed: &[String], first_seed: u64, last_seed: u64) -> String {
    let changed = if changed.is_empty() {
        ",".to_string()
    } else {
        format!(" changed by Break it ({}),", changed.join("; "))
    };
    format!("Runs of \"{name}\"{changed} seeds {first_seed} to {last_seed}.")
}

/// What the lock cost over a tally's runs, as the panel's "safety vs cost" table shows it:
/// acquire latency p50 / p99 (e.g. "4 / 2 010 ms"), critical sections per simulated second
/// ("0.83"), and the share of time the lock was available ("99.8 %", rounded down so a
/// loss never reads as 100 %). Dashes when there are no runs, or no acquisition came through.
pub fn price_cells(tally: &Tally) -> [String; 3] {
    const NONE: &str = "—";
    if tally.runs() == 0 {
        return [NONE; 3].map(String::from);
    }
    let latency = match (
        tally.latency_percentile_ms(50),
        tally.latency_percentile_ms(99),
    ) {
        (Some(p50), Some(p99)) => format!("{} / {}", fmt_count(p50), fmt_ms(p99)),
        _ => NONE.to_string(),
    };
    [
        latency,
        format!("{:.2}", tally.throughput_per_s()),
        format!("{} %", availability_percent(tally, 1)),
    ]
}

/// The share of the time the lock was free to take, as a percentage with `decimals` places,
/// rounded down so that a loss never reads as 100 %: the app's table and the command line's
/// price line both print it.
pub fn availability_percent(tally: &Tally, decimals: usize) -> String {
    let scale = 10f64.powi(decimals as i32);
    // The nudge keeps a product such as 0.29 × 1 000 = 289.999… from rounding down a step.
    let shown = (tally.availability() * 100.0 * scale + 1e-9).floor() / scale;
    format!("{shown:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Verdict;
    use crate::scenario::library::shipped;
    use crate::sweep::Sweep;
    use crate::testkit::{outcome, verdict};

    #[test]
    fn fencing_the_paused_holder_makes_stale_writes_vanish() {
        let s = shipped("scenarios/step5-pause-unfenced.toml");
        let mut sweep = Sweep::new(&s, 20);
        sweep.advance(u64::MAX);
        let row = |label: &str| {
            sweep
                .rows()
                .iter()
                .find(|r| r.label == label)
                .unwrap()
                .tally
                .clone()
        };
        assert_eq!(row("fencing").count(ViolationKind::StaleWrite), 0);
        assert_eq!(row("token").count(ViolationKind::StaleWrite), 20);
        let line = ladder_line(sweep.rows());
        assert!(line.starts_with("flag: "), "{line}");
        assert!(
            line.contains("token: 100 % of 20 runs had stale_write"),
            "{line}"
        );
        assert!(
            line.ends_with("fencing: 0 % of 20 runs had stale_write, 100 % had overlap"),
            "fencing stops the stale write, not the overlapping belief: {line}"
        );
    }

    #[test]
    fn a_rung_safe_only_because_it_starved_says_so() {
        let row = |label: &str, kinds: &[&[ViolationKind]]| {
            let mut tally = Tally::default();
            for (seed, kinds) in kinds.iter().enumerate() {
                let v = verdict(!kinds.iter().any(|k| k.breaks_safety()), kinds);
                tally.add(&outcome(seed as u64, 1, &v, Default::default()));
            }
            Row {
                label: label.to_string(),
                scenario: Ok(shipped("scenarios/step5-pause-unfenced.toml")),
                tally,
            }
        };
        let rows = [
            row("this scenario", &[&[], &[]]),
            row(
                "setnx",
                &[
                    &[ViolationKind::StaleWrite],
                    &[ViolationKind::StaleWrite, ViolationKind::Starved],
                ],
            ),
            row(
                "ttl",
                &[
                    &[ViolationKind::Starved],
                    &[ViolationKind::Starved, ViolationKind::Stuck],
                ],
            ),
            row("fencing", &[&[], &[]]),
        ];
        assert_eq!(
            ladder_line(&rows),
            "setnx: 100 % of 2 runs had stale_write, 50 % had starved; \
             ttl: 0 % of 2 runs had stale_write, 100 % had starved; \
             fencing: 0 % of 2 runs had stale_write"
        );
    }

    #[test]
    fn part_way_through_a_sweep_the_line_says_which_rungs_have_not_run() {
        // This scenario's first run has a stale write, which the chart shows: the line must
        // not read as if no rung had any violation while no rung has run.
        let s = shipped("scenarios/step5-pause-unfenced.toml");
        let mut sweep = Sweep::new(&s, 100);
        sweep.advance(1);
        assert_eq!(sweep.rows()[0].tally.count(ViolationKind::StaleWrite), 1);
        assert_eq!(
            ladder_line(sweep.rows()),
            "The rungs of the ladder have not run yet."
        );
        sweep.advance(1);
        assert_eq!(
            ladder_line(sweep.rows()),
            "No rung showed any violation in the runs so far; setnx, ttl, token and fencing \
             have not run yet."
        );
        for _ in 0..3 {
            sweep.advance(1);
        }
        let line = ladder_line(sweep.rows());
        assert!(
            line.ends_with(
                "token: 100 % of 1 run had stale_write, 100 % had interleaved_writes; \
                 fencing: not run yet"
            ),
            "{line}"
        );
        sweep.advance(1);
        let line = ladder_line(sweep.rows());
        assert!(!line.contains("not run yet"), "{line}");
        assert!(
            line.ends_with("fencing: 0 % of 1 run had stale_write, 100 % had overlap"),
            "{line}"
        );
    }

    #[test]
    fn a_line_with_no_violation_names_the_rungs_still_to_run() {
        let row = |label: &str, runs: u64| {
            let mut tally = Tally::default();
            for seed in 0..runs {
                tally.add(&outcome(seed, 1, &verdict(true, &[]), Default::default()));
            }
            Row {
                label: label.to_string(),
                scenario: Ok(shipped("scenarios/step5-pause-unfenced.toml")),
                tally,
            }
        };
        let mut rows = vec![row("this scenario", 2), row("flag", 2), row("setnx", 1)];
        rows.push(row("ttl", 1));
        assert_eq!(
            ladder_line(&rows),
            "No rung showed any violation in these runs."
        );
        rows.push(row("token", 0));
        rows.push(row("fencing", 0));
        assert_eq!(
            ladder_line(&rows),
            "No rung showed any violation in the runs so far; token and fencing have not \
             run yet."
        );
        let cannot = |label: &str| Row {
            label: label.to_string(),
            scenario: Err("no".to_string()),
            tally: Tally::default(),
        };
        assert_eq!(
            ladder_line(&[row("this scenario", 1), cannot("flag")]),
            "No rung of the ladder can run on this scenario."
        );
    }

    #[test]
    fn a_row_with_no_bad_run_offers_its_first_misbehaviour_by_name() {
        let tally = |runs: &[Verdict]| {
            let mut t = Tally::default();
            for (seed, v) in runs.iter().enumerate() {
                t.add(&outcome(seed as u64 + 1, 1, v, Default::default()));
            }
            t
        };
        let fenced = tally(&[
            verdict(true, &[]),
            verdict(true, &[ViolationKind::Overlap, ViolationKind::DoubleGrant]),
            verdict(true, &[ViolationKind::ForeignRelease]),
        ]);
        let first = FirstRun::of(&fenced).unwrap();
        assert_eq!(first, FirstRun::Misbehaved(ViolationKind::Overlap, 2));
        assert_eq!(first.seed(), 2);
        assert_eq!(first.button(), "first overlap: open seed 2");
        assert_eq!(
            first.spoken("fencing"),
            "open seed 2 of fencing, its first overlap; none of its runs was bad"
        );
        assert!(first.about().starts_with("No run was unsafe or not live."));
        let bad = tally(&[
            verdict(true, &[ViolationKind::Overlap]),
            verdict(false, &[ViolationKind::Overlap, ViolationKind::StaleWrite]),
        ]);
        let first = FirstRun::of(&bad).unwrap();
        assert_eq!(first, FirstRun::Bad(2), "a bad run comes before an overlap");
        assert_eq!(first.button(), "open seed 2");
        assert_eq!(first.spoken("token"), "open seed 2 of token");
        assert_eq!(FirstRun::of(&tally(&[verdict(true, &[])])), None);
    }

    #[test]
    fn fencing_with_the_resource_check_removed_has_no_bad_run_on_its_own_rung() {
        let mut s = shipped("scenarios/step5-fencing-token.toml");
        s.resource.fencing = false;
        s.resource.fence_reads = false;
        let mut sweep = Sweep::new(&s, 5);
        sweep.advance(u64::MAX);
        let first = |label: &str| {
            let row = sweep.rows().iter().find(|r| r.label == label).unwrap();
            FirstRun::of(&row.tally).unwrap()
        };
        assert!(matches!(first("this scenario"), FirstRun::Bad(_)));
        assert!(
            matches!(
                first("fencing"),
                FirstRun::Misbehaved(ViolationKind::Overlap, _)
            ),
            "{:?}",
            first("fencing")
        );
    }

    #[test]
    fn the_runs_are_of_the_scenario_as_break_it_changed_it() {
        let name = "Step 5 · Fencing token: the resource turns the stale holder away";
        assert_eq!(
            runs_of(name, &[], 1, 1_000),
            format!("Runs of \"{name}\", seeds 1 to 1000.")
        );
        let changed = ["the resource stopped checking fencing tokens".to_string()];
        assert_eq!(
            runs_of(name, &changed, 1, 1_000),
            format!(
                "Runs of \"{name}\" changed by Break it (the resource stopped checking \
                 fencing tokens), seeds 1 to 1000."
            )
        );
        let two = [
            "paused A at 1 000 ms for 15 000 ms".to_string(),
            "an operator deleted the lock at 2 000 ms".to_string(),
        ];
        assert!(runs_of("x", &two, 3, 3).contains(
            "(paused A at 1 000 ms for 15 000 ms; an operator deleted the lock at 2 000 ms)"
        ));
    }

    #[test]
    fn the_price_in_cells() {
        assert_eq!(price_cells(&Tally::default()), ["—", "—", "—"]);
        let mut t = Tally::default();
        let price = crate::checker::Price {
            latencies_ms: vec![4, 5, 2_010],
            throughput_per_s: 0.8333,
            availability: 0.99965,
        };
        t.add(&outcome(1, 1, &verdict(true, &[]), price));
        assert_eq!(price_cells(&t), ["5 / 1 984 ms", "0.83", "99.9 %"]);
        let none = crate::checker::Price {
            availability: 1.0,
            ..Default::default()
        };
        let mut idle = Tally::default();
        idle.add(&outcome(1, 1, &verdict(true, &[]), none));
        assert_eq!(price_cells(&idle), ["—", "0.00", "100.0 %"]);
    }

    #[test]
    fn percentages_never_round_a_failure_away() {
        let mut t = Tally::default();
        for seed in 0..1_000 {
            t.add(&outcome(seed, 1, &verdict(true, &[]), Default::default()));
        }
        assert_eq!(percent(&t, 0), "0 %");
        assert_eq!(percent(&t, 3), "0.3 %");
        assert_eq!(percent(&t, 370), "37 %");
        assert_eq!(percent(&Tally::default(), 0), "0 %");
        assert_eq!(share_cell(&t, 3), "0.3 %");
        assert_eq!(share_cell(&Tally::default(), 0), "—", "no runs yet");
    }
}
