//! Faults placed on a run by hand: a palette of faults to drag onto the timeline's lanes,
//! the placed faults as items on their lanes to move, resize and delete, a small inspector for
//! the selected one, and the same by keyboard. The arithmetic is [`crate::view::fault_edit`]'s;
//! the layer over the lanes is `timeline::edit`.
//!
//! A page turns it on for its run with `RunView::set_editing`, naming the
//! kinds the learner may place ([`Editing`]); each frame it takes the scenario the learner
//! made, if any (`RunView::take_change`), keeps it wherever its scenario
//! lives (a form, an undo list, a challenge's attempt) and plays it again with
//! `RunView::replace_run`, which keeps the zoom and the playhead:
//!
//! ```ignore
//! run.set_editing(Some(Editing::only(&[FaultTag::Pause, FaultTag::Partition])));
//! // ... draw the page, then:
//! if let Some(change) = run.take_change() {
//!     run.replace_run(course::play(change.scenario));
//! }
//! ```
//!
//! Before the app reads its own shortcuts, `RunView::edit_keys` takes the
//! editing keys, so that with a fault selected ← and → move it rather than the playhead.

// A new kind of fault must be decided on in every match here, never passed over by `_`.
#![deny(clippy::wildcard_enum_match_arm)]

use super::menu;
use eframe::egui::{
    self, Color32, Context, CornerRadius, FontId, Key, LayerId, Modifiers, Order, Rect, RichText,
    Sense, Ui, pos2, vec2,
};

use super::layout::Arrangement;
use super::style;
use super::timeline::View;
use super::timeline::edit::{Asked, Dragging, Layer, kind_color};
use crate::picture::Area;
use crate::scenario::{Design, Fault, FaultTag, Scenario};
use crate::view::fault_edit::{self, Edit, describe_edit, lane_of, moved_to_lane, shifted};
use crate::view::fault_fields::{self, Number};
use strum::VariantArray;

/// How far ← and → move the selected fault, ms; with Shift, [`BIG_STEP_MS`].
const STEP_MS: i64 = 100;
/// How far Shift+← and Shift+→ move the selected fault, ms.
const BIG_STEP_MS: i64 = 1_000;
/// Room kept under the lanes for the inspector's row, points.
pub const INSPECTOR_H: f32 = 30.0;

/// Which faults a page lets the learner place: every kind in the sandbox, a challenge's few.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Editing {
    kinds: Vec<FaultTag>,
}

impl Editing {
    /// Every kind of fault that can matter to `design`: a `connection_reset` only to a
    /// `session` lock (elsewhere it loses what is in flight, as a crash or partition does).
    pub fn all(design: Design) -> Editing {
        Editing {
            kinds: FaultTag::VARIANTS
                .iter()
                .copied()
                .filter(|&k| k != FaultTag::ConnectionReset || design == Design::Session)
                .collect(),
        }
    }

    /// Only `kinds` (shown in the palette's order).
    pub fn only(kinds: &[FaultTag]) -> Editing {
        Editing {
            kinds: FaultTag::VARIANTS
                .iter()
                .copied()
                .filter(|k| kinds.contains(k))
                .collect(),
        }
    }

    /// The kinds that may be placed, in the palette's order.
    pub fn kinds(&self) -> &[FaultTag] {
        &self.kinds
    }
}

/// The scenario the learner made by editing faults, and what they did, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The scenario with the edit made (validated; same seed).
    pub scenario: Scenario,
    /// What changed, as a line in a list of changes (`placed a pause of A at 1 000 ms …`).
    pub what: String,
}

/// The fault editor of one run: what is selected, a drag under way, and the change made this
/// frame. Off (draws and reads nothing) until a page gives it an [`Editing`].
#[derive(Default)]
pub struct FaultEditor {
    editing: Option<Editing>,
    /// The selected fault, an index into the scenario's faults.
    fault: Option<usize>,
    /// The selected lane: where a fault's key places it.
    lane: Option<usize>,
    dragging: Option<Dragging>,
    /// The selected fault as the inspector holds it while it differs from the scenario's,
    /// with why it cannot be made so, if it cannot.
    pending: Option<(usize, Fault, Option<String>)>,
    /// Why the last change was refused, or what to do first.
    note: Option<String>,
    change: Option<Change>,
}

