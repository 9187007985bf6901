//! `locksim prove FILE [--faults K] [--kinds …] [--seeds A..B] [--budget N] [--json]`:
//! every fault schedule within bounds, run; a certificate of what was explored, or the first
//! unsafe schedule, shrunk, told as steps and printed as a scenario.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::args::ProveArgs;
use super::search::TOML_HEADING;
use super::{Status, input, output};
use crate::checker::ViolationKind;
use crate::prove::{self, MenuKind, Options, Proof, Stopped};
use crate::scenario::{self, Fault, Scenario};
use crate::search::narrate;
use crate::text::{fmt_count, fmt_counted, printable};

/// How often a proof says how far it is when stderr is not a terminal.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Proves, then prints the certificate, or the story and the minimal scenario (or the JSON
/// document). Exit 1 when an unsafe schedule was found, 0 when none was (a certificate, or a
/// partial claim when the budget ran out), 130 when Ctrl-C stopped it first.
pub fn prove(args: &ProveArgs, out: &mut impl Write) -> io::Result<Status> {
    let scenario = match input::load(&args.file) {
        Ok(s) => s,
        Err(e) => return Ok(super::invalid(&e)),
    };
    let seeds = args
        .seeds
        .clone()
        .unwrap_or(scenario.seed..scenario.seed.saturating_add(1));
    let options = Options {
        faults: usize::from(args.faults),
        kinds: if args.kinds.is_empty() {
            MenuKind::DEFAULT.to_vec()
        } else {
            args.kinds.clone()
        },
        seeds,
        budget: args.budget,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, usize::from))
        .build()
        .map_err(io::Error::other)?;
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} schedules  {msg}") {
        bar.set_style(style);
    }
    let plain = !io::stderr().is_terminal();
    let mut next_line = PROGRESS_EVERY;
    // Ctrl-C is honoured before each run; setting the handler fails only if one is set.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    let outcome = prove::prove(&scenario, &options, &pool, &stop, |p| {
        bar.set_length(p.total);
        bar.set_position(p.explored);
        bar.set_message(format!("≤ {}", fmt_counted(p.level as u64, "fault")));
        if plain && bar.elapsed() >= next_line {
            next_line = bar.elapsed() + PROGRESS_EVERY;
            let _ = writeln!(
                io::stderr(),
                "prove: {} of {} of ≤ {}, {} s",
                fmt_count(p.explored),
                fmt_counted(p.total, "schedule"),
                fmt_counted(p.level as u64, "fault"),
                fmt_count(bar.elapsed().as_secs())
            );
        }
    });
    bar.finish_and_clear();
    if args.json {
        output::write_json(out, &ProveJson::new(&outcome))?;
    } else {
        write_text(out, &scenario, &outcome)?;
    }
    Ok(match (&outcome.found, outcome.stopped) {
        (Some(_), _) => Status::Fail,
        (None, Some(Stopped::Interrupted)) => Status::Interrupted,
        (None, _) => Status::Pass,
    })
}

