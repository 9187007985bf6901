//! Two runs side by side on one seed ([`crate::view::compare`]): the two timelines stacked on
//! one time axis, each titled, with its verdict beside it (above it on a narrow window); a
//! marker at the first moment they part, captioned at the top; one playhead, so playing,
//! stepping or scrubbing either timeline moves both. The page scrolls when the two do not fit
//! the window's height.
//!
//! Opened from a course step (the learner's call beside the right one, or another option)
//! and from the sandbox (its scenario beside a library scenario, or beside where the edit
//! started); it covers the page it was opened on until closed.

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Rect, RichText, Sense, Stroke, Ui, pos2,
};

use super::keys::PlaybackKey;
use super::run_view::fitting_speed;
use super::timeline::{self, Action, Timeline, View};
use super::verdict::whole_numbers;
use super::{controls, layout, style};
use crate::course::STEPS;
use crate::course::progress::Place;
use crate::picture::sizes::AXIS;
use crate::scenario::Scenario;
use crate::text::fmt_ms;
use crate::view::compare::{self, Comparison, Side};
use crate::view::link::Compared;
use crate::view::playback::Playback;

/// The first difference's marker, tag and caption: a hue no lane, mark or playhead uses.
const MARKER: Color32 = Color32::from_rgb(205, 40, 150);
/// From this width (points) each verdict sits to the right of its timeline; below it, above
/// the timeline, so the plots keep their width on a tablet or a phone.
const VERDICT_BESIDE_FROM: f32 = 900.0;
/// Below this width (points) the page's head is shorter and its caption starts a line.
const NARROW: f32 = 600.0;
/// The verdict column's width beside a timeline, points.
const VERDICT_WIDTH: f32 = 280.0;
/// The tallest a lane gets, points: two timelines share the window, so neither takes it all.
const LANE_MAX: f32 = 80.0;
/// The shortest, points: room for a write's label under its mark. A window too short for
/// both timelines at this height scrolls.
const LANE_MIN: f32 = 64.0;
/// The height of the strip under a timeline that holds the first difference's tag, points.
const TAG_STRIP: f32 = 16.0;
/// A first guess at the height of what is not a timeline (the head, the titles, the lines
/// beside or under the timelines, the legend), points; measured from then on.
const AROUND_TIMELINES: f32 = 220.0;

/// Two runs and the one playhead over both.
pub struct CompareView {
    /// The page it was opened on, which it covers.
    place: Place,
    /// How a link names this comparison.
    carried: Compared,
    comparison: Comparison,
    playback: Playback,
    /// The window of time in view, shared by both timelines.
    view: View,
    preview: bool,
    /// The violation selected on each side, if any.
    selected: [Option<usize>; 2],
    /// The height of the page's content that is not a timeline, as last drawn, points.
    around: f32,
}

impl CompareView {
    /// Option `a` of step `n` (the learner's call) above option `b`; `None` if the step or
    /// an option does not exist or cannot be read.
    pub fn of_options(n: usize, a: usize, b: usize) -> Option<Self> {
        let comparison = compare::of_options(STEPS.get(n)?, a, b)?.ok()?;
        Some(Self::new(
            Place::Step(n),
            Compared::Options(a, b),
            comparison,
        ))
    }

    /// Scenario `a` (the tool page's) above `b`, opened on `place`.
    pub fn of_scenarios(place: Place, a: Scenario, b: Scenario) -> Self {
        let carried = Compared::Against(Box::new(b.clone()));
        Self::new(place, carried, compare::of_scenarios(a, b))
    }

    fn new(place: Place, carried: Compared, comparison: Comparison) -> Self {
        let mut playback = Playback::new(comparison.until_ms);
        playback.set_speed(fitting_speed(comparison.until_ms));
        CompareView {
            place,
            carried,
            view: View::fit(comparison.until_ms),
            comparison,
            playback,
            preview: false,
            selected: [None, None],
            around: AROUND_TIMELINES,
        }
    }

    /// The page it covers.
    pub fn place(&self) -> Place {
        self.place
    }

