//! The glossary in the app, driven headless (egui_kittest): a term in a step's text is marked,
//! pointing at it shows its definition and a click keeps it open; a term in an option shows
//! its definition without stopping the option from being chosen; the Glossary page lists
//! every term.

use eframe::egui::{Key, Rect, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use locksim::app::LocksimApp;
use locksim::course::STEPS;
use locksim::course::glossary::{self, Entry};

use crate::support::drive::go_to_step;
use crate::support::screen::shows;

fn harness(width: f32, height: f32) -> Harness<'static, LocksimApp> {
    let mut h = Harness::builder()
        .with_size([width, height])
        .build_ui_state(
            |ui, app: &mut LocksimApp| app.show(ui),
            LocksimApp::restore(None),
        );
    // More than egui's tooltip delay (0.5 s) at the harness's 0.25 s a frame.
    h.run_steps(3);
    h
}

/// Lets enough frames pass for a click to act or a tooltip to appear.
fn settle(h: &mut Harness<'_, LocksimApp>) {
    h.run_steps(4);
}

/// Where the marked term written `shown` is drawn, inside `within` if given.
fn term_at(h: &Harness<'_, LocksimApp>, shown: &str, within: Option<Rect>) -> Option<Rect> {
    h.query_all_by(|node| node.role() == Role::Term && node.label().as_deref() == Some(shown))
        .map(|node| node.rect())
        .find(|rect| within.is_none_or(|outer| outer.contains_rect(*rect)))
}

/// The first step whose situation names a glossary term, the term as written and its entry.
fn a_term_in_a_situation() -> (usize, String, &'static Entry) {
    STEPS
        .iter()
        .enumerate()
        .find_map(|(n, step)| {
            let (range, entry) = glossary::terms_in(step.situation).into_iter().next()?;
            Some((n, step.situation[range].to_string(), entry))
        })
        .expect("some step's situation uses a glossary term")
}

fn move_to(h: &mut Harness<'_, LocksimApp>, rect: Rect) {
    h.event(eframe::egui::Event::PointerMoved(rect.center()));
    settle(h);
}

#[test]
fn a_marked_term_shows_its_definition_on_hover_and_stays_open_when_clicked() {
    for (width, height) in [(1280.0, 800.0), (390.0, 844.0)] {
        let mut h = harness(width, height);
        let (n, shown, entry) = a_term_in_a_situation();
        go_to_step(&mut h, n);
        let at = format!("{shown:?} at {width} points");
        let rect = term_at(&h, &shown, None).unwrap_or_else(|| panic!("{at} is marked"));
        assert!(
            !shows(&h, entry.definition),
            "{at}: no definition before pointing at it"
        );

        move_to(&mut h, rect);
        assert!(
            shows(&h, entry.definition),
            "{at}: hover shows the definition"
        );

        // Pointing away hides the tooltip; a click (a tap on a phone) pins it open.
        move_to(
            &mut h,
            Rect::from_center_size([width - 5.0, height - 5.0].into(), [1.0; 2].into()),
        );
        assert!(
            !shows(&h, entry.definition),
            "{at}: the tooltip goes with the pointer"
        );
        move_to(&mut h, rect);
        h.event(click(rect, true));
        h.event(click(rect, false));
        settle(&mut h);
        move_to(
            &mut h,
            Rect::from_center_size([width - 5.0, height - 5.0].into(), [1.0; 2].into()),
        );
        assert!(shows(&h, entry.definition), "{at}: a click keeps it open");
        h.key_press(Key::Escape);
        settle(&mut h);
        assert!(!shows(&h, entry.definition), "{at}: Escape closes it");
    }
}

fn click(rect: Rect, pressed: bool) -> eframe::egui::Event {
    eframe::egui::Event::PointerButton {
        pos: rect.center(),
        button: eframe::egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    }
}

#[test]
fn a_term_in_an_option_explains_itself_and_the_option_still_chooses() {
    let (n, i, shown, entry) = STEPS
        .iter()
        .enumerate()
        .flat_map(|(n, step)| step.options.iter().enumerate().map(move |(i, o)| (n, i, o)))
        .find_map(|(n, i, option)| {
            let (range, entry) = glossary::terms_in(option.label).into_iter().next()?;
            Some((n, i, option.label[range].to_string(), entry))
        })
        .expect("some option names a glossary term");
    let mut h = harness(1280.0, 800.0);
    go_to_step(&mut h, n);
    let label = STEPS[n].options[i].label;
    let button = h.get_by_label_contains(label).rect();
    let rect = term_at(&h, &shown, Some(button)).expect("the option's term is marked");
    move_to(&mut h, rect);
    assert!(shows(&h, entry.definition), "hover shows the definition");
    h.event(click(rect, true));
    h.event(click(rect, false));
    settle(&mut h);
    assert!(
        shows(&h, &format!("Your call: {label}")),
        "a click on the term chooses the option"
    );
}

#[test]
fn the_glossary_page_lists_every_term_and_finds_one() {
    let mut h = harness(1280.0, 800.0);
    h.get_by_label("Glossary").click();
    settle(&mut h);
    let fencing = glossary::lookup("fencing token").unwrap();
    assert!(shows(&h, "fencing token") && shows(&h, fencing.definition));
    let search = h.get_by_role(Role::TextInput);
    search.focus();
    h.run_steps(1);
    h.get_by_role(Role::TextInput).type_text("stampede");
    settle(&mut h);
    let herd = glossary::lookup("thundering herd").unwrap();
    assert!(
        shows(&h, herd.definition),
        "the search finds a term by an alias"
    );
    assert!(!shows(&h, fencing.definition), "and leaves out the rest");
}
