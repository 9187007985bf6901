//! A holder's critical section: reading the record, working in its own running time, the
//! nested section, writes, its own count of the lease, and letting go.

use super::super::Timer;
use super::super::msg::Msg;
use super::super::outbox::{Ctx, Outbox};
use super::Worker;
use super::state::{Attempt, Hold, OpKind, Phase, Slot, State, Wait};
use crate::scenario::{Design, OnLockLoss, Renewal};
use crate::trace::{EventKind, LetGoReason, NodeId, Token};

/// Running time at which the nested section ends: it begins halfway through the outer
/// section and lasts a quarter of it.
pub(super) fn inner_end_ms(work_ms: u64) -> u64 {
    work_ms / 2 + work_ms / 4
}

impl Worker {
    /// The worker now believes it holds the lock (or, nested, holds it once more) until
    /// `lease_until` on its lease clock. A grant whose lease, counted from the request, is
    /// already over when the reply comes is a failed attempt: it is handed back to `store`
    /// (Redlock: to every node) at once.
    pub(super) fn acquired(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        token: Token,
        fence: Option<u64>,
        lease_until: Option<i64>,
        store: NodeId,
    ) {
        let now = self.lease_now(cx);
        let lease_ms = lease_until.map(|until| (until - now).max(0) as u64);
        let key = self.key;
        if lease_until.is_some_and(|until| until <= now) {
            out.record(EventKind::AcquireFailed { key, token });
            if self.fans_out(cx) {
                self.send_release(cx, out, token);
            } else {
                out.send(store, Msg::Release { key, token });
            }
            self.retry_later(cx, out);
            return;
        }
        match self.state {
            State::Nesting { mut hold, .. } => {
                if hold.token == token {
                    hold.count += 1;
                    let count = hold.count;
                    out.record(EventKind::Reentered { key, token, count });
                } else {
                    hold.inner = Some(token);
                    out.record(EventKind::Acquired {
                        key,
                        token,
                        fence,
                        lease_ms,
                    });
                }
                self.state = State::Holding {
                    hold,
                    step: Phase::Working,
                };
                self.thaw(cx, out);
                return;
            }
            State::Acquiring(_) => {}
            _ => return,
        }
        out.record(EventKind::Acquired {
            key,
            token,
            fence,
            lease_ms,
        });
        self.enter(cx, out, token, fence, lease_until);
    }

    /// Opens the critical section under `token`: reads the record, then works. Without a lock
    /// (`design = "none"`) every try of the read-modify-write opens here, with nothing held.
    pub(super) fn enter(
        &mut self,
        cx: &Ctx,
        out: &mut Outbox,
        token: Token,
        fence: Option<u64>,
        lease_until: Option<i64>,
    ) {
        let key = self.key;
        self.state = State::Holding {
            hold: Hold::new(token, fence, lease_until),
            step: Phase::Reading,
        };
        self.resource_req += 1;
        let req = self.resource_req;
        // The token travels with the read only where the resource checks it there.
        let read_fence = fence.filter(|_| cx.sc.resource.fence_reads);
        out.send(
            cx.layout.resource(),
            Msg::Read {
                key,
                token,
                fence: read_fence,
            },
        );
        let timeout = cx.sc.workers[self.id.index()].write_timeout_ms as i64;
        self.set_deadline(cx, out, Wait::Resource, timeout, req);
        if cx.sc.lock.renewal != Renewal::None {
            out.timer(cx.sc.lock.renew_period_ms() as i64, Timer::RenewTick);
        }
        self.arm_lease_check(cx, out);
    }

    pub(super) fn start_work(&mut self, cx: &Ctx, out: &mut Outbox) {
        self.resource_req += 1;
        self.state.set_step(Phase::Working);
        self.thaw(cx, out);
    }

    pub(super) fn resource_timed_out(&mut self, cx: &Ctx, out: &mut Outbox) {
        match &mut self.state {
            State::Holding {
                step: Phase::Reading,
                ..
            } => self.start_work(cx, out),
            State::Holding {
                hold,
                step: step @ Phase::Writing,
            } => {
                // No answer: the worker goes on as if the write happened.
                hold.writes_done += 1;
                *step = Phase::Working;
                let token = hold.token;
                out.record(EventKind::WriteTimedOut {
                    key: self.key,
                    token,
                });
                self.continue_work(cx, out);
            }
            _ => {}
        }
    }

