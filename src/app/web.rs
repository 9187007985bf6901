//! The web entry point: `web/main.js` loads the module and calls [`start`] with the page's
//! canvas. Built by `web/build.sh`; compiled only for wasm32.
//!
//! Beyond eframe's own web runner this adds the shareable URL: the fragment a page opens with
//! picks the view ([`super::share`]), and every change of view is written back into the
//! address bar with `history.replaceState` (no new history entry, no reload), so copying the
//! address shares exactly what is on screen.

use std::sync::Arc;
use std::time::Duration;

use eframe::egui::{self, FontData, FontDefinitions, FontFamily, FontTweak};
use wasm_bindgen::prelude::*;

use super::LocksimApp;
use super::share::{self, SharedState};

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

    // Filled while the app is created (the runner calls the closure before `start` resolves):
    // a saved progress that cannot be read is told like a link that cannot be used.
    let storage_notice = std::rc::Rc::new(std::cell::Cell::new(None));
    let noted = std::rc::Rc::clone(&storage_notice);
    let runner = eframe::WebRunner::new();
    runner
        .start(
            canvas,
            eframe::WebOptions::default(),
            Box::new(move |cc| {
                noted.set(LocksimApp::storage_notice(cc.storage));
                // Before the first frame lays out any text: there are no fonts until then.
                cc.egui_ctx.set_fonts(fonts());
                let app = match state {
                    Some(state) => LocksimApp::from_shared(state, cc.storage),
                    None => LocksimApp::new(cc),
                };
                Ok(Box::new(WebApp {
                    app,
                    published: None,
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

/// The web build's fonts, in place of `FontDefinitions::default()` (the desktop's): egui's
/// own, cut down to the characters locksim shows (see `assets/fonts/README.md`), with the
/// same names, families and tweaks as egui gives them.
pub fn fonts() -> FontDefinitions {
    let font = |bytes: &'static [u8]| Arc::new(FontData::from_static(bytes));
    let mut fonts = FontDefinitions::empty();
    fonts.font_data.insert(
        "Hack".to_owned(),
        font(include_bytes!("../../assets/fonts/Hack-Regular.subset.ttf")),
    );
    fonts.font_data.insert(
        "Ubuntu-Light".to_owned(),
        font(include_bytes!("../../assets/fonts/Ubuntu-Light.subset.ttf")),
    );
    fonts.font_data.insert(
        "egui-icons".to_owned(),
        Arc::new(
            FontData::from_static(include_bytes!("../../assets/fonts/egui-icons.ttf")).tweak(
                FontTweak {
                    scale: 0.90,
                    ..Default::default()
                },
            ),
        ),
    );
    let family = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
    fonts.families.insert(
        FontFamily::Monospace,
        family(&["Hack", "Ubuntu-Light", "egui-icons"]),
    );
    fonts.families.insert(
        FontFamily::Proportional,
        family(&["Ubuntu-Light", "egui-icons"]),
    );
    fonts
}

/// The app, plus the address bar kept in step with it.
struct WebApp {
    app: LocksimApp,
    /// The fragment last written to the address bar (`None` before the first frame).
    published: Option<String>,
}

impl WebApp {
    /// Writes the view's fragment and title into the page, when they changed.
    fn publish(&mut self, ctx: &egui::Context) {
        let state = self.app.shared_state();
        // The start of the course needs no fragment: a bare address opens it.
        let fragment = if state == SharedState::default() {
            String::new()
        } else {
            share::encode(&state)
        };
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

/// How often progress is written to the browser's storage.
const SAVE_INTERVAL: Duration = Duration::from_secs(2);

impl eframe::App for WebApp {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        self.app.logic(ctx, frame);
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.app.ui(ui, frame);
        self.publish(ui.ctx());
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
        self.app.raw_input_hook(ctx, raw_input);
    }
}
