//! Course text with its glossary terms marked: each term [`glossary::terms_in`] finds gets a
//! dashed underline, its definition shows on hover, and a click or tap pins it open (a touch
//! screen has no hover). Option buttons keep their click for the choice: there the terms show
//! their definitions on hover only.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::Arc;

use eframe::egui::{
    self, Atom, AtomExt, AtomKind, FontSelection, Galley, IdSalt, IntoSizedResult, Label, Popup,
    Rect, Response, RichText, Sense, SizedAtomKind, Stroke, Ui, WidgetInfo, WidgetText, pos2,
};

use crate::course::glossary::{self, Entry};

/// Widest a definition gets, points.
const DEFINITION_WIDTH: f32 = 320.0;

/// The terms of a text, as [`glossary::terms_in`] finds them.
type Terms = Vec<(Range<usize>, &'static Entry)>;

/// Finds a text's terms for egui's frame cache.
#[derive(Default)]
struct TermFinder;

impl egui::cache::ComputerMut<&str, Terms> for TermFinder {
    fn compute(&mut self, text: &str) -> Terms {
        glossary::terms_in(text)
    }
}

/// The terms of `text`, matched once and then kept while the text stays on screen: course
/// text does not change from frame to frame, so neither do its terms.
fn terms_of(ui: &Ui, text: &str) -> Terms {
    ui.ctx().memory_mut(|m| {
        m.caches
            .cache::<egui::cache::FrameCache<Terms, TermFinder>>()
            .get(text)
            .clone()
    })
}

/// Shows `text` as a wrapping label with its glossary terms marked. Returns the label's
/// response.
pub fn label(ui: &mut Ui, text: impl Into<RichText>) -> Response {
    let text = text.into();
    let terms = terms_of(ui, text.text());
    if terms.is_empty() {
        return ui.label(text);
    }
    let galley =
        WidgetText::from(text).into_galley(ui, None, ui.available_width(), FontSelection::Default);
    let response = ui.add(Label::new(Arc::clone(&galley)));
    mark(
        ui,
        &response,
        response.rect.min,
        &galley,
        &terms,
        Sense::click(),
    );
    response
}

/// The text of a button (an option of a step) with its terms marked: put [`Self::atom`] in
/// the button and show it with [`Self::show`].
pub struct ButtonText {
    text: RichText,
    terms: Terms,
    /// The galley the button lays out, kept to find where each term was drawn.
    galley: RefCell<Option<Arc<Galley>>>,
}

/// Names the text's atom inside its button, to find where it was drawn.
const ATOM: &str = "glossary-text";

impl ButtonText {
    /// `text` with the glossary terms in it found.
    pub fn new(ui: &Ui, text: RichText) -> Self {
        let terms = terms_of(ui, text.text());
        ButtonText {
            text,
            terms,
            galley: RefCell::new(None),
        }
    }

    /// The atom to put in the button: the text, laid out as a text atom would be.
    pub fn atom(&self) -> Atom<'_> {
        let text = self.text.clone();
        let kept = &self.galley;
        Atom::from(AtomKind::closure(move |ui, args| {
            let galley = WidgetText::from(text).into_galley(
                ui,
                Some(args.wrap_mode),
                args.available_size.x,
                args.fallback_font,
            );
            *kept.borrow_mut() = Some(Arc::clone(&galley));
            IntoSizedResult {
                intrinsic_size: galley.intrinsic_size(),
                sized: SizedAtomKind::Text(galley),
            }
        }))
        .atom_id(IdSalt::new(ATOM))
    }

    /// Shows `button`, whose only closure atom is [`Self::atom`], and underlines its terms,
    /// each with its definition on hover.
    pub fn show(&self, ui: &mut Ui, button: egui::Button<'_>, selected: bool) -> Response {
        // What egui would read out for the button (its text atoms, space-separated): a closure
        // atom has no text of its own to give.
        let spoken = button
            .atoms()
            .iter_kinds()
            .filter_map(|kind| match kind {
                AtomKind::Text(text) => Some(text.text()),
                AtomKind::Closure(_) => Some(self.text.text()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" ");
        let shown = button.atom_ui(ui);
        shown.response.widget_info(|| {
            WidgetInfo::selected(egui::Role::Button, ui.is_enabled(), selected, &spoken)
        });
        if let (Some(rect), Some(galley)) = (shown.rect(IdSalt::new(ATOM)), self.galley.take()) {
            mark(ui, &shown, rect.min, &galley, &self.terms, Sense::hover());
        }
        shown.response
    }
}

/// Underlines each term of `galley` (drawn at `origin`) and gives it its definition: a
/// tooltip on hover and, if `sense` has clicks, a popup a click pins open.
fn mark(
    ui: &mut Ui,
    owner: &Response,
    origin: egui::Pos2,
    galley: &Galley,
    terms: &[(Range<usize>, &'static Entry)],
    sense: Sense,
) {
    if !ui.is_rect_visible(owner.rect) {
        return;
    }
    let text = galley.text();
    let color = ui.visuals().text_color().gamma_multiply(0.7);
    for (k, (range, entry)) in terms.iter().enumerate() {
        let chars = text[..range.start].chars().count()..text[..range.end].chars().count();
        for (piece, (rect, baseline)) in spans(galley, chars).into_iter().enumerate() {
            let rect = rect.translate(origin.to_vec2());
            let y = origin.y + baseline + 2.0;
            ui.painter().extend(egui::Shape::dashed_line(
                &[pos2(rect.left(), y), pos2(rect.right(), y)],
                Stroke::new(1.0, color),
                3.0,
                2.0,
            ));
            let id = owner.id.with(("term", k, piece));
            let response = ui.interact(rect, id, sense);
            let shown = &text[range.clone()];
            response.widget_info(|| WidgetInfo::labeled(egui::Role::Term, true, shown));
            let popup = Popup::from_toggle_button_response(&response)
                .width(DEFINITION_WIDTH)
                .show(|ui| definition(ui, entry));
            if popup.is_none() {
                response
                    .on_hover_cursor(egui::CursorIcon::Help)
                    .on_hover_ui(|ui| definition(ui, entry));
            }
        }
    }
}

/// Where the characters `chars` of `galley` were drawn: one rectangle per row they span
/// (relative to the galley), each with its baseline's height.
fn spans(galley: &Galley, chars: Range<usize>) -> Vec<(Rect, f32)> {
    let mut found = Vec::new();
    let mut first = 0;
    for placed in &galley.rows {
        let glyphs = &placed.row.glyphs;
        let last = first + glyphs.len();
        let from = chars.start.max(first);
        let to = chars.end.min(last);
        if from < to {
            let a = &glyphs[from - first];
            let b = &glyphs[to - 1 - first];
            let rect = Rect::from_min_max(
                pos2(placed.pos.x + a.pos.x, placed.pos.y),
                pos2(
                    placed.pos.x + b.pos.x + b.advance_width,
                    placed.pos.y + placed.row.size.y,
                ),
            );
            found.push((rect, placed.pos.y + a.pos.y));
        }
        first = last + usize::from(placed.ends_with_newline);
    }
    found
}

/// A term's definition, as its tooltip, popup and glossary page show it.
pub fn definition(ui: &mut Ui, entry: &Entry) {
    ui.set_max_width(DEFINITION_WIDTH);
    ui.label(RichText::new(entry.term).strong());
    ui.label(entry.definition);
    if let Some(source) = entry.source {
        ui.label(RichText::new(source).small().weak());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::headless;
    use crate::course::{INTRO, STEPS};

    /// A term's underline covers exactly its characters, on whichever rows wrapping put them:
    /// a galley has one glyph per character, the spaces where rows wrap included.
    #[test]
    fn spans_cover_each_term_on_every_row_it_wraps_onto() {
        let ctx = egui::Context::default();
        let texts = [INTRO, STEPS[4].explanation, STEPS[5].explanation];
        for width in [120.0, 300.0, 700.0] {
            headless::frame(&ctx, |ui| {
                for text in texts {
                    let galley = WidgetText::from(text).into_galley(
                        ui,
                        Some(egui::TextWrapMode::Wrap),
                        width,
                        FontSelection::Default,
                    );
                    let glyphs: String = galley
                        .rows
                        .iter()
                        .flat_map(|row| row.row.glyphs.iter().map(|g| g.chr))
                        .collect();
                    assert_eq!(glyphs, text, "at {width} points");
                    for (range, entry) in glossary::terms_in(text) {
                        let chars =
                            text[..range.start].chars().count()..text[..range.end].chars().count();
                        let found = spans(&galley, chars);
                        assert!(!found.is_empty(), "{} is drawn", entry.term);
                        for (rect, baseline) in found {
                            assert!(rect.width() > 0.0 && rect.right() <= width + 1.0);
                            assert!(rect.top() <= baseline && baseline <= rect.bottom());
                        }
                    }
                }
            });
        }
    }
}
