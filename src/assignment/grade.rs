//! Grading a hand-in: every answer judged afresh — a course call against the course, a
//! prediction against its hash, a challenge's or break task's faults re-run on the design's
//! fixed seed. What a hand-in says about its own result is never taken.

use super::handin::Answer;
use super::task::Visibility;
use super::{Assignment, HandIn, Task, TaskKind, hidden};
use crate::challenge;
use crate::course;

/// One task's grade.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskResult {
    /// The task's id.
    pub task: String,
    /// The task's heading.
    pub name: String,
    /// Points earned.
    pub score: f64,
    /// Points the task gives.
    pub max_score: f64,
    /// What was judged, in a sentence or two, for the student.
    pub output: String,
    /// When Gradescope shows it to the student.
    pub visibility: Visibility,
}

/// A hand-in's grade: one result per task of the assignment, in its order.
#[derive(Clone, Debug, PartialEq)]
pub struct Graded {
    /// Who handed it in.
    pub student: String,
    /// Each task's result.
    pub tasks: Vec<TaskResult>,
}

impl Graded {
    /// Points earned in all.
    pub fn score(&self) -> f64 {
        self.tasks.iter().map(|t| t.score).sum()
    }

    /// Points the assignment gives in all.
    pub fn max_score(&self) -> f64 {
        self.tasks.iter().map(|t| t.max_score).sum()
    }
}

/// Grades `hand_in` against `assignment` (both already checked by their parsers).
pub fn grade(assignment: &Assignment, hand_in: &HandIn) -> Graded {
    let tasks = assignment
        .tasks
        .iter()
        .enumerate()
        .map(|(i, task)| {
            let answer = hand_in.answers.iter().find(|a| a.task == task.id);
            let (right, output) = match answer {
                None => (false, "Not answered.".to_string()),
                Some(answer) => mark(assignment, task, i, answer),
            };
            let max_score = f64::from(task.points);
            TaskResult {
                task: task.id.clone(),
                name: task.heading().to_string(),
                score: if right { max_score } else { 0.0 },
                max_score,
                output,
                visibility: task.visibility,
            }
        })
        .collect();
    Graded {
        student: hand_in.student.clone(),
        tasks,
    }
}

/// Whether `answer` earns `task`'s points, and why in words.
fn mark(assignment: &Assignment, task: &Task, index: usize, answer: &Answer) -> (bool, String) {
    match task.kind {
        TaskKind::Course => course_call(task, answer),
        TaskKind::Predict => prediction(assignment, task, answer),
        TaskKind::Challenge | TaskKind::Break => attempt(task, index, answer),
    }
}

fn course_call(task: &Task, answer: &Answer) -> (bool, String) {
    let Some(step) = task.step.as_deref().and_then(course::step) else {
        return (false, "No such course step.".to_string());
    };
    let said = |n: Option<u32>| -> (Option<bool>, String) {
        let Some((n, choice)) = n.and_then(|n| Some((n, option(step.options, n)?))) else {
            return (None, "none".to_string());
        };
        let framing = step.grading == course::Grading::Framing;
        let right = framing || choice.right;
        let verdict = match (framing, right) {
            (true, _) => "",
            (false, true) => ", right",
            (false, false) => ", wrong",
        };
        (
            Some(right),
            format!("option {n} (\"{}\"){verdict}", choice.label),
        )
    };
    let (_, first) = said(answer.first);
    let (right, last) = said(answer.final_call);
    (
        right == Some(true),
        format!(
            "Step {}: first call {first}; final call {last}.",
            step.number
        ),
    )
}

fn prediction(assignment: &Assignment, task: &Task, answer: &Answer) -> (bool, String) {
    let Some(n) = answer.choice else {
        return (false, "No option chosen.".to_string());
    };
    let right = match (&task.answer, &task.answer_hash, &assignment.salt) {
        (Some(expected), _, _) => *expected == n,
        (None, Some(hash), Some(salt)) => hidden::matches(salt, &task.id, &n.to_string(), hash),
        _ => false,
    };
    let choice = option(&task.options, n);
    let feedback = choice
        .and_then(|c| {
            c.feedback
                .clone()
                .or_else(|| c.feedback_sealed.as_deref().and_then(hidden::decode))
        })
        .map(|f| format!(" {f}"))
        .unwrap_or_default();
    let label = choice.map_or("", |c| c.label.as_str());
    let verdict = if right { "right" } else { "wrong" };
    (
        right,
        format!("Option {n} (\"{label}\"): {verdict}.{feedback}"),
    )
}

/// Option number `n` (1 for the first) of `options`, if there is one.
fn option<T>(options: &[T], n: u32) -> Option<&T> {
    options.get((n as usize).checked_sub(1)?)
}

fn attempt(task: &Task, index: usize, answer: &Answer) -> (bool, String) {
    let Ok(challenge) = task.challenge(&format!("task[{index}]")) else {
        return (false, "The task's design does not read.".to_string());
    };
    let judged = challenge::play(&challenge, &answer.faults);
    let mut output = format!(
        "Re-run on seed {} with {} fault(s): {}",
        challenge.design.seed,
        answer.faults.len(),
        judged.status(&challenge)
    );
    if answer.won == Some(true) && !judged.won {
        output.push_str(" (The hand-in says it won; the re-run says it did not.)");
    }
    (judged.won, output)
}
