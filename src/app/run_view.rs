//! One finished run on screen: the timeline in the middle, the verdict beside it, the
//! playback bar under it. Everything derived from the run (lanes, what to watch) is worked
//! out once, when the run is made; a frame only moves the playhead and paints.

use eframe::egui::{self, RichText, Ui};

use super::fault_edit::{Change, Editing, FaultEditor, INSPECTOR_H};
use super::keys::PlaybackKey;
use super::layout::{self, Arrangement, LEFT_MIN, VERDICT_MIN};
use super::timeline::{self, Action, Timeline, View};
use super::transcript_panel::{self, Clicked, Follow, Shelf};
use super::{controls, style, verdict};
use crate::checker::Verdict;
use crate::course::Demonstration;
use crate::scenario::Scenario;
use crate::text::fmt_ms;
use crate::trace::Trace;
use crate::view::playback::Playback;
use crate::view::timeline::Lanes;
use crate::view::transcript::{Transcript, announcement};
use crate::view::watch;

/// A run longer than this plays faster, so that it takes this long in real time and nobody
/// waits half a minute for a verdict, ms.
const PLAY_WITHIN_MS: f64 = 10_000.0;

/// The narrowest middle of a page (points) that takes the transcript beside the timeline
/// rather than under it: the timeline keeps a readable width beside it.
const TRANSCRIPT_BESIDE_FROM: f32 = 900.0;
/// The transcript's height in a page that scrolls as one column, points: a few entries, its
/// own list scrolling within.
const COLUMN_TRANSCRIPT: f32 = 240.0;
/// The span of simulated time a chosen violation is shown in, ms.
const VIOLATION_SPAN_MS: f64 = 4_000.0;

/// A lane's height in a page that scrolls as one column (a phone in portrait), points:
/// room for a lane's name and its state line, and for a write's label under its mark.
const COLUMN_LANE: f32 = 64.0;
/// The most of the window's height the timeline takes in such a page: the playback bar
/// stays near it, and many lanes shrink (to their floor) rather than fill the screen.
const COLUMN_TIMELINE_SHARE: f32 = 0.6;

/// A run and how it is being watched.
pub struct RunView {
    /// Shown above the timeline: what this run is.
    title: String,
    /// Shown under the title, if the run needs an introduction (not for a course option,
    /// whose description would give the outcome away before it plays).
    about: Option<String>,
    /// What Break it changed in the scenario the title and description are of, if anything.
    changed: Vec<String>,
    scenario: Scenario,
    trace: Trace,
    verdict: Verdict,
    lanes: Lanes,
    watch: String,
    playback: Playback,
    view: View,
    preview: bool,
    selected: Option<usize>,
    /// The playhead has reached the end at least once: the verdict may be told.
    seen_to_end: bool,
    /// The run was just (re)started by a choice: a page that scrolls as one column brings
    /// it into view once.
    bring_into_view: bool,
    /// Faults placed by hand, when the page allows it.
    edit: FaultEditor,
    /// The run as a list of sentences, and how that list follows the playhead.
    transcript: Transcript,
    follow: Follow,
    /// The part of the app showing the run, whose transcript switch applies.
    shelf: Shelf,
}

impl RunView {
    /// Lays out `demo` and starts playing it from the beginning.
    pub fn new(demo: Demonstration, title: String, about: Option<String>) -> Self {
        let Demonstration {
            scenario,
            trace,
            verdict,
            ..
        } = demo;
        let lanes = Lanes::build(&trace, &verdict);
        let watch = watch::what_to_watch(&trace, &verdict);
        let transcript = Transcript::build(&trace, &verdict);
        let mut playback = Playback::new(trace.simulated_until_ms());
        playback.set_speed(fitting_speed(trace.simulated_until_ms()));
        RunView {
            title,
            about,
            changed: Vec::new(),
            view: View::fit(trace.simulated_until_ms()),
            playback,
            scenario,
            trace,
            verdict,
            lanes,
            watch,
            preview: false,
            selected: None,
            seen_to_end: false,
            bring_into_view: false,
            edit: FaultEditor::default(),
            transcript,
            follow: Follow::default(),
            shelf: Shelf::default(),
        }
    }

