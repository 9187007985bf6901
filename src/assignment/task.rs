//! One task of an assignment, and the challenge a challenge or break task is judged as.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use strum::VariantArray;

use crate::challenge::Challenge;
use crate::course;
use crate::scenario::{self, Fault, FaultTag, Scenario, ScenarioError, library};
use crate::search::Budget;
use crate::violation::ViolationKind;

/// What a task asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskKind {
    /// Answer one of the course's decisions (`step`): graded by the student's final call.
    Course,
    /// Win a challenge: a design, a fault budget and a goal, as the Challenges page's.
    Challenge,
    /// Say how a run will come out, choosing one of `options`.
    Predict,
    /// Find a fault schedule that breaks a design: any safety violation (or one of `goal`),
    /// with at most `budget` faults (3 of any kind unless it says otherwise).
    Break,
}

/// When Gradescope shows a student a test's result, as its autograder specification names
/// the settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// At once.
    #[default]
    Visible,
    /// Never (the teacher sees it).
    Hidden,
    /// Once the due date has passed.
    AfterDueDate,
    /// Once the grades are published.
    AfterPublished,
}

impl Visibility {
    fn is_default(&self) -> bool {
        *self == Visibility::Visible
    }

    /// The name Gradescope reads.
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
        }
    }
}

/// One option of a "predict the verdict" question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// The option as the student reads it.
    pub label: String,
    /// What the student is told after choosing it (key only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    /// The feedback, encoded ([`super::hidden::encode`]; sealed file only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback_sealed: Option<String>,
}

/// A task. Which fields it takes depends on its `kind`; [`Task::check`] names any that do
/// not belong.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Stable name: the hand-in's answers and the grade sheet's columns use it.
    pub id: String,
    /// What the task asks for.
    pub kind: TaskKind,
    /// Points for doing it (1).
    #[serde(default = "one")]
    pub points: u32,
    /// When Gradescope shows the student this task's result (`visible`).
    #[serde(default, skip_serializing_if = "Visibility::is_default")]
    pub visibility: Visibility,
    /// Shown as the task's heading (the id if empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// What to do, in a sentence or two.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub brief: String,
    /// `course`: the step's number as the course shows it ("5", "7b").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// `challenge`, `break`, `predict`: a shipped scenario, `scenarios/NAME` or `cases/NAME`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub design: Option<String>,
    /// Instead of `design`: the teacher's own scenario, as the text of a scenario file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// `challenge`, `break`: the violation kinds that win (any one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub goal: Vec<ViolationKind>,
    /// `challenge`, `break`: a node the winning violation must involve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal_node: Option<String>,
    /// `challenge` (required), `break`: what the student may place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// `predict`: the question.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub question: String,
    /// `predict`: the options, at least two.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<Choice>,
    /// Key, `predict`: the right option's number (1 for the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<u32>,
    /// Sealed, `predict`: the right option's number, hashed with the salt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_hash: Option<String>,
    /// Key, `challenge`, `break`: how it can be won, shown after a give-up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Sealed: the hint, encoded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint_sealed: Option<String>,
    /// Key, `challenge`: why it cannot be won, for one impossible by design.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impossible: Option<String>,
    /// Sealed: why it cannot be won, encoded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impossible_sealed: Option<String>,
    /// Key, `challenge`, `break`: a winning fault schedule; sealing checks that it wins and
    /// leaves it out of the sealed file.
    #[serde(default, rename = "solution", skip_serializing)]
    pub solution: Vec<Fault>,
}

fn one() -> u32 {
    1
}

/// The most points one task may give.
const MAX_POINTS: u32 = 1_000;

/// How many faults a `break` task allows when it gives no budget.
const BREAK_FAULTS: usize = 3;

