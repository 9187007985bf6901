//! `locksim check FILE --seeds N [--from S] [--json]`: "usually exclusive" as a number.

use std::io::{self, IsTerminal, Write};
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::ThreadPool;
use rayon::prelude::*;
use serde::{Serialize, Serializer};

use super::args::CheckArgs;
use super::{Status, input, output};
use crate::checker::{Kind, Verdict};
use crate::engine;
use crate::scenario::Scenario;
use crate::text::{fmt_ms, printable};

/// Runs the scenario once per seed and reports how often each kind of violation appeared.
pub fn check(args: &CheckArgs, out: &mut impl Write) -> io::Result<Status> {
    let scenario = match input::load(&args.file) {
        Ok(s) => s,
        Err(e) => return Ok(super::invalid(&e)),
    };
    let from = args.from.unwrap_or(scenario.seed);
    let Some(last) = from.checked_add(args.seeds - 1) else {
        let _ = writeln!(
            io::stderr(),
            "--from {from} --seeds {} runs past the largest seed, {}",
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
    // Ctrl-C ends the sweep between chunks of runs (a run is bounded by the event budget, a
    // chunk by CHUNK_EVENTS_PER_THREAD), so the tally so far is printed rather than lost. Setting the
    // handler fails only if one is set already.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    let tally = sweep(&scenario, from..=last, &pool, &stop, |tally| {
        bar.set_position(tally.runs);
        if let Some(line) = lines
            .as_mut()
            .and_then(|l| l.due(bar.elapsed(), tally, args.seeds))
        {
            let _ = writeln!(io::stderr(), "{line}");
        }
    });
    bar.finish_and_clear();

    if args.json {
        output::write_json(out, &tally)?;
    } else {
        let done = match tally.runs.checked_sub(1) {
            Some(n) => format!("seeds {from} to {}", from + n),
            None => "no seeds".to_string(),
        };
        let stopped = if tally.interrupted {
            format!(
                " (stopped by Ctrl-C after {} of {}: the tally so far)",
                tally.runs, args.seeds
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "{}: {} runs, {done}{stopped}\n",
            printable(&scenario.name, false),
            tally.runs
        )?;
        tally.write_table(out, &args.file)?;
    }
    if tally.interrupted {
        return Ok(Status::Interrupted);
    }
    Ok(Status::of(tally.all_safe_and_live()))
}

/// How many recorded events one chunk of a sweep should hold per thread: between chunks the
/// progress is shown and Ctrl-C is heeded, so this bounds how late either can be (a few
/// tenths of a second at the engine's millions of events per second), while a chunk stays long
/// enough that handing it to the threads costs next to nothing. Counted in events rather than
/// timed so that the sweep reads no clock.
const CHUNK_EVENTS_PER_THREAD: u64 = 2_000_000;

/// At most this many runs per thread in a chunk, for runs so short (a few events) that the
/// event count says little about their cost.
const CHUNK_RUNS_PER_THREAD: u64 = 1_024;

/// Runs and checks every seed of `seeds` on `pool`'s threads and counts them as a
/// [`Tally`]. The seeds go in chunks: each chunk runs in parallel and is counted in seed
/// order, so the tally is the one a single thread would give, whatever the number of threads.
/// Before each chunk the sweep ends, with `interrupted` set, if `stop` is set; after each,
/// `after_chunk` sees the tally so far.
pub fn sweep(
    scenario: &Scenario,
    seeds: RangeInclusive<u64>,
    pool: &ThreadPool,
    stop: &AtomicBool,
    mut after_chunk: impl FnMut(&Tally),
) -> Tally {
    let mut tally = Tally::new();
    let (mut next, last) = seeds.into_inner();
    let threads = pool.current_num_threads() as u64;
    // One run per thread first, then as many as hold about the target number of events, from
    // the mean so far: a run's length depends on the scenario, from a few events to the budget.
    let mut chunk = threads;
    while next <= last {
        if stop.load(Ordering::SeqCst) {
            tally.interrupted = true;
            break;
        }
        let end = next.saturating_add(chunk - 1).min(last);
        let verdicts: Vec<(u64, Verdict)> = pool.install(|| {
            (next..=end)
                .into_par_iter()
                .map(|seed| {
                    let run = crate::run(scenario, seed);
                    (run.events(), run.verdict)
                })
                .collect()
        });
        for (seed, (events, verdict)) in (next..=end).zip(&verdicts) {
            tally.add(seed, *events, verdict);
        }
        after_chunk(&tally);
        let mean_events = (tally.events / tally.runs).max(1);
        chunk = (threads * CHUNK_EVENTS_PER_THREAD / mean_events)
            .clamp(threads, threads * CHUNK_RUNS_PER_THREAD);
        let Some(after) = end.checked_add(1) else {
            break;
        };
        next = after;
    }
    tally
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
            "check: {} of {} seeds, {} unsafe, {} not live, {} s",
            tally.runs,
            total,
            tally.runs - tally.safe,
            tally.runs - tally.live,
            elapsed.as_secs()
        ))
    }
}

