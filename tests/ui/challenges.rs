//! The Challenges page driven headless (egui_kittest): every challenge that can be won is
//! won by an attempt played on the page, faults are placed by dragging from the palette and by
//! the keyboard, giving up tells whether it can be done, and a link carries the attempt.

use crate::winning::{at, node, winning};

use crate::support::drive::drag;
use crate::support::screen::shows;

use crate::support::painted;

use eframe::egui::{self, Key};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use locksim::app::LocksimApp;
use locksim::challenge::{self, Challenge};
use locksim::course::progress::Place;
use locksim::scenario::{self, Fault, FaultKind, Scenario};
use locksim::view::link::{self, SharedState};

const WINDOW: [f32; 2] = [1280.0, 800.0];

fn harness(app: LocksimApp, size: [f32; 2]) -> Harness<'static, LocksimApp> {
    let mut h = Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut LocksimApp| app.show(ui), app);
    h.run_steps(3);
    h
}

/// The page opened by a link on `challenge` with `faults` placed, in the desktop's window.
fn open(challenge: &Challenge, faults: Vec<Fault>) -> Harness<'static, LocksimApp> {
    open_in(challenge, faults, WINDOW)
}

/// The page opened by a link on `challenge` with `faults` placed, in a window of `size`.
fn open_in(
    challenge: &Challenge,
    faults: Vec<Fault>,
    size: [f32; 2],
) -> Harness<'static, LocksimApp> {
    let attempt = Scenario {
        faults,
        ..challenge.design.clone()
    };
    let state = SharedState {
        step: link::page_number(Place::Challenges),
        scenario: Some(attempt),
        challenge: Some(challenge.id.clone()),
        ..SharedState::default()
    };
    let app = LocksimApp::open_link(&link::encode(&state)).expect("the link reads");
    harness(app, size)
}

#[test]
fn every_challenge_that_can_be_won_is_won_on_the_page() {
    for c in challenge::all().iter().filter(|c| c.impossible.is_none()) {
        let h = open(c, winning(&c.id).expect("a winning attempt"));
        assert!(shows(&h, &c.brief), "{}: the brief", c.id);
        assert!(shows(&h, "Won. The checker reports"), "{}: not won", c.id);
        assert!(
            shows(&h, &format!("{} · won", c.title)),
            "{}: not marked",
            c.id
        );
    }
}

#[test]
fn giving_up_tells_why_an_impossible_challenge_cannot_be_won() {
    for c in challenge::all().iter().filter(|c| c.impossible.is_some()) {
        let mut h = open(c, Vec::new());
        assert!(shows(&h, "Not yet."), "{}: {:?}", c.id, h.state().link());
        // Nothing on the page says it is impossible before the learner gives up.
        assert!(!shows(&h, "It cannot be done"), "{}", c.id);
        h.get_by_label("Give up: can it be done?").click();
        h.run_steps(3);
        assert!(shows(&h, "It cannot be done"), "{}", c.id);
        assert!(!shows(&h, "Not yet."), "{}: no promise beside it", c.id);
        let why = c.impossible.as_deref().unwrap_or_default();
        assert!(shows(&h, &why[..40]), "{}: the explanation", c.id);
    }
}

#[test]
fn giving_up_on_a_possible_challenge_tells_how() {
    let c = challenge::find("pause-past-lease").expect("listed");
    let mut h = open(c, Vec::new());
    h.get_by_label("Give up: can it be done?").click();
    h.run_steps(3);
    assert!(shows(&h, "How it can be done"));
    assert!(shows(&h, &c.hint[..40]));
}

#[test]
fn an_attempt_over_budget_is_not_won() {
    let c = challenge::find("pause-past-lease").expect("listed");
    let mut faults = winning(&c.id).expect("a winning attempt");
    faults.push(at(15_000, FaultKind::Crash { node: node("B") }));
    let h = open(c, faults);
    assert!(shows(&h, "not within the budget"));
    assert!(shows(&h, "crash is not in this budget"));
    assert!(!shows(&h, &format!("{} · won", c.title)));
}