impl Task {
    /// Checks that the fields the task's kind needs are there, and no others; in a sealed
    /// file, that nothing is in plain text that should be hidden. `field` is the task's
    /// path (`task[2]`).
    pub fn check(&self, field: &str, form: super::Form) -> Result<(), ScenarioError> {
        let at = |key: &str| format!("{field}.{key}");
        let err = |key: &str, message: String| Err(ScenarioError::new(at(key), message));
        if self.id.trim().is_empty() || self.id.chars().any(|c| c.is_whitespace() || c == ',') {
            return err(
                "id",
                "must be a name without spaces or commas (a column of the grade sheet)".into(),
            );
        }
        if self.points > MAX_POINTS {
            return err(
                "points",
                format!("at most {MAX_POINTS}; got {}", self.points),
            );
        }
        let kind = self.kind;
        let only = |key: &str, present: bool, kinds: &[TaskKind]| -> Result<(), ScenarioError> {
            if present && !kinds.contains(&kind) {
                return Err(ScenarioError::new(
                    at(key),
                    format!("a {} task has no `{key}`", kind_name(kind)),
                ));
            }
            Ok(())
        };
        use TaskKind::{Break, Challenge as Ch, Course, Predict};
        only("step", self.step.is_some(), &[Course])?;
        only("design", self.design.is_some(), &[Ch, Break, Predict])?;
        only("scenario", self.scenario.is_some(), &[Ch, Break, Predict])?;
        only("goal", !self.goal.is_empty(), &[Ch, Break])?;
        only("goal_node", self.goal_node.is_some(), &[Ch, Break])?;
        only("budget", self.budget.is_some(), &[Ch, Break])?;
        only("question", !self.question.is_empty(), &[Predict])?;
        only("options", !self.options.is_empty(), &[Predict])?;
        only("answer", self.answer.is_some(), &[Predict])?;
        only("answer_hash", self.answer_hash.is_some(), &[Predict])?;
        only("hint", self.hint.is_some(), &[Ch, Break])?;
        only("hint_sealed", self.hint_sealed.is_some(), &[Ch, Break])?;
        only("impossible", self.impossible.is_some(), &[Ch])?;
        only("impossible_sealed", self.impossible_sealed.is_some(), &[Ch])?;
        only("solution", !self.solution.is_empty(), &[Ch, Break])?;
        self.check_form(field, form)?;
        match kind {
            Course => {
                let Some(step) = &self.step else {
                    return err("step", "missing: which course step (\"5\", \"7b\")".into());
                };
                if course::step(step).is_none() {
                    let all: Vec<&str> = course::STEPS.iter().map(|s| s.number).collect();
                    return err(
                        "step",
                        format!("no course step {step:?}; the steps are {}", all.join(", ")),
                    );
                }
            }
            Predict => {
                self.design(field)?;
                if self.question.trim().is_empty() {
                    return err(
                        "question",
                        "missing: the question the student answers".into(),
                    );
                }
                if self.options.len() < 2 {
                    return err("options", "a question needs at least two options".into());
                }
                if let Some(answer) = self.answer
                    && !(1..=self.options.len()).contains(&(answer as usize))
                {
                    return err(
                        "answer",
                        format!(
                            "the number of an option, 1 to {}; got {answer}",
                            self.options.len()
                        ),
                    );
                }
            }
            Ch | Break => {
                if kind == Ch && self.budget.is_none() {
                    return err("budget", "missing: what the student may place".into());
                }
                if kind == Ch && self.goal.is_empty() {
                    return err("goal", "missing: the violation kinds that win".into());
                }
                let challenge = self.challenge(field)?;
                if let Some(node) = &challenge.goal_node
                    && !challenge.design.workers.iter().any(|w| &w.name == node)
                    && scenario::names::parse_store_name(node).is_none()
                {
                    return err("goal_node", format!("no node `{node}` in the design"));
                }
            }
        }
        Ok(())
    }

