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
    let shown: Vec<&Entry> = glossary::alphabetical()
        .into_iter()
        .filter(|entry| matches(entry, filter))
        .collect();
    if shown.is_empty() {
        ui.label(RichText::new("No term matches.").italics().weak());
    }
    for entry in shown {
        card(ui, entry);
        ui.add_space(4.0);
    }
    ui.add_space(24.0);
}

/// The search box: the column's width on a phone, a comfortable width elsewhere.
fn width_for_search(ui: &Ui) -> f32 {
    ui.available_width().min(360.0)
}

/// Whether `entry` is one the learner is looking for: its term, an alias or its definition
/// contains what they typed (case ignored).
fn matches(entry: &Entry, filter: &str) -> bool {
    let wanted = filter.trim().to_lowercase();
    wanted.is_empty()
        || entry.term.to_lowercase().contains(&wanted)
        || entry
            .aliases
            .iter()
            .any(|alias| alias.to_lowercase().contains(&wanted))
        || entry.definition.to_lowercase().contains(&wanted)
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
        assert!(matches(cas, ""));
        assert!(matches(cas, "check-and-SET"));
        assert!(matches(cas, " version "));
        assert!(!matches(cas, "stampede"));
    }
}
