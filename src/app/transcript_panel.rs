//! The transcript beside or under a run's timeline: each entry of [`Transcript`] as a row,
//! its time, its node and its sentence, the entry at the playhead highlighted and kept in
//! view as the run plays. Clicking a row moves the playhead to its moment.
//!
//! Only the rows in view are laid out (`ScrollArea::show_rows`), each at the same height, so
//! a run of 100 000 events scrolls as fast as one of ten. A row's sentence wraps to a few
//! lines and is cut with "…" beyond them; its whole sentence is its hover text and its name
//! in the accessibility tree, where the row at the playhead is marked selected.
//!
//! Whether the panel is shown is kept per part of the app ([`Transcripts`], saved with the
//! progress). What a screen reader should hear of the run — the entry at the playhead, then
//! the verdict once told — is left in egui's memory each frame ([`announce`]) for the web
//! page to mirror into its live region.

use eframe::egui::{self, Id, Rect, RichText, Sense, Ui, text::LayoutJob, vec2};

use super::style;
use crate::checker::Verdict;
use crate::course::progress::Transcripts;
use crate::trace::Trace;
use crate::view::transcript::{Source, Transcript, Words, verdict_words};

/// The part of the app a run is shown in: each keeps its own transcript switch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shelf {
    /// A course step.
    Course,
    /// The sandbox or the library.
    #[default]
    Tools,
}

fn switches_id() -> Id {
    Id::unique("locksim.transcript.shown")
}

fn announcement_id() -> Id {
    Id::unique("locksim.transcript.announcement")
}

/// Puts the saved switches where the pages read them this frame.
pub fn load(ctx: &egui::Context, saved: Transcripts) {
    ctx.data_mut(|d| d.insert_temp(switches_id(), saved));
}

/// The switches as the learner left them this frame, to be saved.
pub fn switches(ctx: &egui::Context) -> Transcripts {
    ctx.data(|d| d.get_temp(switches_id())).unwrap_or_default()
}

/// Whether runs on `shelf` show their transcript.
pub fn shown(ctx: &egui::Context, shelf: Shelf) -> bool {
    let s = switches(ctx);
    match shelf {
        Shelf::Course => s.course,
        Shelf::Tools => s.tools,
    }
}

/// Shows or hides the transcript of runs on `shelf`.
pub fn set_shown(ctx: &egui::Context, shelf: Shelf, on: bool) {
    let mut s = switches(ctx);
    match shelf {
        Shelf::Course => s.course = on,
        Shelf::Tools => s.tools = on,
    }
    load(ctx, s);
}

/// Forgets what was to be announced: called at the start of a frame, so a page without a run
/// announces nothing.
pub fn clear_announcement(ctx: &egui::Context) {
    ctx.data_mut(|d| d.remove_temp::<String>(announcement_id()));
}

/// Notes what a screen reader should hear of the run on screen this frame.
pub fn announce(ctx: &egui::Context, text: String) {
    ctx.data_mut(|d| d.insert_temp(announcement_id(), text));
}

/// Adds `line` after what the run on screen announced this frame: a page's own outcome that it
/// shows in words and colour beside the run (a challenge won or not yet).
pub fn announce_also(ctx: &egui::Context, line: &str) {
    let text = match announcement(ctx) {
        run if run.is_empty() => line.to_string(),
        run => format!("{run}\n{line}"),
    };
    announce(ctx, text);
}

/// What the run on screen this frame announced (empty when there is none).
pub fn announcement(ctx: &egui::Context) -> String {
    ctx.data(|d| d.get_temp(announcement_id()))
        .unwrap_or_default()
}

/// What the learner did in the transcript.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Clicked {
    /// Move the playhead to this time, ms.
    Seek(f64),
    /// Select violation `i` of the verdict.
    Violation(usize),
}

/// How the list follows the playhead: what it last brought into view, the scroll offset
/// still to reach, and where the list was scrolled, how tall it was and how far it could
/// scroll in the last frame, points.
#[derive(Clone, Debug, Default)]
pub struct Follow {
    followed: Followed,
    target: Option<f32>,
    offset: f32,
    height: f32,
    max: f32,
}

/// What the list was scrolled for: the entry at the playhead, whether the verdict was told
/// under it, and the list's height and row pitch then, points. A change in any of them (the
/// panel settling on its size, its rows wrapping to another number of lines) scrolls again.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Followed {
    current: Option<usize>,
    told: bool,
    view: f32,
    pitch: f32,
}

/// What the panel shows of one run at one moment.
pub struct Panel<'a> {
    /// The run's entries.
    pub transcript: &'a Transcript,
    /// The run's trace.
    pub trace: &'a Trace,
    /// The run's verdict.
    pub verdict: &'a Verdict,
    /// The playhead, true ms.
    pub now_ms: f64,
    /// List the entries after the playhead too, dimmed (the run was seen to its end, or the
    /// learner asked to see what is ahead).
    pub ahead: bool,
    /// The verdict may be told: it is the last row.
    pub told: bool,
}

