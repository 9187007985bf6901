//! The pages outside the course: the Sandbox (edit a scenario, break it, run it across seeds,
//! search it for a failure)
//! and the Library (every shipped scenario). Each shows its panel on the left; a scenario a
//! panel hands over is run once and shown like a course run.
//!
//! This is the one place the panels plug into the shell: [`Tools::show`] draws the page and
//! asks its panel, and [`play`] runs the scenario the panel returns. The sandbox's "Compare
//! with…" hands two scenarios to the shell, which puts them side by side.

use super::{menu, style};
use eframe::egui::{self, RichText, Ui};

use super::break_it::{Asked as BreakItAsked, BreakIt};
use super::fault_edit::Editing;
use super::find_failure::{FindFailure, FoundAsk};
use super::keys::PlaybackKey;
use super::library::{Library, LibraryAction};
use super::run_view::{self, RunView};
use super::sandbox::Sandbox;
use super::seeds::AcrossSeeds;
use super::transcript_panel;
use crate::course;
use crate::course::progress::Place;
use crate::scenario::{Scenario, edit};

/// What the sandbox page's left panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SandboxTab {
    /// The scenario form.
    #[default]
    Edit,
    /// One-click faults on the run on screen.
    BreakIt,
    /// The run on screen over many seeds.
    Seeds,
    /// A search for a fault schedule that breaks the scenario.
    FindFailure,
}

/// The tool pages' panels and the run each page has on screen.
#[derive(Default)]
pub struct Tools {
    /// Made on the first visit (it needs a scenario to start from).
    sandbox: Option<Sandbox>,
    /// The scenario as written that the sandbox's run on screen was made from: every edit of
    /// it is marked as made from this one ([`crate::scenario::edit::mark`]).
    sandbox_base: Option<Scenario>,
    library: Library,
    break_it: BreakIt,
    seeds: AcrossSeeds,
    finder: FindFailure,
    tab: SandboxTab,
    sandbox_run: Option<RunView>,
    library_run: Option<RunView>,
    /// The sandbox's scenario and another, asked to be seen side by side.
    compare: Option<(Scenario, Scenario)>,
    /// Why the form saved last time could not be put back, said when the sandbox opens.
    form_notice: Option<String>,
    /// The form was put back from a save and has not been shown yet.
    replay_form: bool,
}

/// What a tool panel asked for this frame.
enum Asked {
    /// Run this library scenario and show it on the page.
    Play(Scenario),
    /// Run the sandbox form's scenario and show it on the page.
    RunForm(Scenario),
    /// Run this change of the sandbox's run on screen in its place: Break it's (`None`: its
    /// list of changes shows) or another panel's, with the changes to show.
    Change(Scenario, Option<Vec<String>>),
    /// Put this scenario as written in the sandbox's form and go there.
    Edit(Scenario),
    /// Put this change of the sandbox's run on screen (a failure the search found) in the
    /// form and go there.
    EditChange(Scenario),
    /// Show the first above the second, side by side.
    Compare(Box<(Scenario, Scenario)>),
}

impl Tools {
    /// Sends a playback key to the run on screen at `place`, if there is one.
    pub fn key(&mut self, place: Place, key: PlaybackKey) {
        if let Some(run) = self.run_at(place) {
            run.key(key);
        }
    }

    /// Lets the run on screen at `place` take its fault-editing keys, if faults can be placed
    /// on it.
    pub fn edit_keys(&mut self, ctx: &egui::Context, place: Place) {
        if let Some(run) = self.run_at(place) {
            run.edit_keys(ctx);
        }
    }

    /// Opens the sandbox on `tab` (the recap's "take it apart" opens Break it).
    pub fn open_tab(&mut self, tab: SandboxTab) {
        self.tab = tab;
    }

    fn run_at(&mut self, place: Place) -> Option<&mut RunView> {
        match place {
            Place::Sandbox => self.sandbox_run.as_mut(),
            Place::Library => self.library_run.as_mut(),
            _ => None,
        }
    }

