//! The egui front end (desktop and web): painting and input. It makes no run of its own
//! design: a page asks the core for one (`run::`, `view::compare`, `course::`) when the
//! learner does, and long sweeps and searches go to [`background`], off the UI thread.
//!
//! The window: a top bar ([`shell`]) over one page — the introduction or the recap
//! ([`pages`]), a course step ([`course_view`]), or a tool ([`tools`]). A page with a run
//! shows the decision or tool on the left, the timeline in the middle, the verdict on the
//! right and the playback bar under the timeline ([`run_view`]). Two runs side by side
//! ([`compare_view`]) cover the page they were opened on until closed.

mod background;
mod break_it;
mod challenges_page;
mod compare_view;
mod controls;
mod course_view;
pub mod drawn;
mod export;
mod fault_edit;
mod find_failure;
mod glossary_page;
mod glossary_text;
#[cfg(test)]
mod headless;
mod keys;
mod layout;
mod library;
mod menu;
mod pages;
mod run_view;
mod sandbox;
mod saved;
mod seeds;
mod share;
mod shell;
mod style;
mod theme;
pub mod timeline;
mod tools;
mod transcript_panel;
mod verdict;
#[cfg(target_arch = "wasm32")]
pub mod web;
#[cfg(any(target_arch = "wasm32", test))]
mod web_fonts;

use eframe::egui::{self, Ui};

use crate::course::progress::{Place, Progress};
use challenges_page::ChallengesPage;
use compare_view::CompareView;
use course_view::{CourseGo, CourseView};
use keys::Shortcut;
use tools::Tools;

/// The key the learner's progress is saved under.
const PROGRESS_KEY: &str = "locksim-progress";

/// The key the Sandbox's form is saved under.
const SANDBOX_KEY: &str = "locksim-sandbox";

/// Opens the desktop window, where the learner left off. The window follows the OS scale
/// factor (egui's native pixels per point); Ctrl+plus / Ctrl+minus and presenter mode zoom on
/// top of it.
///
/// Should the app hit a bug, the window closes, the reason goes to stderr ("locksim stopped:
/// ...") and the progress saved before it is kept; the error returned says so.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_native() -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("locksim")
            .with_inner_size([1280.0, 800.0])
            // Narrow windows stack the page's panels (see `layout`): a phone's width works.
            .with_min_inner_size([320.0, 480.0]),
        ..Default::default()
    };
    std::panic::set_hook(Box::new(|info| {
        eprintln!("{}", stop_line(info));
        eprintln!(
            "Your progress up to the last save is kept. Please report this message, and what \
             you were doing, to whoever gave you locksim."
        );
        let backtrace = std::backtrace::Backtrace::capture();
        if backtrace.status() == std::backtrace::BacktraceStatus::Captured {
            eprintln!("{backtrace}");
        }
    }));
    let stopped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&stopped);
    let result = eframe::run_native(
        "locksim",
        options,
        Box::new(move |cc| {
            // The desktop has no notice area of its own before the first frame: say it where
            // a launch from a terminal shows it.
            if let Some(notice) = LocksimApp::storage_notice(cc.storage) {
                eprintln!("locksim: {notice}");
            }
            Ok(Box::new(NativeApp {
                app: LocksimApp::new(cc),
                stopped: flag,
            }))
        }),
    )
    .map_err(|e| e.to_string());
    if stopped.load(std::sync::atomic::Ordering::Relaxed) {
        return Err("it stopped on an internal error (reported above)".to_string());
    }
    result
}

/// The one line that says why the app stopped on a bug: `locksim stopped: <reason>`, and
/// where in the code, for the report. Both the desktop and the web build show it.
pub fn stop_line(info: &std::panic::PanicHookInfo<'_>) -> String {
    let reason = info.payload_as_str().unwrap_or("an internal error");
    match info.location() {
        Some(at) => format!("locksim stopped: {reason} (at {}:{})", at.file(), at.line()),
        None => format!("locksim stopped: {reason}"),
    }
}

/// The desktop app: the app, and the way out of a frame that panicked.
#[cfg(not(target_arch = "wasm32"))]
struct NativeApp {
    app: LocksimApp,
    /// Set once a frame panicked: the window is closing and nothing more is saved.
    stopped: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

#[cfg(not(target_arch = "wasm32"))]
impl eframe::App for NativeApp {
    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        use std::sync::atomic::Ordering;
        if self.stopped.load(Ordering::Relaxed) {
            return;
        }
        // The panic hook has already printed why; the half-drawn frame is dropped and the
        // window closed, rather than the panic unwinding through the window system.
        let shown =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.app.ui(ui, frame)));
        if shown.is_err() {
            self.stopped.store(true, Ordering::Relaxed);
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        // After a panic the state may be half-updated: what was saved before it stays.
        if !self.stopped.load(std::sync::atomic::Ordering::Relaxed) {
            self.app.save(storage);
        }
    }

    fn persist_egui_memory(&self) -> bool {
        self.app.persist_egui_memory()
    }

    fn auto_save_interval(&self) -> std::time::Duration {
        self.app.auto_save_interval()
    }
}

