//! From the teacher's answer key to the file handed out.

use super::{Assignment, Form, hidden};
use crate::challenge;
use crate::scenario::{ScenarioError, read_document};

/// Reads the answer key `key` and writes the sealed assignment: the same tasks, each
/// `answer` replaced by `answer_hash`, each hint, explanation and feedback text encoded, each
/// `solution` left out once it is checked to win its task (a challenge nobody can win by
/// mistake is caught here, not in class). The salt comes from the key's text
/// ([`hidden::salt_for`]), so the same key always seals to the same file.
pub fn seal(key: &str) -> Result<String, ScenarioError> {
    let mut assignment = read_document(key, |a: &Assignment| {
        a.check(Form::Key)?;
        solutions_win(a)
    })?;
    let salt = hidden::salt_for(key);
    for task in &mut assignment.tasks {
        task.solution.clear();
        if let Some(answer) = task.answer.take() {
            task.answer_hash = Some(hidden::hash(&salt, &task.id, &answer.to_string()));
        }
        task.hint_sealed = task.hint.take().map(|t| hidden::encode(&t));
        task.impossible_sealed = task.impossible.take().map(|t| hidden::encode(&t));
        for choice in &mut task.options {
            choice.feedback_sealed = choice.feedback.take().map(|t| hidden::encode(&t));
        }
    }
    assignment.salt = Some(salt);
    // Every field is a string, number, array or table: serializing cannot fail.
    let body = toml::to_string(&assignment).expect("every assignment field has a TOML form");
    let sealed = format!(
        "# A locksim assignment, sealed: answers are hashed and hints encoded, to keep them \
         out of sight, not secret.\n# Grade hand-ins with `locksim grade --assignment THIS_FILE \
         HAND_INS...`.\n{body}"
    );
    // What was written must read back as a sealed file; a failure is a bug here, said as one.
    Assignment::parse(&sealed, Form::Sealed)
        .map_err(|e| ScenarioError::new("", format!("the sealed file does not read back: {e}")))?;
    Ok(sealed)
}

/// Checks that every solution the key gives wins its task.
fn solutions_win(assignment: &Assignment) -> Result<(), ScenarioError> {
    for (i, task) in assignment.tasks.iter().enumerate() {
        if task.solution.is_empty() {
            continue;
        }
        let field = format!("task[{i}]");
        let challenge = task.challenge(&field)?;
        let judged = challenge::play(&challenge, &task.solution);
        if !judged.won {
            return Err(ScenarioError::new(
                format!("{field}.solution"),
                format!("does not win the task: {}", judged.status(&challenge)),
            ));
        }
    }
    Ok(())
}