    /// Lets the learner place faults on this run (`editing` says which kinds), or not.
    pub fn set_editing(&mut self, editing: Option<Editing>) {
        self.edit.set_editing(editing);
    }

    /// The scenario the learner made by placing, moving or deleting faults since the last
    /// call, if any. The owner keeps it and shows its run with [`Self::replace_run`].
    pub fn take_change(&mut self) -> Option<Change> {
        self.edit.take_change()
    }

    /// Shows `demo` in place of the run on screen, as an edit of it: the zoom, the
    /// playhead (and whether it plays), whether the verdict is told, the title and the
    /// fault selected stay; a violation selected does not (the violations are new).
    pub fn replace_run(&mut self, demo: Demonstration) {
        let Demonstration {
            scenario,
            trace,
            verdict,
            ..
        } = demo;
        if trace.simulated_until_ms() != self.trace.simulated_until_ms() {
            let mut playback = Playback::new(trace.simulated_until_ms());
            playback.set_speed(self.playback.speed());
            let playing = self.playback.is_playing();
            playback.seek(self.playback.now_ms());
            if playing {
                playback.toggle();
            }
            self.playback = playback;
            self.view = View::fit(trace.simulated_until_ms());
        }
        self.lanes = Lanes::build(&trace, &verdict);
        self.watch = watch::what_to_watch(&trace, &verdict);
        self.transcript = Transcript::build(&trace, &verdict);
        self.edit.run_replaced(&scenario);
        self.scenario = scenario;
        self.trace = trace;
        self.verdict = verdict;
        self.selected = None;
        self.note_end();
    }

    /// Takes this frame's editing keys before the app reads its shortcuts (see
    /// [`FaultEditor::keys`]).
    pub fn edit_keys(&mut self, ctx: &egui::Context) {
        self.edit.keys(ctx, &self.scenario, self.playback.now_ms());
    }

    /// Titles the run with its scenario's name and description, as a run just laid out is:
    /// after [`Self::replace_run`] with an edit, whose title says what it was edited from.
    pub fn title_from_scenario(&mut self) {
        self.title = self.scenario.name.clone();
        self.about = Some(self.scenario.description.clone()).filter(|d| !d.is_empty());
    }

    /// Notes the changes Break it made to the scenario as written (shown under the title,
    /// so its description is not taken for this run's).
    pub fn set_changed(&mut self, changed: Vec<String>) {
        self.changed = changed;
    }

    /// What Break it changed in the scenario as written, in its words, oldest first.
    pub fn changed(&self) -> &[String] {
        &self.changed
    }

    /// Plays again from the beginning, as a freshly chosen run does.
    pub fn restart(&mut self) {
        self.playback.seek(0.0);
        self.playback.toggle();
        self.view = View::fit(self.trace.simulated_until_ms());
        self.selected = None;
        self.bring_into_view = true;
    }

    /// Jumps to the end: the whole run is shown and the verdict told.
    pub fn skip_to_end(&mut self) {
        self.playback.seek(self.playback.end_ms());
        self.seen_to_end = true;
    }

    /// Whether the run has been watched (or skipped) to its end.
    pub fn seen_to_end(&self) -> bool {
        self.seen_to_end
    }

    /// The scenario that was run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The run's trace.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// The checker's verdict on the run.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// Moves a playing playhead on by this frame's time; call once per frame.
    pub fn advance(&mut self, ui: &Ui) {
        if self.playback.is_playing() {
            let dt = ui.input(|i| i.stable_dt);
            self.playback.advance(f64::from(dt));
            self.view
                .follow(self.playback.now_ms(), self.trace.simulated_until_ms());
            ui.ctx().request_repaint();
        }
        self.note_end();
    }

    /// Applies a playback key.
    pub fn key(&mut self, key: PlaybackKey) {
        let before = self.playback.now_ms();
        match key {
            PlaybackKey::PlayPause => self.playback.toggle(),
            PlaybackKey::StepBack => self.playback.step_back(&self.lanes.moments),
            PlaybackKey::StepForward => self.playback.step_forward(&self.lanes.moments),
            PlaybackKey::ToStart => self.playback.seek(0.0),
            PlaybackKey::ToEnd => self.skip_to_end(),
        }
        if self.playback.now_ms() != before {
            self.reveal_now();
        }
        self.note_end();
    }

