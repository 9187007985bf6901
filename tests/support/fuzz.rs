//! The fuzz campaign, shared by `tests/fuzz.rs` (a few thousand cases in `cargo test`) and
//! `benches/fuzz.rs` (100 000 or more, with the counts printed).
//!
//! Each case is either a valid scenario from the generator (`generate.rs`, cycling through its
//! profiles) or the TOML of one, mutated byte by byte: bits flipped, bytes inserted and
//! deleted, lines repeated, the file cut short, hostile fragments spliced in (bytes that are not
//! UTF-8, terminal escapes, huge numbers, deep brackets, more workers and faults, names that
//! pass for others), blocks pasted hundreds of times (faults at one instant, slowed or cut
//! links, a worker whose writes queue on a cut TCP link) and words tens of thousands of
//! letters long. Every case goes through the whole pipeline with the budgets on: parse → engine
//! → checker. Checked:
//! - nothing panics, the transcript `locksim run` prints included;
//! - every run stays within the engine's event budget, and the verdict within its per-kind cap;
//! - the same scenario and seed give the same trace and verdict twice;
//! - a refused input says why, at a line that exists;
//! - every `exit_every`-th case also goes through the `locksim` binary, whose exit status must
//!   match the verdict (0 safe and live, 1 otherwise, 2 refused);
//! - soundness: fencing checked at a `single` or `consensus` store that keeps its state never
//!   lets a `stale_write` through; with owner tokens, every `foreign_release` is an operator's
//!   `force_release` or a waiters' health check's delete.
#![allow(
    clippy::disallowed_methods,
    reason = "the harness times its slowest case; the engine and checker it runs read no clock"
)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use locksim::checker::{MAX_KEPT_PER_KIND, Verdict, ViolationKind};
use locksim::engine;
use locksim::render::transcript;
use locksim::scenario::{self, Design, FaultKind, Scenario, Topology};
use locksim::trace::{EventKind, Trace};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngSeed, TestRunner};

use super::generate::{Profile, health_check_deletes, repro, scenario};

/// What the campaign saw. Every field after `failures_shown` must end at 0.
#[derive(Debug, Default)]
pub struct Counts {
    pub cases: u64,
    /// Valid scenarios straight from the generator.
    pub generated: u64,
    /// Mutated files, and how many of them still parsed (the rest were refused).
    pub mutated: u64,
    pub mutated_valid: u64,
    pub refused: u64,
    /// Engine runs (each valid case runs twice).
    pub runs: u64,
    pub cut_short: u64,
    /// Cases where fencing must stop every stale write, and where owner tokens must stop every
    /// foreign release but an operator's.
    pub fenced: u64,
    pub owner_token: u64,
    /// Cases also run through the binary.
    pub exit_checked: u64,
    /// The slowest case, parse to verdict twice.
    pub slowest: Duration,
    /// The most events one run recorded: what bounds a run's memory and output.
    pub largest: u64,
    pub panics: u64,
    pub over_budget: u64,
    pub nondeterministic: u64,
    pub unsound: u64,
    pub wrong_exit: u64,
    pub bad_errors: u64,
    /// The first few failures, each with what reproduces it.
    pub failures: Vec<String>,
}

impl Counts {
    pub fn failed(&self) -> u64 {
        self.panics
            + self.over_budget
            + self.nondeterministic
            + self.unsound
            + self.wrong_exit
            + self.bad_errors
    }

    fn fail(&mut self, what: String) {
        if self.failures.len() < 5 {
            self.failures.push(what);
        }
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} cases: {} generated, {} mutated ({} still valid, {} refused)",
            self.cases, self.generated, self.mutated, self.mutated_valid, self.refused
        )?;
        writeln!(
            f,
            "{} engine runs ({} cut short by the event budget); {} fenced and {} owner-token \
             cases checked for soundness; {} exit statuses checked through the binary; slowest \
             case {} ms; largest run {} events",
            self.runs,
            self.cut_short,
            self.fenced,
            self.owner_token,
            self.exit_checked,
            self.slowest.as_millis(),
            self.largest
        )?;
        writeln!(
            f,
            "{} panics, {} budget overruns, {} non-deterministic, {} soundness failures, {} \
             wrong exit statuses, {} unplaced errors",
            self.panics,
            self.over_budget,
            self.nondeterministic,
            self.unsound,
            self.wrong_exit,
            self.bad_errors
        )?;
        for failure in &self.failures {
            writeln!(f, "---\n{failure}")?;
        }
        Ok(())
    }
}

