//! A course step on screen: the decision on the left (situation, question, options, and
//! once a choice has been played out, the explanation), the run of the learner's choice in
//! the middle, its verdict on the right. On a phone in portrait the page is one column that
//! scrolls as a whole: the question and options, the run and its verdict, then the
//! explanation and the way on.
//!
//! Each option's run is made once, when it is first chosen, and kept; choosing it again
//! replays it from the start. Once a call's verdict and whether it was right are shown, the
//! learner can put it beside the right call, or beside another option
//! ([`super::compare_view`]).

use super::menu;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use eframe::egui::{self, AtomExt, Color32, CornerRadius, RichText, Ui};

use super::keys::PlaybackKey;
use super::layout::Arrangement;
use super::run_view::{self, RunView};
use super::{glossary_text, style, theme};
use crate::course::progress::{Pick, Place, Progress, StepProgress};
use crate::course::{self, Grading, PURPOSE_RECAP, STEPS, Step};
use crate::scenario;

/// The runs made so far, and which steps' answers the presenter has revealed.
#[derive(Default)]
pub struct CourseView {
    /// Keyed by step and pick; an error says why a run could not be made.
    runs: BTreeMap<(usize, Pick), Result<RunView, String>>,
    /// Steps whose answer has been revealed in presenter mode.
    revealed: Vec<usize>,
    /// The learner asked, on the step on screen, to see option `.0` beside option `.1`.
    compare: Option<(usize, usize)>,
}

impl CourseView {
    /// Chooses option `i` of step `n`: records it and plays its run from the start.
    pub fn choose(&mut self, progress: &mut Progress, n: usize, i: usize) {
        let Some(step) = STEPS.get(n) else { return };
        if i >= step.options.len() {
            return;
        }
        progress.steps[n].choose(i);
        if let Ok(run) = self.run_for(n, Pick::Option(i), false) {
            run.restart();
        }
    }

    /// Puts extra scenario `e` of step `n` on screen, playing from the start.
    fn explore(&mut self, record: &mut StepProgress, n: usize, e: usize) {
        record.shown = Some(Pick::Extra(e));
        if let Ok(run) = self.run_for(n, Pick::Extra(e), false) {
            run.restart();
        }
    }

    /// Sends a playback key to the run on screen at step `n`, if there is one.
    pub fn key(&mut self, progress: &Progress, n: usize, key: PlaybackKey) {
        if let Some(pick) = progress.steps[n].shown
            && let Some(Ok(run)) = self.runs.get_mut(&(n, pick))
        {
            run.key(key);
        }
    }

    /// The two options the learner asked to see side by side since the last call, if any:
    /// their call first.
    pub fn take_compare(&mut self) -> Option<(usize, usize)> {
        self.compare.take()
    }

    /// Whether step `n`'s answer has been revealed (presenter mode).
    pub fn is_revealed(&self, n: usize) -> bool {
        self.revealed.contains(&n)
    }

    /// Reveals step `n`'s answer (presenter mode).
    pub fn reveal(&mut self, n: usize) {
        if !self.revealed.contains(&n) {
            self.revealed.push(n);
        }
    }

    /// The run for `pick` of step `n`, made now if it was not yet. A run restored from a
    /// saved session whose end the learner had seen (`seen`) opens at its end.
    fn run_for(&mut self, n: usize, pick: Pick, seen: bool) -> Result<&mut RunView, &str> {
        let run = self.runs.entry((n, pick)).or_insert_with(|| {
            let step = &STEPS[n];
            let demo = match pick {
                Pick::Option(i) => course::demonstrate(&step.options[i]),
                Pick::Extra(e) => scenario::parse(step.extras[e]).map(course::play),
            };
            let made = demo.map(|demo| {
                let (title, about) = match pick {
                    Pick::Option(i) => (format!("Your call: {}", step.options[i].label), None),
                    Pick::Extra(_) => (
                        demo.scenario.name.clone(),
                        Some(demo.scenario.description.clone()),
                    ),
                };
                let mut run = RunView::new(demo, title, about);
                if seen {
                    run.skip_to_end();
                }
                run
            });
            made.map_err(|e| e.to_string())
        });
        run.as_mut().map_err(|e| e.as_str())
    }