    /// Shows the tool page `place`. Returns the page to go to, if a panel asked for another.
    pub fn show(&mut self, ui: &mut Ui, place: Place) -> Option<Place> {
        if place == Place::Sandbox && self.sandbox.is_none() {
            self.start_sandbox();
        }
        // A form put back from a save is run when the sandbox is first shown, as step 5's
        // design is on a first visit, unless a link or the course already put a run there.
        if place == Place::Sandbox && std::mem::take(&mut self.replay_form) {
            let valid = self
                .sandbox
                .as_ref()
                .map(Sandbox::draft)
                .filter(|d| d.validate().is_ok());
            if let Some(draft) = valid.cloned()
                && self.sandbox_run.is_none()
            {
                self.run_form(draft);
            }
        }
        let Tools {
            sandbox,
            library,
            break_it,
            seeds,
            finder,
            tab,
            sandbox_run,
            library_run,
            ..
        } = self;
        let mut run = match place {
            Place::Sandbox => sandbox_run.as_mut(),
            _ => library_run.as_mut(),
        };
        if let Some(run) = run.as_deref_mut() {
            run.advance(ui);
            // Faults are placed by hand on the sandbox's run while its form or Break it is
            // open: the two panels that keep what was changed.
            let editable =
                place == Place::Sandbox && matches!(*tab, SandboxTab::Edit | SandboxTab::BreakIt);
            let design = run.scenario().lock.design;
            run.set_editing(editable.then(|| Editing::all(design)));
        }
        let mut asked = None;
        let left = |ui: &mut Ui, run: Option<&RunView>| {
            asked = match place {
                Place::Sandbox => {
                    let panel = SandboxPanel {
                        tab,
                        sandbox,
                        break_it,
                        seeds,
                        finder,
                        library: library.entries(),
                    };
                    panel.show(ui, run)
                }
                _ => library.show(ui).map(|action| match action {
                    LibraryAction::Open(s) => Asked::Play(s),
                    LibraryAction::Edit(s) => Asked::Edit(s),
                }),
            };
        };
        let empty = "The run of the scenario you choose on the left appears here.";
        let page = match place {
            Place::Sandbox => "sandbox",
            _ => "library",
        };
        run_view::show_run(ui, page, run, left, empty, |_| {});
        if place == Place::Sandbox {
            self.take_fault_edit();
            let spoken = match self.tab {
                SandboxTab::Seeds => self.seeds.spoken(),
                SandboxTab::FindFailure => self.finder.spoken(),
                SandboxTab::Edit | SandboxTab::BreakIt => None,
            };
            if let Some(line) = spoken {
                transcript_panel::announce_also(ui.ctx(), &line);
            }
        }

        // Shown from the next frame on: the panel that asked has already been drawn.
        match asked? {
            Asked::Play(scenario) => {
                *self.run_slot(place) = Some(play(scenario));
                None
            }
            Asked::RunForm(scenario) => {
                self.run_form(scenario);
                None
            }
            Asked::Change(scenario, changed) => {
                let from_break_it = changed.is_none();
                let changed = changed.unwrap_or_else(|| self.break_it.changes());
                let run = self.show_change(scenario, changed)?.clone();
                if from_break_it {
                    self.break_it.adopt(&run);
                }
                None
            }
            Asked::Edit(scenario) => {
                self.edit_in_form(scenario.clone(), scenario);
                Some(Place::Sandbox)
            }
            Asked::EditChange(scenario) => {
                let base = self
                    .sandbox_base
                    .clone()
                    .unwrap_or_else(|| scenario.clone());
                self.edit_in_form(scenario, base);
                Some(Place::Sandbox)
            }
            Asked::Compare(pair) => {
                self.compare = Some(*pair);
                None
            }
        }
    }

    /// Runs the sandbox form's `draft` on the sandbox page, marked as an edit of the scenario
    /// the form was given; the form takes the marked scenario.
    fn run_form(&mut self, draft: Scenario) {
        let (base, ran) = match &self.sandbox {
            Some(form) => (form.origin().clone(), form.ran().clone()),
            None => (draft.clone(), draft.clone()),
        };
        let run = lay_out(marked(&base, &ran, draft));
        if let Some(form) = &mut self.sandbox {
            form.take_run(run.scenario(), &base);
        }
        self.sandbox_base = Some(base);
        self.sandbox_run = Some(run);
    }

    /// Runs `changed`, a change of the sandbox's run on screen, in its place, marked as an
    /// edit of the scenario that run was made from; the form follows it if it held the run.
    /// Returns the marked scenario.
    fn show_change(&mut self, scenario: Scenario, changed: Vec<String>) -> Option<&Scenario> {
        let previous = self.sandbox_run.as_ref()?.scenario().clone();
        let base = self
            .sandbox_base
            .clone()
            .unwrap_or_else(|| previous.clone());
        let mut run = lay_out(marked(&base, &previous, scenario));
        run.set_changed(changed);
        if let Some(form) = &mut self.sandbox {
            form.follow(&previous, run.scenario(), &base);
        }
        Some(self.sandbox_run.insert(run).scenario())
    }