#[test]
fn the_link_carries_the_challenge_and_the_attempt() {
    let c = challenge::find("wall-clock-jump").expect("listed");
    let h = open(c, winning(&c.id).expect("a winning attempt"));
    let state = link::decode(&h.state().link()).expect("reads");
    assert_eq!(state.challenge.as_deref(), Some(c.id.as_str()));
    assert_eq!(
        state.scenario.map(|s| s.faults),
        Some(winning(&c.id).expect("a winning attempt"))
    );
    // The attempt is kept with the learner's progress too: the page opened afresh on the
    // same challenge shows the same faults.
    let attempt = scenario::to_toml(&Scenario {
        faults: winning(&c.id).expect("a winning attempt"),
        ..c.design.clone()
    });
    assert!(attempt.contains("clock_jump"));
}

#[test]
fn removing_the_faults_runs_the_design_as_it_is() {
    let c = challenge::find("pause-past-lease").expect("listed");
    let mut h = open(c, winning(&c.id).expect("a winning attempt"));
    assert!(shows(&h, "Won."));
    h.get_by_label("Remove them all").click();
    h.run_steps(3);
    assert!(shows(&h, "Not yet. The checker reports nothing wrong"));
    // Won once, it stays won.
    assert!(shows(&h, &format!("{} · won", c.title)));
}

#[test]
fn each_remove_says_which_fault_and_the_arrows_where_they_go() {
    let c = challenge::find("pause-past-lease").expect("listed");
    let won = winning(&c.id).expect("a winning attempt");
    let mut faults = won.clone();
    faults.push(at(15_000, FaultKind::Crash { node: node("B") }));
    let mut h = open(c, faults);
    h.get_by_label("Remove the crash of B at 15 000 ms").click();
    h.run_steps(3);
    let shown = |h: &Harness<'_, LocksimApp>| link::decode(&h.state().link()).expect("reads");
    assert_eq!(shown(&h).scenario.map(|s| s.faults), Some(won));
    // The arrows are named in words.
    h.get_by_label("next challenge").click();
    h.run_steps(3);
    assert_ne!(shown(&h).challenge.as_deref(), Some(c.id.as_str()));
    h.get_by_label("previous challenge").click();
    h.run_steps(3);
    assert_eq!(shown(&h).challenge.as_deref(), Some(c.id.as_str()));
}

#[test]
fn a_pause_dragged_from_the_palette_wins_the_first_challenge() {
    let c = challenge::find("pause-past-lease").expect("listed");
    let mut h = open(c, Vec::new());
    assert!(shows(&h, "Not yet."));
    // A screen reader hears the outcome the panel shows: the web page's live region says it.
    assert!(
        h.state().announcement().contains("Challenge: Not yet."),
        "{}",
        h.state().announcement()
    );
    // Drag the palette's pause onto A's lane, early in the run: as it comes (half a
    // second) it is well inside A's lease, and wins nothing.
    let from = h.get_by_label("pause P").rect().center();
    let lane = h.get_by_label("lane A").rect();
    let to = egui::pos2(lane.right() + 20.0, lane.center().y);
    drag(&mut h, from, to);
    assert!(shows(&h, "Not yet."), "as it comes: {}", status(&h));
    let placed = |h: &Harness<'_, LocksimApp>| {
        let faults = link::decode(&h.state().link())
            .unwrap()
            .scenario
            .map(|s| s.faults);
        match faults.as_deref() {
            Some(
                [
                    Fault {
                        at_ms,
                        kind: FaultKind::Pause { for_ms, .. },
                    },
                ],
            ) => (*at_ms, *for_ms),
            other => panic!("one pause placed, not {other:?}"),
        }
    };
    let (at_ms, for_ms) = placed(&h);
    assert_eq!(for_ms, 500);
    // Made 11 s long in the inspector: now it outlasts the lease, within the budget's 12 s.
    h.get_by_label("pause for").focus();
    h.run_steps(2);
    h.get_by_label("pause for").type_text("11000");
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(placed(&h), (at_ms, 11_000));
    assert!(
        shows(&h, "Won. The checker reports stale_write"),
        "the lengthened pause wins: {} {:?}",
        status(&h),
        placed(&h)
    );
    assert!(
        h.state()
            .announcement()
            .contains("Challenge: Won. The checker reports stale_write"),
        "{}",
        h.state().announcement()
    );
}

