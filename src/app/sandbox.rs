//! The sandbox: every field of a scenario, editable, with the validator's message next to the
//! field it names; TOML in and out (files on the desktop, a text box everywhere).
//!
//! The form edits a draft [`Scenario`] in place. Every widget holds a value of the field's own
//! type, so a draft can be invalid only in ways [`Scenario::validate`] describes, and nothing
//! is ever thrown away because of an error: the draft stays as the learner left it, and TOML
//! that does not parse stays in its box with the position of the problem.

// A new kind of fault must be decided on in every match here, never passed over by `_`.
#![deny(clippy::wildcard_enum_match_arm)]

use eframe::egui::{self, Align, Id, RichText, Ui};
use strum::VariantArray;

use super::style;
use crate::checker::ViolationKind;
use crate::scenario::names::store_name;
use crate::scenario::{
    self, DeletedBy, Expect, Fault, FaultKind, FaultTag, NodeClock, Scenario, ScenarioError,
    StoreClock, Worker,
};
use crate::view::fault_edit;
use crate::view::fault_fields::{self, Value};

/// Width of the label column, in points: the widgets of every section line up after it.
const LABEL_WIDTH: f32 = 170.0;

/// Rows of text the TOML box shows at most before it scrolls (fewer on a short window).
const TOML_ROWS: usize = 14;

/// Workers and faults start open when there are at most this many; a long list starts folded
/// so the form stays short (and quick to draw).
const OPEN_ITEMS: usize = 12;

/// `store.clock`'s choices: absent is "default", the topology's own clock
/// ([`crate::scenario::Store::lease_clock`]); then the clocks by name.
fn store_clock_choices() -> Vec<(Option<StoreClock>, &'static str)> {
    std::iter::once((None, "default"))
        .chain(StoreClock::VARIANTS.iter().map(|&c| (Some(c), c.into())))
        .collect()
}

/// Whether the validator's `error` is about the field at `path`. `within` also counts fields
/// inside it (a partition's `groups` owns `groups[1][0]`); otherwise only the exact field.
fn names(error: &ScenarioError, path: &str, within: bool) -> bool {
    match error.field.strip_prefix(path) {
        Some("") => true,
        Some(rest) => within && (rest.starts_with('[') || rest.starts_with('.')),
        None => false,
    }
}

/// A worker name not yet used: the first free capital letter, else `W<n>`.
fn fresh_worker_name(workers: &[Worker]) -> String {
    let taken = |name: &str| workers.iter().any(|w| w.name == name);
    ('A'..='Z')
        .map(String::from)
        .chain((1..).map(|n| format!("W{n}")))
        .find(|name| !taken(name))
        .unwrap_or_default()
}

/// What `[expect]` says about one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expectation {
    Either,
    Reported,
    Absent,
    /// In both lists: the validator rejects it; shown so a file's mistake is visible.
    Both,
}

impl Expectation {
    fn of(expect: &Expect, kind: ViolationKind) -> Expectation {
        match (expect.kinds.contains(&kind), expect.absent.contains(&kind)) {
            (false, false) => Expectation::Either,
            (true, false) => Expectation::Reported,
            (false, true) => Expectation::Absent,
            (true, true) => Expectation::Both,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Expectation::Either => "either way",
            Expectation::Reported => "must be reported",
            Expectation::Absent => "must not be reported",
            Expectation::Both => "both (contradiction)",
        }
    }

    /// Puts `kind` in the lists this expectation names, and out of the others.
    fn set(self, expect: &mut Expect, kind: ViolationKind) {
        expect.kinds.retain(|k| *k != kind);
        expect.absent.retain(|k| *k != kind);
        if matches!(self, Expectation::Reported | Expectation::Both) {
            expect.kinds.push(kind);
        }
        if matches!(self, Expectation::Absent | Expectation::Both) {
            expect.absent.push(kind);
        }
    }
}

/// Draws labelled rows and puts the validator's message under the row it names.
struct Form<'e> {
    error: Option<&'e ScenarioError>,
    /// Whether the error has been shown next to a field this frame.
    placed: bool,
    /// Scroll the error's message into view (the learner asked to see it).
    scroll: bool,
}

impl Form<'_> {
    /// A row: `label` (with `hint` on hover), the widgets `add` draws, and the message if the
    /// error names `path` exactly. `add` is given the label's id and names each input it draws
    /// with it ([`egui::Response::labelled_by`]), so a screen reader reads the label with the
    /// field; one of several alike (a range's two ends) is labelled by the row's label and a
    /// word of its own, a checkbox with words of its own is named by the label and its words,
    /// and a Remove button by what it removes.
    fn row(
        &mut self,
        ui: &mut Ui,
        path: &str,
        label: &str,
        hint: &str,
        add: impl FnOnce(&mut Ui, Id),
    ) {
        self.row_with(ui, path, false, label, hint, add);
    }

    /// [`Self::row`], with the message also for fields inside `path` if `within`.
    fn row_with(
        &mut self,
        ui: &mut Ui,
        path: &str,
        within: bool,
        label: &str,
        hint: &str,
        add: impl FnOnce(&mut Ui, Id),
    ) {
        // Wrapped: a row wider than a narrow panel (a name and its Remove button) moves its
        // last widgets down rather than running past the panel's edge, where they are cut off.
        ui.horizontal_wrapped(|ui| {
            let start = ui.cursor().left();
            let response = ui.label(label);
            let label = response.id;
            if !hint.is_empty() {
                response.on_hover_text(hint);
            }
            // Pad the label to a fixed column, so the widgets of a section line up.
            let used = ui.cursor().left() - start;
            ui.add_space((LABEL_WIDTH - used).max(0.0));
            add(ui, label);
        });
        self.note(ui, path, within);
    }

    /// The message, in red, if the error names `path`: under the field, wrapped to the panel.
    /// Unwrapped, a long one (a huge number echoed back) widened the panel, which keeps its
    /// widest size.
    fn note(&mut self, ui: &mut Ui, path: &str, within: bool) {
        if let Some(error) = self.error.filter(|e| names(e, path, within)) {
            self.placed = true;
            ui.horizontal_top(|ui| {
                // Under the field where that leaves the message room, else under the label.
                ui.add_space(LABEL_WIDTH.min(ui.available_width() / 2.0));
                let message = RichText::new(&error.message).color(style::VIOLATING);
                let shown = ui.add(egui::Label::new(message).wrap());
                if std::mem::take(&mut self.scroll) {
                    shown.scroll_to_me(Some(Align::Center));
                }
            });
        }
    }

    /// `Some(true)` if the error is about one of `paths` or inside it: the section holding
    /// them opens to show it.
    fn open_for(&self, paths: &[&str]) -> Option<bool> {
        self.error
            .is_some_and(|e| paths.iter().any(|path| names(e, path, true)))
            .then_some(true)
    }
}

/// What the status line says of the last load, paste, save or copy.
struct Notice {
    message: String,
    /// It went wrong.
    bad: bool,
    /// The draft when it was said: once the form is edited, the form's own status is shown
    /// again.
    about: Scenario,
}

/// The sandbox panel.
///
/// The shell calls [`Sandbox::show`] every frame it is visible; it returns the draft when the
/// learner presses Run (never while the draft is invalid). [`Sandbox::load`] puts a scenario in
/// the form (the library's Edit, or "edit this run").
pub struct Sandbox {
    draft: Scenario,
    /// The scenario the form was given (the course's design, a library pick, a link): what
    /// the learner's edit can be compared with.
    origin: Scenario,
    /// The draft as it last matched the run on screen (or `origin`): an `[expect]` the
    /// learner changed since then is their own claim ([`scenario::edit::mark`]).
    ran: Scenario,
    /// The TOML box: pasted text, or the draft as last copied out.
    text: String,
    /// Why the text in the box is not a scenario.
    text_error: Option<ScenarioError>,
    text_open: bool,
    /// The outcome of the last load, paste, save or copy.
    notice: Option<Notice>,
    /// The kind the "Add fault" button adds.
    new_fault: FaultTag,
    /// Whether the last frame showed the validator's message next to its field.
    error_placed: bool,
    /// The learner asked to be shown the field in error.
    show_error: bool,
}

