//! The browser's sweep job: a Web Worker (`web/worker.js`) that makes a second instance of
//! this wasm module — from the page's compiled module, sent with the request — and runs the
//! sweep in [`sweep_in_worker`], posting each batch to the page as JSON. Nothing is shared
//! between the two instances but messages, so the site needs no special server headers.

use std::cell::RefCell;
use std::rc::Rc;

use eframe::egui;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::{Batch, run_to_end};
use crate::scenario::{Scenario, parse, to_toml};
use crate::sweep::Sweep;

/// What the page asks of the worker: one message, the JSON of this.
#[derive(Serialize, Deserialize)]
struct Request {
    /// The scenario, as TOML ([`to_toml`]).
    scenario: String,
    /// How many seeds, from the scenario's own on.
    seeds: u64,
}

/// What came from the worker, each message as it came: a batch's JSON, or why it stopped.
type Inbox = Rc<RefCell<Vec<Result<String, String>>>>;

/// A sweep running in a Web Worker. Dropping it terminates the worker at once.
pub struct SweepJob {
    worker: web_sys::Worker,
    inbox: Inbox,
    // Held for as long as the worker can call them.
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl SweepJob {
    /// Starts `seeds` seeds of `scenario` and its ladder rungs ([`Sweep::new`]) in a new
    /// worker; each batch that arrives asks `ctx` for a repaint.
    ///
    /// # Errors
    /// The reason, when the browser would not start the worker.
    pub fn start(ctx: &egui::Context, scenario: &Scenario, seeds: u64) -> Result<Self, String> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options("./worker.js", &options)
            .map_err(|e| format!("the browser would not start the sweep's worker: {e:?}"))?;
        let inbox = Inbox::default();
        let (into, repaint) = (Rc::clone(&inbox), ctx.clone());
        let on_message = Closure::<dyn FnMut(_)>::new(move |event: web_sys::MessageEvent| {
            let data = event.data();
            // A batch is text; `web/worker.js` posts `{ error }` when the sweep failed.
            let message = data.as_string().ok_or_else(|| {
                let error = js_sys::Reflect::get(&data, &JsValue::from_str("error"));
                let reason = error.ok().and_then(|e| e.as_string());
                format!(
                    "the sweep stopped: {}",
                    reason.as_deref().unwrap_or("an unreadable message")
                )
            });
            into.borrow_mut().push(message);
            repaint.request_repaint_after(super::PROGRESS_EVERY);
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
        let request = Request {
            scenario: to_toml(scenario),
            seeds,
        };
        let request = serde_json::to_string(&request).map_err(|e| e.to_string())?;
        // The message `web/worker.js` reads: this instance's compiled module and the request.
        let message = js_sys::Object::new();
        let sent = js_sys::Reflect::set(&message, &"module".into(), &wasm_bindgen::module())
            .and_then(|_| js_sys::Reflect::set(&message, &"request".into(), &request.into()))
            .and_then(|_| worker.post_message(&message));
        sent.map_err(|e| format!("could not send the sweep to its worker: {e:?}"))?;
        Ok(SweepJob {
            worker,
            inbox,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// The batches that arrived since the last call, in order.
    ///
    /// # Errors
    /// Why the worker failed (it could not load, or stopped on a bug), or a message that is
    /// not a batch.
    pub fn take(&mut self) -> Result<Vec<Batch>, String> {
        let arrived = std::mem::take(&mut *self.inbox.borrow_mut());
        arrived
            .into_iter()
            .map(|message| {
                serde_json::from_str(&message?).map_err(|e| format!("a garbled batch: {e}"))
            })
            .collect()
    }
}

impl Drop for SweepJob {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The worker's side (called by `web/worker.js` with the page's message): runs the sweep the
/// page asked for to its end, calling `post` with the JSON of each batch.
///
/// # Errors
/// When the request cannot be read; the page then hears of it as the worker's error.
#[wasm_bindgen]
pub fn sweep_in_worker(request: &str, post: &js_sys::Function) -> Result<(), JsValue> {
    let request: Request = serde_json::from_str(request).map_err(|e| e.to_string())?;
    let scenario = parse(&request.scenario).map_err(|e| e.to_string())?;
    run_to_end(Sweep::new(&scenario, request.seeds), |batch| {
        serde_json::to_string(&batch).is_ok_and(|json| {
            post.call1(&JsValue::NULL, &JsValue::from_str(&json))
                .is_ok()
        })
    });
    Ok(())
}
