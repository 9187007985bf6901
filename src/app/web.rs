//! The web entry point: `web/main.js` loads the module and calls [`start`] with the page's
//! canvas. Built by `web/build.sh`; compiled only for wasm32.
//!
//! Beyond eframe's own web runner this adds the shareable URL: the fragment a page opens with
//! picks the view ([`super::share`]), and every change of view is written back into the
//! address bar with `history.replaceState` (no new history entry, no reload), so copying the
//! address shares exactly what is on screen.
//!
//! Sizes: the app's logical size is the canvas's CSS size (`web/style.css` makes that the
//! whole page) at every device pixel ratio, drawn at the ratio's resolution. eframe's runner
//! gives egui the ratio as its native pixels per point and sizes the canvas's drawing buffer
//! from a resize observer's `devicePixelContentBoxSize`; headless Chromium with an emulated
//! ratio reports that box in CSS pixels, so eframe's logical size came out at half the page
//! at a ratio of 2 (everything twice as big, and the panels' sums inside out).
//! [`WebApp::fit_canvas`] sets the buffer from the CSS size and the ratio instead, each
//! frame. The browser's own zoom changes the ratio; presenter mode multiplies egui's zoom
//! on top.
//!
//! The run on screen is told to screen readers through a live region in the page
//! ([`WebApp::announce`]).
//!
//! A panic (a bug) shows "locksim stopped: <reason>" in the page, with a Reload button
//! (`index.html`, `web/main.js`), instead of leaving a dead canvas; the progress saved before
//! it is kept.

use std::time::Duration;

use eframe::egui;
use wasm_bindgen::prelude::*;

use super::LocksimApp;
use crate::view::link::{self as share, SharedState};

/// Starts the app on `canvas`. Resolves once the app exists and its first frame is scheduled;
/// the value is a message for the learner when the page's fragment could not be used (the
/// app then opens as a plain visit would: at the start, or where this browser left off), or
/// `undefined`.
#[wasm_bindgen]
pub async fn start(canvas: web_sys::HtmlCanvasElement) -> Result<Option<String>, JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let fragment = window.location().hash().unwrap_or_default();
    let (state, notice) = match share::decode(&fragment) {
        Ok(state) => (Some(state), None),
        Err(e) => (None, Some(e.to_string())),
    };
    // No fragment at all: the app restores the learner's own progress from storage instead.
    let state = state.filter(|_| fragment.len() > 1);

    // Before the runner's own hook (installed by `new`), which logs the panic to the console
    // and then calls this one.
    std::panic::set_hook(Box::new(|info| show_stopped(&super::stop_line(info))));
    // Filled while the app is created (the runner calls the closure before `start` resolves):
    // a saved progress that cannot be read is told like a link that cannot be used.
    let storage_notice = std::rc::Rc::new(std::cell::Cell::new(None));
    let noted = std::rc::Rc::clone(&storage_notice);
    without_multisampling(&canvas);
    let runner = eframe::WebRunner::new();
    let page_canvas = canvas.clone();
    runner
        .start(
            canvas,
            eframe::WebOptions {
                // The runner listens for touch moves on the whole document, where browsers
                // make listeners passive: a prevented default there is refused with a console
                // error on every swipe. The canvas's `touch-action: none` keeps the browser's
                // own panning off instead.
                should_prevent_default: Box::new(|event| {
                    !matches!(event, eframe::egui::Event::PointerMoved(_))
                }),
                ..eframe::WebOptions::default()
            },
            Box::new(move |cc| {
                noted.set(LocksimApp::storage_notice(cc.storage));
                // Before the first frame lays out any text: there are no fonts until then.
                cc.egui_ctx.set_fonts(super::web_fonts::definitions());
                Ok(Box::new(WebApp {
                    app: LocksimApp::new(cc),
                    opening: state,
                    canvas: page_canvas,
                    published: None,
                    shared: None,
                    layout: String::new(),
                    announced: String::new(),
                }))
            }),
        )
        .await?;
    // The runner lives as long as the page: its event handlers hold what they need.
    std::mem::forget(runner);
    let notice = match (notice, storage_notice.take()) {
        (Some(link), Some(saved)) => Some(format!("{link} {saved}")),
        (link, saved) => link.or(saved),
    };
    Ok(notice)
}

/// Creates the canvas's WebGL 2 context without multisampling, before eframe asks for one
/// (the browser then hands eframe this same context). egui smooths its edges itself, and the
/// desktop build draws without multisampling too; the browser's default (`antialias: true`)
/// only multiplies the work of every frame — on a machine whose browser renders in software,
/// several times over. Where WebGL 2 is missing, eframe falls back to WebGL 1 as before.
fn without_multisampling(canvas: &web_sys::HtmlCanvasElement) {
    let attributes = js_sys::Object::new();
    if js_sys::Reflect::set(&attributes, &"antialias".into(), &false.into()).is_ok() {
        // Failing leaves the context to eframe and the browser's defaults.
        let _ = canvas.get_context_with_context_options("webgl2", &attributes);
    }
}