/// One byte-level change to a file.
#[derive(Clone, Debug)]
enum Mutation {
    Flip {
        at: Index,
        bit: u8,
    },
    Insert {
        at: Index,
        bytes: Vec<u8>,
    },
    Delete {
        at: Index,
        len: u8,
    },
    Splice {
        at: Index,
        fragment: Index,
    },
    RepeatLine {
        at: Index,
        times: u8,
    },
    Truncate {
        at: Index,
    },
    /// The `at`-th number in the file becomes one of [`NUMBERS`].
    Number {
        at: Index,
        number: Index,
    },
    /// One of [`BLOCKS`] pasted `times` times at the end: many faults at one instant, many
    /// workers behind a cut link.
    RepeatBlock {
        block: Index,
        times: u16,
    },
    /// `len` copies of a letter inside the `at`-th quoted string: a huge name, key or title.
    LongWord {
        at: Index,
        len: u32,
    },
}

/// Blocks a generator of hostile files pastes many times over: they found runs whose cost
/// grew below the step budget (held messages, a cut TCP link's backlog, events per step).
const BLOCKS: &[&[u8]] = &[
    b"\n[[fault]]\nat_ms = 0\nkind = \"delay\"\nfrom = \"A\"\nto = \"store1\"\n\
      extra_ms = 10000000\nfor_ms = 10000000\n",
    b"\n[[fault]]\nat_ms = 0\nkind = \"pause\"\nnode = \"A\"\nfor_ms = 3\n",
    b"\n[[fault]]\nat_ms = 0\nkind = \"partition\"\ngroups = [[\"A\"], [\"resource\"]]\n",
    b"\n[[worker]]\nname = \"W\"\nrepeat = 0\nwork_ms = 1000\nwrites = 200\n\
      write_timeout_ms = 1\n[[fault]]\nat_ms = 0\nkind = \"partition\"\n\
      groups = [[\"W\"], [\"resource\"]]\n",
];

/// Numbers at the edges: zero, one, the bounds the validator sets, the edges of the integer
/// types. Swapped in for a number of the file, they keep it TOML and often valid.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "64",
    "65",
    "100",
    "1000",
    "60000",
    "1000000",
    "9999999",
    "10000000",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "-1",
    "0.5",
];

