//! `locksim check FILE --seeds N [--from S] [--json]`: "usually exclusive" as a number.

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use super::args::CheckArgs;
use super::{Status, input, output};
use crate::checker::{self, Exercised, ViolationKind};
use crate::scenario::Scenario;
use crate::sweep::{self, Tally, availability_percent};
use crate::text::{fmt_count, fmt_counted, fmt_ms, printable};

/// Runs the scenario once per seed and reports how often each kind of violation appeared.
pub fn check(args: &CheckArgs, out: &mut impl Write) -> io::Result<Status> {
    let scenario = match input::load(&args.file) {
        Ok(s) => s,
        Err(e) => return Ok(super::invalid(&e)),
    };
    let from = args.from.unwrap_or(scenario.seed);
    let Some(last) = from.checked_add(args.seeds - 1) else {
        // Name where the first seed came from: the flag, or the file's own `seed`.
        let start = match args.from {
            Some(_) => format!("--from {from}"),
            None => format!("the file's seed {from}"),
        };
        let _ = writeln!(
            io::stderr(),
            "{start} with --seeds {} runs past the largest seed, {}; give a smaller --from",
            args.seeds,
            u64::MAX
        );
        return Ok(Status::Invalid);
    };

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, usize::from))
        .build()
        .map_err(io::Error::other)?;

    // indicatif draws on stderr and hides itself when stderr is not a terminal; a log or a
    // CI job gets a plain line every few seconds instead.
    let bar = ProgressBar::new(args.seeds);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} seeds  {eta} left") {
        bar.set_style(style);
    }
    let mut lines = (!io::stderr().is_terminal()).then(ProgressLines::new);
    // Ctrl-C ends the sweep before the next run (a run is bounded by the engine's budget), so
    // the tally so far is printed rather than lost. Setting the handler fails only if one is
    // set already.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    let tally = sweep::on_threads(&scenario, from..=last, &pool, &stop, |tally| {
        bar.set_position(tally.runs());
        if let Some(line) = lines
            .as_mut()
            .and_then(|l| l.due(bar.elapsed(), tally, args.seeds))
        {
            let _ = writeln!(io::stderr(), "{line}");
        }
    });
    bar.finish_and_clear();
    // The dangers the runs went through, from their traces: a second pass over the seeds
    // counted, skipped once Ctrl-C has asked to stop.
    let exercised = (!tally.interrupted() && tally.runs() > 0).then(|| {
        let last = from + (tally.runs() - 1);
        pool.install(|| {
            (from..=last)
                .into_par_iter()
                .map(|seed| checker::exercised(&crate::run(&scenario, seed).trace))
                .reduce(Exercised::default, |mut a, b| {
                    a += b;
                    a
                })
        })
    });

    if args.json {
        output::write_json(
            out,
            &CheckJson {
                tally: &tally,
                exercised,
            },
        )?;
    } else {
        writeln!(
            out,
            "{}: {}\n",
            printable(&scenario.name, false),
            runs_done(&tally, from, args.seeds)
        )?;
        write_table(&tally, out, &args.file)?;
        if let Some(exercised) = &exercised {
            writeln!(out)?;
            for line in exercised_lines(exercised, &scenario, tally.runs()) {
                writeln!(out, "{line}")?;
            }
        }
    }
    if tally.interrupted() {
        return Ok(Status::Interrupted);
    }
    Ok(Status::of(tally.all_safe_and_live()))
}

/// `check --json`: the tally, and what the runs exercised (null when Ctrl-C stopped it).
#[derive(Serialize)]
struct CheckJson<'a> {
    #[serde(flatten)]
    tally: &'a Tally,
    exercised: Option<Exercised>,
}