    /// What a link to it carries: the upper scenario, when the page does not name it (a tool
    /// page), and the comparison.
    pub fn carried(&self) -> (Option<Scenario>, Compared) {
        let upper = match self.carried {
            Compared::Options(..) => None,
            Compared::Against(_) => Some(self.comparison.a.scenario.clone()),
        };
        (upper, self.carried.clone())
    }

    /// Applies a playback key to the one playhead.
    pub fn key(&mut self, key: PlaybackKey) {
        let moments = &self.comparison.moments;
        match key {
            PlaybackKey::PlayPause => self.playback.toggle(),
            PlaybackKey::StepBack => self.playback.step_back(moments),
            PlaybackKey::StepForward => self.playback.step_forward(moments),
            PlaybackKey::ToStart => self.playback.seek(0.0),
            PlaybackKey::ToEnd => self.playback.seek(self.playback.end_ms()),
        }
        self.reveal_now();
    }

    fn reveal_now(&mut self) {
        self.view
            .reveal(self.playback.now_ms(), self.comparison.until_ms);
    }

    fn side_ref(&self, i: usize) -> &Side {
        if i == 0 {
            &self.comparison.a
        } else {
            &self.comparison.b
        }
    }

    /// Draws the page; returns whether the learner closed it.
    pub fn show(&mut self, ui: &mut Ui) -> bool {
        if self.playback.is_playing() {
            let dt = ui.input(|i| i.stable_dt);
            self.playback.advance(f64::from(dt));
            self.view
                .follow(self.playback.now_ms(), self.comparison.until_ms);
            ui.ctx().request_repaint();
        }
        egui::Panel::bottom("compare-playback").show(ui, |ui| {
            let before = self.playback.now_ms();
            controls::show(
                ui,
                &mut self.playback,
                &self.comparison.moments,
                self.comparison.until_ms,
                &mut self.preview,
                None,
            );
            if self.playback.now_ms() != before {
                self.reveal_now();
            }
        });
        let mut closed = false;
        egui::CentralPanel::default().show(ui, |ui| {
            let height = ui.available_height();
            let share = ((height - self.around) / 2.0).max(0.0);
            let shown = egui::ScrollArea::vertical()
                .auto_shrink(false)
                .show(ui, |ui| {
                    ui.set_max_width(ui.available_width());
                    closed = self.head(ui);
                    let upper = self.side(ui, 0, share);
                    ui.separator();
                    let timelines = upper + self.side(ui, 1, share);
                    ui.add_space(8.0);
                    let shown_until = if self.preview {
                        self.comparison.until_ms as f64
                    } else {
                        self.playback.now_ms()
                    };
                    let fenced = self.comparison.a.lanes.fenced || self.comparison.b.lanes.fenced;
                    timeline::legend(ui, &self.comparison.legend, shown_until, fenced);
                    ui.add_space(4.0);
                    timelines
                });
            // What is not a timeline, measured: from the next frame the timelines share the
            // rest of the window's height.
            let around = shown.content_size.y - shown.inner;
            if (around - self.around).abs() > 1.0 {
                self.around = around;
                ui.ctx().request_repaint();
            }
        });
        closed
    }

    /// The way back, what the page is, and where the runs first differ. Returns whether
    /// Back was pressed.
    fn head(&mut self, ui: &mut Ui) -> bool {
        ui.add_space(4.0);
        let mut back = false;
        let mut jump = false;
        ui.horizontal_wrapped(|ui| {
            let to = match self.place {
                Place::Step(_) => "← Back to the step",
                _ => "← Back to the run",
            };
            back = ui.button(to).clicked();
            ui.label(RichText::new("Side by side").size(18.0).strong());
            let narrow = ui.available_width() < NARROW;
            let about = if narrow {
                format!("seed {} for both", self.comparison.seed)
            } else {
                format!(
                    "both run with seed {} · one playhead moves both",
                    self.comparison.seed
                )
            };
            ui.label(RichText::new(about).weak());
            // On a phone the caption starts a line of its own rather than wherever it wraps.
            if narrow {
                ui.end_row();
            } else {
                ui.add_space(12.0);
            }
            ui.label(
                RichText::new(self.comparison.caption())
                    .strong()
                    .color(MARKER),
            );
            if self.comparison.divergence.is_some() {
                jump = ui
                    .button("Jump there")
                    .on_hover_text("Move the playhead to the first difference")
                    .clicked();
            }
        });
        if jump && let Some(d) = &self.comparison.divergence {
            self.playback.seek(d.at_ms as f64);
            self.reveal_now();
        }
        back
    }

