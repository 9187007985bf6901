//! Grades as files: a CSV sheet (one row per student, one column per task) and Gradescope's
//! `results.json` for one hand-in (the autograder specification's `score`, `output` and
//! `tests`, each test with `name`, `score`, `max_score`, `status`, `output`, `visibility`).

use serde::Serialize;

use super::{Assignment, Graded};

/// The grade sheet: a header (`student`, `file`, each task's id, `total`, `max`), then one row
/// per hand-in, given with the name of its file.
pub fn csv(assignment: &Assignment, graded: &[(String, Graded)]) -> Result<String, csv::Error> {
    let mut sheet = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["student".to_string(), "file".to_string()];
    header.extend(assignment.tasks.iter().map(|t| t.id.clone()));
    header.extend(["total".to_string(), "max".to_string()]);
    sheet.write_record(&header)?;
    for (file, g) in graded {
        let mut row = vec![g.student.clone(), file.clone()];
        row.extend(g.tasks.iter().map(|t| number(t.score)));
        row.extend([number(g.score()), number(g.max_score())]);
        sheet.write_record(&row)?;
    }
    let bytes = sheet.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A number as the sheet writes it: `2`, `0.5`.
fn number(x: f64) -> String {
    format!("{x}")
}

/// Gradescope's results file for one hand-in.
#[derive(Serialize)]
struct Results<'a> {
    score: f64,
    output: String,
    visibility: &'static str,
    stdout_visibility: &'static str,
    tests: Vec<Test<'a>>,
}

#[derive(Serialize)]
struct Test<'a> {
    name: &'a str,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: &'a str,
    visibility: &'static str,
}

/// The `results.json` Gradescope's autograder reads for `graded`.
pub fn gradescope(assignment: &Assignment, graded: &Graded) -> String {
    let results = Results {
        score: graded.score(),
        output: format!(
            "{}: {} of {} points. Every attempt was re-run on its fixed seed.",
            assignment.title,
            graded.score(),
            graded.max_score()
        ),
        visibility: "visible",
        stdout_visibility: "hidden",
        tests: graded
            .tasks
            .iter()
            .map(|t| Test {
                name: &t.name,
                score: t.score,
                max_score: t.max_score,
                status: if t.score >= t.max_score {
                    "passed"
                } else {
                    "failed"
                },
                output: &t.output,
                visibility: t.visibility.as_str(),
            })
            .collect(),
    };
    // Strings and numbers only: serializing cannot fail.
    serde_json::to_string_pretty(&results).expect("results serialize")
}