/// What the runs exercised, in words: the dangers counted, or that none occurred (a pass
/// then says nothing about them), and a fenced resource that never refused anything.
fn exercised_lines(exercised: &Exercised, scenario: &Scenario, runs: u64) -> Vec<String> {
    let mut lines = vec![match exercised.words() {
        Some(words) => format!("  exercised: {words}"),
        None => format!(
            "  exercised: nothing dangerous occurred in {}: no holder outlived its lease, no \
             grant came while another was held, no clock jump crossed a lease end, no live \
             grant was lost; a pass says nothing about those",
            fmt_counted(runs, "run")
        ),
    }];
    if scenario.resource.fencing && exercised.fence_rejected == 0 {
        lines.push("  fencing was never tested: the fence rejected no read or write".to_string());
    }
    lines
}

/// What ran, after the scenario's name: "1 run, seed 4", "10 000 runs, seeds 1 to 10000" and,
/// when Ctrl-C stopped it, how far it got of the `asked` seeds. Seeds are names to paste into
/// `--seed`, so they stay ungrouped; counts are grouped.
fn runs_done(tally: &Tally, from: u64, asked: u64) -> String {
    let runs = tally.runs();
    let seeds = match runs {
        0 => "no seeds".to_string(),
        1 => format!("seed {from}"),
        n => format!("seeds {from} to {}", from + (n - 1)),
    };
    let stopped = if tally.interrupted() {
        format!(
            " (stopped by Ctrl-C after {} of {}: the tally so far)",
            fmt_count(runs),
            fmt_counted(asked, "seed")
        )
    } else {
        String::new()
    };
    format!("{}, {seeds}{stopped}", fmt_counted(runs, "run"))
}

/// How often `check` says how far it is when stderr is not a terminal (a pipe, a log, CI):
/// often enough to show it is alive, rarely enough to keep a log short.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Plain progress lines for a stderr that is not a terminal, one per [`PROGRESS_EVERY`]. Time
/// is the progress bar's own count since it started (the crate keeps a monotonic clock).
struct ProgressLines {
    next: Duration,
}

impl ProgressLines {
    fn new() -> Self {
        ProgressLines {
            next: PROGRESS_EVERY,
        }
    }

    /// The line to print `elapsed` after the start, if one is due: runs done of `total`, how
    /// many were unsafe or not live, and the time taken.
    fn due(&mut self, elapsed: Duration, tally: &Tally, total: u64) -> Option<String> {
        if elapsed < self.next {
            return None;
        }
        self.next = elapsed + PROGRESS_EVERY;
        Some(format!(
            "check: {} of {}, {} unsafe, {} not live, {} s",
            fmt_count(tally.runs()),
            fmt_counted(total, "seed"),
            fmt_count(tally.runs() - tally.safe()),
            fmt_count(tally.runs() - tally.live()),
            fmt_count(elapsed.as_secs())
        ))
    }
}

