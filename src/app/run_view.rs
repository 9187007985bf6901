//! One finished run on screen: the timeline in the middle, the verdict beside it, the
//! playback bar under it. Everything derived from the run (lanes, what to watch) is worked
//! out once, when the run is made; a frame only moves the playhead and paints.

use eframe::egui::{self, RichText, Ui};

use super::lanes::{Lanes, fmt_ms};
use super::layout::{self, Arrangement, LEFT_MIN, VERDICT_MIN};
use super::playback::Playback;
use super::timeline::{self, Action, Timeline, View};
use super::{controls, style, verdict, watch};
use crate::checker::Verdict;
use crate::course::Demonstration;
use crate::scenario::Scenario;
use crate::trace::Trace;

/// A run longer than this plays faster, so that it takes this long in real time and nobody
/// waits half a minute for a verdict, ms.
const PLAY_WITHIN_MS: f64 = 10_000.0;

/// What the playback keys ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaybackKey {
    /// Play or pause (Space).
    PlayPause,
    /// To the previous moment something changed (←).
    StepBack,
    /// To the next moment something changes (→).
    StepForward,
    /// To the start (Home).
    ToStart,
    /// To the end, which tells the verdict (End).
    ToEnd,
}

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
}

impl RunView {
    /// Lays out `demo` and starts playing it from the beginning.
    pub fn new(demo: Demonstration, title: String, about: Option<String>) -> Self {
        let Demonstration {
            scenario,
            trace,
            verdict,
        } = demo;
        let lanes = Lanes::build(&trace, &verdict);
        let watch = watch::what_to_watch(&trace, &verdict);
        let mut playback = Playback::new(trace.until_ms);
        playback.set_speed(fitting_speed(trace.until_ms));
        RunView {
            title,
            about,
            changed: Vec::new(),
            view: View::fit(trace.until_ms),
            playback,
            scenario,
            trace,
            verdict,
            lanes,
            watch,
            preview: false,
            selected: None,
            seen_to_end: false,
        }
    }

    /// Notes the changes Break it made to the scenario as written (shown under the title,
    /// so its description is not taken for this run's).
    pub fn set_changed(&mut self, changed: Vec<String>) {
        self.changed = changed;
    }

    /// Plays again from the beginning, as a freshly chosen run does.
    pub fn restart(&mut self) {
        self.playback.seek(0.0);
        self.playback.toggle();
        self.view = View::fit(self.trace.until_ms);
        self.selected = None;
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
                .follow(self.playback.now_ms(), self.trace.until_ms);
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
            .reveal(self.playback.now_ms(), self.trace.until_ms);
    }

    fn note_end(&mut self) {
        if self.playback.now_ms() >= self.playback.end_ms() {
            self.seen_to_end = true;
        }
    }

    /// The playback bar.
    pub fn controls(&mut self, ui: &mut Ui) {
        let before = self.playback.now_ms();
        controls::show(
            ui,
            &mut self.playback,
            &self.lanes.moments,
            self.trace.until_ms,
            &mut self.preview,
        );
        // Moved by the slider or a step button (playing moved it earlier this frame).
        if self.playback.now_ms() != before {
            self.reveal_now();
        }
        self.note_end();
    }

    /// What the run is, then the timeline and its legend, filling `ui`.
    pub fn timeline(&mut self, ui: &mut Ui) {
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
                RichText::new(format!(
                    "Changed by Break it: {}. The description below is of the scenario as \
                     written.",
                    self.changed.join("; ")
                ))
                .strong()
                .color(style::VIOLATING),
            );
        }
        if let Some(about) = &self.about {
            ui.label(about);
        }
        ui.label(RichText::new(self.setup()).weak().small());
        ui.add_space(6.0);
        // Keep room for three rows of legend under the lanes, so the lanes do not jump as
        // the legend grows while the run plays.
        let max_height = (ui.available_height() - 96.0).max(0.0);
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
            Some(Action::Seek(ms)) => {
                self.playback.seek(ms);
                self.note_end();
            }
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
                    fmt_ms(self.trace.until_ms)
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
            self.reveal_now();
        }
    }

    /// One line on how the run is set up: design, store, resource, seed, length.
    fn setup(&self) -> String {
        let s = &self.scenario;
        let fencing = if s.resource.fencing {
            "checks fencing tokens"
        } else {
            "does not check tokens"
        };
        let mut line = format!(
            "design: {} · store: {} × {} · resource {} · seed {} · {}",
            s.lock.design.as_str(),
            s.store.topology.as_str(),
            s.store.nodes,
            fencing,
            self.trace.seed,
            fmt_ms(self.trace.until_ms)
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
            // Until there is a run, the decision has the room; then the timeline gets more.
            let (panel, share) = match run {
                Some(_) => ("left", 0.34),
                None => ("left before a run", 0.6),
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
            egui::ScrollArea::vertical()
                .auto_shrink(false)
                .show(ui, |ui| run.timeline(ui));
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

/// The verdict: badges, where to look, `note`, and the violations, scrolling if long.
fn verdict_panel(ui: &mut Ui, run: Option<&mut RunView>, note: impl FnOnce(&mut Ui)) {
    // Filling the panel: a panel along the bottom would otherwise shrink to a short first
    // verdict ("It appears here...") and keep that height.
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
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
                note(ui);
                ui.add_space(8.0);
            }
            ui.separator();
            run.violations(ui);
        });
}

/// The speed that plays a run of `until_ms` in [`PLAY_WITHIN_MS`], never slower than real
/// time (short runs are quick enough as they are).
fn fitting_speed(until_ms: u64) -> f64 {
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