    /// Shows step `n`. Returns where the learner asked to go, if they did.
    pub fn show(&mut self, ui: &mut Ui, progress: &mut Progress, n: usize) -> Option<CourseGo> {
        let step = &STEPS[n];
        let shown = progress.steps[n].shown;
        if let Some(pick) = shown {
            // Made here only when restored from a saved session; a click makes it earlier.
            let seen = matches!(pick, Pick::Option(i) if progress.steps[n].was_watched(i));
            let _ = self.run_for(n, pick, seen);
        }
        let mut run = shown.and_then(|pick| self.runs.get_mut(&(n, pick)).map(|r| (pick, r)));
        if let Some((pick, Ok(r))) = &mut run {
            r.advance(ui);
            if let Pick::Option(i) = *pick
                && r.seen_to_end()
            {
                progress.steps[n].watched_to_end(i);
            }
        }

        let mut asked = Asked::default();
        let decision = Decision {
            n,
            step,
            record: &progress.steps[n],
            answer_shown: if progress.presenter {
                self.revealed.contains(&n)
            } else {
                progress.steps[n].answered()
            },
            presenter: progress.presenter,
            purpose: progress.purpose(),
        };
        // Whether the call was right waits for Reveal in presenter mode, as the chips do.
        let answer_shown = decision.answer_shown;
        let mut compare = None;
        let note = |ui: &mut Ui| {
            if let Some(Pick::Option(i)) = shown
                && answer_shown
            {
                feedback(ui, step, &step.options[i]);
                compare = compare_with(ui, step, i);
            }
        };
        let column = Arrangement::for_width(ui.available_width()) == Arrangement::Stacked;
        let why;
        let (run, empty) = match run {
            Some((_, Ok(r))) => (Some(r), if column { EMPTY_ABOVE } else { EMPTY }),
            Some((_, Err(e))) => {
                why = format!("This run could not be made: {e}");
                (None, why.as_str())
            }
            None => (None, if column { EMPTY_ABOVE } else { EMPTY }),
        };
        if column {
            // One column, read from the top: the question and options, the run and its
            // verdict, then why, and the way on.
            let mut chosen = None;
            run_view::show_column(
                ui,
                run,
                |ui| chosen = decision.question(ui),
                empty,
                note,
                |ui| {
                    decision.explanation(ui);
                    decision.nav(ui, &mut asked);
                },
            );
            asked.chosen = chosen;
        } else {
            let left = |ui: &mut Ui, _: Option<&RunView>| {
                // The way on stays in view however long the step's text is.
                egui::Panel::bottom("step-nav").show(ui, |ui| decision.nav(ui, &mut asked));
                // A bar that stays visible says there is more below (presenter mode's large
                // type can push the last options under the fold).
                ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
                egui::ScrollArea::vertical()
                    .scroll_bar_visibility(
                        egui::scroll_area::ScrollBarVisibility::VisibleWhenNeeded,
                    )
                    .show(ui, |ui| {
                        asked.chosen = decision.question(ui);
                        decision.explanation(ui);
                    });
            };
            run_view::show_run(ui, "course", run, left, empty, note);
        }

        if compare.is_some() {
            self.compare = compare;
        }
        if let Some(i) = asked.chosen {
            self.choose(progress, n, i);
        }
        if let Some(e) = asked.explored {
            self.explore(&mut progress.steps[n], n, e);
        }
        if asked.reveal {
            self.reveal(n);
        }
        if asked.break_right
            && let Some(Ok(scenario)) = course::right_call(step).map(course::Choice::scenario)
        {
            return Some(CourseGo::FindFailure(Box::new(scenario)));
        }
        asked.go.map(CourseGo::Page)
    }
}

/// Where a step sends the learner.
pub enum CourseGo {
    /// Another page.
    Page(Place),
    /// The sandbox, searching for a fault schedule that breaks this design.
    FindFailure(Box<scenario::Scenario>),
}

/// What the centre says before any choice.
const EMPTY: &str = "Make your call on the left: click an option or press its number. The \
    simulator plays your choice out here, with one lane for each worker, each store node and \
    the protected resource.";

/// What the place of the run says before any choice, on a page that is one column.
const EMPTY_ABOVE: &str = "Make your call above: tap an option or press its number. The \
    simulator plays your choice out here, with one lane for each worker, each store node and \
    the protected resource.";

/// What the learner asked for in the left column this frame.
#[derive(Default)]
struct Asked {
    chosen: Option<usize>,
    explored: Option<usize>,
    reveal: bool,
    /// "Try to break the right call" was clicked.
    break_right: bool,
    go: Option<Place>,
}

/// The left column of a step.
struct Decision<'a> {
    n: usize,
    step: &'static Step,
    record: &'a StepProgress,
    /// The explanation and insight may be shown.
    answer_shown: bool,
    presenter: bool,
    /// The learner's answer to the first question, recalled where the course returns to it.
    purpose: Option<usize>,
}

