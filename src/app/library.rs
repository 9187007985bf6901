//! The library: every scenario that ships with locksim, built into the binary (the browser
//! build has no files to read), grouped by course step and then the real incidents.

use eframe::egui::{self, RichText, Ui};

use super::style;
use crate::course;
use crate::scenario::library::{COURSE, INCIDENTS};
use crate::scenario::{self, Scenario, ScenarioError};

/// Where a scenario is listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Course step 1 to 8, from the file name's `step<N>-` prefix.
    Step(u8),
    /// The design the course ends with (`recap-…` files), which the recap's Break it opens.
    Recap,
    /// A case modelled on a reported incident or analysis.
    Incident,
    /// A course file without a step prefix.
    Other,
}

impl Group {
    /// The step of a course file named `step<N>-…`, N a step of the course.
    fn of_course_file(file: &str) -> Group {
        if file.starts_with("recap-") {
            return Group::Recap;
        }
        file.strip_prefix("step")
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(n, _)| n.parse::<u8>().ok())
            .filter(|&n| course::lesson_step(n).next().is_some())
            .map_or(Group::Other, Group::Step)
    }

    /// The heading of the group: "Step 5 · The safety hole", "Documented failure modes and
    /// edge cases".
    pub fn title(self) -> String {
        match self {
            Group::Step(n) => {
                let steps: Vec<&course::Step> = course::lesson_step(n).collect();
                match steps.as_slice() {
                    [one] => format!("Step {n} · {}", one.title),
                    many => {
                        let topics: Vec<&str> = many.iter().map(|s| s.topic).collect();
                        format!("Step {n} · {}", topics.join(", "))
                    }
                }
            }
            Group::Recap => "Recap · The lock you built".to_string(),
            Group::Incident => "Documented failure modes and edge cases".to_string(),
            Group::Other => "Other scenarios".to_string(),
        }
    }
}

/// One shipped scenario.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its file name, e.g. `step5-fencing-token.toml`.
    pub file: &'static str,
    /// The heading it is listed under.
    pub group: Group,
    /// The parsed scenario, or why it does not parse (then it is listed, not offered).
    pub scenario: Result<Scenario, ScenarioError>,
}

/// What the learner asked for in the library.
#[derive(Clone, Debug, PartialEq)]
pub enum LibraryAction {
    /// Run this scenario and show it.
    Open(Scenario),
    /// Put this scenario in the sandbox.
    Edit(Scenario),
}

/// The library panel.
///
/// The shell calls [`Library::show`] every frame it is visible and acts on the returned
/// [`LibraryAction`]: `Open` runs and shows the scenario, `Edit` passes it to
/// [`super::sandbox::Sandbox::load`].
pub struct Library {
    entries: Vec<Entry>,
    filter: String,
}

impl Default for Library {
    fn default() -> Self {
        let course = COURSE
            .iter()
            .map(|&(file, text)| (file, text, Group::of_course_file(file)));
        let incidents = INCIDENTS
            .iter()
            .map(|&(file, text)| (file, text, Group::Incident));
        let mut entries: Vec<Entry> = course
            .chain(incidents)
            .map(|(file, text, group)| Entry {
                file,
                group,
                scenario: scenario::parse(text),
            })
            .collect();
        // Steps in order, then the incidents; file order within a group.
        crate::order::sort_by_key(&mut entries, |e| (e.group, e.file));
        Library {
            entries,
            filter: String::new(),
        }
    }
}

impl Library {
    /// Every shipped scenario, grouped and in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Draws the list; returns what the learner chose.
    pub fn show(&mut self, ui: &mut Ui) -> Option<LibraryAction> {
        ui.heading("Library");
        ui.horizontal(|ui| {
            let label = ui.label("Find:").id;
            ui.add(
                egui::TextEdit::singleline(&mut self.filter)
                    .hint_text("a word in a name, description or source"),
            )
            .labelled_by(label);
        });
        ui.add_space(4.0);
        let mut action = None;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let shown: Vec<&Entry> = self
                    .entries
                    .iter()
                    .filter(|e| matches(e, &self.filter))
                    .collect();
                if shown.is_empty() {
                    ui.label(RichText::new("Nothing matches.").weak());
                }
                for group in shown.chunk_by(|a, b| a.group == b.group) {
                    let title = group.first().map_or_else(String::new, |e| e.group.title());
                    egui::CollapsingHeader::new(RichText::new(&title).strong())
                        .id_salt(("library_group", &title))
                        .default_open(true)
                        .show(ui, |ui| {
                            for entry in group {
                                if let Some(chosen) = entry_ui(ui, entry) {
                                    action = Some(chosen);
                                }
                            }
                        });
                }
            });
        action
    }
}

