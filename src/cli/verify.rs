//! `locksim verify FILE...`: does each scenario still show what it was written to show?

use std::io::{self, Write};

use super::args::VerifyArgs;
use super::{Status, input, output};
use crate::checker::Verdict;
use crate::describe::{fmt_ms, printable};
use crate::scenario::Expect;
use crate::{checker, engine};

/// Runs each file with its own seed and compares the verdict with its `[expect]` table. One
/// line per file on stdout; a file that cannot be used gets its error line on stderr instead.
pub fn verify(args: &VerifyArgs, out: &mut impl Write) -> io::Result<Status> {
    let names: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
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
            Some(expect) => {
                let trace = engine::run(&scenario, scenario.seed);
                let verdict = checker::check(&scenario, &trace);
                cut = verdict.cut_short_at_ms;
                unmet(expect, &verdict)
            }
        };
        let mut head = format!("{name:<width$}  ({})", printable(&scenario.name, false));
        if let Some(at) = cut {
            head += &format!(" [CUT SHORT at {}: judged only up to there]", fmt_ms(at));
        }
        if problems.is_empty() {
            writeln!(out, "ok    {head}")?;
        } else {
            status = status.max(Status::Fail);
            let mut line = format!("FAIL  {head}: {}", problems.join("; "));
            // Without [expect] nothing ran, so there is no run to replay.
            if scenario.expect.is_some() {
                line += &format!(" — reproduce: {}", output::reproduce(file, scenario.seed));
            }
            writeln!(out, "{line}")?;
        }
    }
    Ok(status)
}

/// Each way `verdict` falls short of `expect`, in words; empty when every expectation is met.
fn unmet(expect: &Expect, verdict: &Verdict) -> Vec<String> {
    let mut problems = Vec::new();
    for (what, wanted, got) in [
        ("safe", expect.safe, verdict.safe),
        ("live", expect.live, verdict.live),
    ] {
        if let Some(wanted) = wanted.filter(|&w| w != got) {
            problems.push(format!("expected {what}={wanted}, got {got}"));
        }
    }
    for &kind in &expect.kinds {
        if !verdict.has(kind) {
            problems.push(format!("missing {kind}"));
        }
    }
    for &kind in &expect.absent {
        if verdict.has(kind) {
            problems.push(format!("unexpected {kind}"));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Kind;
    use crate::cli::testing::verdict;

    #[test]
    fn every_unmet_expectation_is_named() {
        let expect = Expect {
            safe: Some(true),
            live: None,
            kinds: vec![Kind::Overlap, Kind::StaleWrite],
            absent: vec![Kind::ForeignRelease],
        };
        assert_eq!(
            unmet(&expect, &verdict(true, &[Kind::Overlap])),
            ["missing stale_write"]
        );
        assert_eq!(
            unmet(
                &expect,
                &verdict(false, &[Kind::Overlap, Kind::ForeignRelease])
            ),
            [
                "expected safe=true, got false",
                "missing stale_write",
                "unexpected foreign_release"
            ]
        );
    }

    #[test]
    fn an_empty_expectation_is_met() {
        assert!(unmet(&Expect::default(), &verdict(false, &[Kind::Stuck])).is_empty());
    }
}