    /// Side `i`: its title, its verdict, its timeline with the markers over it, what it did
    /// at the first difference and what it had just done at the playhead. The title, the
    /// verdict and the lines go beside the timeline on a wide window (which then has the
    /// window's height for the lanes), above and under it on a narrow one.
    /// `share` is the height the timeline may take, points; returns the height it took.
    fn side(&mut self, ui: &mut Ui, i: usize, share: f32) -> f32 {
        let side = self.side_ref(i);
        let lanes = side.lanes.lanes.len().max(1) as f32;
        let cap = layout::fit(share, AXIS + LANE_MIN * lanes, AXIS + LANE_MAX * lanes);
        ui.add_space(6.0);
        let (action, height) = if ui.available_width() >= VERDICT_BESIDE_FROM {
            let plot_width =
                ui.available_width() - VERDICT_WIDTH - 2.0 * ui.spacing().item_spacing.x;
            ui.horizontal_top(|ui| {
                let shown = ui
                    .allocate_ui_with_layout(
                        egui::vec2(plot_width, 0.0),
                        egui::Layout::top_down(egui::Align::Min),
                        |ui| self.timeline(ui, i, cap),
                    )
                    .inner;
                ui.allocate_ui_with_layout(
                    egui::vec2(VERDICT_WIDTH, 0.0),
                    egui::Layout::top_down(egui::Align::Min),
                    |ui| {
                        title(ui, self.side_ref(i));
                        verdict(ui, self.side_ref(i));
                        self.notes(ui, i);
                    },
                );
                shown
            })
            .inner
        } else {
            title(ui, side);
            verdict(ui, side);
            ui.add_space(4.0);
            let shown = self.timeline(ui, i, cap);
            self.notes(ui, i);
            shown
        };
        match action {
            Some(Action::Seek(ms)) => self.playback.seek(ms),
            Some(Action::Select(v)) => {
                self.selected = [None, None];
                self.selected[i] = Some(v);
                if let Some(v) = self.side_ref(i).verdict.violations.get(v) {
                    self.playback.seek(v.at_ms as f64);
                    self.reveal_now();
                }
            }
            None => {}
        }
        height
    }

    /// What side `i` did at the first difference, and what it had just done at the playhead.
    fn notes(&self, ui: &mut Ui, i: usize) {
        let side = self.side_ref(i);
        ui.add_space(4.0);
        if let (Some(d), Some(details)) = (&self.comparison.divergence, self.comparison.details()) {
            ui.label(
                RichText::new(whole_numbers(&format!(
                    "At the first difference ({}): {}",
                    fmt_ms(d.at_ms),
                    details[i]
                )))
                .small()
                .color(MARKER),
            );
        }
        let now = self.playback.now_ms();
        let at = fmt_ms(now.round() as u64);
        let line = match side.latest(now) {
            Some(t) => format!(
                "{}, at the playhead ({at}): {} (at {})",
                side.tag,
                t.line(),
                fmt_ms(t.at_ms)
            ),
            None => format!(
                "{}, at the playhead ({at}): nothing has happened yet",
                side.tag
            ),
        };
        ui.label(RichText::new(whole_numbers(&line)).small().weak());
    }