    /// Pans a zoomed-in timeline so the playhead is in view (after a click or key moved it).
    fn reveal_now(&mut self) {
        self.view
            .reveal(self.playback.now_ms(), self.trace.simulated_until_ms());
    }

    fn note_end(&mut self) {
        if self.playback.now_ms() >= self.playback.end_ms() {
            self.seen_to_end = true;
        }
    }

    /// The playback bar.
    pub fn controls(&mut self, ui: &mut Ui) {
        let before = self.playback.now_ms();
        let mut transcript = transcript_panel::shown(ui.ctx(), self.shelf);
        controls::show(
            ui,
            &mut self.playback,
            &self.lanes.moments,
            self.trace.simulated_until_ms(),
            &mut self.preview,
            Some(&mut transcript),
        );
        transcript_panel::set_shown(ui.ctx(), self.shelf, transcript);
        // Moved by the slider or a step button (playing moved it earlier this frame).
        if self.playback.now_ms() != before {
            self.reveal_now();
        }
        self.note_end();
    }

    /// What the run is, then the timeline and its legend, filling `ui`.
    fn timeline(&mut self, ui: &mut Ui) {
        // Beside the decision the run is always in view.
        self.bring_into_view = false;
        self.header(ui);
        self.palette(ui);
        // Keep room for the whole legend under the lanes, so the lanes do not jump as the
        // legend grows while the run plays, and its last rows are not cut off.
        let legend = timeline::legend_height(
            ui,
            &self.lanes.legend,
            ui.available_width(),
            self.lanes.fenced,
        );
        let inspector = if self.edit.is_on() { INSPECTOR_H } else { 0.0 };
        let max_height = (ui.available_height() - 10.0 - legend.max(60.0) - inspector).max(0.0);
        self.lanes_and_legend(ui, max_height);
    }

    /// What the run is, then the timeline at the height its lanes ask for (every lane
    /// shown, none taller than [`COLUMN_LANE`]), within `cap` points: for a page that
    /// scrolls as one column, where the room left on screen says nothing.
    fn timeline_in_column(&mut self, ui: &mut Ui, cap: f32) {
        self.header(ui);
        self.palette(ui);
        let lanes = self.lanes.lanes.len().max(1) as f32;
        let natural = crate::picture::sizes::AXIS + COLUMN_LANE * lanes;
        // The timeline keeps its lanes at least at their floor height, so a cap below what
        // the lanes need never hides one.
        self.lanes(ui, natural.min(cap));
    }

    /// The run's title, what changed, its introduction and its set-up line.
    fn header(&self, ui: &mut Ui) {
        ui.add_space(4.0);
        // Smaller on a phone, where a long title would take the timeline's room.
        let size = if ui.available_width() < 600.0 {
            15.0
        } else {
            18.0
        };
        ui.label(RichText::new(&self.title).size(size).strong());
        if !self.changed.is_empty() {
            ui.label(
                RichText::new(format!("Changed by Break it: {}.", self.changed.join("; ")))
                    .strong()
                    .color(style::VIOLATING),
            );
        }
        if let Some(about) = &self.about {
            ui.label(about);
        }
        // Presenter mode (its enlarged lanes): the room watches the run, and how it is set up
        // is the teacher's to say; on a projector its lines would take a lane's room.
        if super::timeline::text_scale(ui.ctx()) <= 1.0 {
            ui.label(RichText::new(self.setup()).weak().small());
        }
        ui.add_space(6.0);
    }

    /// The timeline, at most `max_height` tall, and its legend.
    fn lanes_and_legend(&mut self, ui: &mut Ui, max_height: f32) {
        self.lanes(ui, max_height);
        ui.add_space(10.0);
        self.legend(ui);
    }

    /// The fault palette, when faults can be placed on this run.
    fn palette(&mut self, ui: &mut Ui) {
        if self.edit.is_on() {
            self.edit
                .palette(ui, &self.scenario, self.playback.now_ms());
            ui.add_space(4.0);
        }
    }

