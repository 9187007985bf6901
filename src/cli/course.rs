//! `locksim course`: the eight steps, each option played out, in text.

use std::io::{self, Write};

use super::Status;
use crate::course::{self, STEPS};

/// Prints every step with its options and each option's verdict. Passes when every right
/// call comes out safe and live and every wrong call shows a failure.
pub fn course(out: &mut impl Write) -> io::Result<Status> {
    let mut status = Status::Pass;
    for (i, step) in STEPS.iter().enumerate() {
        writeln!(out, "Step {} · {} — {}", i + 1, step.title, step.topic)?;
        writeln!(out, "  {}", step.question)?;
        for (n, choice) in step.options.iter().enumerate() {
            let mark = if choice.right { "right" } else { "wrong" };
            let verdict = match course::demonstrate(choice) {
                Ok(demo) => {
                    let ok = course::teaches(choice, &demo);
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
                    format!(
                        "{}, {}{}{}",
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
