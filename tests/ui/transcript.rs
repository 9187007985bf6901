//! The transcript beside a run, driven headless through the app's accessibility tree
//! (egui_kittest): where it shows by default, the entry at the playhead selected as the run
//! moves, a click on an entry moving the playhead, and the switch kept per part of the app.

use eframe::egui::{Key, Role};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use locksim::app::LocksimApp;
use locksim::course::STEPS;

use crate::support::drive::{click, press, settle};
use crate::support::memory::Memory;
use crate::support::screen::shows;

/// The window size the desktop app opens at.
const WINDOW: [f32; 2] = [1280.0, 800.0];

/// The panel's own line, under its heading.
const PANEL: &str = "choose a line to move the playhead there";

/// The sandbox's run (step 5's right call, fencing tokens): the write the resource turns away.
const FENCED_OFF: &str =
    "17 007 ms · resource: write by A#1 (fence 1) rejected: stale fencing token";

fn harness(app: LocksimApp) -> Harness<'static, LocksimApp> {
    let mut h = Harness::builder()
        .with_size(WINDOW)
        .build_ui_state(|ui, app: &mut LocksimApp| app.show(ui), app);
    settle(&mut h);
    h
}

/// Whether the transcript switch in the playback bar is on.
fn switch_on(h: &Harness<'_, LocksimApp>) -> bool {
    let switch =
        h.get_by(|n| n.role() == Role::CheckBox && n.label().as_deref() == Some("transcript"));
    switch.accesskit_node().toggled() == Some(eframe::egui::accesskit::Toggled::True)
}

/// The playhead's time, ms, as the playback bar's slider reports it.
fn playhead(h: &Harness<'_, LocksimApp>) -> f64 {
    h.get_by_label("playhead")
        .accesskit_node()
        .numeric_value()
        .expect("the slider has a value")
}

/// The transcript's entries laid out this frame: each one's name, and whether it is selected.
fn entries(h: &Harness<'_, LocksimApp>) -> Vec<(String, bool)> {
    h.query_all_by(|n| n.role() == Role::ListBoxOption)
        .map(|n| {
            let node = n.accesskit_node();
            (
                node.label().unwrap_or_default(),
                node.is_selected() == Some(true),
            )
        })
        .collect()
}

/// The selected entry's name.
fn selected(h: &Harness<'_, LocksimApp>) -> Option<String> {
    let mut selected = entries(h).into_iter().filter(|(_, s)| *s);
    let first = selected.next().map(|(label, _)| label);
    assert!(selected.next().is_none(), "one entry at most is selected");
    first
}

/// The time an entry's name starts with ("17 007 ms · …"), ms.
fn time_of(entry: &str) -> f64 {
    let (time, _) = entry
        .split_once(" ms · ")
        .expect("an entry starts with its time");
    time.replace(' ', "").parse().expect("a time")
}

/// Opens the course's step 5 and plays its first option to the end.
fn course_run(h: &mut Harness<'_, LocksimApp>) {
    let n = STEPS.iter().position(|s| s.number == "5").unwrap();
    click(h, STEPS[n].number);
    press(h, Key::Num1);
    assert!(shows(h, STEPS[n].options[0].label));
    press(h, Key::End);
}

#[test]
fn shown_in_the_sandbox_hidden_in_the_course_each_switch_kept() {
    let mut h = harness(LocksimApp::restore(None));
    click(&mut h, "Sandbox");
    assert!(switch_on(&h), "on in the sandbox");
    assert!(shows(&h, PANEL));
    course_run(&mut h);
    assert!(!switch_on(&h), "off in the course");
    assert!(!shows(&h, PANEL));
    assert!(entries(&h).is_empty());

    // Switched on in the course: on there, and the sandbox's switch is its own.
    h.get_by(|n| n.role() == Role::CheckBox && n.label().as_deref() == Some("transcript"))
        .click();
    settle(&mut h);
    assert!(shows(&h, PANEL), "on in the course once switched on");
    click(&mut h, "Sandbox");
    h.get_by(|n| n.role() == Role::CheckBox && n.label().as_deref() == Some("transcript"))
        .click();
    settle(&mut h);
    assert!(!shows(&h, PANEL), "off in the sandbox once switched off");

    // Both choices are saved with the progress.
    let mut storage = Memory::default();
    eframe::App::save(h.state_mut(), &mut storage);
    let mut h = harness(LocksimApp::restore(Some(&storage)));
    assert!(!switch_on(&h), "still off in the sandbox");
    course_run(&mut h);
    assert!(switch_on(&h), "still on in the course");
    assert!(shows(&h, PANEL));
}