    /// Side `i`'s timeline at most `cap` tall, with where its run ends (if the other runs
    /// longer) and the first difference drawn over it, and a strip under it for the
    /// difference's tag. Returns what the learner did on it and its height.
    fn timeline(&mut self, ui: &mut Ui, i: usize, cap: f32) -> (Option<Action>, f32) {
        let CompareView {
            comparison,
            playback,
            view,
            preview,
            selected,
            ..
        } = self;
        let side = if i == 0 { &comparison.a } else { &comparison.b };
        let shown = ui.scope(|ui| {
            Timeline {
                trace: &side.trace,
                lanes: &side.lanes,
                verdict: &side.verdict,
                now_ms: playback.now_ms(),
                preview: *preview,
                selected: selected[i],
            }
            .show(ui, view, cap)
        });
        // Each timeline reads the keys that zoom: the second must not zoom again.
        if i == 0 {
            swallow_zoom_keys(ui);
        }
        let rect = shown.response.rect;
        let (strip, _) =
            ui.allocate_exact_size(egui::vec2(rect.width(), TAG_STRIP), Sense::hover());
        let lanes_top = rect.top() + AXIS;
        let painter = ui.painter_at(rect.union(strip));
        if side.ends_ms() < comparison.until_ms
            && let Some(x) = timeline::x_of(rect, view, side.ends_ms() as f64)
        {
            let over = Rect::from_min_max(pos2(x, lanes_top), rect.right_bottom());
            // Greyed, on either theme: nothing happens there in this run.
            painter.rect_filled(
                over,
                0.0,
                ui.visuals().weak_text_color().gamma_multiply(0.15),
            );
            painter.text(
                pos2(x + 4.0, lanes_top + 4.0),
                Align2::LEFT_TOP,
                "this run ends here",
                FontId::proportional(11.0),
                ui.visuals().weak_text_color(),
            );
        }
        if let Some(d) = &comparison.divergence
            && let Some(x) = timeline::x_of(rect, view, d.at_ms as f64)
        {
            paint_marker(&painter, x, lanes_top, strip);
        }
        (shown.inner, rect.height())
    }
}

/// The first difference's marker: a dashed line down the lanes into `strip` under them,
/// where its tag goes.
fn paint_marker(painter: &egui::Painter, x: f32, top: f32, strip: Rect) {
    painter.add(egui::Shape::dashed_line(
        &[pos2(x, top), pos2(x, strip.bottom())],
        Stroke::new(2.0, MARKER),
        6.0,
        4.0,
    ));
    let galley = painter.layout_no_wrap(
        "first difference".to_string(),
        FontId::proportional(11.0),
        Color32::WHITE,
    );
    let size = galley.size() + egui::vec2(8.0, 2.0);
    // Right of the line, or left of it near the right edge.
    let left = if x + size.x > strip.right() {
        x - size.x
    } else {
        x
    };
    let tag = Rect::from_min_size(pos2(left, strip.bottom() - size.y), size);
    painter.rect_filled(tag, 2.0, MARKER);
    painter.galley(tag.min + egui::vec2(4.0, 1.0), galley, Color32::WHITE);
}

/// What side is, above its verdict: the timeline's label.
fn title(ui: &mut Ui, side: &Side) {
    ui.label(RichText::new(&side.title).size(15.5).strong());
    ui.add_space(4.0);
}

/// Side's verdict in words, framed in its colour (red if the data went wrong, purple if work
/// stopped, green if neither), its badges' words in bold.
fn verdict(ui: &mut Ui, side: &Side) {
    let color = match (side.verdict.safe, side.verdict.live) {
        (false, _) => style::VIOLATING,
        (true, false) => style::LIVENESS,
        (true, true) => style::SAFE,
    };
    let words = whole_numbers(&side.verdict_in_words());
    let (badges, rest) = words.split_once(". ").unwrap_or((&words, ""));
    egui::Frame::new()
        .stroke(Stroke::new(1.5, color))
        .corner_radius(CornerRadius::same(6))
        .inner_margin(8)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            let mut job = egui::text::LayoutJob::default();
            let style = ui.style();
            RichText::new(format!("{badges}. "))
                .strong()
                .color(color)
                .append_to(
                    &mut job,
                    style,
                    egui::FontSelection::Default,
                    egui::Align::Min,
                );
            RichText::new(rest)
                .color(ui.visuals().text_color())
                .append_to(
                    &mut job,
                    style,
                    egui::FontSelection::Default,
                    egui::Align::Min,
                );
            ui.label(job);
        });
}

/// Drops this frame's presses of the timeline's zoom keys (`+`, `=`, `-`, `0`), once the
/// first timeline has acted on them.
fn swallow_zoom_keys(ui: &Ui) {
    use egui::Key;
    ui.input_mut(|i| {
        i.events.retain(|e| {
            !matches!(
                e,
                egui::Event::Key {
                    key: Key::Plus | Key::Equals | Key::Minus | Key::Num0,
                    pressed: true,
                    ..
                }
            )
        });
    });
}
