//! The editable layer over a timeline: the scenario's own faults drawn on their lanes as
//! items to drag (a bar whose right edge resizes it, or a marker), the lane names to select a
//! lane by, and the lanes as the place a fault from the palette is dropped.
//!
//! It draws and reads the pointer only; what an action means for the scenario is worked out by
//! [`crate::view::fault_edit`], and the owner ([`crate::app::fault_edit`]) makes the change.

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Id, Pos2, Rect, Sense, Stroke, StrokeKind, Ui,
    WidgetInfo, pos2, vec2,
};

use super::View;
use crate::app::{layout, style};
use crate::picture::{Area, Frame};
use crate::scenario::{Fault, FaultTag, Scenario};
use crate::view::fault_edit::{
    self, Edit, describe, duration_ms, lane_of, moved_to_lane, resized, shifted, snap_step_ms,
    snapped, with_duration,
};
use crate::view::timeline::place::{Obstacles, chip_spot};

/// Height of a fault's chip, px (less on a short lane).
const ITEM_H: f32 = 16.0;
/// Height of a chip with no room on its lane for its full height: a strip to grab, unnamed,
/// px.
const THIN_H: f32 = 5.0;
/// Width of a bar's right edge that resizes it, px.
const GRIP_W: f32 = 8.0;
/// Width of an instant fault's marker, px.
const MARKER_W: f32 = 12.0;
/// The size of a chip's name, px.
const NAME: f32 = 10.5;

/// A fault being dragged by its body or its right edge.
#[derive(Clone, Debug, PartialEq)]
pub struct Dragging {
    /// Which fault (an index into the scenario's faults).
    fault: usize,
    /// Its right edge (a resize) rather than its body (a move).
    edge: bool,
    /// Where the pointer went down, screen points.
    from: Pos2,
    /// Where the fault would go if let go now.
    to: Fault,
    /// Why it cannot go to the lane under the pointer, if it cannot.
    refused: Option<String>,
}

/// What the learner did on the layer this frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Asked {
    /// Make this change to the scenario's faults.
    Edit(Edit),
    /// A change that cannot be made, and why.
    Refused(String),
    /// Select fault `i`.
    Fault(usize),
    /// Select lane `i`.
    Lane(usize),
}

/// `a` as egui's rectangle.
fn egui_rect(a: Area) -> Rect {
    Rect::from_min_max(pos2(a.x0, a.y0), pos2(a.x1, a.y1))
}

/// The plot of `frame`, as egui's rectangle.
fn plot(frame: &Frame) -> Rect {
    egui_rect(frame.plot)
}

/// A fault's chip as placed on its lane: what it covers (all a pointer takes), where the
/// fault strikes, whether its name is written in it, and whether its right edge is in view
/// to resize it by.
#[derive(Clone, Copy)]
struct Chip {
    rect: Rect,
    at_x: f32,
    named: bool,
    grip: bool,
}

