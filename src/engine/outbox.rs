//! What a node's handler sees and what it asks for.
//!
//! Workers and store nodes are state machines in the manner of stateright's actors: a handler
//! takes the node's state, one incoming event (a message, a timer, a fault notification) and a
//! read-only [`Ctx`], changes the state, and pushes [`Cmd`]s into an [`Outbox`]. The engine
//! applies the commands in push order right after the handler returns, which keeps the order
//! of random draws and of events entering the queue exactly as if the handler had acted itself.

use super::Timer;
use super::clock::Clock;
use super::layout::Layout;
use super::msg::Msg;
use crate::scenario::Scenario;
use crate::trace::{EventKind, NodeId};

/// One effect a handler asks the engine for.
#[derive(Debug, PartialEq)]
pub enum Cmd {
    /// Send `msg` to `to` (the engine draws loss and delay when it applies this).
    Send { to: NodeId, msg: Msg },
    /// Fire `timer` after `local_ms` of this node's clock.
    Timer { local_ms: i64, timer: Timer },
    /// Fire `timer` at true time `at_ms` (work in progress runs in true time).
    TimerAt { at_ms: u64, timer: Timer },
    /// Fire `timer` after `local_ms` plus a uniform random `0..=jitter_ms` of this node's
    /// clock, drawn from the run's generator when the command is applied.
    Jittered {
        local_ms: i64,
        jitter_ms: u64,
        timer: Timer,
    },
    /// Record a trace event at this node.
    Record(EventKind),
}

/// The commands one handler pushed, in order.
#[derive(Debug, Default)]
pub struct Outbox(Vec<Cmd>);

impl Outbox {
    /// Sends `msg` to `to`.
    pub fn send(&mut self, to: NodeId, msg: Msg) {
        self.0.push(Cmd::Send { to, msg });
    }

    /// Sets `timer` for `local_ms` of the node's clock from now.
    pub fn timer(&mut self, local_ms: i64, timer: Timer) {
        self.0.push(Cmd::Timer { local_ms, timer });
    }

    /// Sets `timer` for true time `at_ms`.
    pub fn timer_at(&mut self, at_ms: u64, timer: Timer) {
        self.0.push(Cmd::TimerAt { at_ms, timer });
    }

    /// Sets `timer` for `local_ms` plus a random `0..=jitter_ms`, drawn when applied.
    pub fn jittered(&mut self, local_ms: i64, jitter_ms: u64, timer: Timer) {
        self.0.push(Cmd::Jittered {
            local_ms,
            jitter_ms,
            timer,
        });
    }

    /// Records `kind` at the node.
    pub fn record(&mut self, kind: EventKind) {
        self.0.push(Cmd::Record(kind));
    }

    /// The commands pushed so far, emptied out in push order.
    pub fn drain(&mut self) -> std::vec::Drain<'_, Cmd> {
        self.0.drain(..)
    }

    /// The commands pushed so far (tests compare them).
    #[cfg(test)]
    pub fn cmds(&self) -> &[Cmd] {
        &self.0
    }
}

/// What a handler may read besides its own state: the time, its clock, the scenario and who
/// is who. Nothing here changes while a handler runs.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// True time, simulated ms.
    pub now: u64,
    /// The node's own clock.
    pub clock: &'a Clock,
    /// The scenario being played.
    pub sc: &'a Scenario,
    /// Which node id is which.
    pub layout: Layout,
    /// Whether the node is paused (a paused worker's work does not advance).
    pub paused: bool,
}

impl<'a> Ctx<'a> {
    /// What a handler of a node with `clock` sees at true time `now` (simulated ms).
    pub fn of(now: u64, clock: &'a Clock, paused: bool, sc: &'a Scenario, layout: Layout) -> Self {
        Ctx {
            now,
            clock,
            sc,
            layout,
            paused,
        }
    }

    /// The node's wall-clock reading now, local ms.
    pub fn wall(&self) -> i64 {
        self.clock.wall(self.now)
    }

    /// The node's monotonic clock reading now, local ms.
    pub fn monotonic(&self) -> i64 {
        self.clock.monotonic(self.now)
    }

    /// The true time at which `local_ms` of this node's clock will have passed.
    pub fn true_after(&self, local_ms: i64) -> u64 {
        self.now + self.clock.true_span(local_ms)
    }
}