impl FaultEditor {
    /// Turns editing on with `editing`, or off (forgetting the selection) with `None`.
    pub fn set_editing(&mut self, editing: Option<Editing>) {
        match editing {
            None => *self = FaultEditor::default(),
            Some(editing) => self.editing = Some(editing),
        }
    }

    /// Whether faults can be placed on this run.
    pub fn is_on(&self) -> bool {
        self.editing.is_some()
    }

    /// The scenario made since the last call, if the learner changed the faults.
    pub fn take_change(&mut self) -> Option<Change> {
        self.change.take()
    }

    /// The run now on screen is of `scenario`: a selection it no longer has is dropped.
    pub fn run_replaced(&mut self, scenario: &Scenario) {
        self.dragging = None;
        self.pending = None;
        if self.fault.is_some_and(|i| i >= scenario.faults.len()) {
            self.fault = None;
        }
        if self.lane.is_some_and(|l| l >= scenario.node_names().len()) {
            self.lane = None;
        }
    }

    /// Makes `edit` to the scenario on screen (or to the one already changed this frame),
    /// selecting the fault it placed; a refused edit only says why.
    fn make(&mut self, scenario: &Scenario, edit: Edit) {
        let base = self.change.as_ref().map_or(scenario, |c| &c.scenario);
        match fault_edit::apply(base, &edit) {
            Ok((changed, at)) => {
                let what = describe_edit(base, &edit);
                let what = match self.change.take() {
                    Some(earlier) => format!("{}; {what}", earlier.what),
                    None => what,
                };
                self.note = None;
                self.pending = None;
                self.fault = at;
                if let Some(fault) = at.and_then(|i| changed.faults.get(i)) {
                    self.lane = lane_of(&changed, fault);
                }
                self.change = Some(Change {
                    scenario: changed,
                    what,
                });
            }
            Err(why) => self.note = Some(why),
        }
    }

    /// The lane a fault's key places it on: the selected fault's, else the selected lane.
    fn target_lane(&self, scenario: &Scenario) -> Option<usize> {
        self.fault
            .and_then(|i| scenario.faults.get(i))
            .and_then(|f| lane_of(scenario, f))
            .or(self.lane)
    }

    /// Places a fault of `kind` at the playhead `now_ms` on the target lane.
    fn place(&mut self, scenario: &Scenario, kind: FaultTag, now_ms: f64) {
        let Some(lane) = self.target_lane(scenario) else {
            self.note = Some(format!(
                "Select a lane first (click its name, or Tab to it), then press {} again; or \
                 drag the {} onto a lane.",
                kind.key(),
                kind.label()
            ));
            return;
        };
        let at = (now_ms.max(0.0).round() as u64).min(scenario.until_ms.saturating_sub(1));
        match fault_edit::dropped(scenario, kind, lane, at) {
            Ok(fault) => self.make(scenario, Edit::Add(fault)),
            Err(why) => self.note = Some(why),
        }
    }