#[test]
fn the_selected_entry_follows_the_playhead() {
    let mut h = harness(LocksimApp::restore(None));
    click(&mut h, "Sandbox");
    press(&mut h, Key::Home);
    for _ in 0..12 {
        press(&mut h, Key::ArrowRight);
        let now = playhead(&h);
        let listed = entries(&h);
        let current = selected(&h).expect("an entry is at the playhead");
        // The last entry at or before the playhead; none after it is listed before the end.
        let at = time_of(&current);
        assert!(at <= now, "{current} is not after the playhead at {now}");
        assert!(
            listed.iter().all(|(e, _)| time_of(e) <= now),
            "the future is not listed: {listed:?}"
        );
        let last = listed.iter().rposition(|(_, s)| *s).unwrap();
        assert_eq!(
            last,
            listed.len() - 1,
            "the selected entry is the last listed"
        );
        assert!(
            !shows(&h, "ms · verdict: "),
            "no verdict before the run ends"
        );
        assert!(
            h.state().announcement().starts_with(&current),
            "a screen reader hears the entry at the playhead"
        );
    }
    press(&mut h, Key::End);
    let current = selected(&h).expect("the last entry is selected");
    assert!(time_of(&current) <= playhead(&h));
    // Fencing tokens: the lock misbehaved (an overlap), the data stayed correct.
    let verdict = "verdict: SAFE, LIVE, 1 lock violation. The protected data stayed correct, \
                   though mutual exclusion broke: two workers held the lock at once.";
    assert!(
        shows(&h, &format!(" ms · {verdict}")),
        "the verdict, in words, last {:?}",
        entries(&h)
    );
    let heard = h.state().announcement();
    assert!(heard.starts_with(&current), "{heard}");
    assert!(heard.ends_with(&format!("\n{verdict}")), "{heard}");
}

#[test]
fn clicking_an_entry_moves_the_playhead_to_it() {
    let mut h = harness(LocksimApp::restore(None));
    click(&mut h, "Sandbox");
    press(&mut h, Key::Home);
    // Step until the fenced-off write is reached, then once more, so it is no longer current.
    for _ in 0..200 {
        if h.query_by_label(FENCED_OFF).is_some() {
            break;
        }
        press(&mut h, Key::ArrowRight);
    }
    assert!(
        h.query_by_label(FENCED_OFF).is_some(),
        "the write is listed once reached"
    );
    press(&mut h, Key::ArrowRight);
    assert!(playhead(&h) > 17_007.0);
    assert_ne!(selected(&h).as_deref(), Some(FENCED_OFF));
    click(&mut h, FENCED_OFF);
    assert_eq!(playhead(&h), 17_007.0, "the playhead moved to the entry");
    assert_eq!(
        selected(&h).as_deref(),
        Some(FENCED_OFF),
        "and it is selected"
    );
}

/// A run opened at its end shows its last entry and the verdict under it whole, above the
/// playback bar, at the sizes of a projector, a laptop and a large monitor: the list settles
/// on its bottom even while the page around it is still finding its layout.
#[test]
fn a_run_opened_at_its_end_shows_its_last_entry_and_the_verdict_whole() {
    for size in [[1024.0, 768.0], [1280.0, 800.0], [1920.0, 1080.0]] {
        let app = LocksimApp::open_link(&format!(
            "v=2&step={}&challenge=pause-past-lease",
            STEPS.len() + 5
        ))
        .expect("the link reads");
        let mut h = Harness::builder()
            .with_size(size)
            .build_ui_state(|ui, app: &mut LocksimApp| app.show(ui), app);
        h.run_steps(12);
        let bar = h.get_by_label("playhead").rect().top();
        let rows: Vec<_> = h
            .query_all_by(|n| n.role() == Role::ListBoxOption)
            .map(|n| (n.accesskit_node().label().unwrap_or_default(), n.rect()))
            .collect();
        let (current, rect) = h
            .query_all_by(|n| n.role() == Role::ListBoxOption && n.is_selected() == Some(true))
            .map(|n| (n.accesskit_node().label().unwrap_or_default(), n.rect()))
            .next()
            .expect("an entry is at the playhead");
        let (verdict, under) = rows.last().expect("rows are listed");
        assert!(verdict.contains("verdict: SAFE"), "{size:?}: {rows:?}");
        assert!(
            rect.bottom() <= under.top() + 1.0 && under.bottom() <= bar,
            "{size:?}: {current} at {rect:?} and {verdict} at {under:?}, the bar at {bar}"
        );
    }
}