/// Fragments a hostile or careless teacher might paste.
const FRAGMENTS: &[&[u8]] = &[
    b"\xff",
    b"\xc3",
    b"\x1b[2J\x1b]0;x\x07",
    b"\x00",
    b"\r",
    b"\\u001b",
    b"18446744073709551616",
    b"-9223372036854775809",
    b"1e400",
    b"nan",
    b"inf",
    b"-1",
    b"0",
    b"\"A\"",
    b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    b"{ a = { b = { c = 1 } } }",
    b"= = =",
    b"'''",
    b"\"\"\"",
    b"\n[[worker]]\nname = \"Z\"\nrepeat = 0\nwork_ms = 1\n",
    b"\n[[fault]]\nat_ms = 1\nkind = \"pause\"\nnode = \"A\"\nfor_ms = 9999999\n",
    b"\n[[fault]]\nat_ms = 5\nkind = 7\n",
    b"\n[[fault]]\nat_ms = 5\nkind = \"heal\"\nnode = \"A\"\n",
    b"\nuntil_ms = 10000000\n",
    b"\nrepeat = 0\n",
    b"\nwork_ms = 1\n",
    b"\nnodes = 9\n",
    b"\ndesign = 5\n",
    b"\nkey = \"a\\nb\"\n",
    b"\n[store]\ntopology = \"consensus\"\nnodes = 3\n",
    b"\n[lock]\ndesign = \"flag\"\n",
    // Names that pass for others: invisible characters, mixed scripts, look-alike digits.
    "\n[[worker]]\nname = \"\u{455}tore1\"\n".as_bytes(),
    "\n[[worker]]\nname = \"store\u{ff11}\"\n".as_bytes(),
    "\n[[worker]]\nname = \"\u{3164}\"\n".as_bytes(),
    "\nkey = \"lock\u{200b}\"\n".as_bytes(),
    "\nkey = \"\u{feff}lock\"\n".as_bytes(),
    b"\n[network]\ntransport = \"datagram\"\nloss = 1.0\n",
    b"\n[store]\ntopology = \"redlock\"\nnodes = 9\n",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => (any::<Index>(), 0u8..8).prop_map(|(at, bit)| Mutation::Flip { at, bit }),
        1 => (any::<Index>(), proptest::collection::vec(any::<u8>(), 1..6))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        1 => (any::<Index>(), 1u8..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        2 => (any::<Index>(), any::<Index>())
            .prop_map(|(at, fragment)| Mutation::Splice { at, fragment }),
        2 => (any::<Index>(), 1u8..70).prop_map(|(at, times)| Mutation::RepeatLine { at, times }),
        1 => any::<Index>().prop_map(|at| Mutation::Truncate { at }),
        4 => (any::<Index>(), any::<Index>())
            .prop_map(|(at, number)| Mutation::Number { at, number }),
        // Once or twice (a block that names a worker is valid only once), or hundreds of times.
        1 => (any::<Index>(), prop_oneof![1u16..3, 1u16..700])
            .prop_map(|(block, times)| Mutation::RepeatBlock { block, times }),
        1 => (any::<Index>(), 1u32..70_000).prop_map(|(at, len)| Mutation::LongWord { at, len }),
    ]
}

fn mutate(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len();
    let pos = |at: &Index| if len == 0 { 0 } else { at.index(len + 1) };
    match m {
        Mutation::Flip { at, bit } if len > 0 => bytes[at.index(len)] ^= 1 << bit,
        Mutation::Flip { .. } => {}
        Mutation::Insert { at, bytes: new } => {
            let p = pos(at);
            bytes.splice(p..p, new.iter().copied());
        }
        Mutation::Delete { at, len: n } => {
            let p = pos(at).min(len);
            let end = (p + usize::from(*n)).min(len);
            bytes.drain(p..end);
        }
        Mutation::Splice { at, fragment } => {
            // At the start of a line, where a pasted block would go.
            let p = pos(at).min(len);
            let p = bytes[..p]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let fragment = FRAGMENTS[fragment.index(FRAGMENTS.len())];
            bytes.splice(p..p, fragment.iter().copied());
        }
        Mutation::RepeatLine { at, times } => {
            let p = pos(at).min(len);
            let start = bytes[..p]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let end = bytes[p..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(len, |i| p + i + 1);
            let line = bytes[start..end].to_vec();
            for _ in 0..*times {
                bytes.splice(end..end, line.iter().copied());
            }
        }
        Mutation::Truncate { at } => bytes.truncate(pos(at)),
        Mutation::RepeatBlock { block, times } => {
            let block = BLOCKS[block.index(BLOCKS.len())];
            for _ in 0..*times {
                bytes.extend_from_slice(block);
            }
        }
        Mutation::LongWord { at, len: n } => {
            let quotes: Vec<usize> = (0..len).filter(|&i| bytes[i] == b'"').collect();
            if !quotes.is_empty() {
                let p = quotes[at.index(quotes.len())] + 1;
                bytes.splice(p..p, std::iter::repeat_n(b'W', *n as usize));
            }
        }
        Mutation::Number { at, number } => {
            let mut runs = Vec::new();
            let mut i = 0;
            while i < len {
                if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
                    let end = bytes[i..]
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .map_or(len, |n| i + n);
                    runs.push(i..end);
                    i = end;
                } else {
                    i += 1;
                }
            }
            if !runs.is_empty() {
                let run = runs[at.index(runs.len())].clone();
                let new = NUMBERS[number.index(NUMBERS.len())].bytes();
                bytes.splice(run, new);
            }
        }
    }
}

