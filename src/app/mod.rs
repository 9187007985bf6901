//! The egui front end (desktop and web). It only reads traces and verdicts.
//!
//! The window shows one run: a header saying what the scenario is, the timeline in the
//! middle, the verdict on the right, and the playback controls below.

pub mod break_it;
mod controls;
#[cfg(test)]
mod headless;
mod lanes;
pub mod library;
mod playback;
pub mod sandbox;
pub mod seeds;
pub mod share;
mod stand_in;
mod style;
pub mod timeline;
mod verdict;
#[cfg(target_arch = "wasm32")]
pub mod web;

use eframe::egui::{self, Key, RichText, Ui};

use crate::checker::{self, Verdict};
use crate::engine;
use crate::scenario::{self, Scenario};
use crate::trace::Trace;
use lanes::{Lanes, fmt_ms};
use playback::Playback;
use timeline::{Action, Timeline, View};

/// The scenario the window opens on until the course exists.
const STEP5: &str = include_str!("../../tests/scenarios/step5-fencing-token.toml");

/// Opens the desktop window on the step-5 scenario.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_native() -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("locksim")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([900.0, 560.0]),
        ..Default::default()
    };
    eframe::run_native(
        "locksim",
        options,
        Box::new(|cc| {
            // Light, because classrooms project; the colours in `style` are chosen for it.
            cc.egui_ctx.set_theme(egui::Theme::Light);
            Ok(Box::new(App::new(STEP5)))
        }),
    )
    .map_err(|e| e.to_string())
}

/// The eframe application.
struct App {
    screen: Screen,
}

enum Screen {
    Run(Box<Shown>),
    /// The scenario did not parse; the message says why.
    Invalid(String),
}

/// One run on screen, with everything derived from it computed once.
struct Shown {
    scenario: Scenario,
    trace: Trace,
    verdict: Verdict,
    lanes: Lanes,
    /// The engine is not wired in yet and a hand-built run is shown.
    stand_in: bool,
    playback: Playback,
    view: View,
    preview: bool,
    selected: Option<usize>,
}

impl App {
    fn new(source: &str) -> Self {
        let screen = match scenario::parse(source) {
            Ok(scenario) => Screen::Run(Box::new(Shown::new(scenario))),
            Err(e) => Screen::Invalid(e.to_string()),
        };
        App { screen }
    }
}

/// Runs the engine and the checker on `scenario`, or, while the engine is still a stub that
/// records nothing, returns the hand-built step-5 run (the `bool` says so). Delete the
/// fallback, and [`stand_in`], once the engine lands.
fn simulate_or_stand_in(scenario: &Scenario) -> (Trace, Verdict, bool) {
    let trace = engine::run(scenario, scenario.seed);
    if trace.events.is_empty() {
        return (stand_in::step5_trace(), stand_in::step5_verdict(), true);
    }
    let verdict = checker::check(scenario, &trace);
    (trace, verdict, false)
}

impl Shown {
    fn new(scenario: Scenario) -> Self {
        let (trace, verdict, stand_in) = simulate_or_stand_in(&scenario);
        let lanes = Lanes::build(&trace, &verdict);
        Shown {
            playback: Playback::new(trace.until_ms),
            view: View::fit(trace.until_ms),
            scenario,
            trace,
            verdict,
            lanes,
            stand_in,
            preview: false,
            selected: None,
        }
    }

    fn ui(&mut self, ui: &mut Ui) {
        self.keyboard(ui);
        if self.playback.is_playing() {
            let dt = ui.input(|i| i.stable_dt);
            self.playback.advance(f64::from(dt));
            self.view
                .follow(self.playback.now_ms(), self.trace.until_ms);
            ui.ctx().request_repaint();
        }

        egui::Panel::top("header").show(ui, |ui| self.header(ui));
        egui::Panel::bottom("playback").show(ui, |ui| {
            controls::show(
                ui,
                &mut self.playback,
                &self.lanes.moments,
                self.trace.until_ms,
                &mut self.preview,
            );
        });
        egui::Panel::right("verdict")
            .default_size(340.0)
            .min_size(260.0)
            .show(ui, |ui| {
                ui.heading("Verdict");
                let now = self.playback.now_ms();
                if let Some(i) = verdict::show(ui, &self.verdict, now, self.selected) {
                    self.select(i);
                }
            });
        egui::CentralPanel::default().show(ui, |ui| {
            // Keep room for the legend under the lanes.
            let max_height = ui.available_height() - 64.0;
            let action = Timeline {
                trace: &self.trace,
                lanes: &self.lanes,
                verdict: &self.verdict,
                now_ms: self.playback.now_ms(),
                preview: self.preview,
                selected: self.selected,
            }
            .show(ui, &mut self.view, max_height);
            match action {
                Some(Action::Seek(ms)) => self.playback.seek(ms),
                Some(Action::Select(i)) => self.select(i),
                None => {}
            }
            ui.add_space(10.0);
            let shown_until = if self.preview {
                self.trace.until_ms as f64
            } else {
                self.playback.now_ms()
            };
            timeline::legend(ui, &self.lanes.legend, shown_until);
        });
    }

    /// Selects violation `i` and moves the playhead to it.
    fn select(&mut self, i: usize) {
        self.selected = Some(i);
        if let Some(v) = self.verdict.violations.get(i) {
            self.playback.seek(v.at_ms as f64);
        }
    }

    /// Space plays or pauses; the arrows step between moments; Home rewinds.
    fn keyboard(&mut self, ui: &Ui) {
        let (space, left, right, home) = ui.input(|i| {
            (
                i.key_pressed(Key::Space),
                i.key_pressed(Key::ArrowLeft),
                i.key_pressed(Key::ArrowRight),
                i.key_pressed(Key::Home),
            )
        });
        if space {
            self.playback.toggle();
        }
        if left {
            self.playback.step_back(&self.lanes.moments);
        }
        if right {
            self.playback.step_forward(&self.lanes.moments);
        }
        if home {
            self.playback.seek(0.0);
        }
    }

    fn header(&self, ui: &mut Ui) {
        ui.add_space(6.0);
        ui.heading(RichText::new(&self.scenario.name).size(22.0).strong());
        if !self.scenario.description.is_empty() {
            ui.label(RichText::new(&self.scenario.description).size(14.5));
        }
        ui.horizontal_wrapped(|ui| {
            let s = &self.scenario;
            let fencing = if s.resource.fencing {
                "checks fencing tokens"
            } else {
                "does not check tokens"
            };
            ui.label(
                RichText::new(format!(
                    "design: {} · store: {} × {} · resource {} · seed {} · {}",
                    s.lock.design.as_str(),
                    s.store.topology.as_str(),
                    s.store.nodes,
                    fencing,
                    self.trace.seed,
                    fmt_ms(self.trace.until_ms)
                ))
                .weak(),
            );
            if !s.source.is_empty() {
                ui.label(
                    RichText::new(format!("· source: {}", s.source))
                        .weak()
                        .italics(),
                );
            }
        });
        if self.stand_in {
            ui.label(
                RichText::new(
                    "Showing a hand-built stand-in run: the simulation engine is not wired in yet.",
                )
                .color(style::ANOMALY),
            );
        }
        ui.add_space(4.0);
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        match &mut self.screen {
            Screen::Run(shown) => shown.ui(ui),
            Screen::Invalid(message) => {
                egui::CentralPanel::default().show(ui, |ui| {
                    ui.heading("This scenario cannot be shown");
                    ui.label(message.as_str());
                });
            }
        }
    }
}