impl Panel<'_> {
    /// Draws the panel into `ui`, filling it; returns what was clicked.
    pub fn show(&self, ui: &mut Ui, follow: &mut Follow) -> Option<Clicked> {
        ui.add_space(4.0);
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Transcript").strong());
            ui.label(
                RichText::new("choose a line to move the playhead there")
                    .small()
                    .weak(),
            );
        });
        ui.add_space(2.0);
        let listed = self.transcript.listed(self.now_ms, self.ahead);
        let rows = listed + usize::from(self.told);
        if rows == 0 {
            ui.label(RichText::new("Nothing has happened yet.").weak());
            return None;
        }
        let current = self.transcript.current(self.now_ms);
        let lines = if ui.available_width() < NARROW { 3 } else { 2 };
        // A line as the rows lay it out (the style's row height can be taller).
        let body = egui::TextStyle::Body.resolve(ui.style());
        let line = ui
            .painter()
            .layout_no_wrap("0".to_string(), body, egui::Color32::PLACEHOLDER)
            .size()
            .y;
        let row_height = line * lines as f32 + 2.0 * PAD;
        // Rows touch: their own padding and the highlight keep them apart.
        ui.spacing_mut().item_spacing.y = 1.0;
        let pitch = row_height + ui.spacing().item_spacing.y;

        // The verdict's row appearing under the current entry is brought into view too, and
        // the entry is brought back into view when the panel's height changes (the page
        // around it settling, a window resized).
        // The list's height as last laid out: the room left here can be more than the
        // scroll area is given (a panel still settling on its size).
        let view = if follow.height > 0.0 {
            follow.height
        } else {
            ui.available_height()
        };
        let followed = Followed {
            current,
            told: self.told,
            view,
            pitch,
        };
        if followed != follow.followed {
            follow.followed = followed;
            if let Some(i) = current {
                let top = i as f32 * pitch;
                let shown = if self.told && i + 1 == listed {
                    2.0 * pitch
                } else {
                    row_height
                };
                let in_view = top >= follow.offset && top + shown <= follow.offset + view;
                if !in_view {
                    // Centred, so the entries just before it are in view too. The list is
                    // one spacing shorter than its rows' pitches: no spacing after the last.
                    let list = rows as f32 * pitch - ui.spacing().item_spacing.y;
                    let bottom = (list - view).max(0.0);
                    let centred = top + row_height / 2.0 - view / 2.0;
                    // On a row's edge, so the top row shows whole.
                    let edge = (centred / pitch).round() * pitch;
                    follow.target = Some(edge.clamp(0.0, bottom));
                }
            }
        }
        let mut area = egui::ScrollArea::vertical()
            .id_salt("transcript")
            .auto_shrink(false);
        if let Some(target) = follow.target {
            // The scroll area bounds an offset by last frame's list and springs back from
            // beyond it: a list that just grew is scrolled the rest of the way next frame.
            let reachable = target.min(follow.max.max(0.0));
            area = area.vertical_scroll_offset(reachable);
            // Within half a point is there: chasing a rounding error would repaint forever.
            if reachable + 0.5 < target {
                ui.ctx().request_repaint();
            } else {
                follow.target = None;
            }
        }
        let mut clicked = None;
        let output = area.show_rows(ui, row_height, rows, |ui, range| {
            for i in range {
                let row = if i < listed {
                    self.entry_row(ui, i, current, lines, row_height)
                } else {
                    self.verdict_row(ui, lines, row_height)
                };
                if row.is_some() {
                    clicked = row;
                }
            }
        });
        follow.offset = output.state.clamped_offset().y;
        follow.height = output.inner_rect.height();
        follow.max = output.content_size.y - follow.height;
        clicked
    }

    /// Row `i`: an event or a violation.
    fn entry_row(
        &self,
        ui: &mut Ui,
        i: usize,
        current: Option<usize>,
        lines: usize,
        height: f32,
    ) -> Option<Clicked> {
        let entry = self.transcript.entries()[i];
        let words = self.transcript.words(self.trace, self.verdict, i);
        let who = match entry.source {
            Source::Violation(v) => Some(style::violation(self.verdict.violations[v].kind)),
            Source::Event(_) => None,
        };
        let look = Look {
            current: current == Some(i),
            ahead: entry.at_ms as f64 > self.now_ms,
            who,
        };
        let response = row(ui, &words, look, lines, height);
        if !response.clicked() {
            return None;
        }
        Some(match entry.source {
            Source::Violation(v) => Clicked::Violation(v),
            Source::Event(_) => Clicked::Seek(entry.at_ms as f64),
        })
    }

    /// The verdict's row, after every entry.
    fn verdict_row(&self, ui: &mut Ui, lines: usize, height: f32) -> Option<Clicked> {
        let words = verdict_words(self.trace, self.verdict);
        let colour = if self.verdict.safe && self.verdict.live {
            style::SAFE
        } else if self.verdict.safe {
            style::LIVENESS
        } else {
            style::VIOLATING
        };
        let look = Look {
            current: false,
            ahead: false,
            who: Some(colour),
        };
        row(ui, &words, look, lines, height)
            .clicked()
            .then_some(Clicked::Seek(self.trace.until_ms as f64))
    }
}

