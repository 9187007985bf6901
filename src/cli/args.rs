//! The command line's shape, as clap reads it.

use std::num::IntErrorKind;
use std::ops::Range;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::prove::MenuKind;
use crate::render::svg;
use crate::text::fmt_count;

/// locksim: watch distributed locks fail, one seed at a time.
#[derive(Debug, Parser)]
#[command(
    name = "locksim",
    version,
    about = "A teaching simulator of distributed locks",
    long_about = "A teaching simulator of distributed locks.\n\n\
        Runs a scenario file (TOML), prints what happened in simulated time and names \
        every safety or liveness violation. With no command it opens the desktop app, in a \
        build that has it.\n\n\
        Exit status: 0 safe and live (verify: every expectation met; render: the files \
        written), 1 otherwise, 2 invalid input, 130 stopped by Ctrl-C."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The headless commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one scenario and print its timeline and verdict.
    Run(RunArgs),
    /// Run each scenario with its own seed and check its `[expect]` table.
    Verify(VerifyArgs),
    /// Run one scenario over many seeds and count how often each violation shows up.
    Check(CheckArgs),
    /// Find a fault schedule that makes the scenario unsafe (--live: not live), shrink it and
    /// tell it step by step.
    ///
    /// Adds random fault schedules to the file's own faults and stops at the first failing
    /// run. Shrinks it until removing any one fault makes the run pass, tells it as numbered
    /// steps and prints it as a scenario file whose `[expect]` is that run's verdict, so
    /// `locksim verify` keeps it. Exit 1 when it found one, 0 when none, 130 when stopped by
    /// Ctrl-C.
    Search(SearchArgs),
    /// Run every fault schedule within bounds and say whether the scenario holds in all of
    /// them: a certificate of what was explored, or the first unsafe schedule.
    ///
    /// Adds every schedule of at most --faults faults from a finite menu (the --kinds, aimed
    /// at every worker and store node, with durations scaled from the lease, starting just
    /// after each event of the run they land in) to the file's own faults, on every seed of
    /// --seeds. Exit 1 with the first unsafe one, shrunk and printed as a scenario file; exit
    /// 0 with the certificate (or, when --budget ran out first, a partial claim saying how
    /// far it got); 130 when stopped by Ctrl-C.
    Prove(ProveArgs),
    /// Draw one run's timeline as a picture (SVG, PNG) or write its transcript, for slides
    /// and handouts.
    ///
    /// Each output needs a file of its own. Exit 0 once the files are written, whatever the
    /// verdict.
    Render(RenderArgs),
    /// Print the course: each step, its options and how each option's demonstration comes
    /// out.
    ///
    /// Exit 1 if one teaches the wrong lesson: the right call not safe and live, or a wrong
    /// call that neither fails nor costs what its step says (less throughput, lost work, a
    /// longer wait).
    Course(CourseArgs),
    /// Print every term the course uses, alphabetically, with its definition.
    Glossary,
    /// Work with an assignment file: `seal` turns a teacher's answer key into the file handed
    /// out, its answers hashed and its hints encoded.
    #[command(subcommand)]
    Assignment(AssignmentCommand),
    /// Grade students' hand-ins against a sealed assignment, re-running every attempt on its
    /// fixed seed; write a CSV grade sheet and Gradescope `results.json` files.
    ///
    /// Writes OUT/grades.csv (one row per hand-in, one column per task), and OUT/results.json
    /// for one hand-in or OUT/results/NAME.json for each of several (NAME: the hand-in's file
    /// name without `.toml`), then prints a summary line. Exit 0 once every hand-in is graded,
    /// 2 if the assignment or any hand-in is invalid (each named with its position; the valid
    /// ones are still graded) or a file cannot be written.
    Grade(GradeArgs),
}

/// `locksim assignment …`.
#[derive(Debug, Subcommand)]
pub enum AssignmentCommand {
    /// Print the sealed form of a teacher's answer key (`locksim assignment seal KEY.toml >
    /// A.toml`): each answer a salted hash, each hint and feedback encoded, each solution
    /// checked to win and left out. Exit 2 if the key is invalid or a solution does not win.
    Seal {
        /// The answer key (TOML).
        key: PathBuf,
    },
}

/// `locksim grade`.
#[derive(Debug, clap::Args)]
pub struct GradeArgs {
    /// The sealed assignment the hand-ins answer.
    #[arg(long, value_name = "FILE")]
    pub assignment: PathBuf,
    /// The folder the grade sheet and results are written to (made if missing).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
    /// The hand-in files (TOML).
    #[arg(required = true, value_name = "HAND_INS")]
    pub hand_ins: Vec<PathBuf>,
}

/// `locksim course`.
#[derive(Debug, clap::Args)]
pub struct CourseArgs {
    /// Print the answer key as JSON: each decision's id, title, topic and question, and each
    /// option's label, whether it is the right call, its scenario (a path under `assets/`)
    /// and its run's verdict.
    #[arg(long)]
    pub json: bool,
}

