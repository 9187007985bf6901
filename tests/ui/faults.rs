//! Faults placed on the sandbox's timeline by hand, driven headless (egui_kittest): dragged
//! from the palette onto a lane, placed by keyboard, moved, resized and deleted; each change
//! re-runs the scenario and lands in the form's draft (or in Break it's changes).

use crate::support::drive::{click, press, settle};
use crate::support::screen::{shows, shows_exactly};

use eframe::egui::{self, Key, Modifiers, PointerButton, Pos2, pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use locksim::app::LocksimApp;
use locksim::scenario::{Fault, FaultKind, Scenario};

/// The window size the desktop app opens at.
const WINDOW: [f32; 2] = [1280.0, 800.0];

fn harness() -> Harness<'static, LocksimApp> {
    let mut h = Harness::builder().with_size(WINDOW).build_ui_state(
        |ui, app: &mut LocksimApp| app.show(ui),
        LocksimApp::restore(None),
    );
    settle(&mut h);
    h
}

/// Presses the mouse at `from`, moves it to `to` over a few frames and lets go there.
fn drag(h: &mut Harness<'_, LocksimApp>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(1);
    for k in 1..=4 {
        h.hover_at(from + (to - from) * (k as f32 / 4.0));
        h.run_steps(1);
    }
    h.event(egui::Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    settle(h);
}

fn draft(h: &Harness<'_, LocksimApp>) -> Scenario {
    h.state()
        .sandbox_draft()
        .expect("the sandbox is open")
        .clone()
}

/// The sandbox on Step 5's unfenced scenario with its pause taken out, run and watched to
/// the end: A holds the lock for 2 s, B comes 10 s later, nobody overlaps.
fn sandbox_on_unfenced() -> Harness<'static, LocksimApp> {
    let mut h = harness();
    click(&mut h, "Library");
    let search = || egui::accesskit::Role::TextInput;
    h.get_all_by_role(search())
        .next()
        .expect("the library's search box")
        .focus();
    settle(&mut h);
    h.get_all_by_role(search())
        .next()
        .unwrap()
        .type_text("Paused past the lease no fencing");
    settle(&mut h);
    h.get_all_by_label("Edit").next().unwrap().click();
    settle(&mut h);
    assert_eq!(draft(&h).name, "Step 5 · Paused past the lease, no fencing");
    // Far down the form.
    h.get_by_label("Remove fault 1 (pause at 1000 ms)")
        .scroll_to_me();
    settle(&mut h);
    click(&mut h, "Remove fault 1 (pause at 1000 ms)");
    assert!(draft(&h).faults.is_empty());
    click(&mut h, "Run");
    press(&mut h, Key::End);
    assert!(
        shows_exactly(&h, "SAFE"),
        "without its pause the run is safe"
    );
    h
}

/// A point `ms_in` points into lane `name`'s plot, half-way down the lane.
fn on_lane(h: &Harness<'_, LocksimApp>, name: &str, into: f32) -> Pos2 {
    let lane = h.get_by_label(&format!("lane {name}")).rect();
    pos2(lane.right() + into, lane.center().y)
}

fn the_pause(h: &Harness<'_, LocksimApp>) -> (String, u64, u64) {
    match &draft(h).faults[..] {
        [
            Fault {
                at_ms,
                kind: FaultKind::Pause { node, for_ms },
            },
        ] => (node.clone(), *at_ms, *for_ms),
        other => panic!("one pause in the draft, not {other:?}"),
    }
}

#[test]
fn a_pause_dragged_onto_the_holder_and_made_to_outlast_the_lease_makes_the_lock_unsafe() {
    let mut h = sandbox_on_unfenced();
    let chip = h.get_by_label("pause P").rect().center();
    let target = on_lane(&h, "A", 15.0);
    drag(&mut h, chip, target);
    let (node, at_ms, for_ms) = the_pause(&h);
    assert_eq!(node, "A");
    assert!(
        (200..2_000).contains(&at_ms),
        "while A holds the lock: {at_ms}"
    );
    assert_eq!(for_ms, 500, "half a second, as the palette drops it");
    assert!(
        shows_exactly(&h, "SAFE"),
        "a pause well inside the lease harms nobody"
    );
    assert!(shows(&h, "pause of A at"), "the pause is on the timeline");

    // Its right edge dragged right lengthens it, until it outlasts the 10 s lease.
    let says = format!("pause of A at {}", fmt(at_ms, for_ms));
    let end = h
        .get_by_label(&format!("end of the {says}"))
        .rect()
        .center();
    let start = h
        .get_all_by_label(&says)
        .map(|n| n.rect())
        .find(|r| (r.top()..=r.bottom()).contains(&end.y))
        .expect("the pause's bar on A's lane")
        .left();
    let points_per_ms = (end.x - start) / for_ms as f32;
    drag(&mut h, end, pos2(end.x + 11_000.0 * points_per_ms, end.y));
    let (_, _, longer) = the_pause(&h);
    assert!(longer > 10_000, "{longer} outlasts the lease");
    assert!(
        shows_exactly(&h, "UNSAFE"),
        "A wakes after its lease ran out and B got the lock"
    );
}