/// Replaces the canvas with the page's "locksim stopped" message, saying `line`. The page's
/// Reload button and its advice are in `index.html`; `web/style.css` shows them once the
/// document is marked stopped.
fn show_stopped(line: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(reason) = document.get_element_by_id("stopped-reason") {
        reason.set_text_content(Some(line));
    }
    if let Some(root) = document.document_element() {
        // Failing here leaves the canvas as it is: nothing more can be done.
        let _ = root.set_attribute("data-stopped", "");
    }
}

/// Panics on purpose. The browser test calls it to check that a panic shows its message in
/// the page, not a blank canvas, and that the saved progress survives it.
#[wasm_bindgen]
pub fn panic_for_test() {
    panic!("a panic on purpose, for the browser test");
}

/// Traps on purpose, as a module out of memory does (an abort, not a panic). The browser test
/// calls it from a timer, as the page's own event handlers would meet a trap.
#[wasm_bindgen]
pub fn trap_for_test() {
    std::process::abort();
}

/// The app, plus the address bar kept in step with it.
struct WebApp {
    app: LocksimApp,
    /// The view the page's link names, opened on the second frame: the first paints a notice
    /// (`LocksimApp::show_waiting`), because opening the view runs the scenarios the link carries on
    /// this thread, up to a few seconds for the largest runs the engine allows
    /// ([`crate::engine::MAX_STEPS`]).
    opening: Option<SharedState>,
    /// The page's canvas, which eframe draws on.
    canvas: web_sys::HtmlCanvasElement,
    /// The fragment last written to the address bar (`None` before the first frame).
    published: Option<String>,
    /// The view that fragment was written for.
    shared: Option<SharedState>,
    /// The layout last written into the page for tests (see [`WebApp::publish_layout`]).
    layout: String,
    /// The text last written into the page's live region (see [`WebApp::announce`]).
    announced: String,
}

impl WebApp {
    /// Writes the view's fragment and title into the page, when they changed.
    fn publish(&mut self, ctx: &egui::Context) {
        let state = self.app.shared_state();
        // The view is packed into a fragment only when it changed: a large scenario takes
        // milliseconds to deflate, too long to spend on every frame.
        if self.shared.as_ref() == Some(&state) {
            return;
        }
        self.shared = Some(state.clone());
        // The start of the course needs no fragment: a bare address opens it.
        let (fragment, notice) = if state == SharedState::default() {
            (String::new(), None)
        } else {
            LocksimApp::link_of(state)
        };
        self.app.set_link_notice(notice);
        if self.published.as_ref() == Some(&fragment) {
            return;
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        let location = window.location();
        let url = format!(
            "{}{}{}",
            location.pathname().unwrap_or_default(),
            location.search().unwrap_or_default(),
            if fragment.is_empty() {
                String::new()
            } else {
                format!("#{fragment}")
            }
        );
        if let Ok(history) = window.history() {
            // Failing here only leaves the address stale; the app itself is unaffected.
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
        }
        if let Some(document) = window.document() {
            document.set_title(&self.app.title());
        }
        self.published = Some(fragment);
        // eframe saves to localStorage only on its auto-save tick, which needs a frame to run
        // in (its save on closing the page listens for `onbeforeunload`, an event name that
        // never fires); ask for a frame after the interval so this change is stored even if
        // the learner then does nothing at all.
        ctx.request_repaint_after(SAVE_INTERVAL + Duration::from_millis(100));
    }
}

impl WebApp {
    /// Makes the canvas's drawing buffer its CSS size times the device pixel ratio, and the
    /// screen egui lays out this frame its CSS size (over egui's zoom), whatever eframe's
    /// resize observer measured (see the module's note). A buffer within a pixel of that is
    /// left as it is: the observer's exact device pixels are the crispest.
    fn fit_canvas(&self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        let ratio = raw_input.viewport().native_pixels_per_point.unwrap_or(1.0);
        let css = self.canvas.get_bounding_client_rect();
        let css = egui::vec2(css.width() as f32, css.height() as f32);
        if !(ratio > 0.0 && css.x > 0.0 && css.y > 0.0) {
            return;
        }
        let pixels = (css * ratio).round();
        let buffer = egui::vec2(self.canvas.width() as f32, self.canvas.height() as f32);
        if (buffer - pixels).abs().max_elem() > 1.0 {
            self.canvas.set_width(pixels.x as u32);
            self.canvas.set_height(pixels.y as u32);
        }
        let buffer = egui::vec2(self.canvas.width() as f32, self.canvas.height() as f32);
        let points = buffer / (ratio * ctx.zoom_factor());
        raw_input.screen_rect = Some(egui::Rect::from_min_size(egui::Pos2::ZERO, points));
    }