/// Whether `entry` mentions every word of `filter` (case ignored) in its name, description,
/// source or file name.
fn matches(entry: &Entry, filter: &str) -> bool {
    let mut haystack = entry.file.to_lowercase();
    if let Ok(s) = &entry.scenario {
        for text in [&s.name, &s.description, &s.source] {
            haystack.push('\n');
            haystack.push_str(&text.to_lowercase());
        }
    }
    filter
        .to_lowercase()
        .split_whitespace()
        .all(|word| haystack.contains(word))
}

fn entry_ui(ui: &mut Ui, entry: &Entry) -> Option<LibraryAction> {
    let mut action = None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        match &entry.scenario {
            Ok(s) => {
                // The buttons on a row of their own, so every card has them in one place.
                ui.label(RichText::new(&s.name).strong());
                ui.horizontal(|ui| {
                    if ui
                        .button("Open")
                        .on_hover_text("Run it and show the run")
                        .clicked()
                    {
                        action = Some(LibraryAction::Open(s.clone()));
                    }
                    if ui
                        .button("Edit")
                        .on_hover_text("Put it in the sandbox")
                        .clicked()
                    {
                        action = Some(LibraryAction::Edit(s.clone()));
                    }
                });
                if !s.description.is_empty() {
                    ui.label(&s.description);
                }
                if !s.source.is_empty() {
                    ui.label(
                        RichText::new(format!("Source: {}", s.source))
                            .weak()
                            .italics(),
                    );
                }
            }
            Err(e) => {
                ui.label(RichText::new(entry.file).strong());
                ui.label(RichText::new(e.to_string()).color(style::VIOLATING));
            }
        }
        ui.label(RichText::new(entry.file).small().weak());
    });
    action
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::headless;

    fn listing(dir: &str) -> Vec<String> {
        let dir = format!("{}/assets/{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("scenario directory")
            .map(|entry| entry.expect("directory entry").file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".toml"))
            .collect();
        names.sort();
        names
    }

    fn embedded(list: &[(&str, &str)]) -> Vec<String> {
        let mut names: Vec<String> = list.iter().map(|(file, _)| file.to_string()).collect();
        names.sort();
        names
    }

    #[test]
    fn every_scenario_file_is_embedded() {
        assert_eq!(embedded(COURSE), listing("scenarios"));
        assert_eq!(embedded(INCIDENTS), listing("cases"));
    }

    #[test]
    fn every_entry_parses_and_the_course_covers_eight_steps() {
        let library = Library::default();
        assert_eq!(library.entries().len(), COURSE.len() + INCIDENTS.len());
        for entry in library.entries() {
            let s = entry.scenario.as_ref().expect(entry.file);
            assert!(!s.description.is_empty(), "{}", entry.file);
            assert!(!s.source.is_empty(), "{}", entry.file);
            assert_ne!(entry.group, Group::Other, "{}", entry.file);
        }
        for n in 1..=8 {
            assert!(
                library.entries().iter().any(|e| e.group == Group::Step(n)),
                "step {n}"
            );
        }
        let groups: Vec<Group> = library.entries().iter().map(|e| e.group).collect();
        assert!(groups.is_sorted(), "steps in order, incidents last");
        assert_eq!(groups.last(), Some(&Group::Incident));
    }

    #[test]
    fn groups_come_from_file_names() {
        assert_eq!(
            Group::of_course_file("step5-fencing-token.toml"),
            Group::Step(5)
        );
        assert_eq!(Group::of_course_file("stepx-odd.toml"), Group::Other);
        assert_eq!(Group::of_course_file("notes.toml"), Group::Other);
        assert_eq!(
            Group::of_course_file("recap-the-lock-you-built.toml"),
            Group::Recap
        );
        assert_eq!(Group::Step(5).title(), "Step 5 · The safety hole");
        assert_eq!(Group::of_course_file("step9-beyond.toml"), Group::Other);
    }

    #[test]
    fn the_filter_needs_every_word() {
        let library = Library::default();
        let found = |filter: &str| {
            library
                .entries()
                .iter()
                .filter(|e| matches(e, filter))
                .map(|e| e.file)
                .collect::<Vec<_>>()
        };
        assert_eq!(found("").len(), library.entries().len());
        assert!(found("KLEPPMANN fencing").contains(&"step5-fencing-token.toml"));
        assert!(found("redlock").contains(&"redlock-clock-jump.toml"));
        assert!(found("no such words here").is_empty());
    }

    #[test]
    fn the_panel_draws_without_a_window() {
        let mut library = Library::default();
        let ctx = egui::Context::default();
        headless::frame(&ctx, |ui| {
            assert_eq!(library.show(ui), None);
        });
    }
}