    /// Puts `scenario`, made from `base`, in the sandbox's form and its run on the page.
    fn edit_in_form(&mut self, scenario: Scenario, base: Scenario) {
        // The sandbox shows the run of what its form now holds, not the last one.
        let scenario = if scenario.validate().is_ok() {
            let run = lay_out(marked(&base, &base, scenario));
            let scenario = run.scenario().clone();
            self.sandbox_run = Some(run);
            scenario
        } else {
            scenario
        };
        match &mut self.sandbox {
            Some(sandbox) => sandbox.load(scenario, base.clone()),
            None => {
                let mut form = Sandbox::new(base.clone());
                form.load(scenario, base.clone());
                self.sandbox = Some(form);
            }
        }
        self.sandbox_base = Some(base);
        self.tab = SandboxTab::Edit;
    }

    /// Plays the scenario the learner made by placing faults on the sandbox's run at once, in
    /// place of the run (same seed, zoom and playhead), and keeps it: in the form's draft on
    /// the Edit tab, in Break it's list of changes (which Undo walks back) on Break it.
    fn take_fault_edit(&mut self) {
        let Some(run) = self.sandbox_run.as_mut() else {
            return;
        };
        let Some(change) = run.take_change() else {
            return;
        };
        let previous = run.scenario().clone();
        let base = self.sandbox_base.get_or_insert_with(|| previous.clone());
        let demo = marked(base, &previous, change.scenario);
        match self.tab {
            SandboxTab::BreakIt => {
                self.break_it.edited(&previous, &demo.scenario, change.what);
                run.set_changed(self.break_it.changes());
                if let Some(form) = &mut self.sandbox {
                    form.follow(&previous, &demo.scenario, base);
                }
            }
            _ => {
                if let Some(form) = &mut self.sandbox {
                    if *form.draft() == previous {
                        form.take_run(&demo.scenario, base);
                    } else {
                        form.take_faults(&previous, &demo.scenario);
                    }
                }
            }
        }
        run.replace_run(demo);
        run.title_from_scenario();
    }

    /// The two scenarios the sandbox asked to see side by side since the last call, if any:
    /// its own first.
    pub fn take_compare(&mut self) -> Option<(Scenario, Scenario)> {
        self.compare.take()
    }

    /// The sandbox form's scenario as edited so far, once the sandbox has been opened (or
    /// restored from a save).
    pub fn draft(&self) -> Option<&Scenario> {
        self.sandbox.as_ref().map(Sandbox::draft)
    }

    /// The sandbox form as it is kept between visits: its scenario and the one its edit
    /// started from.
    pub fn form(&self) -> Option<(&Scenario, &Scenario)> {
        self.sandbox.as_ref().map(|s| (s.draft(), s.origin()))
    }

    /// Puts back the sandbox form saved last time (run when the sandbox is first shown, if
    /// it is valid), or says in the form's status, once the sandbox opens, why it could not
    /// be.
    pub fn restore_form(&mut self, saved: Result<Option<super::saved::Draft>, String>) {
        match saved {
            Ok(Some((draft, origin))) => {
                self.sandbox = Some(Sandbox::restored(draft, origin));
                self.replay_form = true;
            }
            Ok(None) => {}
            Err(notice) => self.form_notice = Some(notice),
        }
    }

    /// The scenario of the run on screen at tool page `place` (a shared link carries it).
    pub fn shown(&self, place: Place) -> Option<&Scenario> {
        match place {
            Place::Sandbox => self.sandbox_run.as_ref(),
            Place::Library => self.library_run.as_ref(),
            _ => None,
        }
        .map(RunView::scenario)
    }

    /// Opens tool page `place` on a run of `scenario` (a shared link); on the sandbox page
    /// the form holds it too.
    /// A form the learner has edited (a reload of a run not yet run, or another's link opened
    /// on top) keeps their edit, and says the run shown is the link's.
    pub fn open(&mut self, place: Place, scenario: Scenario) {
        if place == Place::Sandbox {
            match &mut self.sandbox {
                Some(sandbox) if sandbox.draft() != sandbox.origin() => {
                    if *sandbox.draft() != scenario {
                        sandbox.say(
                            "The run shown is the link's; the form keeps your own edit.",
                            false,
                        );
                    }
                }
                _ => self.sandbox = Some(Sandbox::new(scenario.clone())),
            }
            self.sandbox_base = Some(scenario.clone());
        }
        *self.run_slot(place) = Some(play(scenario));
    }