/// The report: the scenario's name, what is being explored, then the claim or the
/// counterexample.
fn write_text(out: &mut impl Write, scenario: &Scenario, outcome: &Proof) -> io::Result<()> {
    writeln!(out, "{}", printable(&scenario.name, false))?;
    writeln!(
        out,
        "Proving: every schedule of ≤ {} from the menu below on {}; budget {}.",
        fmt_counted(outcome.options.faults as u64, "fault"),
        prove::certificate::seeds(outcome),
        fmt_counted(outcome.options.budget, "schedule"),
    )?;
    writeln!(out)?;
    let Some(found) = &outcome.found else {
        let lines = if outcome.holds() {
            prove::claim(outcome)
        } else {
            prove::partial_claim(outcome)
        };
        for line in lines {
            writeln!(out, "{}", printable(&line, false))?;
        }
        return Ok(());
    };
    let example = &found.counterexample;
    if found.schedule == 0 {
        writeln!(
            out,
            "unsafe: the scenario is unsafe as it is on seed {}, with no fault added.",
            found.seed
        )?;
    } else {
        let why = match example.faults.len() {
            1 => "without it the run passes",
            _ => "removing any one of them makes the run pass",
        };
        writeln!(
            out,
            "unsafe: schedule {} of the enumeration, on seed {} ({}), shrunk in {} to {} ({why}).",
            fmt_count(found.schedule),
            found.seed,
            fmt_counted(found.drawn.len() as u64, "fault"),
            fmt_counted(example.shrink_runs, "run"),
            fmt_counted(example.faults.len() as u64, "fault"),
        )?;
        writeln!(
            out,
            "Every schedule before it in the enumeration was safe: {} of them, {}.",
            fmt_count(found.schedule - 1),
            fmt_counted(outcome.distinct_runs, "distinct run"),
        )?;
    }
    writeln!(out)?;
    for line in narrate(&example.scenario, &example.run) {
        writeln!(out, "{}", printable(&line, false))?;
    }
    writeln!(out)?;
    writeln!(out, "{TOML_HEADING}")?;
    writeln!(out)?;
    write!(out, "{}", scenario::to_toml(&example.scenario))
}

/// `prove --json`.
#[derive(Debug, Serialize)]
struct ProveJson<'a> {
    /// Every schedule within the bounds ran, and none was unsafe.
    holds: bool,
    /// Whether an unsafe schedule was found.
    found: bool,
    /// Why it ended early: "budget", "interrupted", or null.
    stopped: Option<&'static str>,
    /// Schedules run.
    schedules: u64,
    /// Schedules of every level reached, run or not.
    total: u64,
    /// Distinct traces among the runs.
    distinct_runs: u64,
    /// The bound on added faults.
    faults: usize,
    /// The menu's kinds.
    kinds: &'a [MenuKind],
    /// The seeds, half-open: [from, to).
    seeds: [u64; 2],
    /// The menu in words.
    menu: String,
    /// The claim, line by line (empty when an unsafe schedule was found).
    claim: Vec<String>,
    /// The found schedule's seed.
    seed: Option<u64>,
    /// The added faults of the shrunk counterexample.
    counterexample: &'a [Fault],
    /// The kinds of violation its run shows.
    violations: Vec<ViolationKind>,
    /// The numbered story.
    narration: Vec<String>,
    /// The whole counterexample scenario, as a file.
    toml: Option<String>,
}

impl<'a> ProveJson<'a> {
    fn new(outcome: &'a Proof) -> Self {
        let found = outcome.found.as_ref();
        let claim = match found {
            Some(_) => Vec::new(),
            None if outcome.holds() => prove::claim(outcome),
            None => prove::partial_claim(outcome),
        };
        let example = found.map(|f| &f.counterexample);
        ProveJson {
            holds: outcome.holds(),
            found: found.is_some(),
            stopped: outcome.stopped.map(|s| match s {
                Stopped::Budget => "budget",
                Stopped::Interrupted => "interrupted",
            }),
            schedules: outcome.explored,
            total: outcome.total,
            distinct_runs: outcome.distinct_runs,
            faults: outcome.options.faults,
            kinds: &outcome.menu.kinds,
            seeds: [outcome.options.seeds.start, outcome.options.seeds.end],
            menu: outcome.menu.describe(),
            claim,
            seed: found.map(|f| f.seed),
            counterexample: example.map_or(&[], |e| &e.faults),
            violations: example.map_or_else(Vec::new, |e| {
                ViolationKind::ALL
                    .into_iter()
                    .filter(|&k| e.run.has(k))
                    .collect()
            }),
            narration: example.map_or_else(Vec::new, |e| narrate(&e.scenario, &e.run)),
            toml: example.map(|e| scenario::to_toml(&e.scenario)),
        }
    }
}