/// Counts over many runs; serialises as the `--json` document of DESIGN §4.
#[derive(Debug, Serialize)]
pub struct Tally {
    runs: u64,
    safe: u64,
    live: u64,
    /// Events recorded over every run (the sum of `run --json`'s `stats.events`).
    events: u64,
    /// Runs the engine's event budget cut short: judged only up to where they stopped.
    cut_short: u64,
    /// Ctrl-C stopped the runs before the last seed: the counts are of the runs done.
    interrupted: bool,
    kinds: KindCounts,
    /// The first seed that was unsafe or not live: the run to look at first.
    #[serde(skip)]
    first_failing: Option<u64>,
    /// The first seed cut short, and where it stopped (true ms).
    #[serde(skip)]
    first_cut: Option<(u64, u64)>,
}

/// One entry per checker kind, in [`Kind::ALL`] order (safety first).
#[derive(Debug)]
struct KindCounts([(Kind, KindCount); Kind::ALL.len()]);

#[derive(Clone, Copy, Debug, Default, Serialize)]
struct KindCount {
    /// Runs that reported this kind at least once.
    runs: u64,
    first_seed: Option<u64>,
}

impl Serialize for KindCounts {
    /// A JSON object keyed by kind name, in safety-first order rather than alphabetical.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(kind, count)| (kind.as_str(), count)))
    }
}

impl Tally {
    fn new() -> Self {
        Tally {
            runs: 0,
            safe: 0,
            live: 0,
            events: 0,
            cut_short: 0,
            interrupted: false,
            kinds: KindCounts(Kind::ALL.map(|k| (k, KindCount::default()))),
            first_failing: None,
            first_cut: None,
        }
    }

    /// Counts one run of `seed` that recorded `events` events.
    fn add(&mut self, seed: u64, events: u64, verdict: &Verdict) {
        self.runs += 1;
        self.safe += u64::from(verdict.safe);
        self.live += u64::from(verdict.live);
        self.events += events;
        if let Some(at) = verdict.cut_short_at_ms {
            self.cut_short += 1;
            self.first_cut.get_or_insert((seed, at));
        }
        if !(verdict.safe && verdict.live) {
            self.first_failing.get_or_insert(seed);
        }
        for (kind, count) in &mut self.kinds.0 {
            if verdict.has(*kind) {
                count.runs += 1;
                count.first_seed.get_or_insert(seed);
            }
        }
    }

    /// How many runs were counted.
    pub fn runs(&self) -> u64 {
        self.runs
    }

    /// Events recorded over every run counted.
    pub fn events(&self) -> u64 {
        self.events
    }

    fn all_safe_and_live(&self) -> bool {
        self.safe == self.runs && self.live == self.runs
    }

