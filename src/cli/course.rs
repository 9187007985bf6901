//! `locksim course`: the first question and every step, each option played out, in text.

use std::io::{self, Write};

use super::Status;
use crate::course::{self, Judge, STEPS};

/// Prints every step with its options and each option's verdict. Passes when every step's
/// runs come out as its [`Judge`] says: on a graded step, the right call safe and live and
/// every wrong call a failure (or, on a throughput step, markedly slower); on the first
/// question, every run the failure the learner weighs.
pub fn course(out: &mut impl Write) -> io::Result<Status> {
    let mut status = Status::Pass;
    for step in STEPS.iter() {
        writeln!(
            out,
            "Step {} · {} — {}",
            step.number, step.title, step.topic
        )?;
        writeln!(out, "  {}", step.question)?;
        for (n, (choice, lesson)) in step.options.iter().zip(course::lessons(step)).enumerate() {
            let mark = match (step.judge, choice.right) {
                (Judge::Framing, _) => "answer",
                (_, true) => "right",
                (_, false) => "wrong",
            };
            let verdict = match lesson {
                Ok((demo, ok)) => {
                    if !ok {
                        status = Status::Fail;
                    }
                    let v = &demo.verdict;
                    let mut kinds: Vec<&str> = Vec::new();
                    for k in v.violations.iter().map(|x| x.kind.as_str()) {
                        if !kinds.contains(&k) {
                            kinds.push(k);
                        }
                    }
                    let work = if step.judge == Judge::Throughput {
                        format!(
                            "; {} critical sections done by {} ms, {:.2}/s",
                            v.work.completed,
                            v.work.last_done_ms.unwrap_or(0),
                            v.work.per_s()
                        )
                    } else {
                        String::new()
                    };
                    format!(
                        "{}, {}{}{work}{}",
                        if v.safe { "SAFE" } else { "UNSAFE" },
                        if v.live { "LIVE" } else { "NOT LIVE" },
                        if kinds.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", kinds.join(", "))
                        },
                        if ok {
                            ""
                        } else {
                            "  <-- teaches the wrong lesson"
                        }
                    )
                }
                Err(e) => {
                    status = Status::Fail;
                    format!("scenario does not parse: {e}")
                }
            };
            writeln!(out, "  {}. [{mark}] {}", n + 1, choice.label)?;
            writeln!(out, "       {verdict}")?;
        }
        writeln!(out)?;
    }
    Ok(status)
}