    /// The timeline's lanes under their time axis, at most `max_height` tall; when faults
    /// can be placed, the placed ones over the lanes and the selected one's fields under them.
    fn lanes(&mut self, ui: &mut Ui, max_height: f32) {
        let shown = ui.scope(|ui| {
            Timeline {
                trace: &self.trace,
                lanes: &self.lanes,
                verdict: &self.verdict,
                now_ms: self.playback.now_ms(),
                preview: self.preview,
                selected: self.selected,
            }
            .show_labelled(ui, &mut self.view, max_height)
        });
        let (action, labels) = shown.inner;
        if self.edit.is_on() {
            let lanes = (self.lanes.lanes.len(), &labels[..]);
            self.edit
                .layer(ui, shown.response.rect, &self.view, &self.scenario, lanes);
            self.edit.inspector(ui, &self.scenario);
        }
        match action {
            Some(Action::Seek(ms)) => {
                self.playback.seek(ms);
                self.note_end();
            }
            Some(Action::Select(i)) => self.select(i),
            None => {}
        }
    }

    /// The transcript, filling `ui`; a click on an entry moves the playhead to it.
    fn transcript(&mut self, ui: &mut Ui) {
        let clicked = transcript_panel::Panel {
            transcript: &self.transcript,
            trace: &self.trace,
            verdict: &self.verdict,
            now_ms: self.playback.now_ms(),
            ahead: self.preview || self.seen_to_end,
            told: self.seen_to_end,
        }
        .show(ui, &mut self.follow);
        match clicked {
            Some(Clicked::Seek(ms)) => {
                self.playback.seek(ms);
                self.reveal_now();
                self.note_end();
            }
            Some(Clicked::Violation(i)) => self.select(i),
            None => {}
        }
    }

    /// Tells screen readers (the web page's live region) the entry at the playhead, and the
    /// verdict once told.
    fn announce(&self, ctx: &egui::Context) {
        let text = announcement(
            &self.transcript,
            &self.trace,
            &self.verdict,
            self.playback.now_ms(),
            self.seen_to_end,
        );
        transcript_panel::announce(ctx, text);
    }

    /// What the timeline's marks mean, for those drawn so far.
    fn legend(&self, ui: &mut Ui) {
        let shown_until = if self.preview {
            self.trace.simulated_until_ms() as f64
        } else {
            self.playback.now_ms()
        };
        timeline::legend(ui, &self.lanes.legend, shown_until, self.lanes.fenced);
    }

    /// The verdict once the run has been seen to its end (until then, a note that it is
    /// coming and a way to skip there), and the line saying where to look.
    pub fn verdict_head(&mut self, ui: &mut Ui) {
        if self.seen_to_end {
            verdict::badges(ui, &self.verdict);
        } else {
            ui.label(
                RichText::new(format!(
                    "Playing… {} of {}",
                    fmt_ms(self.playback.now_ms().round() as u64),
                    fmt_ms(self.trace.simulated_until_ms())
                ))
                .strong(),
            );
            ui.label(RichText::new("The verdict comes when the run ends.").weak());
            if ui.button("Skip to the end  (End)").clicked() {
                self.skip_to_end();
            }
        }
        ui.add_space(6.0);
        ui.label(
            RichText::new(&self.watch)
                .strong()
                .color(ui.visuals().hyperlink_color),
        );
    }

    /// The violations found so far, each clickable.
    pub fn violations(&mut self, ui: &mut Ui) {
        let now = self.playback.now_ms();
        if let Some(i) =
            verdict::violations(ui, &self.verdict, now, self.seen_to_end, self.selected)
        {
            self.select(i);
        }
    }

    /// Selects violation `i` and moves the playhead to it.
    fn select(&mut self, i: usize) {
        self.selected = Some(i);
        if let Some(v) = self.verdict.violations.get(i) {
            self.playback.seek(v.at_ms as f64);
            // Close enough that the writes the violation names stand apart (a double click
            // on the timeline shows the whole run again).
            self.view.close_up(
                v.at_ms as f64,
                VIOLATION_SPAN_MS,
                self.trace.simulated_until_ms(),
            );
        }
    }