    /// Reads and consumes the editing keys of this frame: a fault's letter places it at the
    /// playhead `now_ms` on the selected lane; with a fault selected, ←/→ move it (Shift:
    /// further), ↑/↓ move it to the lane above or below, Delete or Backspace remove it; with a
    /// lane selected, ↑/↓ select another; Escape lets go of the selection. Nothing while a
    /// text field has the keyboard, nor when editing is off; arrows are left to the playback
    /// when nothing is selected.
    pub fn keys(&mut self, ctx: &Context, scenario: &Scenario, now_ms: f64) {
        let Some(editing) = &self.editing else {
            return;
        };
        if ctx.text_edit_focused() {
            return;
        }
        let fault = self.fault.filter(|&i| i < scenario.faults.len());
        let any = fault.is_some() || self.lane.is_some();
        let kinds = editing.kinds.clone();
        let (placed, delete, escape, by_ms, by_lanes) = ctx.input_mut(|i| {
            // A fault this page does not offer is not placed, but the learner hears why; the
            // key stays for whatever else may use it.
            if let Some(kind) = FaultTag::VARIANTS.iter().copied().find(|k| {
                !kinds.contains(k)
                    && Key::from_name(&k.key().to_string())
                        .is_some_and(|key| i.modifiers.is_none() && i.key_pressed(key))
            }) {
                self.note = Some(format!(
                    "{} is a {}, which this page does not offer: the palette holds what can be \
                     placed here.",
                    kind.key(),
                    kind.label()
                ));
            }
            let mut count = |mods: Modifiers, key: Key| i.count_and_consume_key(mods, key) as i64;
            let placed: Vec<FaultTag> = kinds
                .iter()
                .copied()
                .filter(|k| {
                    Key::from_name(&k.key().to_string())
                        .is_some_and(|key| count(Modifiers::NONE, key) > 0)
                })
                .collect();
            let mut delete = false;
            let mut by_ms = 0;
            if fault.is_some() {
                delete = count(Modifiers::NONE, Key::Delete)
                    + count(Modifiers::NONE, Key::Backspace)
                    > 0;
                by_ms += BIG_STEP_MS
                    * (count(Modifiers::SHIFT, Key::ArrowRight)
                        - count(Modifiers::SHIFT, Key::ArrowLeft));
                by_ms += STEP_MS
                    * (count(Modifiers::NONE, Key::ArrowRight)
                        - count(Modifiers::NONE, Key::ArrowLeft));
            }
            let mut by_lanes = 0;
            let mut escape = false;
            if any {
                by_lanes =
                    count(Modifiers::NONE, Key::ArrowDown) - count(Modifiers::NONE, Key::ArrowUp);
                escape = count(Modifiers::NONE, Key::Escape) > 0;
            }
            (placed, delete, escape, by_ms, by_lanes)
        });
        for kind in placed {
            self.place(scenario, kind, now_ms);
        }
        if escape {
            if self.fault.take().is_none() {
                self.lane = None;
            }
            self.note = None;
        }
        let Some(i) = fault.filter(|_| !escape) else {
            if by_lanes != 0
                && let Some(lane) = self.lane
            {
                let last = scenario.node_names().len().saturating_sub(1) as i64;
                self.lane = Some((lane as i64 + by_lanes).clamp(0, last) as usize);
            }
            return;
        };
        if delete {
            self.make(scenario, Edit::Remove(i));
            return;
        }
        let current = &scenario.faults[i];
        let mut moved = Fault {
            at_ms: shifted(current.at_ms, by_ms, scenario.until_ms),
            ..current.clone()
        };
        if by_lanes != 0
            && let Some(lane) = lane_of(scenario, current)
        {
            let last = scenario.node_names().len().saturating_sub(1) as i64;
            let to = (lane as i64 + by_lanes).clamp(0, last) as usize;
            match moved_to_lane(scenario, &moved, to) {
                Ok(there) => moved = there,
                Err(why) => self.note = Some(why),
            }
        }
        if moved != *current {
            self.make(scenario, Edit::Replace(i, moved));
        }
    }