/// The campaign's profiles in turn: everything the validator allows, then the parts where a
/// soundness property must hold.
const PROFILES: [Profile; 5] = [
    Profile::Any,
    Profile::Fenced,
    Profile::OwnerToken,
    Profile::Authority,
    Profile::NoLease,
];

/// Runs `cases` cases drawn from generator seed `seed`; one in two is mutated. Every
/// `exit_every`-th case (0: none) also goes through the binary at `binary`.
pub fn campaign(cases: u64, seed: u64, exit_every: u64, binary: Option<&str>) -> Counts {
    let mut runner = TestRunner::new(Config {
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    });
    let mutations = proptest::collection::vec(mutation(), 1..4);
    let mut counts = Counts::default();
    let scratch = std::env::temp_dir().join(format!("locksim-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch folder");
    for i in 0..cases {
        let profile = PROFILES[(i / 2) as usize % PROFILES.len()];
        let sc = scenario(profile)
            .new_tree(&mut runner)
            .expect("the generator draws")
            .current();
        counts.cases += 1;
        let exit_check = binary.filter(|_| exit_every > 0 && i % exit_every == 0);
        let started = Instant::now();
        if i % 2 == 0 {
            counts.generated += 1;
            let bytes = scenario::to_toml(&sc).into_bytes();
            one(&bytes, exit_check, &scratch, &mut counts);
        } else {
            counts.mutated += 1;
            let mut bytes = scenario::to_toml(&sc).into_bytes();
            let plan = mutations
                .new_tree(&mut runner)
                .expect("mutations draw")
                .current();
            for m in &plan {
                mutate(&mut bytes, m);
            }
            if one(&bytes, exit_check, &scratch, &mut counts) {
                counts.mutated_valid += 1;
            }
        }
        counts.slowest = counts.slowest.max(started.elapsed());
    }
    let _ = std::fs::remove_dir_all(&scratch);
    counts
}

/// One case; whether the bytes were a valid scenario.
fn one(bytes: &[u8], binary: Option<&str>, scratch: &std::path::Path, counts: &mut Counts) -> bool {
    let parsed = catch_unwind(|| scenario::parse_bytes(bytes));
    let shown = || String::from_utf8_lossy(bytes).into_owned();
    let sc = match parsed {
        Err(_) => {
            counts.panics += 1;
            counts.fail(format!("parsing panicked on:\n{}", shown()));
            return false;
        }
        Ok(Err(e)) => {
            counts.refused += 1;
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
            if e.message.trim().is_empty() || e.line.is_some_and(|l| l == 0 || l > lines) {
                counts.bad_errors += 1;
                counts.fail(format!("error {e:?} for:\n{}", shown()));
            }
            if let Some(binary) = binary {
                exit_status(binary, scratch, bytes, 2, counts);
            }
            return false;
        }
        Ok(Ok(sc)) => sc,
    };
    let runs = catch_unwind(AssertUnwindSafe(|| {
        let first = run(&sc);
        let second = run(&sc);
        // What `locksim run` prints of it: names and keys set its columns.
        let _ = transcript::transcript(&first.0, &first.1, None);
        (first, second)
    }));
    let Ok(((trace, verdict), (again, verdict_again))) = runs else {
        counts.panics += 1;
        counts.fail(format!("the engine or checker panicked\n{}", repro(&sc)));
        return true;
    };
    counts.runs += 2;
    if trace != again || verdict != verdict_again {
        counts.nondeterministic += 1;
        counts.fail(format!("two runs differ\n{}", repro(&sc)));
    }
    within_budget(&sc, &trace, &verdict, counts);
    sound(&sc, &trace, &verdict, counts);
    if let Some(binary) = binary {
        let expected = if verdict.safe && verdict.live { 0 } else { 1 };
        exit_status(binary, scratch, bytes, expected, counts);
    }
    true
}

fn run(sc: &Scenario) -> (Trace, Verdict) {
    let run = locksim::run(sc, sc.seed);
    (run.trace, run.verdict)
}

/// Most events one step records: a send and its loss to each of a few hundred recipients, or
/// a crash's losses of what a connection carried. The event budget is checked between steps.
const MOST_EVENTS_A_STEP: u64 = 100_000;

/// The engine's budget ends every run, loudly: no more steps than its budget, no more events
/// than its budget and one step's worth; a run cut short by steps or events stopped at that
/// budget (or else by what waited in its queue). The verdict keeps at most its cap of each
/// kind.
fn within_budget(sc: &Scenario, trace: &Trace, verdict: &Verdict, counts: &mut Counts) {
    counts.cut_short += u64::from(trace.cut_short_at_ms.is_some());
    let events = trace.events.len() as u64;
    counts.largest = counts.largest.max(events);
    let cut_right = trace.steps <= engine::MAX_STEPS
        && events <= engine::MAX_EVENTS + MOST_EVENTS_A_STEP
        && (trace.cut_short_at_ms.is_some()
            || (trace.steps < engine::MAX_STEPS && events < engine::MAX_EVENTS));
    let kept_right = ViolationKind::ALL
        .iter()
        .all(|&k| verdict.violations.iter().filter(|v| v.kind == k).count() <= MAX_KEPT_PER_KIND);
    if !cut_right || !kept_right || verdict.cut_short_at_ms != trace.cut_short_at_ms {
        counts.over_budget += 1;
        counts.fail(format!(
            "over budget: {} steps, {events} events, cut at {:?}\n{}",
            trace.steps,
            trace.cut_short_at_ms,
            repro(sc)
        ));
    }
}

/// The soundness properties, where their conditions hold.
fn sound(sc: &Scenario, trace: &Trace, verdict: &Verdict, counts: &mut Counts) {
    let store_keeps_state = sc.faults.iter().all(|f| match &f.kind {
        FaultKind::KillStore { .. } => false,
        FaultKind::Crash { node } | FaultKind::Restart { node } => !node.starts_with("store"),
        _ => true,
    });
    let fenced = sc.lock.design == Design::Fencing
        && sc.resource.fencing
        && matches!(sc.store.topology, Topology::Single | Topology::Consensus)
        && store_keeps_state;
    if fenced {
        counts.fenced += 1;
        if verdict.has(ViolationKind::StaleWrite) {
            counts.unsound += 1;
            counts.fail(format!("stale_write despite fencing\n{}", repro(sc)));
        }
    }
    if matches!(sc.lock.design, Design::Token | Design::Fencing) {
        counts.owner_token += 1;
        let forced: Vec<u64> = trace
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::ForceReleased {
                        holder: Some(_),
                        ..
                    }
                )
            })
            .map(|e| e.at_ms)
            .chain(health_check_deletes(trace))
            .collect();
        let foreign = verdict
            .violations
            .iter()
            .filter(|v| v.kind == ViolationKind::ForeignRelease)
            .find(|v| !forced.contains(&v.at_ms));
        if let Some(v) = foreign {
            counts.unsound += 1;
            counts.fail(format!(
                "foreign_release with owner tokens at {} ms\n{}",
                v.at_ms,
                repro(sc)
            ));
        }
    }
}

/// Runs the binary on the bytes and compares its exit status with `expected`.
fn exit_status(
    binary: &str,
    scratch: &std::path::Path,
    bytes: &[u8],
    expected: i32,
    counts: &mut Counts,
) {
    let path: PathBuf = scratch.join(format!("case-{}.toml", counts.cases));
    std::fs::write(&path, bytes).expect("write the case");
    let out = Command::new(binary)
        .args(["run", path.to_str().expect("a UTF-8 path"), "--json"])
        .output()
        .expect("start locksim");
    counts.exit_checked += 1;
    if out.status.code() != Some(expected) {
        counts.wrong_exit += 1;
        counts.fail(format!(
            "exit status {:?}, expected {expected}: {}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(bytes)
        ));
    }
    let _ = std::fs::remove_file(&path);
}