/// The table: first a warning if runs were cut short; per kind, how many runs reported it
/// and the first seed that did; then how many runs were safe and live; then what the lock
/// cost ([`price_line`]); then the command that replays the first bad run.
fn write_table(tally: &Tally, out: &mut impl Write, file: &Path) -> io::Result<()> {
    let percent = |n: u64| 100.0 * n as f64 / tally.runs().max(1) as f64;
    if let Some((seed, at)) = tally.first_cut() {
        let budget = crate::view::wording::budget();
        writeln!(
            out,
            "CUT SHORT: {} of {} hit the engine's budget ({}) before the \
             horizon (seed {seed} stopped at {}). Nothing after the cut was simulated: \
             those runs are judged only up to where they stopped.\n  replay: {}\n",
            fmt_count(tally.cut_short()),
            fmt_counted(tally.runs(), "run"),
            budget,
            fmt_ms(at),
            output::reproduce(file, seed),
        )?;
    }
    let label_w = ViolationKind::ALL
        .iter()
        .map(|k| k.as_str().len())
        .max()
        .unwrap_or(0);
    // Every count in the column is at most the number of runs, so that is the widest.
    let runs_w = fmt_count(tally.runs()).len().max("runs".len());
    writeln!(
        out,
        "  {:<label_w$}  {:>runs_w$}  {:>6}",
        "kind", "runs", "%"
    )?;
    for kind in ViolationKind::ALL {
        let example = tally
            .first_seed(kind)
            .map(|s| format!("  e.g. seed {s}"))
            .unwrap_or_default();
        let runs = tally.count(kind);
        writeln!(
            out,
            "  {:<label_w$}  {:>runs_w$}  {:>5.1}%{example}",
            kind.as_str(),
            fmt_count(runs),
            percent(runs)
        )?;
    }
    writeln!(out)?;
    for (label, n) in [("safe runs", tally.safe()), ("live runs", tally.live())] {
        writeln!(
            out,
            "  {label:<label_w$}  {:>runs_w$}  {:>5.1}%",
            fmt_count(n),
            percent(n)
        )?;
    }
    // As `run` says of one run: in a safe run where the lock misbehaved, the resource turned
    // the bad writes away (fencing), which the two counts alone do not show.
    let misbehaved = tally.safe_though_misbehaved();
    if misbehaved > 0 {
        writeln!(
            out,
            "  (the lock misbehaved in {} of the safe runs, but no bad write reached the \
             resource in them)",
            fmt_count(misbehaved)
        )?;
    }
    if tally.runs() > 0 {
        writeln!(out, "\n  {}", price_line(tally))?;
    }
    if let Some(seed) = tally.first_failing() {
        writeln!(
            out,
            "\nfirst unsafe or not-live run: {}",
            output::reproduce(file, seed)
        )?;
    }
    Ok(())
}

