//! A sweep's results in words, for the app's "Across seeds" panel: shares of runs that never
//! round a failure away, the rungs of the ladder compared in a sentence, and what each rung's
//! lock cost.

use super::{Row, Tally};
use crate::checker::Kind;
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

/// The rungs of a sweep's rows (all but the first, this scenario) compared in a sentence, on
/// the safety kind seen most often (any kind if none breaks safety): e.g.
/// "flag: 100 % of 1 000 runs had stale_write; …; fencing: 0 % of 1 000 runs had
/// stale_write". A rung that also had other kinds names the gravest of them (safety first,
/// then the most frequent): "ttl: 0 % of 1 000 runs had stale_write, 64 % had starved".
pub fn ladder_line(rows: &[Row]) -> String {
    let rungs: Vec<&Row> = rows
        .iter()
        .skip(1)
        .filter(|row| row.scenario.is_ok())
        .collect();
    let total = |kind: Kind| rungs.iter().map(|row| row.tally.count(kind)).sum::<u64>();
    let seen = |kinds: &mut dyn Iterator<Item = Kind>| {
        kinds
            .map(|k| (total(k), k))
            .filter(|(n, _)| *n > 0)
            .max_by_key(|(n, k)| (*n, std::cmp::Reverse(*k)))
            .map(|(_, k)| k)
    };
    let headline = seen(&mut Kind::ALL.into_iter().filter(|k| k.breaks_safety()))
        .or_else(|| seen(&mut Kind::ALL.into_iter()));
    let Some(kind) = headline else {
        return "No rung showed any violation in these runs.".to_string();
    };
    // One format for every rung, 0 included, so the rungs read side by side. A rung's own
    // worst other kind follows, so a rung that is safe only because it never got the lock
    // (starved, stuck) does not read as a fix.
    let parts: Vec<String> = rungs
        .iter()
        .map(|row| {
            let tally = &row.tally;
            let mut part = format!(
                "{}: {} of {} had {}",
                row.label,
                percent(tally, tally.count(kind)),
                fmt_counted(tally.runs(), "run"),
                kind.as_str()
            );
            let other = Kind::ALL
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
    let available = (tally.availability() * 1_000.0).floor() / 10.0;
    [
        latency,
        format!("{:.2}", tally.throughput_per_s()),
        format!("{available:.1} %"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(row("fencing").count(Kind::StaleWrite), 0);
        assert_eq!(row("token").count(Kind::StaleWrite), 20);
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
        let row = |label: &str, kinds: &[&[Kind]]| {
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
                &[&[Kind::StaleWrite], &[Kind::StaleWrite, Kind::Starved]],
            ),
            row("ttl", &[&[Kind::Starved], &[Kind::Starved, Kind::Stuck]]),
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
    }
}
