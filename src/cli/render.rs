//! `locksim render FILE [--svg OUT] [--png OUT] [--transcript OUT] [--width PX] [--until MS]
//! [--seed N]`: one run as pictures and text for slides and handouts ([`crate::render`]).

use std::io::{self, Write};
use std::path::Path;

use super::args::RenderArgs;
use super::{Status, input};
use crate::render::{png, svg, transcript};
use crate::view::timeline::Lanes;

/// Runs one scenario and writes each file asked for; says on stdout what it wrote. Exit 0
/// once every file is written, whatever the verdict (the transcript and the picture say it);
/// 2 if the scenario is invalid or a file cannot be written, naming the flag.
pub fn render(args: &RenderArgs) -> io::Result<Status> {
    let scenario = match input::load(&args.file) {
        Ok(s) => s,
        Err(e) => return Ok(super::invalid(&e)),
    };
    if let Some((flag, path)) = same_output(args) {
        return Ok(refuse(
            flag,
            path,
            "another of --svg, --png and --transcript writes to the same file",
        ));
    }
    let seed = args.seed.unwrap_or(scenario.seed);
    let crate::Run { trace, verdict, .. } = crate::run(&scenario, seed);
    let mut stdout = io::stdout().lock();

    if args.svg.is_some() || args.png.is_some() {
        let lanes = Lanes::build(&trace, &verdict);
        let picture = svg::Picture {
            width: args.width,
            until_ms: args.until,
        };
        let svg = svg::draw(&trace, &verdict, &lanes, &picture);
        if let Some(path) = &args.svg {
            if let Err(status) = save("--svg", path, svg.as_bytes()) {
                return Ok(status);
            }
            writeln!(
                stdout,
                "wrote {} (SVG, {} px wide)",
                path.display(),
                args.width
            )?;
        }
        if let Some(path) = &args.png {
            let bytes = match png::rasterise(&svg, args.width) {
                Ok(bytes) => bytes,
                Err(e) => return Ok(refuse("--png", path, &e.to_string())),
            };
            if let Err(status) = save("--png", path, &bytes) {
                return Ok(status);
            }
            writeln!(
                stdout,
                "wrote {} (PNG, {} px wide)",
                path.display(),
                args.width
            )?;
        }
    }
    if let Some(path) = &args.transcript {
        let text = transcript::transcript(&trace, &verdict);
        if let Err(status) = save("--transcript", path, text.as_bytes()) {
            return Ok(status);
        }
        writeln!(stdout, "wrote {} (transcript)", path.display())?;
    }
    Ok(Status::Pass)
}

/// The second of the outputs asked for that names a file another already names, if any: one
/// would overwrite the other.
fn same_output(args: &RenderArgs) -> Option<(&'static str, &Path)> {
    let outputs = [
        ("--svg", &args.svg),
        ("--png", &args.png),
        ("--transcript", &args.transcript),
    ];
    let named: Vec<(&'static str, &Path)> = outputs
        .iter()
        .filter_map(|(flag, path)| Some((*flag, path.as_deref()?)))
        .collect();
    named
        .iter()
        .enumerate()
        .find(|(i, (_, path))| named[..*i].iter().any(|(_, p)| p == path))
        .map(|(_, found)| *found)
}

/// Writes `bytes` to `path`, the argument of `flag`; on failure says why on stderr.
fn save(flag: &str, path: &Path, bytes: &[u8]) -> Result<(), Status> {
    std::fs::write(path, bytes).map_err(|e| refuse(flag, path, &format!("cannot write it: {e}")))
}

/// Says on stderr that the file for `flag` was not made, and why; gives the status to end with.
fn refuse(flag: &str, path: &Path, why: &str) -> Status {
    let _ = writeln!(
        io::stderr(),
        "locksim render: {flag} {}: {why}",
        path.display()
    );
    Status::Invalid
}