    /// The palette: each kind the page allows, to drag onto a lane (or click, to place it at
    /// the playhead on the selected lane), its key beside its name; then why the last change
    /// was refused, if it was.
    pub fn palette(&mut self, ui: &mut Ui, scenario: &Scenario, now_ms: f64) {
        let Some(editing) = &self.editing else {
            return;
        };
        let kinds = editing.kinds.clone();
        let mut clicked = None;
        let chips = |ui: &mut Ui| {
            ui.spacing_mut().item_spacing.x = 4.0;
            ui.label(RichText::new("Faults:").strong()).on_hover_text(
                "Drag a fault onto a lane to place it there, at that time. Or select a lane \
                 (click its name) and press the fault's key: it goes at the playhead.",
            );
            for kind in kinds {
                let chip = egui::Button::new(
                    RichText::new(format!("{} {}", kind.label(), kind.key())).size(12.5),
                )
                .fill(kind_color(kind).gamma_multiply(0.3))
                .sense(Sense::click_and_drag());
                let response = ui.add(chip).on_hover_text(format!(
                    "{} Drag it onto a lane, or select a lane and press {}.",
                    kind.what(),
                    kind.key()
                ));
                response.dnd_set_drag_payload(kind);
                if response.dragged() {
                    ghost(ui.ctx(), &response, kind);
                }
                if response.clicked() {
                    clicked = Some(kind);
                }
            }
        };
        // On a phone the chips would take three rows from the lanes: one row, scrolled
        // sideways by its bar (a drag on a chip is the chip's), instead.
        let width = ui.ctx().content_rect().width();
        if Arrangement::for_width(width) == Arrangement::Stacked {
            egui::ScrollArea::horizontal()
                .id_salt("locksim.fault_palette")
                .scroll_source(egui::scroll_area::ScrollSource {
                    drag: egui::scroll_area::DragScroll::Never,
                    ..egui::scroll_area::ScrollSource::ALL
                })
                .show(ui, |ui| ui.horizontal(chips));
        } else {
            ui.horizontal_wrapped(chips);
        }
        if let Some(kind) = clicked {
            self.place(scenario, kind, now_ms);
        }
        if let Some(note) = &self.note {
            ui.label(RichText::new(note).color(style::VIOLATING));
        }
    }

    /// The layer over a timeline that took `rect` with `view`, showing `lanes` lanes of a run
    /// of `scenario` whose picture put its labels at `labels`: the placed faults (clear of
    /// those labels), the lane names, the drop zone.
    pub fn layer(
        &mut self,
        ui: &mut Ui,
        rect: Rect,
        view: &View,
        scenario: &Scenario,
        (lanes, labels): (usize, &[Area]),
    ) {
        let Some(editing) = &self.editing else {
            return;
        };
        let asked = Layer {
            scenario,
            lanes,
            labels,
            kinds: editing.kinds(),
            fault: self.fault,
            lane: self.lane,
        }
        .show(ui, rect, view, &mut self.dragging);
        for asked in asked {
            match asked {
                Asked::Edit(edit) => self.make(scenario, edit),
                Asked::Refused(why) => self.note = Some(why),
                Asked::Fault(i) => {
                    self.fault = Some(i);
                    self.lane = scenario.faults.get(i).and_then(|f| lane_of(scenario, f));
                    self.note = None;
                }
                Asked::Lane(l) => {
                    let on_it = self.target_lane(scenario) == Some(l);
                    if !on_it {
                        self.fault = None;
                    }
                    self.lane = Some(l);
                }
            }
        }
    }