    /// One line on how the run is set up: design, store, resource, seed, length.
    fn setup(&self) -> String {
        let s = &self.scenario;
        let fencing = crate::view::wording::resource_checks(&s.resource);
        let mut line = format!(
            "design: {} · store: {} × {} · resource {} · seed {} · {}",
            s.lock.design.as_str(),
            s.store.topology.as_str(),
            s.store.nodes,
            fencing,
            self.trace.seed,
            fmt_ms(self.trace.simulated_until_ms())
        );
        if !s.source.is_empty() {
            line.push_str(&format!(" · source: {}", s.source));
        }
        line
    }
}

/// Lays out a page with a run: `left` (the decision, or a tool, shown the run), the timeline,
/// the playback bar under the timeline, and the verdict. `note` goes under the verdict once
/// it is told; `empty` fills the middle while there is no run. `page` names the page: each
/// page keeps its own panel sizes, so a panel widened on one page does not squash another's
/// timeline.
///
/// The arrangement follows the width ([`Arrangement`]): three columns on a wide window; on a
/// narrower one the verdict moves under the timeline; on a phone in portrait everything is
/// one column, `left` above the timeline and the verdict under it. Every panel can be
/// resized and scrolls what does not fit.
pub fn show_run(
    ui: &mut Ui,
    page: &'static str,
    mut run: Option<&mut RunView>,
    left: impl FnOnce(&mut Ui, Option<&RunView>),
    empty: &str,
    note: impl FnOnce(&mut Ui),
) {
    let size = ui.available_size();
    let arrangement = Arrangement::for_width(size.x);
    // Panels start at a share of the window, within readable bounds; a learner's own
    // resizing is kept from then on (not across restarts: egui's memory is not saved). Each
    // page, arrangement and zoom level (presenter mode is one) keeps its own sizes: a size
    // chosen on one page or at one scale would crowd out the timeline on another.
    let zoom = (ui.ctx().zoom_factor() * 10.0).round() as u32;
    let id = |panel: &'static str| (panel, page, arrangement, zoom);
    if let Some(run) = run.as_deref_mut() {
        run.shelf = if page == "course" {
            Shelf::Course
        } else {
            Shelf::Tools
        };
    }
    match arrangement {
        Arrangement::Columns => {
            playback_bar(ui, run.as_deref_mut());
            egui::Panel::left(id("left"))
                .resizable(true)
                .default_size(layout::fit(size.x * 0.29, 290.0, 480.0))
                .size_range(layout::range(LEFT_MIN, (size.x * 0.4).min(520.0)))
                .show(ui, |ui| {
                    ui.set_max_width(ui.available_width());
                    left(ui, run.as_deref())
                });
            egui::Panel::right(id("verdict"))
                .resizable(true)
                .default_size(layout::fit(size.x * 0.23, 250.0, 400.0))
                .size_range(layout::range(VERDICT_MIN, (size.x * 0.3).min(460.0)))
                .show(ui, |ui| verdict_panel(ui, run.as_deref_mut(), note));
        }
        Arrangement::Split => {
            egui::Panel::left(id("left"))
                .resizable(true)
                .default_size(layout::fit(size.x * 0.36, LEFT_MIN, 400.0))
                .size_range(layout::range(LEFT_MIN, size.x * 0.5))
                .show(ui, |ui| {
                    ui.set_max_width(ui.available_width());
                    left(ui, run.as_deref())
                });
            verdict_below(ui, id("verdict"), size.y, 0.24, run.as_deref_mut(), note);
            playback_bar(ui, run.as_deref_mut());
        }
        Arrangement::Stacked => {
            // Until there is a run, the tool has the room; then the timeline gets most of it,
            // less on the sandbox, whose form and tabs are what a learner works in there.
            let share = match (run.is_some(), page) {
                (false, _) => 0.6,
                (true, "sandbox") => 0.36,
                (true, _) => 0.22,
            };
            let panel = if run.is_some() {
                "left"
            } else {
                "left before a run"
            };
            egui::Panel::top(id(panel))
                .resizable(true)
                .default_size(layout::fit(size.y * share, 160.0, 520.0))
                .size_range(layout::range(120.0, size.y * 0.7))
                .show(ui, |ui| {
                    ui.set_max_width(ui.available_width());
                    left(ui, run.as_deref())
                });
            verdict_below(ui, id("verdict"), size.y, 0.2, run.as_deref_mut(), note);
            playback_bar(ui, run.as_deref_mut());
        }
    }
    egui::CentralPanel::default().show(ui, |ui| match run {
        // Scrolls only if the window is too short for the lanes and the legend together.
        Some(run) => {
            let transcript = transcript_panel::shown(ui.ctx(), run.shelf);
            // On a phone the transcript follows the timeline, a scroll away. Elsewhere it has a
            // panel of its own, so that a projector's 1024×768 shows its latest entry too.
            let paneled = arrangement != Arrangement::Stacked;
            if transcript && paneled {
                transcript_beside_or_under(ui, run, id("transcript beside"), id("transcript"));
            }
            egui::ScrollArea::vertical()
                .auto_shrink(false)
                .show(ui, |ui| {
                    run.timeline(ui);
                    if transcript && !paneled {
                        ui.add_space(6.0);
                        let size = egui::vec2(ui.available_width(), COLUMN_TRANSCRIPT);
                        ui.allocate_ui(size, |ui| {
                            ui.set_min_size(size);
                            run.transcript(ui);
                        });
                    }
                });
            run.announce(ui.ctx());
        }
        None => {
            ui.add_space(ui.available_height() * 0.3);
            // Wrapped to the panel (narrow in presenter mode), centred.
            let width = layout::fit(ui.available_width() - 24.0, 120.0, 520.0);
            ui.vertical_centered(|ui| {
                ui.allocate_ui(egui::vec2(width, 0.0), |ui| {
                    ui.label(RichText::new(empty).size(17.0).weak());
                });
            });
        }
    });
}

