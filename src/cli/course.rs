//! `locksim course`: the first question and every step, each option played out, in text.

use std::io::{self, Write};

use super::Status;
use crate::checker::{Verdict, ViolationKind};
use crate::course::{self, Grading, STEPS};
use crate::scenario::library;
use crate::text::{fmt_counted, fmt_ms};

/// Prints every step with its options and each option's verdict. Passes when every step's
/// runs come out as its [`Grading`] says: on a graded step, the right call safe and live and
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
            let mark = match (step.grading, choice.right) {
                (Grading::Framing, _) => "answer",
                (_, true) => "right",
                (_, false) => "wrong",
            };
            let verdict = match lesson {
                Ok((demo, ok)) => {
                    if !ok {
                        status = Status::Fail;
                    }
                    let v = &demo.verdict;
                    let (data, lock): (Vec<_>, Vec<_>) = kinds(v)
                        .into_iter()
                        .partition(|k| !k.is_lock_misbehaviour());
                    let exclusion = if lock.is_empty() {
                        String::new()
                    } else {
                        format!("; exclusion broken ({})", names(&lock))
                    };
                    let work = match step.grading {
                        Grading::Throughput | Grading::LostWork => format!("; {}", work_done(v)),
                        Grading::Latency => {
                            format!("; longest wait {}", fmt_ms(demo.longest_wait_ms()))
                        }
                        _ => String::new(),
                    };
                    format!(
                        "{}, {}{}{exclusion}{work}{}",
                        if v.safe { "SAFE" } else { "UNSAFE" },
                        if v.live { "LIVE" } else { "NOT LIVE" },
                        if data.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", names(&data))
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

/// The answer key as data, for teachers and tools (`locksim course --json`).
#[derive(serde::Serialize)]
struct AnswerKey {
    decisions: Vec<Decision>,
}

/// One decision: step 0's question, then the eleven graded ones.
#[derive(serde::Serialize)]
struct Decision {
    id: &'static str,
    title: &'static str,
    topic: &'static str,
    question: &'static str,
    options: Vec<AnswerOption>,
}

#[derive(serde::Serialize)]
struct AnswerOption {
    label: &'static str,
    /// Step 0 has no right call: every option is `false`.
    right: bool,
    /// The scenario the option plays, a path under `assets/` ("scenarios/NAME.toml").
    scenario: String,
    /// `None` when the scenario does not parse.
    verdict: Option<ShortVerdict>,
}

#[derive(serde::Serialize)]
struct ShortVerdict {
    safe: bool,
    live: bool,
    /// Each kind of violation found, once, in the order first found.
    kinds: Vec<&'static str>,
}

/// Prints the answer key as JSON. Passes when `locksim course` would.
pub fn course_json(out: &mut impl Write) -> io::Result<Status> {
    let mut status = Status::Pass;
    let mut decisions = Vec::new();
    for step in STEPS.iter() {
        let mut options = Vec::new();
        for (choice, lesson) in step.options.iter().zip(course::lessons(step)) {
            let verdict = match lesson {
                Ok((demo, ok)) => {
                    if !ok {
                        status = Status::Fail;
                    }
                    Some(ShortVerdict {
                        safe: demo.verdict.safe,
                        live: demo.verdict.live,
                        kinds: kinds(&demo.verdict).iter().map(|k| k.as_str()).collect(),
                    })
                }
                Err(_) => {
                    status = Status::Fail;
                    None
                }
            };
            options.push(AnswerOption {
                label: choice.label,
                right: choice.right,
                scenario: asset_path(choice.scenario),
                verdict,
            });
        }
        decisions.push(Decision {
            id: step.number,
            title: step.title,
            topic: step.topic,
            question: step.question,
            options,
        });
    }
    super::output::write_json(out, &AnswerKey { decisions })?;
    Ok(status)
}

/// Where the shipped scenario whose text is `text` lives under `assets/`.
fn asset_path(text: &str) -> String {
    let in_dir = |dir: &str, list: &[(&str, &str)]| {
        list.iter()
            .find(|(_, t)| *t == text)
            .map(|(name, _)| format!("{dir}/{name}"))
    };
    in_dir("scenarios", library::COURSE)
        .or_else(|| in_dir("cases", library::INCIDENTS))
        .unwrap_or_default()
}

/// Each kind of violation in `verdict`, once, in the order first found.
fn kinds(verdict: &Verdict) -> Vec<ViolationKind> {
    let mut kinds: Vec<ViolationKind> = Vec::new();
    for k in verdict.violations.iter().map(|x| x.kind) {
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    kinds
}

/// "overlap, double_grant".
fn names(kinds: &[ViolationKind]) -> String {
    kinds
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The work a run let through, for a throughput step: "4 critical sections done by 5 027 ms,
/// 0.80/s".
fn work_done(verdict: &Verdict) -> String {
    let w = verdict.work;
    match w.last_done_ms {
        Some(last) => format!(
            "{} done by {}, {:.2}/s{}",
            fmt_counted(w.completed, "critical section"),
            fmt_ms(last),
            w.per_s(),
            crate::view::verdict::refused(w)
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
        v.work.refused = 1;
        assert!(
            work_done(&v)
                .ends_with("; 1 critical section refused by the resource, never completed"),
            "{}",
            work_done(&v)
        );
        v.work.refused = 0;
        v.work.completed = 1;
        assert!(work_done(&v).starts_with("1 critical section done by "));
    }
}