/// Places `fault`'s chip on lane `lane` of `frame`, across its time (cut to the plot), on the
/// first spot of the lane that covers nothing `taken` ([`chip_spot`], the rule mark labels
/// keep): full height and named, else thin and unnamed, else (a last resort, so that it can
/// still be grabbed) thin at the lane's bottom. Takes its spot; `None` when it is out of view.
fn place(
    frame: &Frame,
    painter: &egui::Painter,
    (fault, lane, until_ms): (&Fault, usize, u64),
    taken: &mut Vec<Area>,
) -> Option<Chip> {
    let kind = FaultTag::from(&fault.kind);
    let name = painter
        .layout_no_wrap(
            kind.label().to_string(),
            FontId::proportional(NAME),
            Color32::WHITE,
        )
        .size()
        .x;
    let x = frame.x(fault.at_ms as f64);
    let reach = frame.plot.expand2(MARKER_W / 2.0, 0.0);
    let (full, thin) = if kind.has_duration() {
        let end = duration_ms(fault).map_or(until_ms, |ms| fault.at_ms.saturating_add(ms));
        let x1 = frame.x(end as f64).max(x + MARKER_W);
        ((x, x1), (x, x1))
    } else {
        let marker = (x - MARKER_W / 2.0, x + MARKER_W / 2.0);
        // The name after the marker, or before it where it would run off the plot.
        let with_name = if marker.1 + 2.0 + name <= frame.plot.x1 {
            (marker.0, marker.1 + 2.0 + name)
        } else {
            (marker.0 - 2.0 - name, marker.1)
        };
        (with_name, marker)
    };
    // Only the part in view: a bar running off the left edge must not cover the lane names.
    let cut = |(x0, x1): (f32, f32)| (x0.max(reach.x0), x1.min(reach.x1));
    let (x0, x1) = cut(thin);
    if x0 >= x1 {
        return None;
    }
    // A bar's name is written inside it, where it fits.
    let named = !kind.has_duration() || name + 12.0 < x1 - x0;
    let lane_rect = frame.lane(lane);
    let around = Obstacles {
        bounds: Area::new(reach.x0, lane_rect.y0, reach.x1, lane_rect.y1 - 2.0),
        taken,
        lines: &[],
    };
    let h = ITEM_H.min(frame.lane_h * 0.3);
    let (spot, named) = match chip_spot(cut(full), h, around) {
        Some(spot) => (spot, named),
        None => {
            let bottom = Area::new(x0, around.bounds.y1 - THIN_H, x1, around.bounds.y1);
            (chip_spot((x0, x1), THIN_H, around).unwrap_or(bottom), false)
        }
    };
    taken.push(spot);
    Some(Chip {
        rect: egui_rect(spot),
        at_x: x,
        named,
        grip: kind.has_duration() && full.1 <= reach.x1,
    })
}

/// One frame of the layer.
pub struct Layer<'a> {
    /// The scenario whose faults are drawn and edited.
    pub scenario: &'a Scenario,
    /// How many lanes the timeline has.
    pub lanes: usize,
    /// Where the timeline's picture put its labels, points: no chip covers one.
    pub labels: &'a [Area],
    /// The kinds that may be dropped.
    pub kinds: &'a [FaultTag],
    /// The selected fault.
    pub fault: Option<usize>,
    /// The selected lane.
    pub lane: Option<usize>,
}