/// The whole app: the course, the tools, and the learner's progress.
pub struct LocksimApp {
    progress: Progress,
    course: CourseView,
    tools: Tools,
    challenges: ChallengesPage,
    /// Two runs side by side, covering the page they were opened on.
    compare: Option<CompareView>,
    help_open: bool,
    look: theme::Look,
    /// The top bar's items and where they were drawn last frame, points.
    top_bar: Vec<(String, egui::Rect)>,
    /// Where the last frame's timelines put their lanes and labels.
    drawn: drawn::Drawn,
    /// What the learner typed into the Glossary page's search box.
    glossary_filter: String,
    /// What a screen reader should hear of the run on screen, as of the last frame.
    announcement: String,
    /// Where the progress is saved.
    slot: saved::Slot,
    /// The Sandbox's form as last saved, so an unchanged one is not packed again.
    form_saved: Option<saved::Draft>,
    /// Why the address leaves out the scenario on screen (too large for a link), as the web
    /// build last wrote it ([`Self::written_link`]).
    link_notice: Option<String>,
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
        let (progress, _, slot) = saved::load(storage, PROGRESS_KEY);
        let mut tools = Tools::default();
        tools.restore_form(saved::load_draft(storage, SANDBOX_KEY));
        LocksimApp {
            progress,
            course: CourseView::default(),
            tools,
            challenges: ChallengesPage::default(),
            compare: None,
            help_open: false,
            look: theme::Look::default(),
            top_bar: Vec::new(),
            drawn: drawn::Drawn::default(),
            glossary_filter: String::new(),
            announcement: String::new(),
            slot,
            form_saved: None,
            link_notice: None,
        }
    }

    /// What to tell the learner about the progress saved in `storage`: `Some` when a record is
    /// there but cannot be read, so [`Self::restore`] started afresh.
    pub fn storage_notice(storage: Option<&dyn eframe::Storage>) -> Option<String> {
        saved::load(storage, PROGRESS_KEY).1
    }

    /// Saves the progress and the Sandbox's form (run or not) in `storage`.
    fn save_to(&mut self, storage: &mut dyn eframe::Storage) {
        saved::save(storage, &mut self.slot, &self.progress);
        let Some((draft, origin)) = self.tools.form() else {
            return;
        };
        let unchanged = self
            .form_saved
            .as_ref()
            .is_some_and(|(d, o)| d == draft && o == origin);
        if !unchanged {
            storage.set_string(SANDBOX_KEY, saved::draft_record(draft, origin));
            self.form_saved = Some((draft.clone(), origin.clone()));
        }
    }

    /// The sandbox form's scenario as edited so far (`None` before the sandbox was opened,
    /// unless a form was saved last time).
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

    /// A frame that only says `what`, in the middle of the page and in the learner's theme:
    /// what the web build paints first while the view a link names is made.
    #[cfg(target_arch = "wasm32")]
    fn show_waiting(&mut self, ui: &mut Ui, what: &str) {
        self.look
            .apply(ui.ctx(), self.progress.dark, self.progress.presenter);
        egui::CentralPanel::default().show(ui, |ui| {
            ui.centered_and_justified(|ui| ui.heading(what));
        });
    }

    /// Draws one frame of the whole window into `ui`.
    pub fn show(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        self.look
            .apply(&ctx, self.progress.dark, self.progress.presenter);
        transcript_panel::load(&ctx, self.progress.transcript);
        transcript_panel::clear_announcement(&ctx);
        // Faults placed by keyboard take their keys first: with a fault selected, the arrows
        // move it rather than the playhead.
        if self.compare.is_none() {
            self.tools.edit_keys(&ctx, self.progress.place);
            if self.progress.place == Place::Challenges {
                self.challenges.edit_keys(&ctx);
            }
        }
        for shortcut in keys::read(&ctx) {
            self.shortcut(shortcut);
        }

        egui::Panel::top("nav").show(ui, |ui| {
            ui.add_space(4.0);
            let course = &self.course;
            self.top_bar = shell::top_bar(ui, &mut self.progress, &mut self.help_open, |n| {
                course.is_revealed(n)
            });
            ui.add_space(2.0);
        });
        if let Some(notice) = &self.link_notice {
            egui::Panel::top("link_notice").show(ui, |ui| {
                ui.label(egui::RichText::new(notice).color(style::ANOMALY));
            });
        }
        let place = self.progress.place;
        // Another page was chosen (the top bar, a page key): the comparison stays behind.
        if self.compare.as_ref().is_some_and(|c| c.place() != place) {
            self.compare = None;
        }
        let go = match (place, &mut self.compare) {
            (_, Some(compare)) => {
                if compare.show(ui) {
                    self.compare = None;
                }
                None
            }
            (place, None) => self.page(ui, place),
        };
        if let Some((a, b)) = self.course.take_compare()
            && let Place::Step(n) = place
        {
            self.compare = CompareView::of_options(n, a, b);
        }
        if let Some((a, b)) = self.tools.take_compare() {
            self.compare = Some(CompareView::of_scenarios(place, a, b));
        }
        if let Some(place) = go {
            self.progress.place = place;
        }
        shell::help_window(&ctx, &mut self.help_open);
        self.drawn = drawn::take(&ctx);
        self.progress.transcript = transcript_panel::switches(&ctx);
        self.announcement = transcript_panel::announcement(&ctx);
    }

    /// What a screen reader should hear of the run on screen: the transcript's entry at the
    /// playhead, then the verdict once it is told; empty when no run is on screen. The web
    /// page mirrors it into its live region.
    pub fn announcement(&self) -> &str {
        &self.announcement
    }

    /// Draws page `place`; returns the page to go to, if the learner asked for another.
    fn page(&mut self, ui: &mut Ui, place: Place) -> Option<Place> {
        match place {
            Place::Intro => pages::intro(ui, &self.progress),
            Place::Step(n) => match self.course.show(ui, &mut self.progress, n) {
                Some(CourseGo::Page(p)) => Some(p),
                Some(CourseGo::FindFailure(scenario)) => {
                    self.tools.find_failure(*scenario);
                    Some(Place::Sandbox)
                }
                None => None,
            },
            Place::Recap => match pages::recap(ui, &mut self.progress) {
                Some(pages::Go::Page(p)) => Some(p),
                Some(pages::Go::BreakIt) => {
                    if let Ok(built) = crate::scenario::parse(pages::THE_LOCK_YOU_BUILT) {
                        self.tools.open(Place::Sandbox, built);
                    }
                    self.tools.open_tab(tools::SandboxTab::BreakIt);
                    Some(Place::Sandbox)
                }
                None => None,
            },
            Place::Sandbox | Place::Library => self.tools.show(ui, place),
            Place::Glossary => {
                glossary_page::show(ui, &mut self.glossary_filter);
                None
            }
            Place::Challenges => {
                self.challenges.show(ui, &mut self.progress);
                None
            }
        }
    }

    /// Where the last frame's timelines put their lanes and labels, points.
    pub fn drawn(&self) -> &drawn::Drawn {
        &self.drawn
    }

    /// The top bar's items (their names: "Intro", "1", "Sandbox", "Dark"...) and where they
    /// were drawn in the last frame, in points. Tests check that none overlaps another.
    pub fn top_bar_items(&self) -> &[(String, egui::Rect)] {
        &self.top_bar
    }

    fn shortcut(&mut self, shortcut: Shortcut) {
        let place = self.progress.place;
        match shortcut {
            Shortcut::Playback(key) => match (place, &mut self.compare) {
                (_, Some(compare)) => compare.key(key),
                (Place::Step(n), None) => self.course.key(&self.progress, n, key),
                (Place::Sandbox | Place::Library, None) => self.tools.key(place, key),
                (Place::Challenges, None) => self.challenges.key(key),
                (Place::Intro | Place::Recap | Place::Glossary, None) => {}
            },
            Shortcut::Pick(i) => {
                if let Place::Step(n) = place {
                    // Choosing an option goes back to the step to play it.
                    self.compare = None;
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
        self.save_to(storage);
    }

    /// Every 5 s rather than eframe's 30: a laptop that sleeps or a window that is killed
    /// must not lose the calls a learner just made.
    fn auto_save_interval(&self) -> std::time::Duration {
        std::time::Duration::from_secs(5)
    }

    /// egui's own memory (panel widths, scroll offsets) starts fresh each launch: a panel
    /// once widened by a long message must not stay wide for good. Progress is saved above.
    fn persist_egui_memory(&self) -> bool {
        false
    }
}
