//! The pages outside the course: Sandbox and Library. Each is a panel on the left that
//! may hand over a scenario, which is run once and shown like a course run.

use eframe::egui::{self, RichText, Ui};

use super::progress::Place;
use super::run_view::{self, PlaybackKey, RunView};
use crate::course;
use crate::scenario::Scenario;

/// The tool pages' state: the run on screen and the page it belongs to.
#[derive(Default)]
pub struct Tools {
    run: Option<(Place, RunView)>,
}

impl Tools {
    /// Sends a playback key to the run on screen at `place`, if there is one.
    pub fn key(&mut self, place: Place, key: PlaybackKey) {
        if let Some((at, run)) = &mut self.run
            && *at == place
        {
            run.key(key);
        }
    }

    /// Shows the tool page `place`.
    pub fn show(&mut self, ui: &mut Ui, place: Place) {
        let mut asked = None;
        let run = match &mut self.run {
            Some((at, run)) if *at == place => {
                run.advance(ui);
                Some(run)
            }
            _ => None,
        };
        let left = |ui: &mut Ui| {
            egui::ScrollArea::vertical().show(ui, |ui| asked = panel(ui, place));
        };
        let empty = "The run of the scenario you pick appears here.";
        run_view::show_run(ui, run, left, empty, |_| {});
        // Shown from the next frame on: the panel that asked has already been drawn.
        if let Some(scenario) = asked {
            let title = scenario.name.clone();
            let about = Some(scenario.description.clone()).filter(|d| !d.is_empty());
            self.run = Some((place, RunView::new(course::play(scenario), title, about)));
        }
    }
}

// ─── PLUG-IN POINT ────────────────────────────────────────────────────────────────────────
// The Sandbox and Library panels are built separately (`sandbox.rs`, `library.rs`), each
// with `fn show(&mut self, ui: &mut Ui) -> Option<Scenario>`. To plug one in: keep the panel
// in `Tools`, and replace its placeholder arm below with `self.sandbox.show(ui)` (make this
// a method). The scenario it returns is played once and shown with the verdict, the
// playback bar and the timeline; nothing else here needs to change.
/// The left panel of tool page `place`; returns a scenario to run, if the learner asked.
fn panel(ui: &mut Ui, place: Place) -> Option<Scenario> {
    match place {
        Place::Sandbox => placeholder(
            ui,
            "Sandbox",
            "Every field of a scenario, editable: load and save scenario files, change the \
             design, the store, the faults, and run it.",
        ),
        Place::Library => placeholder(
            ui,
            "Library",
            "Every scenario that ships with locksim, from the course and from real incidents, \
             ready to open and run.",
        ),
        _ => None,
    }
}

/// Stands in for a panel not built yet.
fn placeholder(ui: &mut Ui, title: &str, what: &str) -> Option<Scenario> {
    ui.add_space(8.0);
    ui.heading(title);
    ui.add_space(4.0);
    ui.label(what);
    ui.add_space(8.0);
    ui.label(RichText::new("Coming soon.").italics().weak());
    None
}