#[test]
fn a_crash_placed_by_keyboard_wins_the_dead_holder_challenge() {
    let c = challenge::find("dead-holder").expect("listed");
    let mut h = open(c, Vec::new());
    // Play a little so the holder has the lock, then select A's lane and press C.
    h.key_press(Key::Home);
    h.run_steps(2);
    for _ in 0..3 {
        h.key_press(Key::ArrowRight);
        h.run_steps(1);
    }
    h.get_by_label("lane A").click();
    h.run_steps(2);
    h.key_press(Key::C);
    h.run_steps(3);
    assert!(shows(&h, "Won. The checker reports stuck"));
}

#[test]
fn a_fault_the_page_does_not_offer_is_refused_in_words() {
    let c = challenge::find("pause-past-lease").expect("listed");
    let mut h = open(c, Vec::new());
    h.get_by_label("lane A").click();
    h.run_steps(2);
    h.key_press(Key::C);
    h.run_steps(3);
    assert!(shows(&h, "C is a crash, which this page does not offer"));
    assert!(shows(&h, "No faults placed yet."), "nothing was placed");
}

#[test]
fn on_a_phone_the_outcome_is_said_under_the_verdict_too() {
    let c = challenge::find("pause-past-lease").expect("listed");
    let winning = winning(&c.id).expect("a winning attempt");
    let h = open_in(c, winning, [390.0, 844.0]);
    let said = h
        .query_all_by_label_contains("Won. The checker reports stale_write")
        .count();
    assert_eq!(said, 2, "in the card and under the verdict");
}

/// The attempt's status line, for a failing test's message.
fn status(h: &Harness<'_, LocksimApp>) -> String {
    use egui_kittest::kittest::NodeT;
    h.query_all_by(|n| {
        n.label().or(n.value()).is_some_and(|t| {
            ["Won", "Not yet", "Over budget", "The goal is met"]
                .iter()
                .any(|s| t.starts_with(s))
        })
    })
    .map(|n| {
        let n = n.accesskit_node();
        n.label().or(n.value()).unwrap_or_default()
    })
    .collect::<Vec<_>>()
    .join(" | ")
}

/// Why a fault held over a lane cannot go there is written whole, inside the window and over
/// the verdict panel, however narrow the timeline between the panels is: here both panels
/// are widened as far as they go, which leaves the plot narrower than the note.
#[test]
fn a_refusal_while_dragging_is_written_whole_over_the_panel_beside() {
    let c = challenge::find("fenced-corrupts").expect("listed");
    let size = [1024.0, 768.0];
    let mut h = open_in(c, Vec::new(), size);
    // The panels' resize handles: splitters taller than wide, the left panel's leftmost.
    let handles = |h: &Harness<'_, LocksimApp>| {
        let mut xs: Vec<egui::Pos2> = h
            .query_all_by(|n| n.role() == egui::accesskit::Role::Splitter)
            .map(|n| n.rect())
            .filter(|r| r.height() > r.width())
            .map(|r| r.center())
            .collect();
        xs.sort_by(|a, b| a.x.total_cmp(&b.x));
        xs
    };
    let left = handles(&h)[0];
    drag(&mut h, left, left + egui::vec2(300.0, 0.0));
    let verdict = *handles(&h).last().expect("the verdict panel's handle");
    drag(&mut h, verdict, verdict - egui::vec2(300.0, 0.0));
    h.run_steps(3);
    let from = h.get_by_label("stall S").rect().center();
    let lane = h.get_by_label("lane store1").rect();
    let to = egui::pos2(lane.right() + 20.0, lane.center().y);
    // Held over the lane, not let go.
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(1);
    for i in 1..=8 {
        h.hover_at(from + (to - from) * (i as f32 / 8.0));
        h.run_steps(1);
    }
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, size.into());
    assert!(
        painted::painted_whole(&h, window, |t| t.contains("store1 is not a worker")),
        "the refusal is written whole"
    );
}