impl Layer<'_> {
    /// Draws the layer over a timeline that took `rect` with `view`, and reads the pointer.
    /// `dragging` is kept by the caller between frames.
    pub fn show(
        &self,
        ui: &mut Ui,
        rect: Rect,
        view: &View,
        dragging: &mut Option<Dragging>,
    ) -> Vec<Asked> {
        let frame = view.frame(rect, self.lanes);
        let plot = plot(&frame);
        let mut asked = Vec::new();
        let painter = ui.painter_at(Rect::from_min_max(pos2(frame.left, plot.top()), plot.max));
        self.lane_names(ui, &frame, &painter, &mut asked);
        // Under the chips, so that a chip takes the pointer over it.
        let zone = ui.interact(plot, Id::unique("locksim.fault_drop"), Sense::hover());
        let until = self.scenario.until_ms;
        let plot_painter = painter.with_clip_rect(plot.expand2(vec2(MARKER_W, 0.0)));
        // Each fault as it is shown (the one being dragged where it would go), placed in order,
        // so that the chip under the pointer is the one drawn there.
        let mut taken = self.labels.to_vec();
        let shown: Vec<(Fault, Option<Chip>)> = self
            .scenario
            .faults
            .iter()
            .enumerate()
            .map(|(i, fault)| {
                let shown = match dragging {
                    Some(d) if d.fault == i => d.to.clone(),
                    _ => fault.clone(),
                };
                let lane = lane_of(self.scenario, &shown).filter(|&l| l < self.lanes);
                let chip =
                    lane.and_then(|l| place(&frame, &painter, (&shown, l, until), &mut taken));
                (shown, chip)
            })
            .collect();
        crate::app::drawn::note(
            ui.ctx(),
            [],
            shown
                .iter()
                .filter_map(|(_, chip)| Some(chip.as_ref()?.rect)),
        );
        for (i, (fault, (shown, chip))) in self.scenario.faults.iter().zip(&shown).enumerate() {
            let Some(chip) = *chip else {
                continue;
            };
            let id = Id::unique(("locksim.fault", i));
            let body = ui
                .interact(chip.rect, id, Sense::click_and_drag())
                .on_hover_cursor(egui::CursorIcon::Grab);
            let label = describe(fault);
            body.widget_info(|| WidgetInfo::labeled(egui::Role::Button, true, &label));
            let edge = chip.grip.then(|| {
                let grip = Rect::from_x_y_ranges(
                    chip.rect.right() - GRIP_W / 2.0..=chip.rect.right() + GRIP_W / 2.0,
                    chip.rect.y_range(),
                );
                let edge = ui
                    .interact(grip, id.with("edge"), Sense::drag())
                    .on_hover_cursor(egui::CursorIcon::ResizeHorizontal);
                edge.widget_info(|| {
                    WidgetInfo::labeled(egui::Role::Button, true, format!("end of the {label}"))
                });
                edge
            });
            for (response, is_edge) in
                std::iter::once((&body, false)).chain(edge.iter().map(|e| (e, true)))
            {
                self.drag(&frame, i, fault, response, is_edge, dragging, &mut asked);
            }
            if body.clicked() {
                asked.push(Asked::Fault(i));
            }
            body.context_menu(|ui| {
                if ui.button("Delete").clicked() {
                    asked.push(Asked::Edit(Edit::Remove(i)));
                    ui.close();
                }
            });
            let selected = self.fault == Some(i);
            paint_item(&plot_painter, chip, shown, selected, Colors::of(ui));
            if let Some(Dragging {
                fault: f,
                refused: Some(why),
                ..
            }) = dragging
                && *f == i
            {
                paint_note(ui.ctx(), chip.rect, why);
            }
            if dragging.as_ref().is_none_or(|d| d.fault != i) {
                body.on_hover_text(format!(
                    "{label}. Drag to move it (up or down: to another lane); drag its right \
                     edge to make it longer or shorter; right-click or Delete to remove it."
                ));
            }
        }
        self.drop_zone(ui, (&frame, &painter), &zone, &mut taken, &mut asked);
        asked
    }

    /// The lane names as buttons: a click or keyboard focus (Tab) selects the lane.
    fn lane_names(
        &self,
        ui: &mut Ui,
        frame: &Frame,
        painter: &egui::Painter,
        asked: &mut Vec<Asked>,
    ) {
        let names = self.scenario.node_names();
        for (i, name) in names.iter().enumerate().take(self.lanes) {
            let rect = egui_rect(frame.name(i));
            let response = ui
                .interact(rect, Id::unique(("locksim.lane", i)), Sense::click())
                .on_hover_text(format!(
                    "Select {name}'s lane: a fault's key (P, S, C…) then places that fault here \
                     at the playhead."
                ));
            response.widget_info(|| {
                WidgetInfo::labeled(egui::Role::Button, true, format!("lane {name}"))
            });
            if response.clicked() || response.gained_focus() {
                asked.push(Asked::Lane(i));
            }
            if self.lane == Some(i) {
                let whole = rect.union(egui_rect(frame.lane(i))).shrink(1.0);
                painter.rect_stroke(
                    whole,
                    CornerRadius::same(2),
                    Stroke::new(2.0, ui.visuals().selection.stroke.color),
                    StrokeKind::Inside,
                );
            }
        }
    }

    /// The lanes as the place to drop a fault from the palette (`zone`, the plot's response):
    /// while one is held over them, a ghost of the fault it would make, clear of what is
    /// `taken` (or why it cannot go there); when let go, the fault.
    fn drop_zone(
        &self,
        ui: &Ui,
        (frame, painter): (&Frame, &egui::Painter),
        zone: &egui::Response,
        taken: &mut Vec<Area>,
        asked: &mut Vec<Asked>,
    ) {
        let Some(pos) = ui.ctx().pointer_interact_pos() else {
            return;
        };
        let place_at = |kind: FaultTag| {
            let lane = frame.lane_at(pos.y, self.lanes)?;
            let at = snapped(
                frame.ms(pos.x),
                snap_step_ms(frame.ms_per_px()),
                self.scenario.until_ms,
            );
            Some((lane, fault_edit::dropped(self.scenario, kind, lane, at)))
        };
        if let Some(kind) = zone.dnd_release_payload::<FaultTag>() {
            if self.kinds.contains(&kind)
                && let Some((_, made)) = place_at(*kind)
            {
                asked.push(match made {
                    Ok(fault) => Asked::Edit(Edit::Add(fault)),
                    Err(why) => Asked::Refused(why),
                });
            }
        } else if let Some(kind) = zone.dnd_hover_payload::<FaultTag>()
            && let Some((lane, made)) = place_at(*kind)
        {
            match made {
                Ok(fault) => {
                    let until = self.scenario.until_ms;
                    if let Some(chip) = place(frame, painter, (&fault, lane, until), taken) {
                        paint_item(painter, chip, &fault, true, Colors::of(ui));
                    }
                }
                Err(why) => {
                    let bottom = frame.lane(lane).y1 - ITEM_H / 2.0;
                    paint_note(
                        ui.ctx(),
                        Rect::from_two_pos(pos2(pos.x, bottom), pos2(pos.x, bottom)),
                        &why,
                    );
                }
            }
        }
    }

    /// Follows a drag of fault `i`'s body (a move: in time, and to the lane under the
    /// pointer) or right edge (a resize), and lets go of it as an edit.
    #[allow(clippy::too_many_arguments)]
    fn drag(
        &self,
        frame: &Frame,
        i: usize,
        fault: &Fault,
        response: &egui::Response,
        edge: bool,
        dragging: &mut Option<Dragging>,
        asked: &mut Vec<Asked>,
    ) {
        if response.drag_started()
            && let Some(from) = response.interact_pointer_pos()
        {
            *dragging = Some(Dragging {
                fault: i,
                edge,
                from,
                to: fault.clone(),
                refused: None,
            });
            asked.push(Asked::Fault(i));
        }
        let Some(d) = dragging.as_mut().filter(|d| d.fault == i && d.edge == edge) else {
            return;
        };
        if response.dragged()
            && let Some(pos) = response.interact_pointer_pos()
        {
            let step = snap_step_ms(frame.ms_per_px());
            let by_ms = ((pos.x - d.from.x) as f64 * frame.ms_per_px()).round() as i64;
            let until = self.scenario.until_ms;
            if edge {
                let for_ms = duration_ms(fault).unwrap_or(until.saturating_sub(fault.at_ms));
                d.to = with_duration(fault, resized(fault.at_ms, for_ms, by_ms, step));
            } else {
                let at = snapped(shifted(fault.at_ms, by_ms, until) as f64, step, until);
                let moved = Fault {
                    at_ms: at,
                    ..fault.clone()
                };
                let lane = frame.lane_at(pos.y, self.lanes);
                let here = lane_of(self.scenario, fault);
                (d.to, d.refused) = match lane.filter(|&l| Some(l) != here) {
                    Some(l) => match moved_to_lane(self.scenario, &moved, l) {
                        Ok(there) => (there, None),
                        Err(why) => (moved, Some(why)),
                    },
                    None => (moved, None),
                };
            }
        }
        if response.drag_stopped() {
            let Dragging { to, refused, .. } = dragging.take().expect("the drag just followed");
            if let Some(why) = refused {
                asked.push(Asked::Refused(why));
            }
            if to != *fault {
                asked.push(Asked::Edit(Edit::Replace(i, to)));
            }
        }
    }
}

