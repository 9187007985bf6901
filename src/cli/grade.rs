//! `locksim grade --assignment A.toml [--out DIR] HAND_INS...`: every hand-in graded by
//! re-running it ([`crate::assignment::grade()`]), written as a CSV sheet and Gradescope results.

use std::io::{self, Write};
use std::path::Path;

use super::args::GradeArgs;
use super::input::{self, InputError};
use super::{Status, output};
use crate::assignment::{Assignment, Form, Graded, HandIn, grade as judge, report};

/// Grades each valid hand-in, writes the files and prints one line per hand-in and a summary.
/// An invalid hand-in is named on stderr with its position and left out of the sheet; the
/// exit status is then 2.
pub fn grade(args: &GradeArgs, out: &mut impl Write) -> io::Result<Status> {
    let assignment = match input::load_text(&args.assignment).and_then(|text| {
        Assignment::parse(&text, Form::Sealed).map_err(|e| InputError::invalid(&args.assignment, e))
    }) {
        Ok(a) => a,
        Err(e) => return Ok(super::invalid(&e)),
    };
    let mut status = Status::Pass;
    let mut graded: Vec<(String, Graded)> = Vec::new();
    for path in &args.hand_ins {
        let hand_in = input::load_text(path).and_then(|text| {
            HandIn::parse(&text, &assignment).map_err(|e| InputError::invalid(path, e))
        });
        match hand_in {
            Ok(hand_in) => {
                let g = judge(&assignment, &hand_in);
                writeln!(
                    out,
                    "{}: {} of {} ({})",
                    output::file_name(path),
                    g.score(),
                    g.max_score(),
                    g.student
                )?;
                graded.push((stem(path), g));
            }
            Err(e) => status = status.max(super::invalid(&e)),
        }
    }
    if let Err(why) = write_files(&args.out, &assignment, &graded) {
        let _ = writeln!(io::stderr(), "locksim grade: {why}");
        return Ok(Status::Invalid);
    }
    let invalid = args.hand_ins.len() - graded.len();
    let full = graded
        .iter()
        .filter(|(_, g)| g.score() >= g.max_score())
        .count();
    let mean = if graded.is_empty() {
        0.0
    } else {
        graded.iter().map(|(_, g)| g.score()).sum::<f64>() / graded.len() as f64
    };
    writeln!(
        out,
        "graded {} hand-in(s) of {}: mean {:.2} of {} points, {full} with every point; {invalid} \
         invalid; wrote {}",
        graded.len(),
        args.hand_ins.len(),
        mean,
        assignment.max_score(),
        output::file_name(&args.out.join("grades.csv"))
    )?;
    Ok(status)
}

/// A hand-in's name in the sheet and its results file: its file name without `.toml`.
fn stem(path: &Path) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// Writes `DIR/grades.csv`, and `DIR/results.json` for one hand-in or `DIR/results/NAME.json`
/// for each of several.
fn write_files(
    dir: &Path,
    assignment: &Assignment,
    graded: &[(String, Graded)],
) -> Result<(), String> {
    let cannot = |path: &Path, e: &dyn std::fmt::Display| {
        format!("cannot write {}: {e}", output::file_name(path))
    };
    std::fs::create_dir_all(dir).map_err(|e| cannot(dir, &e))?;
    let sheet = report::csv(assignment, graded).map_err(|e| cannot(&dir.join("grades.csv"), &e))?;
    let csv_path = dir.join("grades.csv");
    std::fs::write(&csv_path, sheet).map_err(|e| cannot(&csv_path, &e))?;
    match graded {
        [(_, one)] => {
            let path = dir.join("results.json");
            std::fs::write(&path, report::gradescope(assignment, one))
                .map_err(|e| cannot(&path, &e))?;
        }
        many => {
            let folder = dir.join("results");
            std::fs::create_dir_all(&folder).map_err(|e| cannot(&folder, &e))?;
            for (name, g) in many {
                let path = folder.join(format!("{name}.json"));
                std::fs::write(&path, report::gradescope(assignment, g))
                    .map_err(|e| cannot(&path, &e))?;
            }
        }
    }
    Ok(())
}
