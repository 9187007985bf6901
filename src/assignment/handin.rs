//! A student's hand-in: who, and an answer per task — the course calls (first and final), a
//! challenge's or break task's faults, a prediction. TOML a person can read and a teacher can
//! open; what it claims about winning is kept only to be compared with the re-run.

use serde::{Deserialize, Serialize};

use super::{Assignment, TaskKind, VERSION};
use crate::course;
use crate::scenario::{Fault, ScenarioError, read_document};

/// One hand-in file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandIn {
    /// File format version; must equal [`VERSION`].
    pub version: u32,
    /// Who handed it in: the grade sheet's row.
    pub student: String,
    /// The assignment's title, as a reminder of what it answers (not checked).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub assignment: String,
    /// One answer per task answered; a task with none scores 0.
    #[serde(default, rename = "answer")]
    pub answers: Vec<Answer>,
}

/// The answer to one task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// The task's id.
    pub task: String,
    /// `course`: the option chosen first (1 for the first option, as `locksim course`
    /// numbers them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<u32>,
    /// `course`: the option the student settled on; the one graded.
    #[serde(default, rename = "final", skip_serializing_if = "Option::is_none")]
    pub final_call: Option<u32>,
    /// `predict`: the option chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<u32>,
    /// `challenge`, `break`: whether the student's page said it won. Never trusted: the
    /// grade re-runs the faults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub won: Option<bool>,
    /// `challenge`, `break`: the faults placed, as a scenario's `[[fault]]` tables.
    #[serde(default, rename = "fault", skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<Fault>,
}

impl HandIn {
    /// Reads a hand-in of `assignment` and checks every answer against its task: the task
    /// exists, the answer has the fields its kind takes, option numbers are in range and the
    /// faults are valid on the task's design. Errors name the field and line.
    pub fn parse(src: &str, assignment: &Assignment) -> Result<HandIn, ScenarioError> {
        read_document(src, |h: &HandIn| h.check(assignment))
    }

    /// The checks [`HandIn::parse`] makes.
    pub fn check(&self, assignment: &Assignment) -> Result<(), ScenarioError> {
        if self.version != VERSION {
            return Err(ScenarioError::new(
                "version",
                format!(
                    "this build reads hand-ins of version {VERSION} only; got {}",
                    self.version
                ),
            ));
        }
        if self.student.trim().is_empty() {
            return Err(ScenarioError::new("student", "must not be empty"));
        }
        for (i, answer) in self.answers.iter().enumerate() {
            let field = format!("answer[{i}]");
            let at = |key: &str| format!("{field}.{key}");
            let Some(task) = assignment.task(&answer.task) else {
                let ids: Vec<&str> = assignment.tasks.iter().map(|t| t.id.as_str()).collect();
                return Err(ScenarioError::new(
                    at("task"),
                    format!(
                        "no task `{}` in the assignment; its tasks are {}",
                        answer.task,
                        ids.join(", ")
                    ),
                ));
            };
            if let Some(first) = self.answers[..i].iter().position(|a| a.task == answer.task) {
                return Err(ScenarioError::new(
                    at("task"),
                    format!(
                        "task `{}` is already answered in answer[{first}]",
                        answer.task
                    ),
                ));
            }
            let misplaced = match task.kind {
                TaskKind::Course => [
                    ("choice", answer.choice.is_some()),
                    ("won", answer.won.is_some()),
                    ("fault", !answer.faults.is_empty()),
                ],
                TaskKind::Predict => [
                    ("first", answer.first.is_some()),
                    ("final", answer.final_call.is_some()),
                    ("fault", !answer.faults.is_empty()),
                ],
                TaskKind::Challenge | TaskKind::Break => [
                    ("first", answer.first.is_some()),
                    ("final", answer.final_call.is_some()),
                    ("choice", answer.choice.is_some()),
                ],
            };
            if let Some((key, _)) = misplaced.iter().find(|(_, present)| *present) {
                return Err(ScenarioError::new(
                    at(key),
                    format!(
                        "task `{}` is a {} task: it takes no `{key}`",
                        task.id,
                        super::task::kind_name(task.kind)
                    ),
                ));
            }
            let options = match task.kind {
                TaskKind::Course => task
                    .step
                    .as_deref()
                    .and_then(course::step)
                    .map_or(0, |s| s.options.len()),
                _ => task.options.len(),
            };
            for (key, value) in [
                ("first", answer.first),
                ("final", answer.final_call),
                ("choice", answer.choice),
            ] {
                if let Some(n) = value
                    && !(1..=options).contains(&(n as usize))
                {
                    return Err(ScenarioError::new(
                        at(key),
                        format!("the number of an option, 1 to {options}; got {n}"),
                    ));
                }
            }
            if matches!(task.kind, TaskKind::Challenge | TaskKind::Break) {
                // The task's own checks passed when the assignment was read.
                let mut attempt = task.challenge(&field)?.design;
                attempt.faults = answer.faults.clone();
                // The design's errors name `fault[j]…`, which is this answer's `fault[j]…`.
                attempt
                    .validate()
                    .map_err(|e| ScenarioError::new(format!("{field}.{}", e.field), e.message))?;
            }
        }
        Ok(())
    }
}
