//! The Glossary page: every term the course uses, alphabetically, with its definition, and a
//! box that narrows the list to the terms a word names.

use eframe::egui::{self, RichText, Ui};

use super::{pages, theme};
use crate::course::glossary::{self, Entry};

/// Shows the page; `filter` is what the learner typed into its search box.
pub fn show(ui: &mut Ui, filter: &mut String) {
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink(false)
            .show(ui, |ui| {
                pages::column(ui, pages::TEXT_WIDTH, |ui| list(ui, filter));
            });
    });
}

fn list(ui: &mut Ui, filter: &mut String) {
    ui.add_space(24.0);
    ui.label(RichText::new("Glossary").heading().size(32.0).strong());
    ui.label(
        "Every term the course uses, in locksim's words. In the course, a term with a dashed \
         underline shows its definition when you point at it; tap or click it to keep it open.",
    );
    ui.add_space(10.0);
    ui.add(
        egui::TextEdit::singleline(filter)
            .hint_text("Find a term")
            .desired_width(width_for_search(ui)),
    );
    ui.add_space(10.0);
    let mut shown: Vec<(u8, &Entry)> = glossary::alphabetical()
        .into_iter()
        .filter_map(|entry| Some((rank(entry, filter)?, entry)))
        .collect();
    // Best matches first; alphabetical within each rank (the sort is stable).
    crate::order::sort_by_key(&mut shown, |&(rank, _)| rank);
    if shown.is_empty() {
        ui.label(RichText::new("No term matches.").italics().weak());
    }
    for (_, entry) in shown {
        card(ui, entry);
        ui.add_space(4.0);
    }
    ui.add_space(24.0);
}

/// The search box: the column's width on a phone, a comfortable width elsewhere.
fn width_for_search(ui: &Ui) -> f32 {
    ui.available_width().min(360.0)
}

/// How well `entry` answers what the learner typed (case ignored), best first: 0 its term
/// starts with it, 1 its term holds it, 2 another of its names does, 3 only its definition
/// does; `None` when nothing does. An empty search shows everything, alphabetically.
fn rank(entry: &Entry, filter: &str) -> Option<u8> {
    let wanted = filter.trim().to_lowercase();
    let term = entry.term.to_lowercase();
    if wanted.is_empty() || term.starts_with(&wanted) {
        Some(0)
    } else if term.contains(&wanted) {
        Some(1)
    } else if entry
        .aliases
        .iter()
        .any(|alias| alias.to_lowercase().contains(&wanted))
    {
        Some(2)
    } else {
        entry
            .definition
            .to_lowercase()
            .contains(&wanted)
            .then_some(3)
    }
}

fn card(ui: &mut Ui, entry: &Entry) {
    theme::card(ui).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(RichText::new(entry.term).strong().size(16.0));
        ui.label(entry.definition);
        let others = entry.other_names();
        if !others.is_empty() {
            ui.label(
                RichText::new(format!("Also: {}", others.join(", ")))
                    .small()
                    .weak(),
            );
        }
        if let Some(source) = entry.source {
            ui.label(RichText::new(format!("Source: {source}")).small().weak());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_finds_a_term_by_any_of_its_names() {
        let cas = glossary::lookup("CAS").unwrap();
        assert!(rank(cas, "").is_some());
        assert!(rank(cas, "check-and-SET").is_some());
        assert!(rank(cas, " version ").is_some());
        assert!(rank(cas, "stampede").is_none());
    }

    #[test]
    fn a_term_named_by_the_search_comes_before_one_that_only_mentions_it() {
        let fencing = glossary::lookup("fencing token").unwrap();
        let mentions = glossary::alphabetical()
            .into_iter()
            .find(|e| e.term != fencing.term && rank(e, "fenc") == Some(3))
            .expect("some definition mentions fencing");
        assert_eq!(rank(fencing, "fenc"), Some(0));
        assert!(rank(fencing, "fenc") < rank(mentions, "fenc"));
    }
}