/// The theme's colours an item is drawn with.
#[derive(Clone, Copy)]
struct Colors {
    /// Around the selected item.
    outline: Color32,
    /// An item's name.
    text: Color32,
}

impl Colors {
    fn of(ui: &Ui) -> Colors {
        Colors {
            outline: ui.visuals().selection.stroke.color,
            text: ui.visuals().strong_text_color(),
        }
    }
}

/// The colour a fault of `kind` is drawn in: the colour the timeline gives what it does.
pub fn kind_color(kind: FaultTag) -> Color32 {
    match kind {
        FaultTag::Pause => style::PAUSED,
        FaultTag::Stall => style::STALLED,
        FaultTag::Crash | FaultTag::Restart | FaultTag::KillStore => style::CRASHED,
        FaultTag::Partition | FaultTag::Heal => style::PARTITION,
        FaultTag::Delay | FaultTag::ConnectionReset => style::SLOW_LINK,
        FaultTag::ClockJump => style::ROLE,
        FaultTag::ForceRelease => style::ANOMALY,
    }
}

/// Paints `fault`'s chip: a bar with a grip on its right edge, or a marker where it strikes,
/// each with its name where the chip has it; outlined when selected.
fn paint_item(painter: &egui::Painter, chip: Chip, fault: &Fault, selected: bool, colors: Colors) {
    let kind = FaultTag::from(&fault.kind);
    let color = kind_color(kind).gamma_multiply(0.75);
    let stroke = if selected {
        Stroke::new(2.0, colors.outline)
    } else {
        Stroke::new(1.0, Color32::from_black_alpha(140))
    };
    let rect = chip.rect;
    let c = rect.center();
    let name = |at: Pos2, align: Align2| {
        if chip.named {
            let font = FontId::proportional(NAME);
            painter.text(at, align, kind.label(), font, colors.text);
        }
    };
    if kind.has_duration() {
        painter.rect(
            rect,
            CornerRadius::same(3),
            color,
            stroke,
            StrokeKind::Inside,
        );
        let grip = Rect::from_x_y_ranges(
            rect.right() - 4.0..=rect.right() - 2.0,
            rect.shrink(3.0).y_range(),
        );
        painter.rect_filled(grip, 0.0, Color32::from_white_alpha(200));
        name(pos2(rect.left() + 4.0, c.y), Align2::LEFT_CENTER);
    } else {
        let (x, r) = (chip.at_x, (MARKER_W / 2.0).min(rect.height() / 2.0));
        let diamond = vec![
            pos2(x, c.y - r),
            pos2(x + r, c.y),
            pos2(x, c.y + r),
            pos2(x - r, c.y),
        ];
        painter.add(egui::Shape::convex_polygon(diamond, color, stroke));
        // The name on the side of the marker the chip has room on.
        if x < c.x {
            name(pos2(x + r + 2.0, c.y), Align2::LEFT_CENTER);
        } else {
            name(pos2(x - r - 2.0, c.y), Align2::RIGHT_CENTER);
        }
    }
}