/// Below this width (points) a row's sentence may take three lines instead of two.
const NARROW: f32 = 480.0;
/// Space above and below a row's text, points.
const PAD: f32 = 3.0;

/// How a row is drawn.
struct Look {
    /// At the playhead: highlighted, and selected for screen readers.
    current: bool,
    /// After the playhead (listed once the run was seen to its end): dimmed.
    ahead: bool,
    /// The colour of the node column, if not the text's (a violation, the verdict).
    who: Option<egui::Color32>,
}

/// One row: `time  who  what`, wrapped to `lines` lines at most, `height` tall, clickable.
fn row(ui: &mut Ui, words: &Words, look: Look, lines: usize, height: f32) -> egui::Response {
    let (rect, response) =
        ui.allocate_exact_size(vec2(ui.available_width(), height), Sense::click());
    let sentence = words.sentence();
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::ListBoxOption, true, &sentence));
    ui.ctx().accesskit_node_builder(response.id, |node| {
        node.set_selected(look.current);
    });
    if ui.is_rect_visible(rect) {
        paint(ui, rect, words, &look, lines, &response);
    }
    response.on_hover_text(sentence)
}

fn paint(ui: &Ui, rect: Rect, words: &Words, look: &Look, lines: usize, response: &egui::Response) {
    let visuals = ui.visuals();
    let painter = ui.painter();
    if look.current {
        painter.rect_filled(rect, 3.0, visuals.selection.bg_fill.gamma_multiply(0.6));
        let bar = Rect::from_min_size(rect.min, vec2(3.0, rect.height()));
        painter.rect_filled(bar, 1.0, style::PLAYHEAD);
    } else if response.hovered() {
        painter.rect_filled(rect, 3.0, visuals.widgets.hovered.weak_bg_fill);
    }
    let dim = |c: egui::Color32| {
        if look.ahead {
            c.gamma_multiply(0.45)
        } else {
            c
        }
    };
    let text = dim(visuals.text_color());
    let weak = dim(visuals.weak_text_color());
    let body = egui::TextStyle::Body.resolve(ui.style());
    let mut job = LayoutJob::default();
    job.wrap.max_width = (rect.width() - 12.0).max(20.0);
    job.wrap.max_rows = lines;
    job.wrap.overflow_character = Some('…');
    let format = |color| egui::TextFormat::simple(body.clone(), color);
    job.append(&words.time, 0.0, format(weak));
    job.append(
        &words.who,
        8.0,
        format(dim(look.who.unwrap_or(visuals.strong_text_color()))),
    );
    job.append(&words.what, 8.0, format(text));
    let galley = painter.layout_job(job);
    // Centred in the row, so a one-line entry does not hang from the top of a two-line row.
    let top = rect.center().y - galley.size().y / 2.0;
    painter.galley(egui::pos2(rect.left() + 8.0, top), galley, text);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use eframe::egui::{Pos2, RawInput, accesskit::Role};

    /// The entries laid out in one frame of `panel` in a 600 × 300 point panel: each row's
    /// accessible name, and whether it is marked selected.
    fn rows(ctx: &egui::Context, panel: &Panel, follow: &mut Follow) -> Vec<(String, bool)> {
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(600.0, 300.0))),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            panel.show(ui, follow);
        });
        output.textures_delta.clear();
        let update = output
            .platform_output
            .accesskit_update
            .expect("accesskit is on");
        update
            .nodes
            .iter()
            .filter(|(_, n)| n.role() == Role::ListBoxOption)
            .map(|(_, n)| {
                let label = n.label().unwrap_or_default().to_string();
                (label, n.is_selected() == Some(true))
            })
            .collect()
    }

    /// A run of over 100 000 events: a frame lays out only the rows in view, and the entry at
    /// the playhead is among them, selected, wherever the playhead is.
    #[test]
    fn a_long_run_lays_out_only_the_rows_in_view() {
        let scenario = scenario::parse(include_str!("../../benches/busy.toml")).unwrap();
        let crate::Run { trace, verdict, .. } = crate::run(&scenario, scenario.seed);
        let transcript = Transcript::build(&trace, &verdict);
        assert!(transcript.entries().len() > 20_000);
        let ctx = egui::Context::default();
        ctx.enable_accesskit();
        let mut follow = Follow::default();
        for now_ms in [60_000.0, 1_000.0, trace.until_ms as f64] {
            let panel = Panel {
                transcript: &transcript,
                trace: &trace,
                verdict: &verdict,
                now_ms,
                ahead: true,
                told: true,
            };
            let current = transcript.current(now_ms).unwrap();
            let expected = transcript.words(&trace, &verdict, current).sentence();
            // The first frame at a new time scrolls; the next shows the rows scrolled to.
            rows(&ctx, &panel, &mut follow);
            let laid_out = rows(&ctx, &panel, &mut follow);
            assert!(laid_out.len() < 20, "{} rows laid out", laid_out.len());
            let selected: Vec<_> = laid_out.iter().filter(|(_, s)| *s).collect();
            assert_eq!(selected.len(), 1, "at {now_ms}: {laid_out:?}");
            assert_eq!(selected[0].0, expected, "at {now_ms}");
        }
    }
}
