//! The egui front end (desktop and web). It only reads traces and verdicts: every run is
//! made once, by `course::`, when the learner asks for it.
//!
//! The window: a top bar ([`shell`]) over one page — the introduction or the recap
//! ([`pages`]), a course step ([`course_view`]), or a tool ([`tools`]). A page with a run
//! shows the decision or tool on the left, the timeline in the middle, the verdict on the
//! right and the playback bar under the timeline ([`run_view`]).

pub mod break_it;
mod controls;
mod course_view;
#[cfg(test)]
mod headless;
mod keys;
mod lanes;
pub mod library;
mod pages;
mod playback;
mod progress;
mod run_view;
pub mod sandbox;
pub mod seeds;
pub mod share;
mod shell;
mod style;
mod theme;
pub mod timeline;
mod tools;
mod verdict;
mod watch;
#[cfg(target_arch = "wasm32")]
pub mod web;

use eframe::egui::{self, Ui};

use course_view::CourseView;
use keys::Shortcut;
use progress::{Place, Progress};
use tools::Tools;

/// The key the learner's progress is saved under.
const PROGRESS_KEY: &str = "locksim-progress";

/// Opens the desktop window, where the learner left off.
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
            // The desktop has no notice area of its own before the first frame: say it where
            // a launch from a terminal shows it.
            if let Some(notice) = LocksimApp::storage_notice(cc.storage) {
                eprintln!("locksim: {notice}");
            }
            Ok(Box::new(LocksimApp::new(cc)))
        }),
    )
    .map_err(|e| e.to_string())
}

/// The whole app: the course, the tools, and the learner's progress.
pub struct LocksimApp {
    progress: Progress,
    course: CourseView,
    tools: Tools,
    help_open: bool,
    look: theme::Look,
}

impl LocksimApp {
    /// Starts the app, restoring the learner's progress from eframe's storage if there is
    /// any. Both the desktop and the web entry start it this way.
    pub fn new(cc: &eframe::CreationContext<'_>) -> Self {
        Self::restore(cc.storage)
    }

    /// Starts the app from `storage` (none: a first visit). What [`Self::new`] does, without
    /// a window; UI tests use it.
    pub fn restore(storage: Option<&dyn eframe::Storage>) -> Self {
        let (progress, _) = Progress::load(storage, PROGRESS_KEY);
        LocksimApp {
            progress,
            course: CourseView::default(),
            tools: Tools::default(),
            help_open: false,
            look: theme::Look::default(),
        }
    }

    /// What to tell the learner about the progress saved in `storage`: `Some` when a record is
    /// there but cannot be read, so [`Self::restore`] started afresh.
    pub fn storage_notice(storage: Option<&dyn eframe::Storage>) -> Option<String> {
        Progress::load(storage, PROGRESS_KEY).1
    }

    /// The sandbox form's scenario as edited so far (`None` before the sandbox was opened).
    /// UI tests watch it: nothing but the learner's own edits, or an explicit pick from the
    /// library, may replace it.
    pub fn sandbox_draft(&self) -> Option<&crate::scenario::Scenario> {
        self.tools.draft()
    }

    /// Whether a tool page (the sandbox or the library) is on screen: the pages where the
    /// learner edits or picks the sandbox's scenario.
    pub fn on_tool_page(&self) -> bool {
        matches!(self.progress.place, Place::Sandbox | Place::Library)
    }

    /// Draws one frame of the whole window into `ui`.
    pub fn show(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        self.look
            .apply(&ctx, self.progress.dark, self.progress.presenter);
        for shortcut in keys::read(&ctx) {
            self.shortcut(shortcut);
        }

        egui::Panel::top("nav").show(ui, |ui| {
            ui.add_space(4.0);
            shell::top_bar(ui, &mut self.progress, &mut self.help_open);
            ui.add_space(2.0);
        });
        let place = self.progress.place;
        let go = match place {
            Place::Intro => pages::intro(ui, &self.progress),
            Place::Step(n) => self.course.show(ui, &mut self.progress, n),
            Place::Recap => match pages::recap(ui, &mut self.progress) {
                Some(pages::Go::Page(p)) => Some(p),
                Some(pages::Go::BreakIt) => {
                    self.tools.open_tab(tools::SandboxTab::BreakIt);
                    Some(Place::Sandbox)
                }
                None => None,
            },
            Place::Sandbox | Place::Library => self.tools.show(ui, place),
        };
        if let Some(place) = go {
            self.progress.place = place;
        }
        shell::help_window(&ctx, &mut self.help_open);
    }

    fn shortcut(&mut self, shortcut: Shortcut) {
        let place = self.progress.place;
        match shortcut {
            Shortcut::Playback(key) => match place {
                Place::Step(n) => self.course.key(&self.progress, n, key),
                Place::Sandbox | Place::Library => self.tools.key(place, key),
                Place::Intro | Place::Recap => {}
            },
            Shortcut::Pick(i) => {
                if let Place::Step(n) = place {
                    self.course.choose(&mut self.progress, n, i);
                }
            }
            Shortcut::PrevPage => {
                if let Some(p) = place.prev() {
                    self.progress.place = p;
                }
            }
            Shortcut::NextPage => {
                if let Some(p) = place.next() {
                    self.progress.place = p;
                }
            }
            Shortcut::Reveal => {
                if let Place::Step(n) = place
                    && self.progress.presenter
                {
                    self.course.reveal(n);
                }
            }
            Shortcut::Help => self.help_open = !self.help_open,
        }
    }
}

impl eframe::App for LocksimApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, PROGRESS_KEY, &self.progress);
    }

    /// egui's own memory (panel widths, scroll offsets) starts fresh each launch: a panel
    /// once widened by a long message must not stay wide for good. Progress is saved above.
    fn persist_egui_memory(&self) -> bool {
        false
    }
}
