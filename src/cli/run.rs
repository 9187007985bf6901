//! `locksim run FILE [--seed N] [--json [--trace]] [--all]`.

use std::io::{self, Write};
use std::path::Path;

use super::args::RunArgs;
use super::{Status, input, output};
use crate::render::report::{self, RunJson};
use crate::render::transcript;
use crate::scenario::Scenario;
use crate::text::{fmt_counted, fmt_ms, printable};

/// Runs one scenario and prints its timeline and verdict (or the JSON document).
pub fn run(args: &RunArgs, out: &mut impl Write) -> io::Result<Status> {
    let scenario = match input::load(&args.file) {
        Ok(s) => s,
        Err(e) => return Ok(super::invalid(&e)),
    };
    let seed = args.seed.unwrap_or(scenario.seed);
    let crate::Run { trace, verdict, .. } = crate::run(&scenario, seed);

    if args.json {
        let doc = if args.trace {
            RunJson::with_trace(&trace, &verdict)
        } else {
            RunJson::new(&trace, &verdict)
        };
        output::write_json(out, &doc)?;
    } else {
        write_header(out, &args.file, &scenario, seed)?;
        transcript::write_timeline(out, &trace, args.all)?;
        report::write_verdict(out, &trace, &verdict)?;
        writeln!(out, "reproduce: {}", output::reproduce(&args.file, seed))?;
    }
    Ok(Status::of(verdict.safe && verdict.live))
}

/// What is being run: the scenario, its seed and the design calls that matter most.
fn write_header(
    out: &mut impl Write,
    file: &Path,
    scenario: &Scenario,
    seed: u64,
) -> io::Result<()> {
    writeln!(out, "{}", printable(&scenario.name, false))?;
    if !scenario.description.is_empty() {
        writeln!(out, "{}", printable(&scenario.description, true))?;
    }
    writeln!(out)?;
    writeln!(out, "  file      {}", output::file_name(file))?;
    writeln!(out, "  seed      {seed}")?;
    let lock = &scenario.lock;
    if lock.design.has_lease() {
        writeln!(
            out,
            "  design    {}, lease {}",
            lock.design.as_str(),
            fmt_ms(lock.ttl_ms)
        )?;
    } else {
        writeln!(out, "  design    {}, no lease", lock.design.as_str())?;
    }
    writeln!(
        out,
        "  store     {}, {}",
        scenario.store.topology.as_str(),
        fmt_counted(u64::from(scenario.store.nodes), "node")
    )?;
    let fencing = crate::view::wording::resource_checks(&scenario.resource);
    writeln!(out, "  resource  {fencing}")?;
    writeln!(out, "  runs to   {}", fmt_ms(scenario.until_ms))?;
    writeln!(out)
}