/// `locksim run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The scenario file.
    pub file: PathBuf,
    /// Seed for every random choice (default: the file's `seed`).
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u64>(0, u64::MAX))]
    pub seed: Option<u64>,
    /// Print the verdict and statistics as JSON instead of the timeline.
    #[arg(long)]
    pub json: bool,
    /// With --json: include every event of the run (the trace) in the document, under
    /// "trace".
    #[arg(long, requires = "json")]
    pub trace: bool,
    /// Show network sends, deliveries and losses in the timeline too.
    #[arg(long)]
    pub all: bool,
}

/// `locksim render`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("output").required(true).multiple(true))]
pub struct RenderArgs {
    /// The scenario file.
    pub file: PathBuf,
    /// Write the timeline as SVG to this file.
    #[arg(long, value_name = "OUT", group = "output")]
    pub svg: Option<PathBuf>,
    /// Write the timeline as PNG to this file.
    #[arg(long, value_name = "OUT", group = "output")]
    pub png: Option<PathBuf>,
    /// Write the run's transcript (each event, then the verdict) as text to this file.
    #[arg(long, value_name = "OUT", group = "output")]
    pub transcript: Option<PathBuf>,
    /// Write the run as a slide deck to this file: one self-contained HTML page, a slide per
    /// step of the run's story, each the timeline cut at that step with its sentence as the
    /// caption (keys: arrows or PageUp/PageDown to move, N for speaker notes). `--until` does
    /// not apply to it.
    #[arg(long, value_name = "OUT", group = "output")]
    pub deck: Option<PathBuf>,
    /// The picture's width in pixels (276 to 20 000).
    #[arg(long, value_name = "PX", default_value_t = svg::DEFAULT_WIDTH,
          allow_negative_numbers = true, value_parser = picture_width)]
    pub width: u32,
    /// Show the run only up to this simulated time, ms, in the picture and the transcript, as
    /// the app shows it with its playhead there (default: the whole run). At most the
    /// scenario's until_ms.
    #[arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = positive_ms)]
    pub until: Option<u64>,
    /// Seed for every random choice (default: the file's `seed`).
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u64>(0, u64::MAX))]
    pub seed: Option<u64>,
}

/// `locksim verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Scenario files, each with an `[expect]` table.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// `locksim check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The scenario file.
    pub file: PathBuf,
    /// How many seeds to run, counting up from the first.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u64>(1, u64::MAX))]
    pub seeds: u64,
    /// First seed (default: the file's `seed`).
    #[arg(long, value_name = "S", allow_negative_numbers = true,
          value_parser = whole::<u64>(0, u64::MAX))]
    pub from: Option<u64>,
    /// Print the counts as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// How many threads run seeds at once (default: one per core). The counts are the same
    /// whatever the number.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u16>(1, u64::from(u16::MAX)))]
    pub threads: Option<u16>,
}

/// `locksim search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// The scenario file; its own faults stay, the search adds more.
    pub file: PathBuf,
    /// At most this many added faults per schedule (1 to 20).
    #[arg(long, value_name = "N", default_value_t = 3, allow_negative_numbers = true,
          value_parser = whole::<u8>(1, 20))]
    pub faults: u8,
    /// At most this many schedules to try (at least 1).
    #[arg(long, value_name = "N", default_value_t = 10_000, allow_negative_numbers = true,
          value_parser = whole::<u64>(1, u64::MAX))]
    pub tries: u64,
    /// Seed of the search's own random choices (every run uses the file's seed).
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true,
          value_parser = whole::<u64>(0, u64::MAX))]
    pub seed: u64,
    /// Look for a run that is not live (stuck, starved) instead of an unsafe one.
    #[arg(long)]
    pub live: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `locksim prove`.
#[derive(Debug, clap::Args)]
pub struct ProveArgs {
    /// The scenario file; its own faults stay, every schedule adds more.
    pub file: PathBuf,
    /// At most this many added faults per schedule (0 to 3).
    #[arg(long, value_name = "K", default_value_t = 2, allow_negative_numbers = true,
          value_parser = whole::<u8>(0, 3))]
    pub faults: u8,
    /// The kinds of fault on the menu, comma-separated (default: pause, crash, kill_store,
    /// partition, clock_jump).
    #[arg(long, value_name = "KIND,…", value_delimiter = ',', value_enum)]
    pub kinds: Vec<MenuKind>,
    /// The seeds, as A..B: from A up to but not including B (default: the file's seed alone).
    #[arg(long, value_name = "A..B", value_parser = seed_range)]
    pub seeds: Option<Range<u64>>,
    /// At most this many schedules run; beyond it the claim says how far it got.
    #[arg(long, value_name = "N", default_value_t = 1_000_000, allow_negative_numbers = true,
          value_parser = whole::<u64>(1, u64::MAX))]
    pub budget: u64,
    /// How many threads run schedules at once (default: one per core). The output is the
    /// same whatever the number.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u16>(1, u64::from(u16::MAX)))]
    pub threads: Option<u16>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `A..B`: the seeds from A up to but not including B, at least one.