    /// Writes the app's logical size, its top bar's items and its timelines' lanes and
    /// labels into the page, in CSS pixels, for the browser test: `data-screen` on the
    /// document is `"<width>x<height>@<device pixel ratio>"`, `data-top-bar` a JSON list of
    /// `[name, [x, y, width, height]]` and `data-drawn` a JSON pair of lists of rectangles,
    /// the lanes' and the labels' ([`super::drawn`]).
    fn publish_layout(&mut self, ctx: &egui::Context) {
        // egui's points times its zoom are CSS pixels; the canvas starts at the page's corner.
        let zoom = ctx.zoom_factor();
        let screen = ctx.content_rect().size() * zoom;
        let rect = |r: &egui::Rect| -> js_sys::Array {
            let r = *r * zoom;
            [r.min.x, r.min.y, r.width(), r.height()]
                .map(JsValue::from)
                .into_iter()
                .collect()
        };
        let items: js_sys::Array = self
            .app
            .top_bar_items()
            .iter()
            .map(|(name, r)| js_sys::Array::of2(&JsValue::from_str(name), &rect(r)))
            .collect();
        let drawn = self.app.drawn();
        let lanes: js_sys::Array = drawn.lanes.iter().map(rect).collect();
        let labels: js_sys::Array = drawn.labels.iter().map(rect).collect();
        // Written by the browser's own JSON: serde_json's writer would be in the module for
        // these lines alone.
        let json = |value: &JsValue| -> String {
            js_sys::JSON::stringify(value)
                .map(String::from)
                .unwrap_or_default()
        };
        let ratio = ctx.native_pixels_per_point().unwrap_or(1.0);
        let screen = format!("{}x{}@{ratio}", screen.x, screen.y);
        let top_bar = json(&items);
        let drawn = json(&js_sys::Array::of2(&lanes, &labels));
        let layout = format!("{screen} {top_bar} {drawn}");
        if layout == self.layout {
            return;
        }
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("data-screen", &screen);
            let _ = root.set_attribute("data-top-bar", &top_bar);
            let _ = root.set_attribute("data-drawn", &drawn);
        }
        self.layout = layout;
    }
}

impl WebApp {
    /// Mirrors what a screen reader should hear of the run on screen (the transcript's entry
    /// at the playhead, then the verdict once told) into the page's `aria-live="polite"`
    /// region: the canvas has no text of its own for a screen reader to read. Written only
    /// when it changed, so each entry is read out once, not every frame.
    fn announce(&mut self) {
        let text = self.app.announcement();
        if text == self.announced {
            return;
        }
        if let Some(region) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("live"))
        {
            region.set_text_content(Some(text));
        }
        self.announced = text.to_string();
    }
}

/// How often progress is written to the browser's storage.
const SAVE_INTERVAL: Duration = Duration::from_secs(2);

impl eframe::App for WebApp {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        self.app.logic(ctx, frame);
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if let Some(state) = self.opening.take() {
            // Counted in painted frames: egui lays the first one out twice before painting it.
            if ui.ctx().cumulative_frame_nr() == 0 {
                self.app
                    .show_waiting(ui, "Opening the link: running the scenario it carries…");
                self.opening = Some(state);
                ui.ctx().request_repaint();
                return;
            }
            self.app = LocksimApp::from_shared(state, frame.storage());
        }
        self.app.ui(ui, frame);
        self.publish(ui.ctx());
        self.publish_layout(ui.ctx());
        self.announce();
        // Whatever the learner did may have changed what is saved: make sure a frame runs
        // after the save interval, since eframe only saves from within a frame.
        if ui.input(|i| !i.events.is_empty()) {
            ui.ctx()
                .request_repaint_after(SAVE_INTERVAL + Duration::from_millis(100));
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.app.save(storage);
    }

    fn on_exit(&mut self, gl: Option<&eframe::glow::Context>) {
        self.app.on_exit(gl);
    }

    fn auto_save_interval(&self) -> Duration {
        SAVE_INTERVAL.min(self.app.auto_save_interval())
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        self.app.clear_color(visuals)
    }

    fn persist_egui_memory(&self) -> bool {
        self.app.persist_egui_memory()
    }

    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        self.fit_canvas(ctx, raw_input);
        self.app.raw_input_hook(ctx, raw_input);
    }
}
