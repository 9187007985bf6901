//! `locksim search FILE [--faults N] [--tries N] [--seed N] [--live] [--json]`: find a
//! failure by drawing fault schedules, shrink it, tell it as steps, print it as a scenario.

use std::io::{self, Write};

use serde::Serialize;

use super::args::SearchArgs;
use super::{Status, input, output};
use crate::checker::Kind;
use crate::scenario::{self, Fault, Scenario};
use crate::search::{self, Goal, Options, Outcome, narrate};
use crate::text::{fmt_count, printable};

/// The line before the minimal scenario's TOML: everything after it is the file.
pub const TOML_HEADING: &str = "The smallest failing scenario (save it and `locksim run` it):";

/// Searches, then prints the story and the minimal scenario (or the JSON document). Exit 1
/// when a failing run was found, 0 when none was within the budget.
pub fn search(args: &SearchArgs, out: &mut impl Write) -> io::Result<Status> {
    let scenario = match input::load(&args.file) {
        Ok(s) => s,
        Err(e) => return Ok(super::invalid(&e)),
    };
    let options = Options {
        faults: args.faults,
        tries: args.tries,
        seed: args.seed,
        goal: if args.live {
            Goal::NotLive
        } else {
            Goal::Unsafe
        },
    };
    let outcome = search::search(&scenario, &options);
    if args.json {
        output::write_json(out, &SearchJson::new(&outcome))?;
    } else {
        write_text(out, &scenario, &options, &outcome)?;
    }
    Ok(Status::of(outcome.found.is_none()))
}

fn write_text(
    out: &mut impl Write,
    scenario: &Scenario,
    options: &Options,
    outcome: &Outcome,
) -> io::Result<()> {
    let failure = match options.goal {
        Goal::Unsafe => "unsafe",
        Goal::NotLive => "not live",
    };
    writeln!(out, "{}", printable(&scenario.name, false))?;
    writeln!(
        out,
        "Searching for an {failure} run: up to {} faults per schedule, {} schedules, search \
         seed {}; every run uses the file's seed {}.",
        options.faults,
        fmt_count(options.tries),
        options.seed,
        scenario.seed
    )?;
    writeln!(out)?;
    let Some(found) = &outcome.found else {
        writeln!(
            out,
            "None found in {} schedules — evidence, not proof.",
            fmt_count(outcome.tries)
        )?;
        return Ok(());
    };
    if outcome.tries == 0 {
        writeln!(
            out,
            "The scenario is {failure} as it is, with no fault added."
        )?;
    } else {
        writeln!(
            out,
            "Found an {failure} run at schedule {} ({} faults), shrunk in {} runs to {} ({}).",
            fmt_count(outcome.tries),
            found.drawn,
            fmt_count(found.shrink_runs),
            match found.faults.len() {
                1 => "1 fault".to_string(),
                n => format!("{n} faults"),
            },
            if found.faults.len() == 1 {
                "without it the run passes"
            } else {
                "removing any one of them makes the run pass"
            }
        )?;
    }
    writeln!(out)?;
    for line in narrate(&found.scenario, &found.run) {
        writeln!(out, "{}", printable(&line, false))?;
    }
    writeln!(out)?;
    writeln!(out, "{TOML_HEADING}")?;
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
    /// The added faults of the shrunk counterexample, as `[[fault]]` tables.
    faults: &'a [Fault],
    /// The kinds of violation its run shows, in the checker's order.
    kinds: Vec<Kind>,
    /// The numbered story.
    narration: Vec<String>,
    /// The whole minimal scenario, as a file.
    toml: Option<String>,
}

impl<'a> SearchJson<'a> {
    fn new(outcome: &'a Outcome) -> Self {
        match &outcome.found {
            None => SearchJson {
                found: false,
                tries: outcome.tries,
                faults: &[],
                kinds: Vec::new(),
                narration: Vec::new(),
                toml: None,
            },
            Some(found) => SearchJson {
                found: true,
                tries: outcome.tries,
                faults: &found.faults,
                kinds: Kind::ALL
                    .into_iter()
                    .filter(|&k| found.run.has(k))
                    .collect(),
                narration: narrate(&found.scenario, &found.run),
                toml: Some(scenario::to_toml(&found.scenario)),
            },
        }
    }
}