fn fmt(at_ms: u64, for_ms: u64) -> String {
    format!(
        "{} for {}",
        locksim::text::fmt_ms(at_ms),
        locksim::text::fmt_ms(for_ms)
    )
}

#[test]
fn a_fault_that_cannot_go_on_a_lane_is_refused_with_a_reason() {
    let mut h = sandbox_on_unfenced();
    let chip = h.get_by_label("stall S").rect().center();
    let target = on_lane(&h, "store1", 40.0);
    drag(&mut h, chip, target);
    assert!(draft(&h).faults.is_empty());
    assert!(shows(&h, "store1 is not a worker"));
}

#[test]
fn faults_placed_moved_and_deleted_by_keyboard() {
    let mut h = sandbox_on_unfenced();
    press(&mut h, Key::Home);
    click(&mut h, "lane B");
    press(&mut h, Key::P);
    assert_eq!(the_pause(&h), ("B".to_string(), 0, 500));
    // With the fault selected the arrows move it, not the playhead.
    press(&mut h, Key::ArrowRight);
    assert_eq!(the_pause(&h).1, 100);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowRight);
    settle(&mut h);
    assert_eq!(the_pause(&h).1, 1_100);
    press(&mut h, Key::ArrowDown);
    assert_eq!(the_pause(&h).0, "store1", "to the lane below");
    press(&mut h, Key::ArrowUp);
    assert_eq!(the_pause(&h).0, "B");
    // The inspector's fields, named by the kind and the word before each, typed into.
    for (label, role) in [
        ("pause", egui::accesskit::Role::ComboBox),
        ("pause at", egui::accesskit::Role::SpinButton),
        ("pause for", egui::accesskit::Role::SpinButton),
    ] {
        assert_eq!(
            h.get_by_label(label).accesskit_node().role(),
            role,
            "{label}"
        );
    }
    h.get_by_label("pause for").focus();
    settle(&mut h);
    h.get_by_label("pause for").type_text("3000");
    press(&mut h, Key::Enter);
    assert_eq!(the_pause(&h), ("B".to_string(), 1_100, 3_000));
    press(&mut h, Key::Delete);
    assert!(draft(&h).faults.is_empty());
    // Nothing selected: the arrows step the playback again, and a fault's key needs a lane.
    press(&mut h, Key::Escape);
    press(&mut h, Key::K);
    assert!(shows(&h, "Select a lane first"));
    assert!(draft(&h).faults.is_empty());
}

#[test]
fn a_placed_fault_moves_by_drag_and_goes_by_its_menu() {
    let mut h = sandbox_on_unfenced();
    press(&mut h, Key::Home);
    click(&mut h, "lane A");
    press(&mut h, Key::C);
    let crash = |h: &Harness<'_, LocksimApp>| match &draft(h).faults[..] {
        [
            Fault {
                at_ms,
                kind: FaultKind::Crash { node },
            },
        ] => (node.clone(), *at_ms),
        other => panic!("one crash, not {other:?}"),
    };
    assert_eq!(crash(&h), ("A".to_string(), 0));
    let item = h.get_by_label("crash of A at 0 ms").rect().center();
    drag(&mut h, item, item + vec2(60.0, 0.0));
    let (node, at_ms) = crash(&h);
    assert_eq!(node, "A");
    assert!(at_ms > 1_000, "moved later: {at_ms}");
    // The menu's Delete is the one the right-click brings: the form has its own.
    let before: Vec<_> = h.get_all_by_label("Delete").map(|d| d.rect()).collect();
    h.get_by_label(&format!("crash of A at {}", locksim::text::fmt_ms(at_ms)))
        .click_secondary();
    settle(&mut h);
    h.get_all_by_label("Delete")
        .find(|d| !before.contains(&d.rect()))
        .expect("the fault's menu offers Delete")
        .click();
    settle(&mut h);
    assert!(draft(&h).faults.is_empty());
}

#[test]
fn in_break_it_a_placed_fault_is_a_change_undo_takes_back() {
    let mut h = sandbox_on_unfenced();
    click(&mut h, "Break it");
    press(&mut h, Key::End);
    let chip = h.get_by_label("pause P").rect().center();
    let target = on_lane(&h, "A", 15.0);
    drag(&mut h, chip, target);
    assert!(shows(&h, "Changed by Break it: placed a pause of A at"));
    assert!(shows_exactly(&h, "SAFE"), "half a second harms nobody");
    // Made longer than the lease in the inspector: one more change.
    h.get_by_label("pause for").focus();
    settle(&mut h);
    h.get_by_label("pause for").type_text("12000");
    press(&mut h, Key::Enter);
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "UNSAFE"));
    assert_eq!(draft(&h).faults.len(), 1, "the form follows the run");
    click(&mut h, "Undo");
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "SAFE"));
    assert_eq!(the_pause(&h).2, 500, "back to the pause as placed");
    click(&mut h, "Undo");
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "SAFE"));
    assert!(!shows(&h, "Changed by Break it"));
    assert!(draft(&h).faults.is_empty(), "and its undo");
}