impl Decision<'_> {
    /// Whether the kicker may name the step's topic: once a call has been made (and, in
    /// Presenter mode, the answer revealed), since the topic names the right call.
    fn topic_shown(&self) -> bool {
        !self.record.chosen.is_empty() && (self.answer_shown || !self.presenter)
    }

    /// The step's situation, its question and the options. Returns the option clicked.
    fn question(&self, ui: &mut Ui) -> Option<usize> {
        let step = self.step;
        ui.add_space(8.0);
        ui.label(
            RichText::new(course::kicker(step, self.topic_shown()))
                .small()
                .strong()
                .weak(),
        );
        ui.label(RichText::new(step.title).heading().strong().size(26.0));
        ui.add_space(4.0);
        glossary_text::label(ui, step.situation);
        ui.add_space(10.0);
        glossary_text::label(ui, RichText::new(step.question).strong().size(17.0));
        ui.add_space(2.0);
        ui.label(
            RichText::new(format!("Choose an option (keys 1–{}).", step.options.len()))
                .small()
                .weak(),
        );
        ui.add_space(6.0);
        let mut chosen = None;
        for (i, option) in step.options.iter().enumerate() {
            if self.option_button(ui, i, option).clicked() {
                chosen = Some(i);
            }
            ui.add_space(4.0);
        }
        ui.add_space(8.0);
        chosen
    }

    /// The explanation and insight once they may be shown; until then, a note on when.
    fn explanation(&self, ui: &mut Ui) {
        ui.separator();
        if self.answer_shown {
            answer(ui, self.step, self.purpose);
        } else if self.presenter {
            ui.label(
                RichText::new("The answer stays hidden until you reveal it, below.")
                    .italics()
                    .weak(),
            );
        } else {
            ui.label(
                RichText::new(
                    "The explanation appears here once you have watched a choice played out.",
                )
                .italics()
                .weak(),
            );
        }
        ui.add_space(8.0);
    }

    /// Previous, more to explore, break the right call, reveal (presenter) and next, under
    /// the column.
    fn nav(&self, ui: &mut Ui, asked: &mut Asked) {
        ui.add_space(6.0);
        ui.horizontal_wrapped(|ui| {
            if let Some(prev) = Place::Step(self.n).prev()
                && ui.button("← Previous").clicked()
            {
                asked.go = Some(prev);
            }
            self.extras_menu(ui, asked);
            // Once the answer is out, the learner may try to break it: not on the first
            // question (no right call) nor on a diagnosis (its right call is a broken design).
            if self.answer_shown
                && !matches!(self.step.grading, Grading::Framing | Grading::Diagnosis)
                && course::right_call(self.step).is_some()
                && ui
                    .button("Break the right call")
                    .on_hover_text(
                        "Find a failure: opens the sandbox on the right call's design and \
                         searches thousands of random fault schedules for a run the checker \
                         calls unsafe.",
                    )
                    .clicked()
            {
                asked.break_right = true;
            }
            // One button is the thing to press next: Reveal while the presenter's answer is
            // hidden, then Next once the step is done.
            let hidden = self.presenter && !self.answer_shown;
            if hidden
                && ui
                    .add(theme::prominent("Reveal the answer  (R)", ui))
                    .clicked()
            {
                asked.reveal = true;
            }
            let next = Place::Step(self.n).next();
            let label = if next == Some(Place::Recap) {
                "Recap →"
            } else {
                "Next step →"
            };
            let button = if self.record.answered() && !hidden {
                theme::prominent(label, ui)
            } else {
                egui::Button::new(RichText::new(label).strong())
            };
            if ui.add(button).clicked() {
                asked.go = next;
            }
        });
        ui.add_space(2.0);
    }

    /// The step's further scenarios, once a choice has been played out: a menu, so that
    /// however long the step's text is, they are found where the way on is.
    fn extras_menu(&self, ui: &mut Ui, asked: &mut Asked) {
        let names = extra_names(self.n);
        if names.is_empty() || !self.record.answered() {
            return;
        }
        menu::button(
            ui,
            format!("More to explore ({})", names.len()),
            &mut |ui| {
                for (e, name) in names.iter().enumerate() {
                    let selected = self.record.shown == Some(Pick::Extra(e));
                    if ui
                        .add(egui::Button::selectable(selected, name.as_str()))
                        .clicked()
                    {
                        asked.explored = Some(e);
                        ui.close();
                    }
                }
            },
        );
    }

    /// A numbered option; once its run has been watched to the end it says right or wrong.
    fn option_button(&self, ui: &mut Ui, i: usize, option: &course::Choice) -> egui::Response {
        let selected = self.record.shown == Some(Pick::Option(i));
        let number = RichText::new(format!("{}", i + 1))
            .size(16.0)
            .strong()
            .color(ui.visuals().hyperlink_color);
        // The text wraps and takes the room left, so the mark sits at the right edge.
        let label = glossary_text::ButtonText::new(ui, RichText::new(option.label).size(15.5));
        let text = label
            .atom()
            .atom_shrink(true)
            .atom_grow(true)
            .atom_align(egui::Align2::LEFT_CENTER);
        let mut button = egui::Button::new((number, text))
            .selected(selected)
            .frame(true)
            .frame_when_inactive(true)
            .wrap()
            .min_size(egui::vec2(ui.available_width(), 36.0));
        // In presenter mode the chips would give the answer away: they wait for Reveal, as
        // the explanation does.
        if self.step.grading != Grading::Framing
            && self.record.was_watched(i)
            && (self.answer_shown || !self.presenter)
        {
            let (word, color) = if option.right {
                ("right", style::SAFE)
            } else {
                ("wrong", style::VIOLATING)
            };
            // White on a coloured chip reads on any button fill, selected or not.
            let chip = RichText::new(format!(" {word} "))
                .strong()
                .color(Color32::WHITE)
                .background_color(color);
            button = button.right_text(chip);
        }
        label.show(ui, button, selected)
    }
}