    /// The selected fault's fields, to read and change; a value the scenario file would
    /// refuse is kept here with the reason, and the run stays as it was. With nothing
    /// selected, how to select.
    pub fn inspector(&mut self, ui: &mut Ui, scenario: &Scenario) {
        if self.editing.is_none() {
            return;
        }
        let Some((i, current)) = self
            .fault
            .and_then(|i| Some((i, scenario.faults.get(i)?.clone())))
        else {
            ui.label(
                RichText::new(
                    "Click a placed fault to select it: drag it, ←/→ move it (Shift: 1 s), ↑/↓ \
                     move it to another lane, Delete removes it.",
                )
                .weak()
                .small(),
            );
            return;
        };
        let (mut fault, error) = match self.pending.take() {
            Some((p, fault, error)) if p == i => (fault, error),
            _ => (current.clone(), None),
        };
        let mut delete = false;
        let mut busy = false;
        ui.horizontal_wrapped(|ui| {
            let kind = FaultTag::from(&fault.kind);
            // In the text colour: some kinds' own colours are the pale shading of the lanes.
            let kind = ui.label(RichText::new(kind.label()).strong()).id;
            busy |= self.node_choice(ui, scenario, &mut fault, kind);
            // Each field is named for screen readers by the kind and the word before it
            // ("pause at", "delay by").
            let field = |ui: &mut Ui, word: &str, value: egui::DragValue<'_>| {
                let word = ui.label(word).id;
                let response = ui.add(value).labelled_by(kind).labelled_by(word);
                response.dragged() || response.has_focus()
            };
            busy |= field(ui, "at", ms(&mut fault.at_ms));
            for mut f in fault_fields::fields(&mut fault.kind) {
                let word = f.word;
                match f.value.number() {
                    Some(Number::Ms(v)) => busy |= field(ui, word, ms(v)),
                    Some(Number::SignedMs(v)) => {
                        busy |= field(ui, word, egui::DragValue::new(v).speed(100).suffix(" ms"));
                    }
                    None => {}
                }
            }
            cut_from_menu(ui, scenario, &mut fault);
            delete = ui
                .button("Delete")
                .on_hover_text("Or press Delete.")
                .clicked();
        });
        if delete {
            self.make(scenario, Edit::Remove(i));
            return;
        }
        if let Some(error) = &error {
            ui.label(RichText::new(error).color(style::VIOLATING));
        }
        if fault == current {
            return;
        }
        // A value being dragged or typed is made once it is let go of.
        if busy {
            self.pending = Some((i, fault, error));
            return;
        }
        match fault_edit::apply(scenario, &Edit::Replace(i, fault.clone())) {
            Ok(_) => self.make(scenario, Edit::Replace(i, fault)),
            Err(why) => self.pending = Some((i, fault, Some(why))),
        }
    }

    /// The node the selected fault hits, chosen among the lanes it can go to, named by the
    /// label `kind`; returns whether the choice is open. Faults on the whole store have none.
    fn node_choice(
        &mut self,
        ui: &mut Ui,
        scenario: &Scenario,
        fault: &mut Fault,
        kind: egui::Id,
    ) -> bool {
        if fault_edit::on_whole_store(&fault.kind) {
            return false;
        }
        let names = scenario.node_names();
        let here = lane_of(scenario, fault);
        let mut chosen = here;
        let combo = egui::ComboBox::from_id_salt("locksim.fault_node")
            .selected_text(here.and_then(|l| names.get(l)).map_or("?", |n| n.as_str()))
            .show_ui(ui, |ui| {
                for (l, name) in names.iter().enumerate() {
                    let fits = moved_to_lane(scenario, fault, l).is_ok();
                    ui.add_enabled_ui(fits, |ui| {
                        ui.selectable_value(&mut chosen, Some(l), name);
                    });
                }
            });
        combo.response.labelled_by(kind);
        if chosen != here
            && let Some(l) = chosen
        {
            match moved_to_lane(scenario, fault, l) {
                Ok(there) => *fault = there,
                Err(why) => self.note = Some(why),
            }
        }
        combo.inner.is_some()
    }
}

/// A millisecond field.
fn ms(value: &mut u64) -> egui::DragValue<'_> {
    egui::DragValue::new(value).speed(10).suffix(" ms")
}

/// The palette chip of `kind` drawn at the pointer while it is dragged.
fn ghost(ctx: &Context, chip: &egui::Response, kind: FaultTag) {
    let Some(pos) = ctx.pointer_interact_pos() else {
        return;
    };
    let painter = ctx.layer_painter(LayerId::new(Order::Tooltip, chip.id.with("ghost")));
    let galley = painter.layout_no_wrap(
        kind.label().to_string(),
        FontId::proportional(12.5),
        Color32::WHITE,
    );
    let rect = Rect::from_min_size(
        pos2(pos.x + 10.0, pos.y + 6.0),
        galley.size() + vec2(10.0, 6.0),
    );
    painter.rect_filled(rect, CornerRadius::same(3), kind_color(kind));
    painter.galley(rect.min + vec2(5.0, 3.0), galley, Color32::WHITE);
}