    /// In a key: predict tasks have an answer and no hash; in a sealed file: no plain answer,
    /// hint, explanation, feedback or solution.
    fn check_form(&self, field: &str, form: super::Form) -> Result<(), ScenarioError> {
        let at = |key: &str| format!("{field}.{key}");
        let plain = [
            ("answer", self.answer.is_some()),
            ("hint", self.hint.is_some()),
            ("impossible", self.impossible.is_some()),
            ("solution", !self.solution.is_empty()),
        ];
        let sealed = [
            ("answer_hash", self.answer_hash.is_some()),
            ("hint_sealed", self.hint_sealed.is_some()),
            ("impossible_sealed", self.impossible_sealed.is_some()),
        ];
        match form {
            super::Form::Sealed => {
                if let Some((key, _)) = plain.iter().find(|(_, present)| *present) {
                    return Err(ScenarioError::new(
                        at(key),
                        "in plain text in a sealed assignment: seal the key with `locksim \
                         assignment seal` instead of handing it out",
                    ));
                }
                for (i, choice) in self.options.iter().enumerate() {
                    if choice.feedback.is_some() {
                        return Err(ScenarioError::new(
                            format!("{field}.options[{i}].feedback"),
                            "in plain text in a sealed assignment",
                        ));
                    }
                }
                if self.kind == TaskKind::Predict && self.answer_hash.is_none() {
                    return Err(ScenarioError::new(
                        at("answer_hash"),
                        "missing: the sealed answer",
                    ));
                }
            }
            super::Form::Key => {
                if let Some((key, _)) = sealed.iter().find(|(_, present)| *present) {
                    return Err(ScenarioError::new(
                        at(key),
                        "a key holds answers in plain text; this field belongs in a sealed file",
                    ));
                }
                if let Some(i) = self
                    .options
                    .iter()
                    .position(|c| c.feedback_sealed.is_some())
                {
                    return Err(ScenarioError::new(
                        format!("{field}.options[{i}].feedback_sealed"),
                        "a key holds feedback in plain text, as `feedback`",
                    ));
                }
                if self.kind == TaskKind::Predict && self.answer.is_none() {
                    return Err(ScenarioError::new(
                        at("answer"),
                        "missing: the right option's number (1 for the first)",
                    ));
                }
            }
        }
        Ok(())
    }

    /// The task's scenario: the shipped one `design` names or the teacher's own `scenario`.
    pub fn design(&self, field: &str) -> Result<Scenario, ScenarioError> {
        match (&self.design, &self.scenario) {
            (Some(_), Some(_)) => Err(ScenarioError::new(
                format!("{field}.scenario"),
                "give `design` or `scenario`, not both",
            )),
            (None, None) => Err(ScenarioError::new(
                format!("{field}.design"),
                "missing: a shipped scenario (`scenarios/NAME`, `cases/NAME`), or the \
                 scenario's text as `scenario`",
            )),
            (Some(path), None) => shipped(path).ok_or_else(|| {
                ScenarioError::new(
                    format!("{field}.design"),
                    format!(
                        "no shipped scenario {path:?}: give `scenarios/NAME` or `cases/NAME`, \
                         as in assets/ without `.toml`"
                    ),
                )
            }),
            (None, Some(text)) => scenario::parse(text).map_err(|e| {
                ScenarioError::new(
                    format!("{field}.scenario"),
                    format!("the scenario does not read: {e}"),
                )
            }),
        }
    }

    /// The challenge a `challenge` or `break` task is judged as: the design without its own
    /// faults and `[expect]`, the task's goal (for `break` with none: any safety violation)
    /// and budget (for `break` with none: [`BREAK_FAULTS`] faults of any kind).
    pub fn challenge(&self, field: &str) -> Result<Challenge, ScenarioError> {
        let mut design = self.design(field)?;
        design.faults.clear();
        design.expect = None;
        let goal = if self.goal.is_empty() {
            vec![ViolationKind::StaleWrite, ViolationKind::InterleavedWrites]
        } else {
            self.goal.clone()
        };
        let budget = self.budget.clone().unwrap_or_else(|| Budget {
            faults: BREAK_FAULTS,
            kinds: FaultTag::VARIANTS
                .iter()
                .map(|&k| (k, BREAK_FAULTS))
                .collect::<BTreeMap<_, _>>(),
            pause_ms: None,
        });
        Ok(Challenge {
            id: self.id.clone(),
            title: self.heading().to_string(),
            design,
            brief: self.brief.clone(),
            goal,
            goal_node: self.goal_node.clone(),
            budget,
            hint: String::new(),
            impossible: None,
        })
    }

    /// The task's heading: its title, or its id.
    pub fn heading(&self) -> &str {
        if self.title.is_empty() {
            &self.id
        } else {
            &self.title
        }
    }
}

/// The shipped scenario `scenarios/NAME` or `cases/NAME`, parsed.
fn shipped(path: &str) -> Option<Scenario> {
    let (list, name) = match path.split_once('/')? {
        ("scenarios", name) => (library::COURSE, name),
        ("cases", name) => (library::INCIDENTS, name),
        _ => return None,
    };
    let file = format!("{name}.toml");
    let (_, text) = list.iter().find(|(n, _)| *n == file)?;
    scenario::parse(text).ok()
}

/// A kind's name as the file spells it.
pub(super) fn kind_name(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::Course => "course",
        TaskKind::Challenge => "challenge",
        TaskKind::Predict => "predict",
        TaskKind::Break => "break",
    }
}
