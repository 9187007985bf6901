//! `locksim search FILE [--faults N] [--tries N] [--seed N] [--live] [--json]`: find a
//! failure by drawing fault schedules, shrink it, tell it as steps, print it as a scenario.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::args::SearchArgs;
use super::{Status, input, output};
use crate::checker::ViolationKind;
use crate::scenario::{self, Fault, Scenario};
use crate::search::{Finding, Goal, Options, Stage, headline, narrate, search_until};
use crate::text::{fmt_count, fmt_counted, printable};

/// The line before the minimal scenario's TOML: everything after it is the file.
pub const TOML_HEADING: &str = "The smallest failing scenario (save it and `locksim run` it):";

/// The line before the failing scenario's TOML when Ctrl-C stopped the shrinking.
pub const STOPPED_TOML_HEADING: &str =
    "The failing scenario as far as it was shrunk (save it and `locksim run` it):";

/// How often a search says how far it is when stderr is not a terminal.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Searches, then prints the story and the minimal scenario (or the JSON document). Exit 1
/// when a failing run was found, 0 when none was within the budget, 130 when Ctrl-C stopped
/// it first (after saying how many schedules it had tried). A progress bar on stderr, or a
/// plain line every few seconds when stderr is not a terminal.
pub fn search(args: &SearchArgs, out: &mut impl Write) -> io::Result<Status> {
    let scenario = match input::load(&args.file) {
        Ok(s) => s,
        Err(e) => return Ok(super::invalid(&e)),
    };
    let options = Options {
        faults: usize::from(args.faults),
        tries: args.tries,
        seed: args.seed,
        goal: if args.live {
            Goal::NotLive
        } else {
            Goal::Unsafe
        },
    };
    let bar = ProgressBar::new(args.tries);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} schedules  {eta} left  {msg}")
    {
        bar.set_style(style);
    }
    let plain = !io::stderr().is_terminal();
    let mut next_line = PROGRESS_EVERY;
    // Ctrl-C is honoured between schedules; setting the handler fails only if one is set.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    // Asked before each schedule and each shrink run, so a stop is heard within one run.
    let outcome = search_until(&scenario, &options, |stage| {
        let said = match stage {
            Stage::Searching { tries } => {
                bar.set_position(tries);
                format!(
                    "search: {} of {}",
                    fmt_count(tries),
                    fmt_counted(args.tries, "schedule")
                )
            }
            Stage::Shrinking { tries, runs } => {
                let said = format!(
                    "search: shrinking the failing schedule {}, {} so far",
                    fmt_count(tries),
                    fmt_counted(runs, "run")
                );
                bar.set_message(said.clone());
                said
            }
        };
        if plain && bar.elapsed() >= next_line {
            next_line = bar.elapsed() + PROGRESS_EVERY;
            let _ = writeln!(
                io::stderr(),
                "{said}, {} s",
                fmt_count(bar.elapsed().as_secs())
            );
        }
        !stop.load(Ordering::SeqCst)
    });
    bar.finish_and_clear();
    if args.json {
        output::write_json(out, &SearchJson::new(&outcome))?;
    } else {
        write_text(out, &scenario, &options, &outcome)?;
    }
    if outcome.interrupted {
        return Ok(Status::Interrupted);
    }
    Ok(Status::of(outcome.found.is_none()))
}

fn write_text(
    out: &mut impl Write,
    scenario: &Scenario,
    options: &Options,
    outcome: &Finding,
) -> io::Result<()> {
    let a_failure = match options.goal {
        Goal::Unsafe => "an unsafe",
        Goal::NotLive => "a not-live",
    };
    writeln!(out, "{}", printable(&scenario.name, false))?;
    writeln!(
        out,
        "Searching for {a_failure} run: up to {} per schedule, {}, search seed {}; every \
         run uses the file's seed {}.",
        fmt_counted(options.faults as u64, "fault"),
        fmt_counted(options.tries, "schedule"),
        options.seed,
        scenario.seed
    )?;
    writeln!(out)?;
    writeln!(out, "{}", headline(options.goal, outcome, "by Ctrl-C "))?;
    let Some(found) = &outcome.found else {
        return Ok(());
    };
    writeln!(out)?;
    for line in narrate(&found.scenario, &found.run) {
        writeln!(out, "{}", printable(&line, false))?;
    }
    writeln!(out)?;
    if outcome.interrupted {
        writeln!(out, "{STOPPED_TOML_HEADING}")?;
    } else {
        writeln!(out, "{TOML_HEADING}")?;
    }
    writeln!(out)?;
    write!(out, "{}", scenario::to_toml(&found.scenario))
}

/// `search --json`.
#[derive(Debug, Serialize)]
struct SearchJson<'a> {
    /// Whether a failing run was found.
    found: bool,
    /// Schedules drawn and run.
    tries: u64,
    /// Whether Ctrl-C stopped the search before its budget ran out.
    interrupted: bool,
    /// The added faults of the shrunk counterexample, as `[[fault]]` tables.
    faults: &'a [Fault],
    /// The kinds of violation its run shows, in the checker's order.
    kinds: Vec<ViolationKind>,
    /// The numbered story.
    narration: Vec<String>,
    /// The whole minimal scenario, as a file.
    toml: Option<String>,
}

impl<'a> SearchJson<'a> {
    fn new(outcome: &'a Finding) -> Self {
        match &outcome.found {
            None => SearchJson {
                found: false,
                tries: outcome.tries,
                interrupted: outcome.interrupted,
                faults: &[],
                kinds: Vec::new(),
                narration: Vec::new(),
                toml: None,
            },
            Some(found) => SearchJson {
                found: true,
                tries: outcome.tries,
                interrupted: false,
                faults: &found.faults,
                kinds: ViolationKind::ALL
                    .into_iter()
                    .filter(|&k| found.run.has(k))
                    .collect(),
                narration: narrate(&found.scenario, &found.run),
                toml: Some(scenario::to_toml(&found.scenario)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ResourceMode;

    #[test]
    fn the_budget_is_counted_in_words() {
        let options = Options {
            faults: 1,
            tries: 1,
            ..Options::default()
        };
        let outcome = Finding {
            tries: 1,
            found: None,
            interrupted: false,
        };
        let mut out = Vec::new();
        let scenario = crate::testkit::scenario(ResourceMode::Plain);
        write_text(&mut out, &scenario, &options, &outcome).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("run: up to 1 fault per schedule, 1 schedule, search seed 0;"),
            "{text}"
        );
        assert!(text.contains("None found in 1 schedule — "), "{text}");
        let mut out = Vec::new();
        let options = Options {
            faults: 3,
            tries: 10_000,
            ..Options::default()
        };
        write_text(&mut out, &scenario, &options, &outcome).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("up to 3 faults per schedule, 10 000 schedules,"),
            "{text}"
        );
    }
}