/// Lays out a page with a run as one column that scrolls as a whole, for a phone in portrait
/// ([`Arrangement::Stacked`]): `top` (the decision) at its natural height, then the run —
/// its title, the timeline tall enough for every lane, the playback bar, the legend, the verdict
/// with `note` under it — then `bottom`. Nothing in it scrolls by itself, so no small panel keeps
/// part of its content under its own fold. `empty` stands in for the run while there is none.
///
/// A run just chosen is scrolled into view (as much of it as fits, its title first): on a
/// phone the options fill the screen, and the run would otherwise start below the fold.
pub fn show_column(
    ui: &mut Ui,
    run: Option<&mut RunView>,
    top: impl FnOnce(&mut Ui),
    empty: &str,
    note: impl FnOnce(&mut Ui),
    bottom: impl FnOnce(&mut Ui),
) {
    let cap = ui.available_height() * COLUMN_TIMELINE_SHARE;
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink(false)
            .show(ui, |ui| {
                let width = ui.available_width();
                ui.set_max_width(width);
                top(ui);
                ui.separator();
                let Some(run) = run else {
                    ui.add_space(12.0);
                    ui.label(RichText::new(empty).size(17.0).weak());
                    ui.add_space(12.0);
                    bottom(ui);
                    return;
                };
                let from = ui.cursor().top();
                run.timeline_in_column(ui, cap);
                // The bar right under the lanes: the legend grows as the run plays, and would
                // push it down while the learner reaches for it.
                within(ui, width, |ui| run.controls(ui));
                if std::mem::take(&mut run.bring_into_view) {
                    let left = ui.cursor().left();
                    let shown = egui::Rect::from_x_y_ranges(
                        left..=left + width,
                        layout::range(from, ui.cursor().top()),
                    );
                    ui.scroll_to_rect(shown, None);
                }
                ui.add_space(10.0);
                within(ui, width, |ui| run.legend(ui));
                run.shelf = Shelf::Course;
                if transcript_panel::shown(ui.ctx(), Shelf::Course) {
                    ui.add_space(6.0);
                    let size = egui::vec2(width, COLUMN_TRANSCRIPT);
                    ui.allocate_ui(size, |ui| {
                        ui.set_min_size(size);
                        run.transcript(ui);
                    });
                }
                run.announce(ui.ctx());
                within(ui, width, |ui| {
                    ui.add_space(4.0);
                    ui.separator();
                    verdict_body(ui, Some(run), note);
                    ui.add_space(8.0);
                    bottom(ui);
                });
            });
    });
}

