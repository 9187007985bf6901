//! The desktop's background job: a thread, its news sent over a channel.

use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Duration;

use eframe::egui;

use super::{News, PROGRESS_EVERY, Work, perform};

/// Work running on a background thread. Dropping it stops the thread after its current
/// batch: the thread's next send finds nobody listening.
pub struct Job {
    news: Receiver<Result<News, String>>,
}

impl Job {
    /// Starts `work`; news asks `ctx` for a repaint within [`PROGRESS_EVERY`], the last at
    /// once.
    ///
    /// # Errors
    /// The reason, when the system could not start a thread.
    pub fn start(ctx: &egui::Context, work: Work) -> Result<Self, String> {
        let (send, news) = mpsc::channel();
        let ctx = ctx.clone();
        std::thread::Builder::new()
            .name("locksim background".into())
            .spawn(move || {
                let done = perform(work, |news, last| {
                    let listening = send.send(Ok(news)).is_ok();
                    ctx.request_repaint_after(if last { Duration::ZERO } else { PROGRESS_EVERY });
                    listening
                });
                if let Err(reason) = done {
                    // Nobody listening any more is fine: the page gave up on the job.
                    let _ = send.send(Err(reason));
                    ctx.request_repaint();
                }
            })
            .map_err(|e| format!("could not start a background thread: {e}"))?;
        Ok(Job { news })
    }

    /// The news since the last call, in order (none once the job has ended).
    ///
    /// # Errors
    /// Why the job failed.
    pub fn take(&mut self) -> Result<Vec<News>, String> {
        let mut arrived = Vec::new();
        loop {
            match self.news.try_recv() {
                Ok(news) => arrived.push(news?),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return Ok(arrived),
            }
        }
    }
}
