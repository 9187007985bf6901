//! The desktop's sweep job: a background thread, its batches sent over a channel.

use std::sync::mpsc::{self, Receiver, TryRecvError};

use eframe::egui;

use super::{Batch, run_to_end};
use crate::scenario::Scenario;
use crate::sweep::Sweep;

/// A sweep running on a background thread. Dropping it stops the thread after its current
/// batch: the thread's next send finds nobody listening.
pub struct SweepJob {
    batches: Receiver<Batch>,
}

impl SweepJob {
    /// Starts `seeds` seeds of `scenario` (as [`super::as_sent`] gives it) and its ladder
    /// rungs ([`Sweep::new`]); each batch done asks `ctx` for a repaint.
    ///
    /// # Errors
    /// The reason, when the system could not start a thread.
    pub fn start(ctx: &egui::Context, scenario: &Scenario, seeds: u64) -> Result<Self, String> {
        let (send, batches) = mpsc::channel();
        let sweep = Sweep::new(scenario, seeds);
        let ctx = ctx.clone();
        std::thread::Builder::new()
            .name("locksim sweep".into())
            .spawn(move || {
                run_to_end(sweep, |batch| {
                    let listening = send.send(batch).is_ok();
                    ctx.request_repaint_after(super::PROGRESS_EVERY);
                    listening
                });
            })
            .map_err(|e| format!("could not start the sweep's thread: {e}"))?;
        Ok(SweepJob { batches })
    }

    /// The batches done since the last call, in order (none when the job has ended).
    ///
    /// # Errors
    /// Never on the desktop; the web build's job can fail.
    pub fn take(&mut self) -> Result<Vec<Batch>, String> {
        let mut done = Vec::new();
        loop {
            match self.batches.try_recv() {
                Ok(batch) => done.push(batch),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return Ok(done),
            }
        }
    }
}