    fn run_slot(&mut self, place: Place) -> &mut Option<RunView> {
        match place {
            Place::Sandbox => &mut self.sandbox_run,
            _ => &mut self.library_run,
        }
    }

    /// Opens the sandbox on `scenario` (a course step's design) and starts a search for a
    /// fault schedule that breaks it: "try to break the right call". A form the learner has
    /// edited keeps their edit; only an untouched one takes `scenario`.
    pub fn find_failure(&mut self, scenario: Scenario) {
        self.sandbox_run = Some(play(scenario.clone()));
        self.sandbox_base = Some(scenario.clone());
        self.finder.start(&scenario);
        if self
            .sandbox
            .as_ref()
            .is_none_or(|s| s.draft() == s.origin())
        {
            self.sandbox = Some(Sandbox::new(scenario));
        }
        self.tab = SandboxTab::FindFailure;
    }

    /// The sandbox starts on step 5's fencing design (`step5-fencing-token.toml`: a paused
    /// holder turned away by its fencing token) already run, so that Break it has something
    /// to break.
    fn start_sandbox(&mut self) {
        let fenced = crate::scenario::library::COURSE
            .iter()
            .find(|(file, _)| *file == "step5-fencing-token.toml")
            .map(|(_, text)| crate::scenario::parse(text));
        if let Some(Ok(scenario)) = fenced {
            self.sandbox_run = Some(play(scenario.clone()));
            self.sandbox_base = Some(scenario.clone());
            let mut sandbox = Sandbox::new(scenario);
            if let Some(notice) = self.form_notice.take() {
                sandbox.say(notice, true);
            }
            self.sandbox = Some(sandbox);
        }
    }
}

/// Runs `scenario` and lays it out, titled with its name.
fn play(scenario: Scenario) -> RunView {
    lay_out(course::play(scenario))
}

/// Lays out `demo`, titled with its scenario's name, its description under the title.
fn lay_out(demo: course::Demonstration) -> RunView {
    let title = demo.scenario.name.clone();
    let about = Some(demo.scenario.description.clone()).filter(|d| !d.is_empty());
    RunView::new(demo, title, about)
}

/// Runs `edited`, marked as made from `base` ([`edit::mark`]; `previous` is the scenario it
/// was made from just now), with its own run's verdict as its `[expect]`: the expectation
/// is not part of the run, so marking after running changes nothing in it.
fn marked(base: &Scenario, previous: &Scenario, edited: Scenario) -> course::Demonstration {
    let mut demo = course::play(edited);
    let verdict = Some(demo.verdict.expectation());
    demo.scenario = edit::mark(base, previous, demo.scenario, verdict);
    demo
}

/// "Compare with…" above the sandbox's tabs: the form's scenario beside the one it was given,
/// or beside a scenario from the library, both on the form's seed. Returns the pair chosen,
/// the form's first.
fn compare_menu(
    ui: &mut Ui,
    sandbox: &Sandbox,
    library: &[super::library::Entry],
) -> Option<(Scenario, Scenario)> {
    let draft = sandbox.draft();
    let mut asked = None;
    ui.add_space(8.0);
    // Straight in the wrapping row, which moves it to the next line when it does not fit (a
    // scope around it would be placed without that check). It is the row's last widget, so
    // disabling the rest of the row disables only it.
    if draft.validate().is_err() {
        ui.disable();
    }
    menu::button(ui, "Compare with…", &mut |ui| {
        let edited = draft != sandbox.origin();
        let started = ui
            .add_enabled(
                edited,
                egui::Button::new("The scenario this edit started from"),
            )
            .on_disabled_hover_text("Nothing has been edited yet.");
        if started.clicked() {
            asked = Some((draft.clone(), sandbox.origin().clone()));
            ui.close();
        }
        ui.separator();
        ui.label(RichText::new("Or a scenario from the library:").weak());
        // One submenu per heading of the library.
        for group in library.chunk_by(|x, y| x.group == y.group) {
            menu::button(ui, group[0].group.title(), &mut |ui| {
                // The incidents are many: on a short screen they scroll.
                let tall = ui.ctx().content_rect().height() * 0.7;
                egui::ScrollArea::vertical()
                    .max_height(tall)
                    .show(ui, |ui| {
                        for entry in group {
                            if let Ok(other) = &entry.scenario
                                && ui.button(entry.file).on_hover_text(&other.name).clicked()
                            {
                                asked = Some((draft.clone(), other.clone()));
                                ui.close();
                            }
                        }
                    });
            });
        }
    })
    .on_disabled_hover_text("Fix the field marked in red first.");
    asked
}