impl Sandbox {
    /// A sandbox with `scenario` in the form.
    pub fn new(scenario: Scenario) -> Sandbox {
        Sandbox {
            text: scenario::to_toml(&scenario),
            origin: scenario.clone(),
            ran: scenario.clone(),
            draft: scenario,
            text_error: None,
            text_open: false,
            notice: None,
            new_fault: FaultTag::VARIANTS[0],
            error_placed: false,
            show_error: false,
        }
    }

    /// The form as the learner left it last time: `draft`, edited from `origin`.
    pub fn restored(draft: Scenario, origin: Scenario) -> Sandbox {
        let mut sandbox = Sandbox::new(origin);
        sandbox.text = scenario::to_toml(&draft);
        sandbox.draft = draft;
        sandbox.say("The form is as you left it last time.", false);
        sandbox
    }

    /// Replaces the form's contents with `scenario`, made from `base` (itself, for a
    /// scenario as written).
    pub fn load(&mut self, scenario: Scenario, base: Scenario) {
        *self = Sandbox {
            text_open: self.text_open,
            text: scenario::to_toml(&scenario),
            ..Sandbox::new(base)
        };
        self.draft = scenario.clone();
        self.ran = scenario;
    }

    /// The scenario as edited so far (valid or not).
    pub fn draft(&self) -> &Scenario {
        &self.draft
    }

    /// The draft as it last matched a run, before the learner's edits since.
    pub fn ran(&self) -> &Scenario {
        &self.ran
    }

    /// Holds `run`, the scenario of the run now on screen, made from `base`: the form and
    /// the run are one scenario again.
    pub fn take_run(&mut self, run: &Scenario, base: &Scenario) {
        // A notice about the draft stays with it as it runs ("as you left it last time").
        if let Some(notice) = self.notice.as_mut().filter(|n| n.about == self.draft) {
            notice.about = run.clone();
        }
        self.draft = run.clone();
        self.ran = run.clone();
        self.origin = base.clone();
    }

    /// Follows a change made to the run on screen (Break it, the timeline, another seed, a
    /// failure found), `previous` → `run`, when the form held `previous`; a form with edits
    /// of its own not yet run keeps them.
    pub fn follow(&mut self, previous: &Scenario, run: &Scenario, base: &Scenario) {
        if self.draft == *previous {
            self.take_run(run, base);
        }
    }

    /// The draft as it is saved, copied or shared: an edit is marked as made from `origin`
    /// ([`scenario::edit::mark`]); one not yet run states no `[expect]`, since its verdict is
    /// not known.
    fn shareable(&self) -> Scenario {
        if self.draft == self.ran {
            self.draft.clone()
        } else {
            scenario::edit::mark(&self.origin, &self.ran, self.draft.clone(), None)
        }
    }

    /// Takes the faults the learner placed on the run on screen: the draft's faults become
    /// `after`'s, the rest of the draft stays as the learner left it. `before` is the run's
    /// scenario before the change: if the form's faults had been edited since it ran, a
    /// notice says those edits gave way to the timeline's.
    pub fn take_faults(&mut self, before: &Scenario, after: &Scenario) {
        let overridden = self.draft.faults != before.faults;
        self.draft.faults = after.faults.clone();
        self.notice = None;
        if overridden {
            self.say(
                "The faults edited in the form since the last run gave way to the faults \
                 placed on the timeline.",
                true,
            );
        }
    }

    /// Says `message` (`bad`: something went wrong) in the status line, about the draft as
    /// it is now: once the form is edited, its own status shows again.
    pub fn say(&mut self, message: impl Into<String>, bad: bool) {
        self.notice = Some(Notice {
            message: message.into(),
            bad,
            about: self.draft.clone(),
        });
    }

    /// The scenario the form was given, before the learner's edits.
    pub fn origin(&self) -> &Scenario {
        &self.origin
    }

    /// Puts `text` in the TOML box and, if it is a valid scenario, in the form; otherwise the
    /// form stays and the box shows where the text goes wrong.
    fn take_text(&mut self, text: String) {
        self.take_bytes(text.as_bytes());
    }

    /// [`Self::take_text`] for the bytes of a file, which may not be text: a byte that is not
    /// UTF-8 is reported at its line and column like any other error.
    fn take_bytes(&mut self, bytes: &[u8]) {
        match scenario::parse_bytes(bytes) {
            Ok(s) => {
                self.draft = s;
                self.text_error = None;
                self.say("The form now holds this TOML.", false);
            }
            Err(e) => {
                self.text_error = Some(e);
                self.text_open = true;
                self.say(
                    "That TOML is not a scenario yet; the form is unchanged.",
                    true,
                );
            }
        }
        self.text = String::from_utf8_lossy(bytes).into_owned();
    }

