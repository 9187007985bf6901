//! `locksim course`: the first question and every step, each option played out, in text.

use std::io::{self, Write};

use super::Status;
use crate::checker::Verdict;
use crate::course::{self, Judge, STEPS};
use crate::text::{fmt_counted, fmt_ms};

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
                        format!("; {}", work_done(v))
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

/// The work a run let through, for a throughput step: "4 critical sections done by 5 027 ms,
/// 0.80/s".
fn work_done(verdict: &Verdict) -> String {
    let w = verdict.work;
    match w.last_done_ms {
        Some(last) => format!(
            "{} done by {}, {:.2}/s",
            fmt_counted(w.completed, "critical section"),
            fmt_ms(last),
            w.per_s()
        ),
        None => "no critical section done".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::verdict;

    #[test]
    fn the_work_done_is_counted_for_people() {
        let mut v = verdict(true, &[]);
        assert_eq!(work_done(&v), "no critical section done");
        v.work.completed = 4;
        v.work.last_done_ms = Some(5_027);
        assert!(
            work_done(&v).starts_with("4 critical sections done by 5 027 ms, "),
            "{}",
            work_done(&v)
        );
        v.work.completed = 1;
        assert!(work_done(&v).starts_with("1 critical section done by "));
    }
}
