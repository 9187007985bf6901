//! Helpers for the state machines' table-driven tests: a scenario from a few lines, a context
//! at a given time, and commands written out short enough to list in a table.

use super::clock::Clock;
use super::layout::Layout;
use super::outbox::{Cmd, Ctx};
use crate::scenario::Scenario;
use crate::trace::Token;

/// A scenario with one key, `ttl_ms = 1000` (if the design has a lease), `retry_ms = 50`,
/// `timeout_ms = 100`, the given `[lock]` and `[store]` lines, and workers A (and B) with the
/// given `[[worker]]` lines.
pub fn scenario(lock: &str, store: &str, worker: &str) -> Scenario {
    let src = format!(
        "version = 1\nname = \"t\"\nuntil_ms = 60000\n\
         [network]\ndelay_ms = [1, 1]\ntimeout_ms = 100\n\
         [lock]\nretry_ms = 50\n{lock}\n\
         [store]\n{store}\n\
         [[worker]]\nname = \"A\"\nwork_ms = 400\n{worker}\n\
         [[worker]]\nname = \"B\"\nwork_ms = 400\n"
    );
    let mut sc = crate::scenario::parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    // Set here, not in the text: a design without a lease refuses a ttl_ms it would ignore.
    if sc.lock.design.has_lease() {
        sc.lock.ttl_ms = 1000;
        sc.validate()
            .unwrap_or_else(|e| panic!("{e:?}\n{src}\nttl_ms = 1000"));
    }
    sc
}

/// Node ids of `sc`: A is 0, B is 1, then the store nodes, then the resource.
pub fn layout(sc: &Scenario) -> Layout {
    Layout::new(sc.workers.len(), sc.store.nodes.max(1) as usize)
}

/// A context at true time `now` for a node with `clock`.
pub fn ctx<'a>(sc: &'a Scenario, clock: &'a Clock, now: u64) -> Ctx<'a> {
    Ctx::of(now, clock, false, sc, layout(sc))
}

/// A command in a few words: `2 <- acquire A#1`, `record Granted`, `timer Retry in 50`,
/// `timer Deadline at 1100`, `timer Retry in 50+0..=25`.
pub fn show(cmd: &Cmd) -> String {
    let name = |t: Token| {
        format!(
            "{}#{}",
            char::from(b'A' + u8::try_from(t.worker.index()).expect("a test names few workers")),
            t.seq
        )
    };
    let short = |debug: String| {
        debug
            .split([' ', '{'])
            .next()
            .unwrap_or_default()
            .to_string()
    };
    match cmd {
        Cmd::Send { to, msg } => format!("{to} <- {}", msg.label().words(name)),
        Cmd::Record(kind) => format!("record {}", short(format!("{kind:?}"))),
        Cmd::Timer { local_ms, timer } => {
            format!("timer {} in {local_ms}", short(format!("{timer:?}")))
        }
        Cmd::TimerAt { at_ms, timer } => {
            format!("timer {} at {at_ms}", short(format!("{timer:?}")))
        }
        Cmd::Jittered {
            local_ms,
            jitter_ms,
            timer,
        } => format!(
            "timer {} in {local_ms}+0..={jitter_ms}",
            short(format!("{timer:?}"))
        ),
    }
}

/// Every command in an outbox, shown.
pub fn shown(cmds: &[Cmd]) -> Vec<String> {
    cmds.iter().map(show).collect()
}