    /// Stops the work clock (pause, stall, or waiting on a reply).
    pub(super) fn freeze(&mut self, now: u64) {
        if let Some(h) = self.state.hold_mut()
            && let Some(since) = h.running_since.take()
        {
            h.work_done += now - since;
            self.generation += 1;
        }
    }

    /// Restarts the work clock if nothing holds it back.
    pub(super) fn thaw(&mut self, cx: &Ctx, out: &mut Outbox) {
        if self.state.step() != Some(Phase::Working) || self.stalled || cx.paused {
            return;
        }
        let Some(h) = self.state.hold_mut() else {
            return;
        };
        if h.running_since.is_some() {
            return;
        }
        h.running_since = Some(cx.now);
        self.schedule_work_point(cx, out);
    }

    /// Running time at which the next thing happens in the critical section.
    fn next_point(&self, cx: &Ctx) -> Option<u64> {
        let spec = &cx.sc.workers[self.id.index()];
        let h = self.state.hold()?;
        let nested = (spec.nested && !h.nested_done).then_some(spec.work_ms / 2);
        let inner_end = h.inner_open().then_some(inner_end_ms(spec.work_ms));
        let write = (h.writes_done < spec.writes)
            .then(|| spec.work_ms * u64::from(h.writes_done + 1) / u64::from(spec.writes));
        Some(
            [nested, inner_end, write]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(spec.work_ms),
        )
    }

    fn schedule_work_point(&mut self, cx: &Ctx, out: &mut Outbox) {
        let Some(point) = self.next_point(cx) else {
            return;
        };
        let Some(h) = self.state.hold() else { return };
        let left = point.saturating_sub(h.work_done);
        // Work runs in true time while running: a pause or stall freezes it instead.
        let generation = self.generation;
        out.timer_at(cx.now + left, Timer::WorkPoint { generation });
    }

    pub(super) fn work_point(&mut self, cx: &Ctx, out: &mut Outbox) {
        self.freeze(cx.now);
        let spec = &cx.sc.workers[self.id.index()];
        let (work_ms, writes, nested, check_lease) =
            (spec.work_ms, spec.writes, spec.nested, spec.check_lease);
        let now_local = self.lease_now(cx);
        let Some(h) = self.state.hold().copied() else {
            return;
        };
        if nested && !h.nested_done && h.work_done >= work_ms / 2 {
            let mut hold = h;
            hold.nested_done = true;
            self.state = State::Nesting {
                hold,
                attempt: Attempt::default(),
            };
            self.nested_attempt(cx, out);
            return;
        }
        if h.inner_open() && h.work_done >= inner_end_ms(work_ms) {
            self.end_inner_section(cx, out);
        }
        let point = work_ms * u64::from(h.writes_done + 1) / u64::from(writes);
        if h.writes_done < writes && h.work_done >= point {
            if !check_lease {
                self.send_write(cx, out);
            } else if h.lease_until.is_some_and(|until| until <= now_local) {
                self.let_go(cx, out, LetGoReason::LeaseOver);
            } else {
                // The check passed; the write is a separate step a pause can delay.
                self.state.set_step(Phase::CheckedLease);
                let generation = self.generation;
                out.timer(1, Timer::WriteNow { generation });
            }
            return;
        }
        self.continue_work(cx, out);
    }

    /// The nested call returns and releases what it took: one count of a reentrant hold (the
    /// store counts it down, or — uncounted — frees the lock), or a second token.
    fn end_inner_section(&mut self, cx: &Ctx, out: &mut Outbox) {
        let key = self.key;
        let Some(h) = self.state.hold_mut() else {
            return;
        };
        h.inner_released = true;
        if let Some(inner) = h.inner.take() {
            out.record(EventKind::LetGo {
                key,
                token: inner,
                reason: LetGoReason::Released,
            });
            self.send_release(cx, out, inner);
        } else if h.count > 1 {
            h.count -= 1;
            let (token, count) = (h.token, h.count);
            out.record(EventKind::LeftNested { key, token, count });
            self.send_release(cx, out, token);
        }
    }