/// For a partition that cuts one node off: a menu of every other node, each ticked if the cut
/// separates it from that node (untick one to keep its link).
fn cut_from_menu(ui: &mut Ui, scenario: &Scenario, fault: &mut Fault) {
    let Some((alone, from)) = fault_edit::cut_sides(fault) else {
        return;
    };
    let (alone, from) = (alone.clone(), from.to_vec());
    menu::button(ui, format!("cut from {} nodes", from.len()), &mut |ui| {
        for name in scenario.node_names() {
            if name == alone {
                continue;
            }
            let mut cut = from.contains(&name);
            if ui.checkbox(&mut cut, &name).changed() {
                *fault = fault_edit::with_cut_from(fault, &name, cut);
            }
        }
    })
    .on_hover_text("Which nodes the partition cuts this node off from.");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::headless;
    use crate::scenario::library::shipped;
    use crate::view::fault_edit::with_duration;

    fn unfenced() -> Scenario {
        let mut s = shipped("scenarios/step5-pause-unfenced.toml");
        s.faults.clear();
        s
    }

    #[test]
    fn a_challenge_allows_only_its_kinds_in_the_palettes_order() {
        let editing = Editing::only(&[FaultTag::Partition, FaultTag::Pause]);
        assert_eq!(editing.kinds(), [FaultTag::Pause, FaultTag::Partition]);
        assert_eq!(Editing::all(Design::Session).kinds(), FaultTag::VARIANTS);
        let fenced = Editing::all(Design::Fencing);
        assert!(!fenced.kinds().contains(&FaultTag::ConnectionReset));
        assert_eq!(fenced.kinds().len(), FaultTag::VARIANTS.len() - 1);
    }

    #[test]
    fn off_until_a_page_turns_it_on() {
        let s = unfenced();
        let mut editor = FaultEditor {
            lane: Some(0),
            ..FaultEditor::default()
        };
        editor.place(&s, FaultTag::Pause, 1_000.0);
        assert!(editor.change.is_some(), "placing by hand works on the data");
        editor.set_editing(None);
        assert_eq!(editor.lane, None, "turning it off forgets the selection");
        assert!(!editor.is_on());
    }

    #[test]
    fn a_key_places_at_the_playhead_on_the_selected_lane() {
        let s = unfenced();
        let mut editor = FaultEditor::default();
        editor.set_editing(Some(Editing::all(Design::Fencing)));
        editor.place(&s, FaultTag::Pause, 1_000.4);
        assert!(
            editor
                .note
                .as_ref()
                .unwrap()
                .contains("Select a lane first")
        );
        editor.lane = Some(1);
        editor.place(&s, FaultTag::Pause, 1_000.4);
        let change = editor.take_change().unwrap();
        assert_eq!(change.scenario.faults[0].at_ms, 1_000);
        assert_eq!(change.what, "placed a pause of B at 1 000 ms for 500 ms");
        assert_eq!(editor.fault, Some(0), "the new fault is selected");
    }

    #[test]
    fn two_edits_in_one_frame_both_count() {
        let s = unfenced();
        let mut editor = FaultEditor::default();
        editor.set_editing(Some(Editing::all(Design::Fencing)));
        editor.lane = Some(0);
        editor.place(&s, FaultTag::Pause, 1_000.0);
        editor.make(
            &s,
            Edit::Replace(
                0,
                with_duration(&editor.change.as_ref().unwrap().scenario.faults[0], 500),
            ),
        );
        let change = editor.take_change().unwrap();
        assert_eq!(
            fault_edit::duration_ms(&change.scenario.faults[0]),
            Some(500)
        );
        assert!(
            change.what.contains("; changed the pause"),
            "{}",
            change.what
        );
    }

    #[test]
    fn the_palette_and_the_inspector_draw_without_a_window() {
        let s = shipped("scenarios/step5-pause-unfenced.toml");
        let mut editor = FaultEditor::default();
        editor.set_editing(Some(Editing::all(Design::Fencing)));
        editor.fault = Some(0);
        let ctx = egui::Context::default();
        for _ in 0..2 {
            headless::frame(&ctx, |ui| {
                editor.palette(ui, &s, 0.0);
                editor.inspector(ui, &s);
            });
        }
        assert_eq!(editor.take_change(), None, "drawing changes nothing");
    }
}