    /// Draws the form; returns the draft when Run is pressed. `shown` is the scenario of the
    /// run on screen, if any: the form says when it holds something else.
    pub fn show(&mut self, ui: &mut Ui, shown: Option<&Scenario>) -> Option<Scenario> {
        let error = self.draft.validate().err();
        let mut run = false;
        ui.horizontal_wrapped(|ui| {
            ui.heading("Sandbox");
            run = ui
                .add_enabled(error.is_none(), egui::Button::new("Run"))
                .on_disabled_hover_text("Fix the field marked in red first.")
                .clicked();
            self.file_buttons(ui);
        });
        // One status: the last action's outcome stands in for the form's all-clear until the
        // form is edited ("Ready to run." over "That TOML is not a scenario yet" reads as a
        // contradiction); the form's error, which stops Run, always shows.
        if self.notice.as_ref().is_some_and(|n| n.about != self.draft) {
            self.notice = None;
        }
        let notice = self.notice.as_ref();
        if let Some(notice) = notice {
            let colour = if notice.bad {
                style::VIOLATING
            } else {
                style::SAFE
            };
            ui.label(RichText::new(&notice.message).color(colour));
        }
        match &error {
            None if notice.is_some() => {}
            None if shown.is_some_and(|s| *s != self.draft) => {
                ui.label(
                    RichText::new("The form differs from the run shown; Run to see it.")
                        .color(style::ANOMALY),
                );
            }
            None => {
                ui.label(RichText::new("Ready to run.").color(style::SAFE));
            }
            // The message is also under its field, which may be far down the form.
            Some(e) => {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("Cannot run yet: {e}")).color(style::VIOLATING));
                    if self.error_placed && ui.button("Show the field").clicked() {
                        self.show_error = true;
                    }
                });
            }
        }
        ui.separator();
        let mut form = Form {
            error: error.as_ref(),
            placed: false,
            scroll: std::mem::take(&mut self.show_error),
        };
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                self.toml_box(ui);
                let draft = &mut self.draft;
                general(ui, &mut form, draft);
                network(ui, &mut form, draft);
                lock(ui, &mut form, draft);
                store(ui, &mut form, draft);
                store_clocks(ui, &mut form, draft);
                resource_and_check(ui, &mut form, draft);
                workers(ui, &mut form, draft);
                faults(ui, &mut form, draft, &mut self.new_fault);
                expect(ui, &mut form, draft);
            });
        self.error_placed = form.placed;
        (run && error.is_none()).then(|| self.draft.clone())
    }

    /// Load and save through the desktop's file dialogs. A dialog that gives no file was
    /// closed or could not open (rfd cannot tell which): the learner hears of it, and of the
    /// TOML box, which needs no dialog.
    #[cfg(not(target_arch = "wasm32"))]
    fn file_buttons(&mut self, ui: &mut Ui) {
        if ui.button("Load file…").clicked() {
            let picked = rfd::FileDialog::new()
                .add_filter("scenario", &["toml"])
                .pick_file();
            if picked.is_none() {
                self.say(
                    super::export::no_file("loaded", "paste the file into the TOML box below"),
                    false,
                );
            }
            if let Some(path) = picked {
                match scenario::file::read(&path) {
                    Ok(bytes) => self.take_bytes(&bytes),
                    Err(scenario::file::FileError::Unreadable(e)) => {
                        self.say(format!("Could not load {}: {e}", path.display()), true)
                    }
                    Err(scenario::file::FileError::TooLarge(e)) => self.say(
                        format!("Could not load {}: {}", path.display(), e.message),
                        true,
                    ),
                }
            }
        }
        if ui.button("Save as…").clicked() {
            let picked = rfd::FileDialog::new()
                .add_filter("scenario", &["toml"])
                .set_file_name("scenario.toml")
                .save_file();
            if picked.is_none() {
                self.say(
                    super::export::no_file("saved", "copy the scenario from the TOML box below"),
                    false,
                );
            }
            if let Some(path) = picked {
                match std::fs::write(&path, scenario::to_toml(&self.shareable())) {
                    Ok(()) => self.say(format!("Saved {}.", path.display()), false),
                    Err(e) => self.say(format!("Could not write {}: {e}", path.display()), true),
                }
            }
        }
    }

    /// The browser has no files: the TOML box below is the way in and out.
    #[cfg(target_arch = "wasm32")]
    fn file_buttons(&mut self, ui: &mut Ui) {
        if ui.button("Paste or copy TOML").clicked() {
            self.text_open = true;
        }
    }

    /// The scenario as TOML: copy it out, or paste one in.
    fn toml_box(&mut self, ui: &mut Ui) {
        let header = egui::CollapsingHeader::new("TOML")
            .id_salt("sandbox_toml")
            .open(self.text_open.then_some(true));
        let shown = header.show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                if ui.button("Fill from the form").clicked() {
                    self.text = scenario::to_toml(&self.shareable());
                    self.text_error = None;
                    // The box now holds the form: a refused paste is old news.
                    self.notice = None;
                }
                if ui.button("Copy to clipboard").clicked() {
                    ui.ctx().copy_text(self.text.clone());
                    self.say("Copied the TOML.", false);
                }
                if ui.button("Use this TOML").clicked() {
                    self.take_text(self.text.clone());
                }
            });
            if let Some(e) = &self.text_error {
                ui.label(RichText::new(e.to_string()).color(style::VIOLATING));
            }
            // A box of its own height that scrolls its text: grown to a long text's length,
            // it filled the form, and the wheel over it had the whole form to get through
            // back to the buttons above it.
            let rows = TOML_ROWS as f32 * ui.text_style_height(&egui::TextStyle::Monospace);
            let most = rows.min(ui.ctx().content_rect().height() * 0.5);
            egui::ScrollArea::vertical()
                .id_salt("sandbox_toml_text")
                .max_height(most)
                .show(ui, |ui| {
                    ui.add(
                        egui::TextEdit::multiline(&mut self.text)
                            .code_editor()
                            .desired_rows(TOML_ROWS)
                            .desired_width(f32::INFINITY),
                    )
                })
                .inner
        });
        // The header forced it open once; from now on the learner opens and closes it.
        if let Some(text) = shown.body_returned {
            text.labelled_by(shown.header_response.id);
            self.text_open = false;
        }
    }
}

/// A section of the form, open at first; `open` forces it open (it holds the error).
fn section(ui: &mut Ui, open: Option<bool>, title: &str, add: impl FnOnce(&mut Ui)) {
    egui::CollapsingHeader::new(RichText::new(title).strong())
        .id_salt(("sandbox_section", title))
        .default_open(true)
        .open(open)
        .show(ui, add);
}

fn ms(value: &mut u64) -> egui::DragValue<'_> {
    whole(value).speed(10).suffix(" ms")
}

fn count<T: egui::emath::Numeric + std::fmt::Display>(value: &mut T) -> egui::DragValue<'_> {
    whole(value).speed(0.05)
}

/// The largest whole number below which an `f64` holds every whole number exactly: 2^53.
const EXACT: f64 = 9_007_199_254_740_992.0;

/// A field for a whole number that shows exactly the value the draft holds, the value the
/// validator's "got …" echoes. egui's `DragValue` edits through an `f64`, which rounds whole
/// numbers past 2^53: `99999999999999999999999` typed into a `u64` was kept as its maximum,
/// `18446744073709551615`, and shown as `18446744073709551616`. So what is typed or dragged
/// stops at ±2^53, and a larger value from a file is shown as it is (and left as it is).
fn whole<T: egui::emath::Numeric + std::fmt::Display>(value: &mut T) -> egui::DragValue<'_> {
    let kept = *value;
    egui::DragValue::new(value)
        .range(T::MIN.to_f64().max(-EXACT)..=T::MAX.to_f64().min(EXACT))
        .clamp_existing_to_range(false)
        .custom_formatter(move |shown, _| {
            if shown == kept.to_f64() {
                kept.to_string()
            } else {
                format!("{shown:.0}")
            }
        })
}

/// One variant of a scenario enum, each shown by the name scenario files use for it; like
/// every picker here, named by the row's label `label`.
fn pick_named<T>(ui: &mut Ui, id: &str, value: &mut T, label: Id)
where
    T: VariantArray + Copy + PartialEq + Into<&'static str>,
{
    let options: Vec<(T, &str)> = T::VARIANTS.iter().map(|&v| (v, v.into())).collect();
    pick(ui, id, value, &options, label);
}

fn pick<T: Copy + PartialEq>(
    ui: &mut Ui,
    id: &str,
    value: &mut T,
    options: &[(T, &str)],
    label: Id,
) {
    let shown = options
        .iter()
        .find(|(v, _)| v == value)
        .map_or("", |(_, name)| name);
    egui::ComboBox::from_id_salt(id)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for (v, name) in options {
                ui.selectable_value(value, *v, *name);
            }
        })
        .response
        .labelled_by(label);
}

/// A node by name: any node of the scenario, or the name already there even if no node has
/// it (so a mistyped name from a file stays visible, with the validator's message).
fn pick_node(ui: &mut Ui, id: &str, value: &mut String, nodes: &[String], label: Id) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(value.as_str())
        .show_ui(ui, |ui| {
            for node in nodes {
                ui.selectable_value(value, node.clone(), node);
            }
        })
        .response
        .labelled_by(label);
}

/// A duration that may be absent: a checkbox, named by the row's label `row` and its own text
/// `on` ("retry_ms own back-off"), then the value, named by the row's label `label`.
fn optional_ms(
    ui: &mut Ui,
    value: &mut Option<u64>,
    on: &str,
    default_ms: u64,
    (label, row): (Id, &str),
) {
    let mut set = value.is_some();
    if ui
        .checkbox(&mut set, on)
        .accessible_name(format!("{row} {on}"))
        .changed()
    {
        *value = set.then_some(value.unwrap_or(default_ms));
    }
    if let Some(v) = value {
        ui.add(ms(v)).labelled_by(label);
    }
}