    /// After a write (or a point with nothing to do): finish, or run on to the next point.
    pub(super) fn continue_work(&mut self, cx: &Ctx, out: &mut Outbox) {
        let spec = &cx.sc.workers[self.id.index()];
        let done = self
            .state
            .hold()
            .is_some_and(|h| h.writes_done >= spec.writes && h.work_done >= spec.work_ms);
        if done {
            self.let_go(cx, out, LetGoReason::Released);
        } else {
            self.thaw(cx, out);
        }
    }

    pub(super) fn send_write(&mut self, cx: &Ctx, out: &mut Outbox) {
        let Some(h) = self.state.hold().copied() else {
            return;
        };
        self.state.set_step(Phase::Writing);
        self.resource_req += 1;
        let req = self.resource_req;
        // Read-modify-write: the new value is computed from what this holder last saw.
        out.send(
            cx.layout.resource(),
            Msg::Write {
                key: self.key,
                token: h.token,
                fence: h.fence,
                expected_version: h.version,
                value: h.value + 1,
            },
        );
        let timeout = cx.sc.workers[self.id.index()].write_timeout_ms as i64;
        self.set_deadline(cx, out, Wait::Resource, timeout, req);
    }

    /// The worker stops believing it holds the lock, and releases it. Without a lock there is
    /// nothing to let go: a finished section is done, and a write the compare-and-swap refused
    /// is tried again at once from a fresh read (the optimistic retry loop).
    pub(super) fn let_go(&mut self, cx: &Ctx, out: &mut Outbox, reason: LetGoReason) {
        let Some(h) = self.state.hold().copied() else {
            return;
        };
        let key = self.key;
        self.generation += 1;
        if cx.sc.lock.design == Design::None {
            if reason == LetGoReason::Released {
                self.after_release(out);
            } else {
                self.state = State::Idle;
                out.timer(0, Timer::Retry);
            }
            return;
        }
        if let Some(inner) = h.inner {
            out.record(EventKind::LetGo {
                key,
                token: inner,
                reason,
            });
            self.send_release(cx, out, inner);
        }
        // A reentrant holder releases once per acquire; the store counts down.
        for _ in 1..h.count {
            self.send_release(cx, out, h.token);
        }
        out.record(EventKind::LetGo {
            key,
            token: h.token,
            reason,
        });
        let op = self.new_op(cx, OpKind::Release, h.token);
        self.state = State::Releasing { op };
        self.send_op(cx, out, Slot::Main);
    }

    /// `on_lock_loss = "stop"`: arms a check for when the worker's own count of its lease runs
    /// out (renewals move that moment on; the check then looks again). With
    /// `lease_check_every_ms`, the check comes at the first tick of that period after the
    /// count ran out, as etcd's client looks at its keepalive deadlines once a second
    /// (`client/v3/lease.go`, `deadlineLoop`: `deadline.Before(now)`).
    fn arm_lease_check(&mut self, cx: &Ctx, out: &mut Outbox) {
        let w = &cx.sc.workers[self.id.index()];
        if w.on_lock_loss != OnLockLoss::Stop {
            return;
        }
        let every = w.lease_check_every_ms as i64;
        let now = self.lease_now(cx);
        let Some(h) = self.state.hold() else {
            return;
        };
        if let Some(until) = h.lease_until {
            let token = h.token;
            let at = if every > 0 {
                (until.div_euclid(every) + 1) * every
            } else {
                until
            };
            out.timer(at - now, Timer::LeaseCheck { token });
        }
    }

    pub(super) fn lease_check(&mut self, cx: &Ctx, out: &mut Outbox, token: Token) {
        let now = self.lease_now(cx);
        let Some(h) = self.state.hold().filter(|h| h.token == token) else {
            return;
        };
        match h.lease_until {
            Some(until) if until <= now => self.lock_lost(cx, out, token),
            Some(_) => self.arm_lease_check(cx, out),
            None => {}
        }
    }

    /// The worker learned that its lock `token` is gone: with `on_lock_loss = "stop"` it
    /// stops before its next step (etcd's `Session.Done`, client-go's `OnStoppedLeading`).
    pub(super) fn lock_lost(&mut self, cx: &Ctx, out: &mut Outbox, token: Token) {
        let stops = cx.sc.workers[self.id.index()].on_lock_loss == OnLockLoss::Stop;
        if stops && self.state.hold().is_some_and(|h| h.token == token) {
            self.let_go(cx, out, LetGoReason::LockLost);
        }
    }
}
