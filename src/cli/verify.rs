//! `locksim verify FILE...`: does each scenario still show what it was written to show?

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;

use super::args::VerifyArgs;
use super::{Status, input, output};
use crate::checker;
use crate::prove::{self, MenuKind, Options, Stopped};
use crate::scenario::Scenario;
use crate::text::{fmt_count, fmt_counted, fmt_ms, pad_end, printable};

/// `[expect] proven_within`: how far a proof on the file's seed may go.
const PROOF_BUDGET: u64 = 1_000_000;

/// The widest the file column grows, characters.
const FILE_COLUMN_MAX: usize = 60;

/// Runs each file with its own seed and compares the verdict with its `[expect]` table. One
/// line per file on stdout; a file that cannot be used gets its error line on stderr instead.
/// A file with no `[expect]` table, or an empty one, fails: it would pass whatever it showed.
pub fn verify(args: &VerifyArgs, out: &mut impl Write) -> io::Result<Status> {
    let names: Vec<String> = args.files.iter().map(|f| output::file_name(f)).collect();
    // The file column is as wide as the longest name, up to a line's width: a longer name
    // runs past it rather than widening every line.
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .min(FILE_COLUMN_MAX);
    let mut status = Status::Pass;
    for (file, name) in args.files.iter().zip(&names) {
        let scenario = match input::load(file) {
            Ok(s) => s,
            Err(e) => {
                status = status.max(super::invalid(&e));
                continue;
            }
        };
        let mut cut = None;
        let problems = match &scenario.expect {
            None => vec!["no [expect] table".to_string()],
            // Met by any run, so it would pass whatever the scenario came to show.
            Some(expect) if expect.is_empty() => vec![
                "its [expect] table is empty, so it checks nothing: give safe, live, kinds or \
                 absent"
                    .to_string(),
            ],
            Some(expect) => {
                let run = crate::run(&scenario, scenario.seed);
                cut = run.cut_short_at_ms();
                let mut problems = run.verdict.unmet(expect);
                let exercised = checker::exercised(&run.trace);
                for &danger in &expect.exercised {
                    if exercised.count(danger) == 0 {
                        problems.push(format!("never exercised {}", danger.as_str()));
                    }
                }
                if let Some(within) = expect.proven_within {
                    problems.extend(unproven(&scenario, within.faults)?);
                }
                problems
            }
        };
        let mut head = format!(
            "{}  ({})",
            pad_end(name, width),
            printable(&scenario.name, false)
        );
        if let Some(at) = cut {
            head += &format!(" [CUT SHORT at {}: judged only up to there]", fmt_ms(at));
        }
        if problems.is_empty() {
            writeln!(out, "ok    {head}")?;
        } else {
            status = status.max(Status::Fail);
            let mut line = format!("FAIL  {head}: {}", problems.join("; "));
            // Without an expectation nothing ran, so there is no run to replay.
            if scenario.expect.as_ref().is_some_and(|e| !e.is_empty()) {
                line += &format!(" — reproduce: {}", output::reproduce(file, scenario.seed));
            }
            writeln!(out, "{line}")?;
        }
    }
    Ok(status)
}

/// Why `scenario` is not proven within `faults` faults of the default menu on its own seed:
/// the first unsafe schedule, or a budget that ran out; nothing when it holds.
fn unproven(scenario: &Scenario, faults: u8) -> io::Result<Option<String>> {
    let options = Options {
        faults: usize::from(faults),
        kinds: MenuKind::DEFAULT.to_vec(),
        seeds: scenario.seed..scenario.seed.saturating_add(1),
        budget: PROOF_BUDGET,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .build()
        .map_err(io::Error::other)?;
    let outcome = prove::prove(scenario, &options, &pool, &AtomicBool::new(false), |_| {});
    let bound = fmt_counted(u64::from(faults), "fault");
    Ok(match (&outcome.found, outcome.stopped) {
        (Some(found), _) if found.schedule == 0 => Some(format!(
            "not proven within {bound}: unsafe as it is, with no fault added"
        )),
        (Some(found), _) => Some(format!(
            "not proven within {bound}: schedule {} is unsafe with {} (locksim prove shows it)",
            fmt_count(found.schedule),
            fmt_counted(found.counterexample.faults.len() as u64, "fault")
        )),
        (None, Some(Stopped::Budget | Stopped::Interrupted)) => Some(format!(
            "not proven within {bound}: {} of {} run before the budget ran out",
            fmt_count(outcome.explored),
            fmt_counted(outcome.total, "schedule")
        )),
        (None, None) => None,
    })
}