fn seed_range(s: &str) -> Result<Range<u64>, String> {
    let (from, to) = s
        .split_once("..")
        .ok_or_else(|| "must be a range of seeds, A..B (e.g. 0..16)".to_string())?;
    let from = whole::<u64>(0, u64::MAX)(from.trim()).map_err(|e| format!("its start {e}"))?;
    let to = whole::<u64>(0, u64::MAX)(to.trim()).map_err(|e| format!("its end {e}"))?;
    if to <= from {
        return Err(format!(
            "{from}..{to} holds no seed: the end is left out, so it must be larger than the start"
        ));
    }
    Ok(from..to)
}

/// A parser of whole numbers from `least` to `most` that says in words which bound a value
/// crossed (`must be at most 20`): clap's own range check says `0 is not in 1..=65535`, giving
/// a type's largest value as if it were a limit, and Rust's parse errors speak of strings.
/// Its options take negative numbers as values (`allow_negative_numbers`), so `--seeds -1`
/// reaches it and is told the bound, not clap's advice to write `-- -1`.
fn whole<T>(least: u64, most: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: TryFrom<u64>,
{
    move |s: &str| {
        let too_large = || {
            if most == u64::MAX {
                "too large".to_string()
            } else {
                format!("must be at most {}", fmt_count(most))
            }
        };
        let negative = || match least {
            0 => "must be a whole number, 0 or more".to_string(),
            _ => format!("must be a whole number, at least {}", fmt_count(least)),
        };
        let n = s.parse::<u64>().or_else(|e| match s.parse::<i128>() {
            Ok(0) => Ok(0),
            Ok(n) if n < 0 => Err(negative()),
            Err(e) if *e.kind() == IntErrorKind::NegOverflow => Err(negative()),
            _ => Err(match e.kind() {
                IntErrorKind::PosOverflow => too_large(),
                _ => "not a whole number".to_string(),
            }),
        })?;
        if n < least {
            return Err(format!("must be at least {}", fmt_count(least)));
        }
        if n > most {
            return Err(too_large());
        }
        T::try_from(n).map_err(|_| too_large())
    }
}

/// A time of at least 1 ms: a picture cut at 0 would show nothing.
fn positive_ms(s: &str) -> Result<u64, String> {
    match whole::<u64>(1, u64::MAX)(s) {
        Err(_) if s.parse::<u64>() == Ok(0) => {
            Err("the picture must show at least 1 ms".to_string())
        }
        ms => ms,
    }
}

/// A picture's width, [`svg::MIN_WIDTH`] to [`svg::MAX_WIDTH`] px: narrower, the picture is
/// scaled down until its text is too small to read.
fn picture_width(s: &str) -> Result<u32, String> {
    let least = svg::MIN_WIDTH;
    whole::<u32>(u64::from(least), u64::from(svg::MAX_WIDTH))(s).map_err(|e| {
        if s.parse::<i128>().is_ok_and(|px| px < i128::from(least)) {
            format!("{e}: a narrower picture has no room for the lane names and a plot to read")
        } else {
            e
        }
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// The help states the width's bounds in words; they must be the picture's own.
    #[test]
    fn the_width_help_names_the_pictures_bounds() {
        let cli = Cli::command();
        let render = cli.find_subcommand("render").expect("render");
        let width = render
            .get_arguments()
            .find(|a| a.get_id() == "width")
            .expect("--width");
        let help = width.get_help().expect("a help line").to_string();
        let bounds = format!(
            "({} to {})",
            fmt_count(u64::from(svg::MIN_WIDTH)),
            fmt_count(u64::from(svg::MAX_WIDTH))
        );
        assert!(help.contains(&bounds), "{help}");
    }

    #[test]
    fn a_negative_number_is_told_the_bound() {
        assert_eq!(
            whole::<u64>(1, 9)("-1"),
            Err("must be a whole number, at least 1".to_string())
        );
        assert_eq!(
            whole::<u64>(0, 9)("-3"),
            Err("must be a whole number, 0 or more".to_string())
        );
        assert_eq!(whole::<u64>(0, 9)("-0"), Ok(0));
        assert_eq!(seed_range("0..16"), Ok(0..16));
        assert!(seed_range("16..16").unwrap_err().contains("holds no seed"));
        assert!(seed_range("3").unwrap_err().contains("A..B"));
        assert!(
            seed_range("-1..4")
                .unwrap_err()
                .starts_with("its start must be")
        );
        assert_eq!(
            whole::<u64>(0, 9)("x"),
            Err("not a whole number".to_string())
        );
    }
}