fn general(ui: &mut Ui, form: &mut Form<'_>, s: &mut Scenario) {
    let top = [
        "version",
        "name",
        "description",
        "source",
        "seed",
        "until_ms",
    ];
    section(ui, form.open_for(&top), "Scenario", |ui| {
        form.row(
            ui,
            "version",
            "version",
            "The file format version.",
            |ui, label| {
                ui.add(count(&mut s.version)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "name",
            "name",
            "The title shown above the run.",
            |ui, label| {
                ui.add(egui::TextEdit::singleline(&mut s.name).desired_width(f32::INFINITY))
                    .labelled_by(label);
            },
        );
        form.row(ui, "description", "description", "", |ui, label| {
            ui.add(
                egui::TextEdit::multiline(&mut s.description)
                    .desired_rows(2)
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label);
        });
        form.row(
            ui,
            "source",
            "source",
            "Where the case comes from.",
            |ui, label| {
                ui.add(egui::TextEdit::singleline(&mut s.source).desired_width(f32::INFINITY))
                    .labelled_by(label);
            },
        );
        form.row(
            ui,
            "seed",
            "seed",
            "Drives every random choice: the same seed gives the same run.",
            |ui, label| {
                ui.add(count(&mut s.seed)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "until_ms",
            "until_ms",
            "How long the run lasts, in simulated ms.",
            |ui, label| {
                ui.add(ms(&mut s.until_ms)).labelled_by(label);
            },
        );
    });
}

fn network(ui: &mut Ui, form: &mut Form<'_>, s: &mut Scenario) {
    let n = &mut s.network;
    section(ui, form.open_for(&["network"]), "[network]", |ui| {
        form.row_with(
            ui,
            "network.delay_ms",
            false,
            "delay_ms",
            "One-way delay, uniform between the two.",
            |ui, label| {
                let [min, max] = &mut n.delay_ms;
                for (end, value) in [("min", min), ("max", max)] {
                    let end = ui.label(end).id;
                    ui.add(ms(value)).labelled_by(label).labelled_by(end);
                }
            },
        );
        form.row(
            ui,
            "network.loss",
            "loss",
            "Probability a message is lost.",
            |ui, label| {
                ui.add(
                    egui::DragValue::new(&mut n.loss)
                        .speed(0.005)
                        .max_decimals(3),
                )
                .labelled_by(label);
            },
        );
        form.row(
            ui,
            "network.timeout_ms",
            "timeout_ms",
            "How long a client waits for a store node's reply.",
            |ui, label| {
                ui.add(ms(&mut n.timeout_ms)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "network.transport",
            "transport",
            "tcp: a cut delays messages until it heals. datagram: a cut drops them.",
            |ui, label| pick_named(ui, "network.transport", &mut n.transport, label),
        );
        form.row(
            ui,
            "network.tcp_give_up_ms",
            "tcp_give_up_ms",
            "tcp: a message undelivered this long is lost with its connection.",
            |ui, label| {
                ui.add(ms(&mut n.tcp_give_up_ms)).labelled_by(label);
            },
        );
    });
}

fn lock(ui: &mut Ui, form: &mut Form<'_>, s: &mut Scenario) {
    let l = &mut s.lock;
    section(ui, form.open_for(&["lock"]), "[lock]", |ui| {
        form.row(
            ui,
            "lock.design",
            "design",
            "The rung of the ladder, or timestamp: the earliest wall-clock stamp wins.",
            |ui, label| {
                pick_named(ui, "lock.design", &mut l.design, label);
            },
        );
        form.row(ui, "lock.ttl_ms", "ttl_ms", "Lease length.", |ui, label| {
            ui.add(ms(&mut l.ttl_ms)).labelled_by(label);
        });
        form.row(
            ui,
            "lock.expiry",
            "expiry",
            "store: the store times the lease. client: a contender compares the holder's \
             'held until' with its own clock. observed: it takes over once the record stays \
             unchanged a lease length by its clock.",
            |ui, label| pick_named(ui, "lock.expiry", &mut l.expiry, label),
        );
        form.row(
            ui,
            "lock.renewal",
            "renewal",
            "watchdog: extends while the process lives. progress: only while work advances.",
            |ui, label| pick_named(ui, "lock.renewal", &mut l.renewal, label),
        );
        let third = (l.ttl_ms / 3).max(1);
        form.row(
            ui,
            "lock.renew_every_ms",
            "renew_every_ms",
            "How often a holder renews. Default: a third of ttl_ms.",
            |ui, label| {
                optional_ms(
                    ui,
                    &mut l.renew_every_ms,
                    "own period",
                    third,
                    (label, "renew_every_ms"),
                );
            },
        );
        form.row(
            ui,
            "lock.reentrant",
            "reentrant",
            "A holder may take it again.",
            |ui, label| {
                ui.checkbox(&mut l.reentrant, "").labelled_by(label);
            },
        );
        form.row(
            ui,
            "lock.waiting",
            "waiting",
            "retry: ask again after a back-off. fair: a FIFO queue at the store.",
            |ui, label| pick_named(ui, "lock.waiting", &mut l.waiting, label),
        );
        form.row(
            ui,
            "lock.retry_ms",
            "retry_ms",
            "Back-off between attempts.",
            |ui, label| {
                ui.add(ms(&mut l.retry_ms)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "lock.retry_jitter_ms",
            "retry_jitter_ms",
            "Random extra on each back-off. Default: half the back-off; 0 = lockstep.",
            |ui, label| {
                optional_ms(
                    ui,
                    &mut l.retry_jitter_ms,
                    "own jitter",
                    25,
                    (label, "retry_jitter_ms"),
                );
            },
        );
        form.row(
            ui,
            "lock.acquire",
            "acquire",
            "one_step: SET NX PX. two_step: SETNX, then EXPIRE (a crash between leaves no TTL).",
            |ui, label| pick_named(ui, "lock.acquire", &mut l.acquire, label),
        );
        form.row(
            ui,
            "lock.hold_count",
            "hold_count",
            "With reentrant: count repeat acquires. Off: the first release frees the lock.",
            |ui, label| {
                ui.checkbox(&mut l.hold_count, "").labelled_by(label);
            },
        );
        form.row(
            ui,
            "lock.settle_ms",
            "settle_ms",
            "timestamp: wait after the claim is recorded before reading the claims.",
            |ui, label| {
                ui.add(ms(&mut l.settle_ms)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "lock.lock_delay_ms",
            "lock_delay_ms",
            "After a lease expires, refuse new grants this long.",
            |ui, label| {
                ui.add(ms(&mut l.lock_delay_ms)).labelled_by(label);
            },
        );
    });
}

fn store(ui: &mut Ui, form: &mut Form<'_>, s: &mut Scenario) {
    let st = &mut s.store;
    section(ui, form.open_for(&["store"]), "[store]", |ui| {
        form.row(ui, "store.topology", "topology", "", |ui, label| {
            pick_named(ui, "store.topology", &mut st.topology, label);
        });
        form.row(
            ui,
            "store.nodes",
            "nodes",
            "Named store1 .. storeN.",
            |ui, label| {
                ui.add(count(&mut st.nodes)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "store.clock",
            "clock",
            "wall: a clock jump moves lease expiry. Default: wall, monotonic for consensus.",
            |ui, label| {
                pick(
                    ui,
                    "store.clock",
                    &mut st.clock,
                    &store_clock_choices(),
                    label,
                )
            },
        );
        form.row(
            ui,
            "store.persistence",
            "persistence",
            "everysec: a crash loses the last second. none: a restarted node forgot every lock.",
            |ui, label| pick_named(ui, "store.persistence", &mut st.persistence, label),
        );
        form.row(
            ui,
            "store.replication_lag_ms",
            "replication_lag_ms",
            "replicated: how long the primary takes to copy a change to its replicas.",
            |ui, label| {
                ui.add(ms(&mut st.replication_lag_ms)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "store.failover_ms",
            "failover_ms",
            "How long without the primary or leader before a replica takes over.",
            |ui, label| {
                ui.add(ms(&mut st.failover_ms)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "store.ttl_multiplier",
            "ttl_multiplier",
            "The store keeps a lease this many TTLs; the client counts one (Consul: 2).",
            |ui, label| {
                ui.add(count(&mut st.ttl_multiplier)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "store.min_replicas_to_write",
            "min_replicas_to_write",
            "replicated: the primary refuses writes unless this many replicas acknowledged it lately (0: never).",
            |ui, label| {
                ui.add(count(&mut st.min_replicas_to_write)).labelled_by(label);
            },
        );
        form.row(
            ui,
            "store.min_replicas_max_lag_ms",
            "min_replicas_max_lag_ms",
            "How old a replica's last acknowledgement may be for it to count.",
            |ui, label| {
                ui.add(ms(&mut st.min_replicas_max_lag_ms))
                    .labelled_by(label);
            },
        );
        form.row(
            ui,
            "store.prevote",
            "prevote",
            "consensus: ask whether it could win before raising its term (etcd's PreVote).",
            |ui, label| {
                ui.checkbox(&mut st.prevote, "").labelled_by(label);
            },
        );
        form.row(
            ui,
            "store.check_quorum",
            "check_quorum",
            "consensus: a leader no majority answers steps down; a node hearing its leader \
             ignores bids (etcd's CheckQuorum).",
            |ui, label| {
                ui.checkbox(&mut st.check_quorum, "").labelled_by(label);
            },
        );
    });
}

/// A node's clock error: `clock_offset_ms` and `clock_drift_ppm`, fields named by `path`.
fn clock_rows(
    ui: &mut Ui,
    form: &mut Form<'_>,
    path: &dyn Fn(&str) -> String,
    (offset_ms, drift_ppm): (&mut i64, &mut i64),
    drift_hint: &str,
) {
    form.row(
        ui,
        &path("clock_offset_ms"),
        "clock_offset_ms",
        "",
        |ui, label| {
            ui.add(whole(offset_ms).speed(10).suffix(" ms"))
                .labelled_by(label);
        },
    );
    form.row(
        ui,
        &path("clock_drift_ppm"),
        "clock_drift_ppm",
        drift_hint,
        |ui, label| {
            ui.add(whole(drift_ppm).speed(10).suffix(" ppm"))
                .labelled_by(label);
        },
    );
}

/// `[[node]]`: a clock offset and drift per store node.
fn store_clocks(ui: &mut Ui, form: &mut Form<'_>, s: &mut Scenario) {
    let stores = s.store_names();
    section(ui, form.open_for(&["node"]), "Store clocks", |ui| {
        let mut remove = None;
        for (i, c) in s.store_clocks.iter_mut().enumerate() {
            let p = |field: &str| format!("node[{i}].{field}");
            form.row(ui, &p("name"), "name", "", |ui, label| {
                pick_node(ui, &p("name"), &mut c.name, &stores, label);
                if ui
                    .button("Remove")
                    .accessible_name(format!("Remove {}'s clock", c.name))
                    .clicked()
                {
                    remove = Some(i);
                }
            });
            clock_rows(
                ui,
                form,
                &p,
                (&mut c.clock_offset_ms, &mut c.clock_drift_ppm),
                "Positive runs fast; Redlock allows for 1 % (10 000 ppm).",
            );
        }
        if let Some(i) = remove {
            s.store_clocks.remove(i);
        }
        let free = stores
            .iter()
            .find(|n| !s.store_clocks.iter().any(|c| &c.name == *n));
        if let Some(name) = free
            && ui.button("Add a store clock").clicked()
        {
            s.store_clocks.push(NodeClock {
                name: name.clone(),
                clock_offset_ms: 0,
                clock_drift_ppm: 0,
            });
        }
    });
}

fn resource_and_check(ui: &mut Ui, form: &mut Form<'_>, s: &mut Scenario) {
    section(ui, form.open_for(&["resource"]), "[resource]", |ui| {
        form.row(
            ui,
            "resource.fencing",
            "fencing",
            "Reject a token lower than the highest accepted.",
            |ui, label| {
                ui.checkbox(&mut s.resource.fencing, "").labelled_by(label);
            },
        );
        form.row(
            ui,
            "resource.fence_reads",
            "fence_reads",
            "Check the token on reads too, so no read-modify-write spans two grants.",
            |ui, label| {
                ui.checkbox(&mut s.resource.fence_reads, "")
                    .labelled_by(label);
            },
        );
        form.row(
            ui,
            "resource.mode",
            "mode",
            "plain: read-modify-write. idempotent: overlaps are harmless. cas: compare-and-swap \
             on a version.",
            |ui, label| pick_named(ui, "resource.mode", &mut s.resource.mode, label),
        );
    });
    section(ui, form.open_for(&["check"]), "[check]", |ui| {
        form.row(
            ui,
            "check.starve_after_ms",
            "starve_after_ms",
            "A live worker waiting longer than this is starved.",
            |ui, label| {
                ui.add(ms(&mut s.check.starve_after_ms)).labelled_by(label);
            },
        );
    });
}

fn workers(ui: &mut Ui, form: &mut Form<'_>, s: &mut Scenario) {
    section(ui, form.open_for(&["worker"]), "Workers", |ui| {
        form.note(ui, "worker", false);
        let many_workers = s.workers.len() > OPEN_ITEMS;
        let mut remove = None;
        // A multi-primary cluster's clients each name their member.
        let members: Option<Vec<String>> = s.store.topology.pins_clients().then(|| s.store_names());
        for (i, w) in s.workers.iter_mut().enumerate() {
            let p = |field: &str| format!("worker[{i}].{field}");
            let title = format!("[[worker]] {}", w.name);
            egui::CollapsingHeader::new(title)
                .id_salt(("sandbox_worker", i))
                .default_open(!many_workers)
                .open(form.open_for(&[&format!("worker[{i}]")]))
                .show(ui, |ui| {
                    form.note(ui, &format!("worker[{i}]"), false);
                    form.row(
                        ui,
                        &p("name"),
                        "name",
                        "Unique; not store<N> nor resource.",
                        |ui, label| {
                            ui.add(egui::TextEdit::singleline(&mut w.name).desired_width(120.0))
                                .labelled_by(label);
                            if ui
                                .button("Remove worker")
                                .accessible_name(format!("Remove worker {}", w.name))
                                .clicked()
                            {
                                remove = Some(i);
                            }
                        },
                    );
                    form.row(
                        ui,
                        &p("start_ms"),
                        "start_ms",
                        "First attempt.",
                        |ui, label| {
                            ui.add(ms(&mut w.start_ms)).labelled_by(label);
                        },
                    );
                    form.row(
                        ui,
                        &p("work_ms"),
                        "work_ms",
                        "Critical-section length in the worker's own running time.",
                        |ui, label| {
                            ui.add(ms(&mut w.work_ms)).labelled_by(label);
                        },
                    );
                    form.row(
                        ui,
                        &p("writes"),
                        "writes",
                        "Writes per critical section.",
                        |ui, label| {
                            ui.add(count(&mut w.writes)).labelled_by(label);
                        },
                    );
                    form.row(
                        ui,
                        &p("repeat"),
                        "repeat",
                        "Acquisitions; 0 = until the end of the run.",
                        |ui, label| {
                            ui.add(count(&mut w.repeat)).labelled_by(label);
                        },
                    );
                    form.row(
                        ui,
                        &p("retry_ms"),
                        "retry_ms",
                        "Default: lock.retry_ms.",
                        |ui, label| {
                            optional_ms(
                                ui,
                                &mut w.retry_ms,
                                "own back-off",
                                50,
                                (label, "retry_ms"),
                            );
                        },
                    );
                    form.row(
                        ui,
                        &p("key"),
                        "key",
                        "Which lock (and record) it wants.",
                        |ui, label| {
                            ui.add(egui::TextEdit::singleline(&mut w.key).desired_width(120.0))
                                .labelled_by(label);
                        },
                    );
                    form.row(
                        ui,
                        &p("nested"),
                        "nested",
                        "Takes the same lock again inside its critical section.",
                        |ui, label| {
                            ui.checkbox(&mut w.nested, "").labelled_by(label);
                        },
                    );
                    form.row(
                        ui,
                        &p("check_lease"),
                        "check_lease",
                        "Checks its remaining lease before each write.",
                        |ui, label| {
                            ui.checkbox(&mut w.check_lease, "").labelled_by(label);
                        },
                    );
                    form.row(
                        ui,
                        &p("write_timeout_ms"),
                        "write_timeout_ms",
                        "",
                        |ui, label| {
                            ui.add(ms(&mut w.write_timeout_ms)).labelled_by(label);
                        },
                    );
                    clock_rows(
                        ui,
                        form,
                        &p,
                        (&mut w.clock_offset_ms, &mut w.clock_drift_ppm),
                        "Positive runs fast.",
                    );
                    form.row(
                        ui,
                        &p("lease_clock"),
                        "lease_clock",
                        "The clock it times its own lease on.",
                        |ui, label| pick_named(ui, &p("lease_clock"), &mut w.lease_clock, label),
                    );
                    form.row(
                        ui,
                        &p("on_lock_loss"),
                        "on_lock_loss",
                        "stop: stops its work once it learns the lock is gone.",
                        |ui, label| pick_named(ui, &p("on_lock_loss"), &mut w.on_lock_loss, label),
                    );
                    form.row(
                        ui,
                        &p("lease_from"),
                        "lease_from",
                        "reply: counts its lease from the answer, as etcd's client does.",
                        |ui, label| pick_named(ui, &p("lease_from"), &mut w.lease_from, label),
                    );
                    form.row(
                        ui,
                        &p("lease_check_every_ms"),
                        "lease_check_every_ms",
                        "With stop: how often it looks at its count (0: at once).",
                        |ui, label| {
                            ui.add(ms(&mut w.lease_check_every_ms)).labelled_by(label);
                        },
                    );
                    form.row(
                        ui,
                        &p("on_timeout"),
                        "on_timeout",
                        "drop_connection: a late grant is never read (redis-py); forget: it creates anew (ZooKeeper).",
                        |ui, label| pick_named(ui, &p("on_timeout"), &mut w.on_timeout, label),
                    );
                    if let Some(members) = &members {
                        form.row(
                            ui,
                            &p("store_node"),
                            "store_node",
                            "The member it is connected to (default: store1).",
                            |ui, label| {
                                // Left unset until another member is picked: shown is not edited.
                                let first = store_name(1);
                                let mut node = w.store_node.clone().unwrap_or(first.clone());
                                pick_node(ui, &p("store_node"), &mut node, members, label);
                                if w.store_node.as_deref().unwrap_or(&first) != node {
                                    w.store_node = Some(node);
                                }
                            },
                        );
                    }
                });
        }
        if let Some(i) = remove {
            s.workers.remove(i);
        }
        if ui.button("Add worker").clicked() {
            s.workers.push(Worker::new(&fresh_worker_name(&s.workers)));
        }
    });
}

fn faults(ui: &mut Ui, form: &mut Form<'_>, s: &mut Scenario, new_fault: &mut FaultTag) {
    let nodes = s.node_names();
    section(ui, form.open_for(&["fault"]), "Faults", |ui| {
        let many_faults = s.faults.len() > OPEN_ITEMS;
        let mut remove = None;
        let workers = &s.workers;
        for (i, fault) in s.faults.iter_mut().enumerate() {
            let p = |field: &str| format!("fault[{i}].{field}");
            egui::CollapsingHeader::new(format!(
                "[[fault]] {} at {} ms",
                fault.kind.name(),
                fault.at_ms
            ))
            .id_salt(("sandbox_fault", i))
            .default_open(!many_faults)
            .open(form.open_for(&[&format!("fault[{i}]")]))
            .show(ui, |ui| {
                form.note(ui, &format!("fault[{i}]"), false);
                form.row(ui, &p("kind"), "kind", "", |ui, label| {
                    let was = FaultTag::from(&fault.kind);
                    let mut kind = was;
                    let id = p("kind");
                    egui::ComboBox::from_id_salt(id.as_str())
                        .selected_text(<&str>::from(kind))
                        .show_ui(ui, |ui| {
                            for &tag in FaultTag::VARIANTS {
                                ui.selectable_value(&mut kind, tag, <&str>::from(tag));
                            }
                        })
                        .response
                        .labelled_by(label);
                    if kind != was {
                        fault.kind = fault_edit::converted(kind, Some(&fault.kind), workers);
                    }
                    let name = format!(
                        "Remove fault {} ({} at {} ms)",
                        i + 1,
                        fault.kind.name(),
                        fault.at_ms
                    );
                    if ui.button("Remove fault").accessible_name(name).clicked() {
                        remove = Some(i);
                    }
                });
                form.row(
                    ui,
                    &p("at_ms"),
                    "at_ms",
                    "True time it starts.",
                    |ui, label| {
                        ui.add(ms(&mut fault.at_ms)).labelled_by(label);
                    },
                );
                fault_fields(ui, form, i, &mut fault.kind, &nodes);
            });
        }
        if let Some(i) = remove {
            s.faults.remove(i);
        }
        ui.horizontal(|ui| {
            if ui.button("Add fault").clicked() {
                let kind = fault_edit::converted(*new_fault, None, &s.workers);
                s.faults.push(Fault { at_ms: 1_000, kind });
            }
            egui::ComboBox::from_id_salt("sandbox_new_fault")
                .selected_text(<&str>::from(*new_fault))
                .show_ui(ui, |ui| {
                    for &tag in FaultTag::VARIANTS {
                        ui.selectable_value(new_fault, tag, <&str>::from(tag));
                    }
                })
                .response
                .accessible_name("kind of fault to add");
        });
    });
}

/// The fields a fault of this kind has, besides `at_ms` ([`fault_fields::fields`]).
fn fault_fields(
    ui: &mut Ui,
    form: &mut Form<'_>,
    i: usize,
    kind: &mut FaultKind,
    nodes: &[String],
) {
    let p = |field: &str| format!("fault[{i}].{field}");
    for field in fault_fields::fields(kind) {
        let (name, hint) = (field.name, field.hint);
        let id = p(name);
        match field.value {
            Value::Node(node) => form.row(ui, &id, name, hint, |ui, label| {
                pick_node(ui, &id, node, nodes, label)
            }),
            Value::StoreNode(node) => form.row(ui, &id, name, hint, |ui, label| {
                let mut one = node.is_some();
                if ui
                    .checkbox(&mut one, "one store node")
                    .accessible_name(format!("{name} one store node"))
                    .changed()
                {
                    *node = one.then(|| store_name(1));
                }
                if let Some(n) = node {
                    pick_node(ui, &id, n, nodes, label);
                }
            }),
            Value::Ms(v) => form.row(ui, &id, name, hint, |ui, label| {
                ui.add(ms(v)).labelled_by(label);
            }),
            Value::OptionalMs {
                value,
                on,
                default_ms,
            } => form.row(ui, &id, name, hint, |ui, label| {
                optional_ms(ui, value, on, default_ms, (label, name));
            }),
            Value::SignedMs(v) => form.row(ui, &id, name, hint, |ui, label| {
                ui.add(whole(v).speed(100).suffix(" ms")).labelled_by(label);
            }),
            Value::Groups(groups) => {
                form.row_with(ui, &id, true, name, hint, |ui, _| {
                    if ui.button("Add group").clicked() {
                        groups.push(Vec::new());
                    }
                });
                partition_groups(ui, i, groups, nodes);
            }
            Value::DeletedBy(by) => form.row(ui, &id, name, hint, |ui, label| {
                pick_named::<DeletedBy>(ui, &id, by, label)
            }),
            Value::Key(key) => form.row(ui, &id, name, hint, |ui, label| {
                ui.add(egui::TextEdit::singleline(key).desired_width(120.0))
                    .labelled_by(label);
            }),
        }
    }
    fault_fields::settle(kind);
}

/// One line per group of fault `i`: a toggle per node. Putting a node in a group takes it out
/// of the others, since a node can be on one side only. Names no node has stay listed until
/// toggled off. Each toggle and Remove is named by its group and fault, since every group
/// has them alike.
fn partition_groups(ui: &mut Ui, i: usize, groups: &mut Vec<Vec<String>>, nodes: &[String]) {
    let mut remove = None;
    for g in 0..groups.len() {
        ui.horizontal_wrapped(|ui| {
            ui.add_space(LABEL_WIDTH);
            ui.label(format!("group {}:", g + 1));
            let strays: Vec<String> = groups[g]
                .iter()
                .filter(|n| !nodes.contains(n))
                .cloned()
                .collect();
            for node in nodes.iter().chain(&strays) {
                let inside = groups[g].contains(node);
                let name = format!("{node} in group {} of fault {}", g + 1, i + 1);
                if ui
                    .selectable_label(inside, node.as_str())
                    .accessible_name(name)
                    .clicked()
                {
                    if inside {
                        groups[g].retain(|n| n != node);
                    } else {
                        for group in groups.iter_mut() {
                            group.retain(|n| n != node);
                        }
                        groups[g].push(node.clone());
                    }
                }
            }
            if ui
                .small_button("remove group")
                .accessible_name(format!("remove group {} of fault {}", g + 1, i + 1))
                .clicked()
            {
                remove = Some(g);
            }
        });
    }
    if let Some(g) = remove {
        groups.remove(g);
    }
}

fn expect(ui: &mut Ui, form: &mut Form<'_>, s: &mut Scenario) {
    section(ui, form.open_for(&["expect"]), "[expect]", |ui| {
        let mut has = s.expect.is_some();
        if ui
            .checkbox(&mut has, "State what this scenario is meant to show")
            .changed()
        {
            s.expect = has.then(Expect::default);
        }
        let Some(e) = &mut s.expect else {
            return;
        };
        let verdicts = [
            (None, "either way"),
            (Some(true), "true"),
            (Some(false), "false"),
        ];
        form.row(ui, "expect.safe", "safe", "", |ui, label| {
            pick(ui, "expect.safe", &mut e.safe, &verdicts, label);
        });
        form.row(ui, "expect.live", "live", "", |ui, label| {
            pick(ui, "expect.live", &mut e.live, &verdicts, label);
        });
        for kind in ViolationKind::ALL {
            // The validator names a contradiction by its place in `absent`.
            let path = match e.absent.iter().position(|k| *k == kind) {
                Some(j) => format!("expect.absent[{j}]"),
                None => format!("expect.kinds.{}", kind.as_str()),
            };
            form.row(ui, &path, kind.as_str(), "", |ui, label| {
                let now = Expectation::of(e, kind);
                let mut chosen = now;
                let mut options = vec![
                    Expectation::Either,
                    Expectation::Reported,
                    Expectation::Absent,
                ];
                if now == Expectation::Both {
                    options.push(Expectation::Both);
                }
                let labelled: Vec<(Expectation, &str)> =
                    options.into_iter().map(|x| (x, x.label())).collect();
                pick(ui, &path, &mut chosen, &labelled, label);
                if chosen != now {
                    chosen.set(e, kind);
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::headless;
    use crate::scenario::{Design, Expiry, Renewal, Topology, parse};

    fn step5() -> Scenario {
        let path = format!(
            "{}/assets/scenarios/step5-fencing-token.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        parse(&std::fs::read_to_string(path).expect("scenario file")).expect("valid scenario")
    }

    fn draw(ctx: &egui::Context, sandbox: &mut Sandbox) -> Option<Scenario> {
        let mut ran = None;
        // Two frames: collapsing sections settle their size on the first.
        for _ in 0..2 {
            headless::frame(ctx, |ui| ran = sandbox.show(ui, None));
        }
        ran
    }

    /// A way to break a scenario, and the field the validator should then name.
    type Breaking = (&'static str, Box<dyn Fn(&mut Scenario)>);

    /// Breaks the step-5 scenario in each way the validator knows.
    fn broken() -> Vec<Breaking> {
        let partition = |groups: Vec<Vec<&'static str>>| {
            move |s: &mut Scenario| {
                s.faults[0].kind = FaultKind::Partition {
                    groups: groups
                        .iter()
                        .map(|g| g.iter().map(|n| n.to_string()).collect())
                        .collect(),
                    for_ms: None,
                }
            }
        };
        vec![
            ("version", Box::new(|s| s.version = 9)),
            ("name", Box::new(|s| s.name.clear())),
            ("until_ms", Box::new(|s| s.until_ms = 0)),
            (
                "network.delay_ms",
                Box::new(|s| s.network.delay_ms = [5, 1]),
            ),
            ("network.loss", Box::new(|s| s.network.loss = 2.0)),
            ("network.timeout_ms", Box::new(|s| s.network.timeout_ms = 0)),
            ("lock.ttl_ms", Box::new(|s| s.lock.ttl_ms = 0)),
            ("lock.retry_ms", Box::new(|s| s.lock.retry_ms = 0)),
            (
                "lock.lock_delay_ms",
                Box::new(|s| s.lock.lock_delay_ms = u64::MAX),
            ),
            ("lock.settle_ms", Box::new(|s| s.lock.settle_ms = u64::MAX)),
            ("lock.settle_ms", Box::new(|s| s.lock.settle_ms = 10)),
            (
                "lock.renew_every_ms",
                Box::new(|s| s.lock.renew_every_ms = Some(2_000)),
            ),
            (
                "lock.ttl_ms",
                Box::new(|s| {
                    s.lock.design = Design::Timestamp;
                    s.resource.fencing = false;
                    s.lock.ttl_ms = 5_000;
                }),
            ),
            (
                "lock.lock_delay_ms",
                Box::new(|s| {
                    s.lock.design = Design::Setnx;
                    s.resource.fencing = false;
                    s.lock.lock_delay_ms = 300;
                }),
            ),
            (
                "lock.renewal",
                Box::new(|s| {
                    s.lock.design = Design::Setnx;
                    s.resource.fencing = false;
                    s.lock.renewal = Renewal::Watchdog;
                }),
            ),
            (
                "lock.expiry",
                Box::new(|s| {
                    s.lock.expiry = Expiry::Client;
                    s.store.topology = Topology::Consensus;
                    s.store.nodes = 3;
                }),
            ),
            (
                "lock.reentrant",
                Box::new(|s| {
                    s.lock.design = Design::Ttl;
                    s.resource.fencing = false;
                    s.lock.reentrant = true;
                }),
            ),
            ("store.nodes", Box::new(|s| s.store.nodes = 2)),
            ("store.failover_ms", Box::new(|s| s.store.failover_ms = 0)),
            (
                "resource.fencing",
                Box::new(|s| s.lock.design = Design::Token),
            ),
            (
                "check.starve_after_ms",
                Box::new(|s| s.check.starve_after_ms = 0),
            ),
            ("worker", Box::new(|s| s.workers.clear())),
            (
                "worker[1].name",
                Box::new(|s| s.workers[1].name = "A".to_string()),
            ),
            (
                "worker[0].name",
                Box::new(|s| s.workers[0].name = "store1".to_string()),
            ),
            ("worker[0].work_ms", Box::new(|s| s.workers[0].work_ms = 0)),
            ("worker[0].writes", Box::new(|s| s.workers[0].writes = 0)),
            (
                "worker[0].retry_ms",
                Box::new(|s| s.workers[0].retry_ms = Some(0)),
            ),
            ("worker[0].key", Box::new(|s| s.workers[0].key.clear())),
            (
                "worker[0].write_timeout_ms",
                Box::new(|s| s.workers[0].write_timeout_ms = 0),
            ),
            (
                "worker[0].clock_offset_ms",
                Box::new(|s| s.workers[0].clock_offset_ms = i64::MIN),
            ),
            (
                "worker[0].clock_drift_ppm",
                Box::new(|s| s.workers[0].clock_drift_ppm = 900_000),
            ),
            (
                "worker[1].start_ms",
                Box::new(|s| s.workers[1].start_ms = 99_999),
            ),
            (
                "worker[64]",
                Box::new(|s| {
                    let extra = (0..70).map(|i| Worker::new(&format!("w{i}")));
                    s.workers.extend(extra);
                }),
            ),
            ("fault[0].at_ms", Box::new(|s| s.faults[0].at_ms = 20_000)),
            (
                "fault[0].node",
                Box::new(|s| s.faults[0].kind = FaultKind::Crash { node: "Z".into() }),
            ),
            (
                "fault[0].for_ms",
                Box::new(|s| {
                    s.faults[0].kind = FaultKind::KillStore { for_ms: Some(0) };
                }),
            ),
            ("fault[0].groups", Box::new(partition(vec![vec!["A"]]))),
            (
                "fault[0].groups[1]",
                Box::new(partition(vec![vec!["A"], vec![]])),
            ),
            (
                "fault[0].groups[1][0]",
                Box::new(partition(vec![vec!["A"], vec!["Q"]])),
            ),
            (
                "fault[0].groups[1][0]",
                Box::new(partition(vec![vec!["A"], vec!["A"]])),
            ),
            (
                "fault[0].delta_ms",
                Box::new(|s| {
                    s.faults[0].kind = FaultKind::ClockJump {
                        node: "store1".into(),
                        delta_ms: i64::MAX,
                    }
                }),
            ),
            (
                "fault[0].to",
                Box::new(|s| {
                    s.faults[0].kind = FaultKind::Delay {
                        from: "A".into(),
                        to: "A".into(),
                        extra_ms: 1,
                        for_ms: 1,
                    }
                }),
            ),
            (
                "fault[1000]",
                Box::new(|s| {
                    let pause = s.faults[0].clone();
                    s.faults.resize(1_001, pause);
                }),
            ),
            (
                "expect.absent[0]",
                Box::new(|s| {
                    let e = s.expect.get_or_insert_with(Expect::default);
                    e.kinds.push(ViolationKind::StaleWrite);
                }),
            ),
        ]
    }

    #[test]
    fn each_validation_message_shows_next_to_its_field() {
        // One context for every case: building a context's fonts is the slow part.
        let ctx = egui::Context::default();
        for (field, breaks) in broken() {
            let mut s = step5();
            breaks(&mut s);
            let error = s.validate().expect_err(field);
            assert_eq!(error.field, field, "the case breaks the field it means to");
            let mut sandbox = Sandbox::new(s.clone());
            assert_eq!(draw(&ctx, &mut sandbox), None);
            assert!(
                sandbox.error_placed,
                "{field}: message not shown by its field"
            );
            assert_eq!(sandbox.draft(), &s, "{field}: the draft is kept as it was");
        }
    }

    #[test]
    fn names_matches_the_field_or_what_is_inside_it() {
        let e = |field: &str| ScenarioError {
            field: field.to_string(),
            line: None,
            column: None,
            message: String::new(),
        };
        assert!(names(&e("worker[1].name"), "worker[1].name", false));
        assert!(!names(&e("worker[1].name"), "worker[1]", false));
        assert!(names(&e("worker[1].name"), "worker[1]", true));
        assert!(!names(&e("worker[10].name"), "worker[1]", true));
        assert!(names(&e("fault[0].groups[1][0]"), "fault[0].groups", true));
        assert!(!names(&e("lock.ttl_ms"), "lock.ttl", true));
    }

    #[test]
    fn new_workers_get_free_names() {
        let mut workers = vec![Worker::new("A"), Worker::new("C")];
        assert_eq!(fresh_worker_name(&workers), "B");
        workers.extend(('B'..='Z').map(|c| Worker::new(&c.to_string())));
        assert_eq!(fresh_worker_name(&workers), "W1");
    }

    #[test]
    fn expectations_move_a_kind_between_the_lists() {
        let mut e = Expect::default();
        Expectation::Reported.set(&mut e, ViolationKind::Overlap);
        Expectation::Absent.set(&mut e, ViolationKind::StaleWrite);
        assert_eq!(e.kinds, vec![ViolationKind::Overlap]);
        assert_eq!(e.absent, vec![ViolationKind::StaleWrite]);
        Expectation::Absent.set(&mut e, ViolationKind::Overlap);
        assert_eq!(
            Expectation::of(&e, ViolationKind::Overlap),
            Expectation::Absent
        );
        assert!(e.kinds.is_empty());
        Expectation::Either.set(&mut e, ViolationKind::Overlap);
        assert_eq!(e.absent, vec![ViolationKind::StaleWrite]);
    }

    #[test]
    fn bad_toml_stays_in_the_box_with_its_position() {
        let s = step5();
        let mut sandbox = Sandbox::new(s.clone());
        let text = "version = 1\nname = \"x\"\n[[worker]]\nname = \"A\"\nwork_ms = \"long\"\n";
        sandbox.take_text(text.to_string());
        assert_eq!(sandbox.text, text);
        assert_eq!(sandbox.draft(), &s, "the form is unchanged");
        let e = sandbox.text_error.clone().expect("an error");
        assert_eq!(e.line, Some(5));
        assert_eq!(e.field, "worker[0].work_ms");
        draw(&egui::Context::default(), &mut sandbox);
        // Good TOML replaces the form.
        let mut other = s.clone();
        other.name = "Another".to_string();
        sandbox.take_text(scenario::to_toml(&other));
        assert_eq!(sandbox.draft(), &other);
        assert_eq!(sandbox.text_error, None);
    }

    #[test]
    fn only_an_invalid_draft_gets_a_message() {
        let ctx = egui::Context::default();
        let mut sandbox = Sandbox::new(step5());
        assert_eq!(draw(&ctx, &mut sandbox), None, "Run was not pressed");
        assert!(!sandbox.error_placed);
        let mut s = step5();
        s.workers[0].work_ms = 0;
        sandbox.load(s.clone(), s);
        draw(&ctx, &mut sandbox);
        assert!(sandbox.error_placed);
    }
}
