//! `locksim render FILE [--svg OUT] [--png OUT] [--transcript OUT] [--deck OUT] [--width PX]
//! [--until MS] [--seed N]`: one run as pictures and text for slides and handouts ([`crate::render`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::args::RenderArgs;
use super::{Status, input, output};
use crate::render::{deck, png, svg, transcript};
use crate::text::{fmt_count, fmt_ms};
use crate::view::timeline::Lanes;

/// Runs one scenario and writes each file asked for; says on stdout what it wrote. With
/// `--until` the picture and the transcript both stop at that time. Exit 0 once every file is
/// written, whatever the verdict (the transcript and the picture say it); 2 if two outputs
/// name one file (before anything runs), the scenario is invalid, `--until` is past its
/// horizon or a file cannot be written, naming the flags.
pub fn render(args: &RenderArgs) -> io::Result<Status> {
    // A usage error: said before the scenario is read, so nothing runs for it.
    if let Some(shared) = shared_file(args) {
        let _ = writeln!(
            io::stderr(),
            "locksim render: {shared} are the same file: give each output its own"
        );
        return Ok(Status::Invalid);
    }
    let scenario = match input::load(&args.file) {
        Ok(s) => s,
        Err(e) => return Ok(super::invalid(&e)),
    };
    // Nothing happens at or after the horizon: a cut past it would claim to show time that
    // was never simulated.
    if let Some(until) = args.until.filter(|&ms| ms > scenario.until_ms) {
        let _ = writeln!(
            io::stderr(),
            "locksim render: --until {until}: past the end of the run, at until_ms = {} (the \
             scenario's horizon); give at most {}",
            fmt_ms(scenario.until_ms),
            scenario.until_ms
        );
        return Ok(Status::Invalid);
    }
    let written = stop_on_ctrl_c();
    let seed = args.seed.unwrap_or(scenario.seed);
    let run = crate::run(&scenario, seed);
    let mut stdout = io::stdout().lock();
    if let Some(path) = &args.deck {
        let html = deck::html(&scenario, &run, args.width);
        let slides = deck::slides(&scenario, &run).len();
        let said = format!("{} (deck, {} slides)", output::file_name(path), slides);
        if let Err(status) = save(&written, "--deck", path, html.as_bytes(), &said) {
            return Ok(status);
        }
        writeln!(stdout, "wrote {said}")?;
    }
    let crate::Run { trace, verdict, .. } = run;

    if args.svg.is_some() || args.png.is_some() {
        let lanes = Lanes::build(&trace, &verdict);
        let picture = svg::Picture {
            width: args.width,
            until_ms: args.until,
            verdict: true,
        };
        let svg = svg::draw(&trace, &verdict, &lanes, &picture);
        // The PNG is made before anything is written: one it must refuse leaves no file half
        // of what was asked for.
        let png = match &args.png {
            Some(path) => match png::rasterise(&svg, args.width) {
                Ok(bytes) => Some((path, bytes)),
                Err(e) => return Ok(refuse("--png", path, &e.to_string())),
            },
            None => None,
        };
        if let Some(path) = &args.svg {
            let said = format!(
                "{} (SVG, {} px wide)",
                output::file_name(path),
                fmt_count(u64::from(args.width))
            );
            if let Err(status) = save(&written, "--svg", path, svg.as_bytes(), &said) {
                return Ok(status);
            }
            writeln!(stdout, "wrote {said}")?;
        }
        if let Some((path, bytes)) = png {
            let said = format!(
                "{} (PNG, {} px wide)",
                output::file_name(path),
                fmt_count(u64::from(args.width))
            );
            if let Err(status) = save(&written, "--png", path, &bytes, &said) {
                return Ok(status);
            }
            writeln!(stdout, "wrote {said}")?;
        }
    }
    if let Some(path) = &args.transcript {
        let text = transcript::transcript(&trace, &verdict, args.until);
        let said = format!("{} (transcript)", output::file_name(path));
        if let Err(status) = save(&written, "--transcript", path, text.as_bytes(), &said) {
            return Ok(status);
        }
        writeln!(stdout, "wrote {said}")?;
    }
    Ok(Status::Pass)
}

/// The outputs asked for that name one file, as `--svg a.svg and --png ./a.svg`, if any do:
/// each would overwrite the one before.
fn shared_file(args: &RenderArgs) -> Option<String> {
    let named: Vec<(&str, &Path, PathBuf)> = [
        ("--svg", &args.svg),
        ("--png", &args.png),
        ("--transcript", &args.transcript),
        ("--deck", &args.deck),
    ]
    .into_iter()
    .filter_map(|(flag, path)| {
        let path = path.as_deref()?;
        Some((flag, path, resolved(path)))
    })
    .collect();
    let (_, _, first) = named
        .iter()
        .find(|(_, _, at)| named.iter().filter(|(_, _, other)| other == at).count() > 1)?;
    let shared: Vec<String> = named
        .iter()
        .filter(|(_, _, at)| at == first)
        .map(|(flag, path, _)| format!("{flag} {}", output::file_name(path)))
        .collect();
    let (last, rest) = shared.split_last()?;
    Some(format!("{} and {last}", rest.join(", ")))
}

/// Where a file written to `path` lands, so two spellings of it (`x`, `./x`, a folder's
/// symbolic link) compare equal: the file itself resolved if it exists, else its folder;
/// `path` as given if neither resolves (writing it then fails and says why).
fn resolved(path: &Path) -> PathBuf {
    if let Ok(file) = path.canonicalize() {
        return file;
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    match (folder.canonicalize(), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => path.to_path_buf(),
    }
}

/// The files written so far, as `wrote` lines say them.
type Written = Arc<Mutex<Vec<String>>>;

/// Makes Ctrl-C end `render` at once, whatever it is doing (running, drawing, rasterising),
/// with exit 130 and a line on stderr naming the files already written. A file being written
/// is finished first ([`save`] holds the list while it writes), so none is left half made.
fn stop_on_ctrl_c() -> Written {
    let written = Written::default();
    let seen = Arc::clone(&written);
    // Setting the handler fails only if one is set already.
    let _ = ctrlc::set_handler(move || {
        let done = seen.lock().unwrap_or_else(PoisonError::into_inner);
        let so_far = if done.is_empty() {
            "nothing written".to_string()
        } else {
            format!("wrote {}", done.join(", "))
        };
        let _ = writeln!(io::stderr(), "locksim render: stopped by Ctrl-C; {so_far}");
        std::process::exit(i32::from(Status::Interrupted.code()));
    });
    written
}

/// Writes `bytes` to `path`, the argument of `flag`, and adds `said` to `written`; on failure
/// says why on stderr.
fn save(
    written: &Written,
    flag: &str,
    path: &Path,
    bytes: &[u8],
    said: &str,
) -> Result<(), Status> {
    let mut written = written.lock().unwrap_or_else(PoisonError::into_inner);
    std::fs::write(path, bytes)
        .map_err(|e| refuse(flag, path, &format!("cannot write it: {e}")))?;
    written.push(said.to_string());
    Ok(())
}

/// Says on stderr that the file for `flag` was not made, and why; gives the status to end with.
fn refuse(flag: &str, path: &Path, why: &str) -> Status {
    let _ = writeln!(
        io::stderr(),
        "locksim render: {flag} {}: {why}",
        output::file_name(path)
    );
    Status::Invalid
}