/// The sandbox page's left panel and what it needs.
struct SandboxPanel<'a> {
    tab: &'a mut SandboxTab,
    sandbox: &'a mut Option<Sandbox>,
    break_it: &'a mut BreakIt,
    seeds: &'a mut AcrossSeeds,
    finder: &'a mut FindFailure,
    /// What "Compare with…" offers.
    library: &'a [super::library::Entry],
}

impl SandboxPanel<'_> {
    /// A tab strip with "Compare with…" at its end, then the form, Break it, Across seeds or
    /// Find a failure.
    fn show(self, ui: &mut Ui, run: Option<&RunView>) -> Option<Asked> {
        let SandboxPanel {
            tab,
            sandbox,
            break_it,
            seeds,
            finder,
            library,
        } = self;
        ui.add_space(6.0);
        let compared = ui
            .horizontal_wrapped(|ui| {
                // A label that does not fit moves whole to the next row rather than breaking.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                for (t, text) in [
                    (SandboxTab::Edit, "Edit"),
                    (SandboxTab::BreakIt, "Break it"),
                    (SandboxTab::Seeds, "Across seeds"),
                    (SandboxTab::FindFailure, "Find a failure"),
                ] {
                    ui.selectable_value(tab, t, RichText::new(text).strong());
                }
                sandbox.as_ref().and_then(|s| compare_menu(ui, s, library))
            })
            .inner;
        ui.separator();
        let panels = Panels {
            break_it,
            seeds,
            finder,
        };
        let asked = tab_body(ui, *tab, sandbox, panels, run);
        compared
            .map(|pair| Asked::Compare(Box::new(pair)))
            .or(asked)
    }
}

/// The sandbox's panels that work on the run on screen.
struct Panels<'a> {
    break_it: &'a mut BreakIt,
    seeds: &'a mut AcrossSeeds,
    finder: &'a mut FindFailure,
}

/// The body of the sandbox's tab `tab`.
fn tab_body(
    ui: &mut Ui,
    tab: SandboxTab,
    sandbox: &mut Option<Sandbox>,
    panels: Panels<'_>,
    run: Option<&RunView>,
) -> Option<Asked> {
    match tab {
        // The form scrolls by itself.
        SandboxTab::Edit => sandbox
            .as_mut()?
            .show(ui, run.map(|r| r.scenario()))
            .map(Asked::RunForm),
        SandboxTab::BreakIt | SandboxTab::Seeds | SandboxTab::FindFailure => {
            let Some(run) = run else {
                ui.label(
                    RichText::new("Run a scenario first: Edit, then Run.")
                        .italics()
                        .weak(),
                );
                return None;
            };
            // These tools work on the run on screen; edits not yet run are not in it.
            let edited = sandbox
                .as_ref()
                .map(|s| s.draft())
                .filter(|draft| *draft != run.scenario() && draft.validate().is_ok());
            // Break it says so in a slot of its own, where its buttons never move.
            if let Some(draft) = edited
                && tab != SandboxTab::BreakIt
            {
                let mut play = false;
                ui.horizontal_wrapped(|ui| {
                    ui.label(
                        RichText::new("Your form edits are not in this run yet.")
                            .color(style::ANOMALY),
                    );
                    play = ui.button("Run the form's scenario").clicked();
                });
                if play {
                    return Some(Asked::RunForm(draft.clone()));
                }
            }
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| match tab {
                    SandboxTab::BreakIt => match panels.break_it.show(
                        ui,
                        run.scenario(),
                        run.trace(),
                        run.verdict(),
                        edited.is_some(),
                    )? {
                        BreakItAsked::Run(changed) => Some(Asked::Change(*changed, None)),
                        BreakItAsked::RunForm => edited.map(|d| Asked::RunForm(d.clone())),
                    },
                    SandboxTab::Seeds => panels
                        .seeds
                        .show(ui, run.scenario(), run.changed())
                        .map(|opened| Asked::Change(opened.scenario, Some(opened.changed))),
                    _ => panels.finder.show(ui, run.scenario()).map(|ask| match ask {
                        FoundAsk::Show(s) => Asked::Change(s, Some(Vec::new())),
                        FoundAsk::Edit(s) => Asked::EditChange(s),
                    }),
                })
                .inner
        }
    }
}
