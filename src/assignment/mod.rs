//! Assignments: a teacher's own set of tasks — course decisions to answer, challenges, "predict
//! the verdict" questions and "find a schedule that breaks it" tasks — as a TOML file, the
//! students' hand-ins, and their grading by re-running every attempt.
//!
//! A teacher writes a plain answer key ([`Assignment`] with answers, hints and feedback in
//! the open); [`seal()`] turns it into the file handed out, where each expected answer is a
//! salted hash and each hint or feedback text is encoded ([`hidden`]), so a student does not
//! read the answer by opening the file. That is spoiler-proofing, not security: the grade
//! comes from [`grade()`] re-running every attempt on its fixed seed.
//!
//! Command-line only: nothing in the app reaches this module.

pub mod grade;
pub mod handin;
pub mod hidden;
pub mod report;
mod seal;
mod task;

pub use grade::{Graded, TaskResult, grade};
pub use handin::HandIn;
pub use seal::seal;
pub use task::{Choice, Task, TaskKind, Visibility};

use serde::{Deserialize, Serialize};

use crate::scenario::{ScenarioError, read_document};

/// The only assignment (and hand-in) file version this build reads.
pub const VERSION: u32 = 1;

/// An assignment file: the teacher's key (plain answers) or the sealed file handed out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Assignment {
    /// File format version; must equal [`VERSION`].
    pub version: u32,
    /// The assignment's title, e.g. "Week 6: locks that lie".
    pub title: String,
    /// What the students are asked to do, shown above the tasks.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub instructions: String,
    /// The salt every answer hash of a sealed file is made with; absent in a key (sealing
    /// picks it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// The tasks, in the order they are graded and reported.
    #[serde(rename = "task")]
    pub tasks: Vec<Task>,
}

/// Whether a file is the teacher's key or the sealed assignment: which fields it may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The teacher's answer key: answers, hints and feedback in plain text.
    Key,
    /// What is handed out: answers hashed, hints and feedback encoded.
    Sealed,
}

impl Assignment {
    /// Reads and checks an assignment file of the given form. Errors name the field and its
    /// line, as a scenario's do.
    pub fn parse(src: &str, form: Form) -> Result<Assignment, ScenarioError> {
        read_document(src, |a: &Assignment| a.check(form))
    }

    /// Checks the version, the title, each task and that task ids are unique.
    pub fn check(&self, form: Form) -> Result<(), ScenarioError> {
        if self.version != VERSION {
            return Err(ScenarioError::new(
                "version",
                format!(
                    "this build reads assignment files of version {VERSION} only; got {}",
                    self.version
                ),
            ));
        }
        if self.title.trim().is_empty() {
            return Err(ScenarioError::new("title", "must not be empty"));
        }
        match (form, &self.salt) {
            (Form::Sealed, None) => {
                return Err(ScenarioError::new(
                    "salt",
                    "missing: a sealed assignment carries the salt its answers were hashed \
                     with (`locksim assignment seal` writes it)",
                ));
            }
            (Form::Key, Some(_)) => {
                return Err(ScenarioError::new(
                    "salt",
                    "a key has no salt: this looks like a sealed file; sealing picks the salt",
                ));
            }
            _ => {}
        }
        if self.tasks.is_empty() {
            return Err(ScenarioError::new(
                "task",
                "an assignment needs at least one [[task]]",
            ));
        }
        for (i, task) in self.tasks.iter().enumerate() {
            let field = format!("task[{i}]");
            if let Some(first) = self.tasks[..i].iter().position(|t| t.id == task.id) {
                return Err(ScenarioError::new(
                    format!("{field}.id"),
                    format!("`{}` is already the id of task[{first}]", task.id),
                ));
            }
            task.check(&field, form)?;
        }
        Ok(())
    }

    /// The task named `id`, if there is one.
    pub fn task(&self, id: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id == id)
    }

    /// The most points the assignment gives.
    pub fn max_score(&self) -> f64 {
        self.tasks.iter().map(|t| f64::from(t.points)).sum()
    }
}