/// What the lock cost over the runs, in one line: acquire latency percentiles over every
/// acquisition, then critical sections per simulated second and availability, each the mean
/// of the runs' (see [`crate::checker::Price`] for the definitions).
fn price_line(tally: &Tally) -> String {
    let latency = match (
        tally.latency_percentile_ms(50),
        tally.latency_percentile_ms(99),
    ) {
        (Some(p50), Some(p99)) => format!(
            "acquire p50 {}, p99 {} ({})",
            fmt_ms(p50),
            fmt_ms(p99),
            fmt_counted(tally.acquisitions(), "acquisition")
        ),
        _ => "no acquisition came through".to_string(),
    };
    format!(
        "price: {latency} · {:.3} sections/s · lock available {} % of the time",
        tally.throughput_per_s(),
        availability_percent(tally, 2)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::four_runs;
    use crate::testkit::{outcome, verdict};

    fn table(tally: &Tally) -> String {
        let mut out = Vec::new();
        write_table(tally, &mut out, Path::new("s.toml")).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_table_points_at_the_first_bad_seed() {
        let text = table(&four_runs());
        assert!(text.contains("  stale_write            2   50.0%  e.g. seed 6\n"));
        assert!(text.contains("  stuck                  0    0.0%\n"));
        assert!(text.contains("  safe runs              2   50.0%\n"));
        assert!(text.ends_with("first unsafe or not-live run: locksim run s.toml --seed 6\n"));
        assert!(!text.contains("CUT SHORT"));
    }

    #[test]
    fn the_price_follows_the_safe_and_live_runs() {
        let mut tally = Tally::default();
        let price = crate::checker::Price {
            latencies_ms: vec![4, 2_010],
            throughput_per_s: 0.5,
            availability: 0.971,
        };
        tally.add(&outcome(1, 10, &verdict(true, &[]), price.clone()));
        assert!(
            table(&tally).ends_with(
                "  live runs              1  100.0%\n\n  price: acquire p50 4 ms, p99 1 984 ms (2 \
                 acquisitions) · 0.500 sections/s · lock available 97.10 % of the time\n"
            ),
            "{}",
            table(&tally)
        );
        let none = table(&four_runs());
        assert!(
            none.contains("price: no acquisition came through · 0.000 sections/s"),
            "{none}"
        );
        let mut once = Tally::default();
        let one = crate::checker::Price {
            latencies_ms: vec![4],
            ..price
        };
        once.add(&outcome(1, 10, &verdict(true, &[]), one));
        assert!(
            table(&once).contains("(1 acquisition) · "),
            "{}",
            table(&once)
        );
    }

    #[test]
    fn a_lock_that_was_unavailable_at_all_never_reads_as_always_available() {
        let mut tally = Tally::default();
        let price = crate::checker::Price {
            latencies_ms: vec![4],
            throughput_per_s: 0.5,
            availability: 0.999_99,
        };
        tally.add(&outcome(1, 10, &verdict(true, &[]), price));
        let text = table(&tally);
        assert!(
            text.contains("lock available 99.99 % of the time"),
            "{text}"
        );
        assert_eq!(sweep::price_cells(&tally)[2], "99.9 %");
    }

    #[test]
    fn runs_cut_short_are_named_first() {
        let mut tally = four_runs();
        let mut cut = verdict(true, &[]);
        cut.cut_short_at_ms = Some(1_311_968);
        tally.add(&outcome(9, 10_430_275, &cut, Default::default()));
        tally.add(&outcome(10, 10_000_000, &cut, Default::default()));
        let text = table(&tally);
        assert!(
            text.starts_with(
                "CUT SHORT: 2 of 6 runs hit the engine's budget (500 000 steps, 1 000 000 \
                 recorded events or 200 000 waiting at once) before the horizon (seed 9 stopped at 1 311 968 ms). Nothing after the cut was simulated: \
                 those runs are judged only up to where they stopped.\n  replay: locksim run \
                 s.toml --seed 9\n\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn counts_are_grouped_and_one_run_is_singular() {
        let mut tally = Tally::default();
        assert_eq!(runs_done(&tally, 1, 5), "0 runs, no seeds");
        tally.add(&outcome(1, 10, &verdict(true, &[]), Default::default()));
        assert_eq!(runs_done(&tally, 1, 1), "1 run, seed 1");
        for seed in 2..=10_000 {
            tally.add(&outcome(seed, 10, &verdict(true, &[]), Default::default()));
        }
        assert_eq!(
            runs_done(&tally, 1, 10_000),
            "10 000 runs, seeds 1 to 10000"
        );
        tally.interrupt();
        assert_eq!(
            runs_done(&tally, 1, 100_000_000),
            "10 000 runs, seeds 1 to 10000 (stopped by Ctrl-C after 10 000 of 100 000 000 \
             seeds: the tally so far)"
        );
        let text = table(&tally);
        assert!(
            text.contains("  stale_write              0    0.0%\n"),
            "{text}"
        );
        assert!(
            text.contains("  safe runs           10 000  100.0%\n"),
            "{text}"
        );
    }

    #[test]
    fn progress_lines_come_every_few_seconds() {
        let mut lines = ProgressLines::new();
        let tally = four_runs();
        let s = Duration::from_secs;
        assert_eq!(lines.due(s(1), &tally, 100), None);
        assert_eq!(
            lines.due(PROGRESS_EVERY, &tally, 100).as_deref(),
            Some("check: 4 of 100 seeds, 2 unsafe, 0 not live, 5 s")
        );
        assert_eq!(lines.due(s(6), &tally, 100), None);
        assert!(lines.due(s(11), &tally, 100).is_some());
        let many = (0..1_500).fold(Tally::default(), |mut t, seed| {
            t.add(&outcome(seed, 10, &verdict(false, &[]), Default::default()));
            t
        });
        assert_eq!(
            ProgressLines::new()
                .due(s(1_200), &many, 200_000)
                .as_deref(),
            Some("check: 1 500 of 200 000 seeds, 1 500 unsafe, 0 not live, 1 200 s")
        );
    }
}