/// The step's explanation and its insight; on the consensus step, what it means for the
/// learner's answer to the first question.
fn answer(ui: &mut Ui, step: &Step, purpose: Option<usize>) {
    ui.add_space(4.0);
    ui.label(RichText::new("Why").strong().size(17.0));
    glossary_text::label(ui, step.explanation);
    if step.number == "6"
        && let Some(said) = purpose.and_then(|p| PURPOSE_RECAP.get(p))
    {
        ui.add_space(6.0);
        ui.label(RichText::new(*said).italics());
    }
    ui.add_space(8.0);
    let accent = ui.visuals().hyperlink_color;
    egui::Frame::new()
        .fill(accent.gamma_multiply(0.10))
        .stroke(egui::Stroke::new(1.0, accent.gamma_multiply(0.6)))
        .corner_radius(CornerRadius::same(6))
        .inner_margin(10)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(step.insight.0).strong().color(accent));
            glossary_text::label(ui, step.insight.1);
        });
}

/// Under the verdict, once told: whether the call was right, and what its run showed. The
/// first question has no right call: its note says what the run means for the answer given.
fn feedback(ui: &mut Ui, step: &Step, choice: &course::Choice) {
    let (title, color) = match (step.grading, choice.right) {
        (Grading::Framing, _) => ("What this run means for you", ui.visuals().hyperlink_color),
        (_, true) => ("The right call", style::SAFE),
        (_, false) => ("Not the right call", style::VIOLATING),
    };
    egui::Frame::new()
        .stroke(egui::Stroke::new(1.5, color))
        .corner_radius(CornerRadius::same(6))
        .inner_margin(10)
        .fill(Color32::TRANSPARENT)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(title).strong().color(color));
            glossary_text::label(ui, choice.feedback);
        });
}

/// Under the feedback on option `i`: a wrong call can be put beside the right one; the right
/// call (or an answer to a question with none) beside any other option, chosen from a menu.
/// Returns the pair asked for, option `i` first.
fn compare_with(ui: &mut Ui, step: &Step, i: usize) -> Option<(usize, usize)> {
    ui.add_space(6.0);
    let right = step.options.iter().position(|c| c.right);
    if let Some(right) = right
        && right != i
    {
        let clicked = ui
            .button("Compare with the right call")
            .on_hover_text("Both runs one above the other, on the same seed")
            .clicked();
        return clicked.then_some((i, right));
    }
    let mut asked = None;
    let title = if right.is_some() {
        "Compare with a wrong call…"
    } else {
        "Compare with another answer…"
    };
    menu::button(ui, title, &mut |ui| {
        for (j, option) in step.options.iter().enumerate() {
            if j != i && ui.button(format!("{}  {}", j + 1, option.label)).clicked() {
                asked = Some((i, j));
                ui.close();
            }
        }
    });
    asked
}

/// The button text of each step's extra scenarios: their names without the "Step 7 · " the
/// page already says. Parsed once for the whole course.
fn extra_names(n: usize) -> &'static [String] {
    static NAMES: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        STEPS
            .iter()
            .map(|step| {
                step.extras
                    .iter()
                    .map(|source| extra_name(source))
                    .collect()
            })
            .collect()
    });
    &names[n]
}

fn extra_name(source: &str) -> String {
    match scenario::parse(source) {
        Ok(s) => match s.name.split_once(" · ") {
            Some((prefix, rest)) if prefix.starts_with("Step ") => rest.to_string(),
            _ => s.name,
        },
        Err(e) => format!("(cannot be read: {e})"),
    }
}
