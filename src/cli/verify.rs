//! `locksim verify FILE...`: does each scenario still show what it was written to show?

use std::io::{self, Write};

use super::args::VerifyArgs;
use super::{Status, input, output};
use crate::text::{fmt_ms, pad_end, printable};

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
                run.verdict.unmet(expect)
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