    /// The table: first a warning if runs were cut short; per kind, how many runs reported it
    /// and the first seed that did; then how many runs were safe and live; then the command
    /// that replays the first bad run.
    fn write_table(&self, out: &mut impl Write, file: &Path) -> io::Result<()> {
        let percent = |n: u64| 100.0 * n as f64 / self.runs.max(1) as f64;
        if let Some((seed, at)) = self.first_cut {
            let budget = fmt_ms(engine::MAX_STEPS);
            writeln!(
                out,
                "CUT SHORT: {} of {} runs hit the engine's budget of {} events before the \
                 horizon (seed {seed} stopped at {}). Nothing after the cut was simulated: \
                 those runs are judged only up to where they stopped.\n  replay: {}\n",
                self.cut_short,
                self.runs,
                budget.trim_end_matches(" ms"),
                fmt_ms(at),
                output::reproduce(file, seed),
            )?;
        }
        let label_w = Kind::ALL
            .iter()
            .map(|k| k.as_str().len())
            .max()
            .unwrap_or(0);
        let runs_w = self.runs.to_string().len().max("runs".len());
        writeln!(
            out,
            "  {:<label_w$}  {:>runs_w$}  {:>6}",
            "kind", "runs", "%"
        )?;
        for (kind, count) in &self.kinds.0 {
            let example = count
                .first_seed
                .map(|s| format!("  e.g. seed {s}"))
                .unwrap_or_default();
            writeln!(
                out,
                "  {:<label_w$}  {:>runs_w$}  {:>5.1}%{example}",
                kind.as_str(),
                count.runs,
                percent(count.runs)
            )?;
        }
        writeln!(out)?;
        for (label, n) in [("safe runs", self.safe), ("live runs", self.live)] {
            writeln!(
                out,
                "  {label:<label_w$}  {n:>runs_w$}  {:>5.1}%",
                percent(n)
            )?;
        }
        if let Some(seed) = self.first_failing {
            writeln!(
                out,
                "\nfirst unsafe or not-live run: {}",
                output::reproduce(file, seed)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::verdict;

    fn tally() -> Tally {
        let mut tally = Tally::new();
        tally.add(5, 100, &verdict(true, &[Kind::Overlap]));
        tally.add(6, 120, &verdict(false, &[Kind::Overlap, Kind::StaleWrite]));
        tally.add(7, 90, &verdict(true, &[]));
        tally.add(8, 110, &verdict(false, &[Kind::StaleWrite]));
        tally
    }

    #[test]
    fn counts_runs_per_kind_and_the_first_seed() {
        let json = serde_json::to_value(tally()).unwrap();
        assert_eq!(json["runs"], 4);
        assert_eq!(json["safe"], 2);
        assert_eq!(json["live"], 4);
        assert_eq!(json["events"], 420);
        assert_eq!(json["cut_short"], 0);
        assert_eq!(
            json["kinds"]["stale_write"],
            serde_json::json!({"runs": 2, "first_seed": 6})
        );
        assert_eq!(
            json["kinds"]["overlap"],
            serde_json::json!({"runs": 2, "first_seed": 5})
        );
        assert_eq!(
            json["kinds"]["stuck"],
            serde_json::json!({"runs": 0, "first_seed": null})
        );
    }

    #[test]
    fn the_table_points_at_the_first_bad_seed() {
        let mut out = Vec::new();
        tally().write_table(&mut out, Path::new("s.toml")).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("  stale_write            2   50.0%  e.g. seed 6\n"));
        assert!(text.contains("  stuck                  0    0.0%\n"));
        assert!(text.contains("  safe runs              2   50.0%\n"));
        assert!(text.ends_with("first unsafe or not-live run: locksim run s.toml --seed 6\n"));
        assert!(!text.contains("CUT SHORT"));
    }

    #[test]
    fn runs_cut_short_are_counted_and_named_first() {
        let mut tally = tally();
        let mut cut = verdict(true, &[]);
        cut.cut_short_at_ms = Some(1_311_968);
        tally.add(9, 10_430_275, &cut);
        tally.add(10, 10_000_000, &cut);
        let json = serde_json::to_value(&tally).unwrap();
        assert_eq!(json["cut_short"], 2);
        assert_eq!(json["events"], 20_430_695);
        let mut out = Vec::new();
        tally.write_table(&mut out, Path::new("s.toml")).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with(
                "CUT SHORT: 2 of 6 runs hit the engine's budget of 500 000 events before the \
                 horizon (seed 9 stopped at 1 311 968 ms). Nothing after the cut was simulated: \
                 those runs are judged only up to where they stopped.\n  replay: locksim run \
                 s.toml --seed 9\n\n"
            ),
            "{text}"
        );
    }

    /// The parallel sweep counts exactly what running the seeds one after another does.
    #[test]
    fn a_sweep_on_several_threads_counts_as_one_thread_does() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/scenarios/step1-flag-race.toml"
        );
        let scenario = input::load(Path::new(path)).unwrap();
        let mut sequential = Tally::new();
        for seed in 10..=209 {
            let run = crate::run(&scenario, seed);
            sequential.add(seed, run.events(), &run.verdict);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let mut chunks = 0;
        let parallel = sweep(&scenario, 10..=209, &pool, &AtomicBool::new(false), |_| {
            chunks += 1;
        });
        assert!(chunks > 0);
        assert_eq!(parallel.runs(), 200);
        assert_eq!(
            serde_json::to_string(&parallel).unwrap(),
            serde_json::to_string(&sequential).unwrap()
        );
        let table = |tally: &Tally| {
            let mut out = Vec::new();
            tally.write_table(&mut out, Path::new("s.toml")).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(table(&parallel), table(&sequential));
    }

    /// One worker alone, and a pool of two threads to sweep it with.
    fn one_worker_on_two_threads() -> (Scenario, rayon::ThreadPool) {
        let scenario = crate::scenario::parse(
            "version = 1\nname = \"One\"\nseed = 1\n[[worker]]\nname = \"A\"\n",
        )
        .unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        (scenario, pool)
    }

    #[test]
    fn a_sweep_stopped_before_it_starts_counts_nothing_and_says_so() {
        let (scenario, pool) = one_worker_on_two_threads();
        let tally = sweep(&scenario, 1..=100, &pool, &AtomicBool::new(true), |_| {});
        assert_eq!(tally.runs(), 0);
        assert!(tally.interrupted);
    }

    #[test]
    fn a_sweep_ends_at_the_largest_seed() {
        let (scenario, pool) = one_worker_on_two_threads();
        let stop = AtomicBool::new(false);
        let tally = sweep(&scenario, u64::MAX - 4..=u64::MAX, &pool, &stop, |_| {});
        assert_eq!(tally.runs(), 5);
        assert!(!tally.interrupted);
    }

    #[test]
    fn progress_lines_come_every_few_seconds() {
        let mut lines = ProgressLines::new();
        let tally = tally();
        let s = Duration::from_secs;
        assert_eq!(lines.due(s(1), &tally, 100), None);
        assert_eq!(
            lines.due(PROGRESS_EVERY, &tally, 100).as_deref(),
            Some("check: 4 of 100 seeds, 2 unsafe, 0 not live, 5 s")
        );
        assert_eq!(lines.due(s(6), &tally, 100), None);
        assert!(lines.due(s(11), &tally, 100).is_some());
    }
}