/// Why a fault cannot go where it is held, written above `at` (under it where there is no
/// room above). On the tooltips' layer, within the window: painted with the timeline's
/// clip, it was cut off at the plot's edge, by the verdict panel beside it, wherever the plot
/// was narrower than the note.
fn paint_note(ctx: &egui::Context, at: Rect, why: &str) {
    let screen = ctx.content_rect().shrink(NOTE_GAP);
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Tooltip,
        Id::unique("locksim.fault_note"),
    ));
    let padding = vec2(5.0, 3.0);
    let galley = painter.layout(
        why.to_string(),
        FontId::proportional(12.0),
        Color32::WHITE,
        NOTE_WIDTH.min(screen.width() - 2.0 * padding.x).max(0.0),
    );
    let size = galley.size() + 2.0 * padding;
    let left = layout::fit(at.left(), screen.left(), screen.right() - size.x);
    let above = at.top() - size.y - NOTE_GAP;
    let top = if above >= screen.top() {
        above
    } else {
        at.bottom() + NOTE_GAP
    };
    let rect = Rect::from_min_size(pos2(left, top), size);
    painter.rect_filled(rect, CornerRadius::same(3), style::VIOLATING);
    painter.galley(rect.min + padding, galley, Color32::WHITE);
}

/// The widest a refusal note's text gets, points.
const NOTE_WIDTH: f32 = 320.0;
/// Space between a refusal note and what it is about (and the window's edge), points.
const NOTE_GAP: f32 = 4.0;
