//! The browser's background job: a Web Worker (`web/worker.js`) that makes a second instance
//! of this wasm module — from the page's compiled module, sent with the work — and does the
//! work in [`work_in_worker`], posting each piece of news to the page as text. Nothing is
//! shared between the two instances but messages, so the site needs no special server
//! headers.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use eframe::egui;
use wasm_bindgen::prelude::*;

use super::{News, PROGRESS_EVERY, Performer, Work, decode, encode};

/// What came from the worker, each message as it came: a piece of news as text, or why the
/// work stopped.
type Inbox = Rc<RefCell<Vec<Result<String, String>>>>;

/// Work running in a Web Worker. Dropping it terminates the worker at once.
pub struct Job {
    worker: web_sys::Worker,
    inbox: Inbox,
    // Held for as long as the worker can call them.
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl Job {
    /// Starts `work` in a new worker; news asks `ctx` for a repaint within
    /// [`PROGRESS_EVERY`], the last at once.
    ///
    /// # Errors
    /// The reason, when the browser would not start the worker.
    pub fn start(ctx: &egui::Context, work: Work) -> Result<Self, String> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options("./worker.js", &options)
            .map_err(|e| format!("the browser would not start a worker: {e:?}"))?;
        let inbox = Inbox::default();
        let (into, repaint) = (Rc::clone(&inbox), ctx.clone());
        let on_message = Closure::<dyn FnMut(_)>::new(move |event: web_sys::MessageEvent| {
            // `web/worker.js` posts `{ news, last }`, or `{ error }` when the work failed.
            let data = event.data();
            let field = |name: &str| js_sys::Reflect::get(&data, &JsValue::from_str(name)).ok();
            let message = match (field("news").and_then(|n| n.as_string()), field("error")) {
                (Some(news), _) => Ok(news),
                (None, error) => Err(format!(
                    "the work stopped: {}",
                    error
                        .and_then(|e| e.as_string())
                        .as_deref()
                        .unwrap_or("an unreadable message")
                )),
            };
            let last = message.is_err() || field("last").is_some_and(|l| l.is_truthy());
            into.borrow_mut().push(message);
            repaint.request_repaint_after(if last { Duration::ZERO } else { PROGRESS_EVERY });
        });
        let (into, repaint) = (Rc::clone(&inbox), ctx.clone());
        // The worker's script itself could not load (it is missing, or the page's policy
        // forbids it).
        let on_error = Closure::<dyn FnMut(_)>::new(move |event: web_sys::ErrorEvent| {
            into.borrow_mut().push(Err(format!(
                "the sweep's worker failed: {}",
                event.message()
            )));
            repaint.request_repaint();
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let request = encode(&work)?;
        // The message `web/worker.js` reads: this instance's compiled module and the work.
        let message = js_sys::Object::new();
        let sent = js_sys::Reflect::set(&message, &"module".into(), &wasm_bindgen::module())
            .and_then(|_| js_sys::Reflect::set(&message, &"request".into(), &request.into()))
            .and_then(|_| worker.post_message(&message));
        sent.map_err(|e| format!("could not send the work to its worker: {e:?}"))?;
        Ok(Job {
            worker,
            inbox,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// The news that arrived since the last call, in order.
    ///
    /// # Errors
    /// Why the work failed (the worker could not load, the work could not be read, a bug),
    /// or a message that is not news.
    pub fn take(&mut self) -> Result<Vec<News>, String> {
        let arrived = std::mem::take(&mut *self.inbox.borrow_mut());
        arrived
            .into_iter()
            .map(|message| decode(&message?))
            .collect()
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The worker's side of a job, made by `web/worker.js` from the page's message and done a
/// batch at a time, each batch's news posted through `post` (its text, and whether it is the
/// last).
#[wasm_bindgen]
pub struct WorkerJob {
    performer: Performer,
    post: js_sys::Function,
}

#[wasm_bindgen]
impl WorkerJob {
    /// The job the page's message `work` asks for.
    ///
    /// # Errors
    /// When the work cannot be read; `web/worker.js` posts the reason to the page.
    #[wasm_bindgen(constructor)]
    pub fn new(work: &str, post: js_sys::Function) -> Result<WorkerJob, JsValue> {
        let work: Work = decode(work)?;
        Ok(WorkerJob {
            performer: Performer::new(work)?,
            post,
        })
    }

    /// Does the next batch and posts its news; whether the job is over.
    ///
    /// # Errors
    /// When a batch cannot be counted (a bug).
    pub fn step(&mut self) -> Result<bool, JsValue> {
        let post = &self.post;
        let over = self.performer.step(&mut |news, last| {
            encode(&news).is_ok_and(|text| {
                post.call2(&JsValue::NULL, &JsValue::from_str(&text), &last.into())
                    .is_ok()
            })
        })?;
        Ok(over)
    }
}