/// Adds `add` under what `ui` holds, wrapped to `width` points. The timeline keeps a readable
/// width and overhangs a screen narrower than that (presenter mode's large type on a phone),
/// as a legend entry too long for a line does; what follows them still wraps to the screen.
fn within(ui: &mut Ui, width: f32, add: impl FnOnce(&mut Ui)) {
    let rect = egui::Rect::from_min_size(
        ui.cursor().min,
        egui::vec2(width, ui.available_height().max(0.0)),
    );
    ui.scope_builder(egui::UiBuilder::new().max_rect(rect), add);
}

/// The transcript in a panel of its own inside the middle of the page: beside the timeline
/// when the middle is wide enough for both ([`TRANSCRIPT_BESIDE_FROM`]), else under it.
fn transcript_beside_or_under(
    ui: &mut Ui,
    run: &mut RunView,
    beside: impl egui::AsIdSalt,
    under: impl egui::AsIdSalt,
) {
    let size = ui.available_size();
    if size.x >= TRANSCRIPT_BESIDE_FROM {
        egui::Panel::right(beside)
            .resizable(true)
            .default_size(layout::fit(size.x * 0.34, 260.0, 440.0))
            .size_range(layout::range(220.0, size.x * 0.5))
            .show(ui, |ui| run.transcript(ui));
    } else {
        egui::Panel::bottom(under)
            .resizable(true)
            .default_size(layout::fit(size.y * 0.22, 110.0, 240.0))
            .size_range(layout::range(80.0, size.y * 0.6))
            .show(ui, |ui| run.transcript(ui));
    }
}

/// The playback bar along the bottom, when there is a run.
fn playback_bar(ui: &mut Ui, run: Option<&mut RunView>) {
    if let Some(run) = run {
        egui::Panel::bottom("playback").show(ui, |ui| run.controls(ui));
    }
}

/// The verdict in a panel along the bottom, under the timeline: at first `share` of the
/// window's `height`, within readable bounds.
fn verdict_below(
    ui: &mut Ui,
    id: impl egui::AsIdSalt,
    height: f32,
    share: f32,
    run: Option<&mut RunView>,
    note: impl FnOnce(&mut Ui),
) {
    egui::Panel::bottom(id)
        .resizable(true)
        .default_size(layout::fit(height * share, 100.0, 300.0))
        .size_range(layout::range(72.0, height * 0.5))
        .show(ui, |ui| verdict_panel(ui, run, note));
}

/// The verdict in a panel of its own, scrolling if long.
fn verdict_panel(ui: &mut Ui, run: Option<&mut RunView>, note: impl FnOnce(&mut Ui)) {
    // Filling the panel: a panel along the bottom would otherwise shrink to a short first
    // verdict ("It appears here...") and keep that height.
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| verdict_body(ui, run, note));
}

/// The verdict: badges, where to look, `note`, and the violations.
fn verdict_body(ui: &mut Ui, run: Option<&mut RunView>, note: impl FnOnce(&mut Ui)) {
    ui.add_space(8.0);
    ui.heading("Verdict");
    ui.add_space(4.0);
    let Some(run) = run else {
        ui.label(RichText::new("It appears here when a run ends.").weak());
        return;
    };
    run.verdict_head(ui);
    ui.add_space(8.0);
    if run.seen_to_end() {
        // The page's word on the run (right or wrong, a challenge won) before the Export
        // menu: on a phone the panel is short.
        note(ui);
        ui.add_space(8.0);
        let exported = super::export::Run {
            scenario: run.scenario(),
            trace: run.trace(),
            verdict: run.verdict(),
        };
        super::export::menu(ui, exported);
        ui.add_space(8.0);
    }
    ui.separator();
    run.violations(ui);
}

/// The speed that plays a run of `until_ms` in [`PLAY_WITHIN_MS`], never slower than real
/// time (short runs are quick enough as they are).
pub(super) fn fitting_speed(until_ms: u64) -> f64 {
    (until_ms as f64 / PLAY_WITHIN_MS).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_runs_play_faster() {
        assert_eq!(fitting_speed(8_000), 1.0);
        assert_eq!(fitting_speed(20_000), 2.0);
        assert_eq!(fitting_speed(60_000), 6.0);
    }
}
