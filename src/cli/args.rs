//! The command line's shape, as clap reads it.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// locksim: watch distributed locks fail, one seed at a time.
#[derive(Debug, Parser)]
#[command(
    name = "locksim",
    version,
    about = "A teaching simulator of distributed locks",
    long_about = "A teaching simulator of distributed locks.\n\n\
        Runs a scenario file (TOML), prints what happened in simulated time and names \
        every safety or liveness violation. With no command it opens the desktop app.\n\n\
        Exit status: 0 safe and live (verify: every expectation met), 1 otherwise, \
        2 invalid input."
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
    /// Search for fault schedules that make the scenario unsafe (or, with --live, not live),
    /// shrink the first one found and tell it step by step.
    Search(SearchArgs),
    /// Draw one run's timeline as a picture (SVG, PNG) or write its transcript, for slides
    /// and handouts.
    Render(RenderArgs),
    /// Print the course: each step, its options and the verdict of each option's
    /// demonstration. Fails if a wrong option comes out safe or the right call does not.
    Course,
    /// Print every term the course uses, alphabetically, with its definition.
    Glossary,
}

/// `locksim run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The scenario file.
    pub file: PathBuf,
    /// Seed for every random choice (default: the file's `seed`).
    #[arg(long, value_name = "N")]
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
    /// The picture's width in pixels (1 to 20 000).
    #[arg(long, value_name = "PX", default_value_t = crate::render::svg::DEFAULT_WIDTH,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::render::svg::MAX_WIDTH)))]
    pub width: u32,
    /// Cut the picture at this simulated time, ms: it shows the run up to there, as the app
    /// does with its playhead there (default: the whole run).
    #[arg(long, value_name = "MS", value_parser = positive_ms)]
    pub until: Option<u64>,
    /// Seed for every random choice (default: the file's `seed`).
    #[arg(long, value_name = "N")]
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
    /// How many seeds to run.
    #[arg(long, value_name = "N", value_parser = at_least_one)]
    pub seeds: u64,
    /// First seed (default: the file's `seed`).
    #[arg(long, value_name = "S")]
    pub from: Option<u64>,
    /// Print the counts as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// How many threads run seeds at once (default: one per core). The counts are the same
    /// whatever the number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

/// `locksim search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// The scenario file; its own faults stay, the search adds more.
    pub file: PathBuf,
    /// At most this many added faults per schedule (1 to 20).
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u8).range(1..=20))]
    pub faults: u8,
    /// At most this many schedules to try (at least 1).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = at_least_one)]
    pub tries: u64,
    /// Seed of the search's own random choices (every run uses the file's seed).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Look for a run that is not live (stuck, starved) instead of an unsafe one.
    #[arg(long)]
    pub live: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// A count of at least 1 (clap's own range check would name the largest u64 as the bound).
fn at_least_one(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a whole number: {e}")),
    }
}

/// A time of at least 1 ms: a picture cut at 0 would show nothing.
fn positive_ms(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("the picture must show at least 1 ms".to_string()),
        Ok(ms) => Ok(ms),
        Err(e) => Err(format!("not a whole number of ms: {e}")),
    }
}
