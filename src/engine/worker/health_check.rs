//! `ping_timeout_ms`: the health check some teams put in place of a lease. A waiter that
//! finds the lock held pings the holder's process; no answer within the timeout, and it
//! deletes the holder's lock and asks again.
//!
//! The check is a timeout-based failure detector, and such a detector cannot tell a crashed
//! process from a slow or paused one (Chandra and Toueg, Unreliable failure detectors for
//! reliable distributed systems, 1996). A paused holder answers nothing until it wakes, so
//! its lock is deleted while it still believes it holds it; Kleppmann's "How to do
//! distributed locking" (2016) tells the same story of a GC pause outlasting a timeout. The
//! holder, unlike a lease holder, was never told a deadline it could have kept.

use super::super::Timer;
use super::super::msg::Msg;
use super::super::outbox::{Ctx, Outbox};
use super::Worker;
use crate::trace::Token;

impl Worker {
    /// Whether a refusal because `holder` has the lock starts a health check: the scenario
    /// asks for one and `holder` is another worker's grant.
    pub(super) fn checks_health_of(&self, cx: &Ctx, holder: Token) -> bool {
        cx.sc.lock.ping_timeout_ms.is_some() && holder.worker != self.id
    }

    /// Pings `holder`'s process and waits `ping_timeout_ms` of its own time for the answer.
    pub(super) fn ping(&mut self, cx: &Ctx, out: &mut Outbox, holder: Token) {
        let Some(timeout) = cx.sc.lock.ping_timeout_ms else {
            return;
        };
        self.pinging = Some(holder);
        out.send(
            holder.worker,
            Msg::Ping {
                key: self.key,
                holder,
            },
        );
        out.timer(timeout as i64, Timer::PingTimeout { holder });
    }

    /// The holder's process answered: it is alive, so the waiter leaves its lock alone and
    /// asks again after its back-off. A late answer, after the check gave up, changes nothing.
    pub(super) fn pong(&mut self, cx: &Ctx, out: &mut Outbox, holder: Token) {
        if self.pinging == Some(holder) {
            self.pinging = None;
            self.retry_later(cx, out);
        }
    }

    /// No answer in time: the waiter takes the holder for dead and deletes its lock — only if
    /// `holder` still has it, so a lock that changed hands meanwhile is left alone — then
    /// asks again after its back-off.
    pub(super) fn ping_unanswered(&mut self, cx: &Ctx, out: &mut Outbox, holder: Token) {
        if self.pinging != Some(holder) || self.state.attempt().is_none() {
            return;
        }
        self.pinging = None;
        let by = self.token(self.seq);
        out.send(
            cx.layout.store_id(self.leader),
            Msg::Evict {
                key: self.key,
                holder,
                by,
            },
        );
        self.retry_later(cx, out);
    }
}
