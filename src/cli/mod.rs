//! The headless command line (DESIGN §4): `run`, `verify`, `check`, and the course's text:
//! `course`, `glossary`.
//!
//! Each command writes its report to stdout and returns a [`Status`]; input errors go to
//! stderr as `FILE:LINE:COL: message`. Nothing here panics on bad input: a student's typo
//! gets a position and a sentence, never a backtrace.

mod args;
mod check;

pub use check::{Tally, sweep};
mod course;
mod glossary;
mod input;

pub use input::{InputError, read as read_scenario_file};
mod output;
mod report;
mod run;
#[cfg(test)]
pub(crate) mod testing;
mod timeline;
mod verify;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};

/// How a command ended. Ordered by severity, so several results combine with `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    /// Safe and live (verify: every expectation met): exit 0.
    Pass,
    /// Unsafe, not live, or an expectation not met: exit 1.
    Fail,
    /// A file could not be read or is not a valid scenario: exit 2.
    Invalid,
    /// `check` was stopped by Ctrl-C and printed the tally so far: exit 130, as a shell
    /// reports a command ended by SIGINT (128 + 2).
    Interrupted,
}

impl Status {
    fn of(passed: bool) -> Self {
        if passed { Status::Pass } else { Status::Fail }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> Self {
        ExitCode::from(match status {
            Status::Pass => 0,
            Status::Fail => 1,
            Status::Invalid => 2,
            Status::Interrupted => 130,
        })
    }
}

/// Entry point of the `locksim` binary. With no arguments it opens the desktop app.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap's own statuses: 0 for --help and --version, 2 for a usage error.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let Some(command) = cli.command else {
        return open_app().into();
    };
    // Buffered: stdout alone flushes at every line, a write call per line of a long timeline.
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = match &command {
        Command::Run(args) => run::run(args, &mut out),
        Command::Verify(args) => verify::verify(args, &mut out),
        Command::Check(args) => check::check(args, &mut out),
        Command::Course => course::course(&mut out),
        Command::Glossary => glossary::glossary(&mut out),
    }
    .and_then(|status| out.flush().map(|()| status));
    match result {
        Ok(status) => status.into(),
        // The reader went away (`locksim run f.toml | head`): nobody is left to tell.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Status::Fail.into(),
        Err(e) => {
            let _ = writeln!(io::stderr(), "locksim: cannot write the output: {e}");
            Status::Fail.into()
        }
    }
}

/// Prints an input error on stderr and gives the status it ends a command with.
fn invalid(error: &InputError) -> Status {
    let _ = writeln!(io::stderr(), "{error}");
    Status::Invalid
}

/// `locksim` alone: the desktop app, at step 1.
#[cfg(feature = "gui")]
fn open_app() -> Status {
    match crate::app::run_native() {
        Ok(()) => Status::Pass,
        Err(e) => {
            let _ = writeln!(io::stderr(), "locksim: cannot open the app: {e}");
            Status::Fail
        }
    }
}

/// `locksim` alone in a build without the app: say which commands there are.
#[cfg(not(feature = "gui"))]
fn open_app() -> Status {
    use clap::CommandFactory;
    let help = Cli::command().render_help();
    let _ = writeln!(
        io::stderr(),
        "{help}\nThis build has no desktop app (it was built without the `gui` feature): \
         use one of the commands above."
    );
    Status::Invalid
}
