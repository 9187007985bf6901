//! The headless command line: `run`, `verify`, `check`, `search`, `prove`, `render`, the
//! course's text (`course`, `glossary`) and a teacher's assignments (`assignment seal`, `grade`).
//!
//! Each command writes its report to stdout and returns a [`Status`]; input errors go to
//! stderr as `FILE:LINE:COL: message`. Nothing here panics on bad input: a student's typo
//! gets a position and a sentence, never a backtrace.

mod args;
mod assignment;
mod check;
mod course;
mod glossary;
mod grade;
mod input;

pub use input::InputError;
mod output;
mod prove;
mod render;
mod run;
mod search;
mod verify;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use args::Cli;
pub use args::Command;

/// How a command ended. Ordered by severity, so several results combine with `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    /// Safe and live (verify: every expectation met): exit 0.
    Pass,
    /// Unsafe, not live, or an expectation not met: exit 1.
    Fail,
    /// A file could not be read or is not a valid scenario: exit 2.
    Invalid,
    /// `check`, `search`, `prove` or `render` was stopped by Ctrl-C and said what it had done: exit 130, as a shell
    /// reports a command ended by SIGINT (128 + 2).
    Interrupted,
}

impl Status {
    fn of(passed: bool) -> Self {
        if passed { Status::Pass } else { Status::Fail }
    }

    /// The process's exit code for it.
    fn code(self) -> u8 {
        match self {
            Status::Pass => 0,
            Status::Fail => 1,
            Status::Invalid => 2,
            Status::Interrupted => 130,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> Self {
        ExitCode::from(status.code())
    }
}

/// Reads the command line. `Ok(Some(command))`: a command to [`execute`]; `Ok(None)`: no
/// command was given (the binary then opens the app, or says [`no_app`]); `Err(status)`: clap
/// already printed help, the version or a usage error, and the process should end with
/// `status` (0 for `--help` and `--version`, 2 for a usage error).
pub fn parse() -> Result<Option<Command>, ExitCode> {
    match Cli::try_parse() {
        Ok(cli) => Ok(cli.command),
        Err(e) => {
            let _ = e.print();
            Err(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)))
        }
    }
}

/// Runs one command, writing its report to stdout; the exit status says how it ended
/// (0 safe and live, 1 otherwise, 2 invalid input, 130 interrupted).
pub fn execute(command: &Command) -> ExitCode {
    // Buffered: stdout alone flushes at every line, a write call per line of a long timeline.
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = match command {
        Command::Run(args) => run::run(args, &mut out),
        Command::Verify(args) => verify::verify(args, &mut out),
        Command::Check(args) => check::check(args, &mut out),
        Command::Search(args) => search::search(args, &mut out),
        Command::Prove(args) => prove::prove(args, &mut out),
        Command::Render(args) => render::render(args),
        Command::Course(args) if args.json => course::course_json(&mut out),
        Command::Course(_) => course::course(&mut out),
        Command::Glossary => glossary::glossary(&mut out),
        Command::Assignment(args::AssignmentCommand::Seal { key }) => {
            assignment::seal(key, &mut out)
        }
        Command::Grade(args) => grade::grade(args, &mut out),
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

/// `locksim` alone in a build without the app: says which commands there are, exit 2.
pub fn no_app() -> ExitCode {
    without_app("This build has no desktop app (it was built without the `gui` feature)")
}

/// `locksim` alone where no window can open (an SSH session, a container: no `DISPLAY` or
/// `WAYLAND_DISPLAY`): the commands' help, and why the app did not open, on stderr; exit 2.
pub fn no_display() -> ExitCode {
    without_app("There is no display to open the app on")
}

/// The commands' help, then `why` the app cannot open and what to do instead.
fn without_app(why: &str) -> ExitCode {
    use clap::CommandFactory;
    let help = Cli::command().render_help();
    let _ = writeln!(
        io::stderr(),
        "{help}\n{why}: use one of the commands above, e.g. `locksim course` or \
         `locksim run assets/scenarios/step5-fencing-token.toml`."
    );
    Status::Invalid.into()
}

/// Prints an input error on stderr and gives the status it ends a command with.
fn invalid(error: &InputError) -> Status {
    let _ = writeln!(io::stderr(), "{error}");
    Status::Invalid
}
