//! Every page of the app at the sizes screens have, from a 320-point phone to a 2560-point
//! monitor, at 1, 1.5, 2 and 3 pixels per point (egui_kittest, headless): no layout
//! arithmetic may panic, the top bar's items never overlap or leave the window, and each
//! page still shows what it is for.
//!
//! The pixels per point are the screen's own (native): the logical size is the same at every
//! density, as it is on a high-density screen on the web or the desktop.

use eframe::egui::{self, Key, Rect, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use locksim::app::LocksimApp;
use locksim::course::STEPS;

use crate::support::screen::shows;

use crate::support::painted::{painted, painted_whole};

/// Window sizes in points: phones in portrait and landscape, tablets, laptops, monitors.
const SIZES: [(f32, f32); 11] = [
    (320.0, 568.0),
    (390.0, 844.0),
    (480.0, 320.0),
    (640.0, 360.0),
    (768.0, 1024.0),
    (900.0, 600.0),
    (1024.0, 768.0),
    (1280.0, 800.0),
    (1440.0, 900.0),
    (1920.0, 1080.0),
    (2560.0, 1440.0),
];

/// Draws the page on screen at every size, checking the top bar at each; `expected` must be
/// on the page at every size.
fn sweep(h: &mut Harness<'_, LocksimApp>, page: &str, expected: &str) {
    sweep_for(h, page, &[expected], |_, _, _| {});
}

/// [`sweep`] with several texts expected, and `check` run at each size (given the window's
/// width and where it is).
fn sweep_for(
    h: &mut Harness<'_, LocksimApp>,
    page: &str,
    expected: &[&str],
    check: impl Fn(&Harness<'_, LocksimApp>, f32, &str),
) {
    for (width, height) in SIZES {
        h.set_size(vec2(width, height));
        // One frame: a panic comes in the first frame at a size, and the top bar's items are
        // placed in it.
        h.run_steps(1);
        let at = format!("{page} at {width}×{height}");
        top_bar_fits(h.state().top_bar_items(), width, &at);
        for expected in expected {
            assert!(shows(h, expected), "{at}: {expected:?} is on the page");
        }
        check(h, width, &at);
    }
}

/// Two runs side by side: both verdicts and the first difference are on the page, and every
/// word of it lies within the window's width (it may scroll down, never sideways).
fn side_by_side_fits(h: &Harness<'_, LocksimApp>, width: f32, at: &str) {
    for verdict in ["SAFE · LIVE.", "UNSAFE · LIVE."] {
        assert!(
            h.query_all_by(|n| n.value().is_some_and(|v| v.starts_with(verdict)))
                .next()
                .is_some(),
            "{at}: {verdict} is on the page"
        );
    }
    // AccessKit's bounds are in physical pixels.
    let pixels_per_point = f64::from(h.ctx.pixels_per_point());
    for node in h.query_all_by(|n| n.value().is_some()) {
        let Some(bounds) = node.accesskit_node().bounding_box() else {
            continue;
        };
        let right = bounds.x1 / pixels_per_point;
        assert!(
            right <= f64::from(width) + 1.0,
            "{at}: {:?} ends at {right} points",
            node.value(),
        );
    }
}

/// The sandbox's form stays inside its panel: its text fields, its Remove buttons and the
/// tab strip's "Compare with…" end before the panel's resize handle (or the window's edge,
/// when the form has the width to itself), where egui would cut them off.
fn form_fits(h: &Harness<'_, LocksimApp>, width: f32, at: &str) {
    let pixels_per_point = f64::from(h.ctx.pixels_per_point());
    let bounds = |n: &egui_kittest::kittest::AccessKitNode<'_>| n.bounding_box();
    // The left panel's handle: the leftmost splitter taller than it is wide.
    let edge = h
        .query_all_by(|n| {
            n.role() == eframe::egui::accesskit::Role::Splitter
                && bounds(n).is_some_and(|b| b.height() > b.width())
        })
        .filter_map(|n| n.accesskit_node().bounding_box())
        .map(|b| b.x0 / pixels_per_point)
        .fold(f64::from(width), f64::min);
    let in_form = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        matches!(
            n.role(),
            eframe::egui::accesskit::Role::TextInput
                | eframe::egui::accesskit::Role::MultilineTextInput
        ) || n.label().is_some_and(|l| {
            // Each Remove is named by what it removes ("Remove worker A").
            l.starts_with("Remove worker ")
                || l.starts_with("Remove fault ")
                || l == "Compare with…"
        })
    };
    for node in h.query_all_by(in_form) {
        let Some(b) = node.accesskit_node().bounding_box() else {
            continue;
        };
        let right = b.x1 / pixels_per_point;
        assert!(
            right <= edge + 1.0,
            "{at}: {:?} {:?} ends at {right} points, past the form's edge at {edge}",
            node.accesskit_node().label(),
            node.value(),
        );
    }
}

/// No two of the top bar's items overlap, and each lies inside the window's width.
fn top_bar_fits(items: &[(String, Rect)], width: f32, at: &str) {
    // Every place of the course, or the picker they fold into.
    let folded = items.iter().any(|(name, _)| name == "course");
    assert!(
        items.len() >= if folded { 9 } else { STEPS.len() + 10 },
        "{at}: the top bar has all its items: {items:?}"
    );
    // From a tablet up, one row: a second would take the lesson's room (a phone may wrap).
    if width >= TABLET {
        let top = items[0].1.center().y;
        for (name, rect) in items {
            assert!(
                rect.top() < top && top < rect.bottom(),
                "{at}: {name} ({rect:?}) is on the bar's one row"
            );
        }
    }
    for (i, (name, rect)) in items.iter().enumerate() {
        assert!(
            rect.left() >= 0.0 && rect.right() <= width,
            "{at}: {name} ({rect:?}) is inside the window"
        );
        for (other, other_rect) in &items[i + 1..] {
            // Touching edges are fine; egui rounds to pixels.
            assert!(
                !rect.shrink(0.5).intersects(other_rect.shrink(0.5)),
                "{at}: {name} ({rect:?}) overlaps {other} ({other_rect:?})"
            );
        }
    }
}

/// The narrowest window, points, whose top bar must keep to one row: a tablet in portrait.
const TABLET: f32 = 768.0;

fn press(h: &mut Harness<'_, LocksimApp>, key: Key) {
    h.key_press(key);
    h.run_steps(2);
}

fn click(h: &mut Harness<'_, LocksimApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(3);
}

/// Walks the whole app at `pixels_per_point`: the introduction, every step with a choice
/// made and played to its end, the recap, each sandbox tab with a run, the library with
/// a scenario open, two runs side by side from a step and from the sandbox, the challenges
/// and the glossary.
fn every_page_at(pixels_per_point: f32) {
    let (width, height) = SIZES[0];
    let mut h = Harness::builder()
        .with_size(vec2(width, height))
        .with_pixels_per_point(pixels_per_point)
        .build_ui_state(
            |ui, app: &mut LocksimApp| app.show(ui),
            LocksimApp::restore(None),
        );
    h.run_steps(3);
    sweep(&mut h, "intro", "Begin");
    for (n, step) in STEPS.iter().enumerate() {
        press(&mut h, Key::PageDown);
        // The last option: steps differ in how many they have, and it is often the right call.
        let keys = [
            Key::Num1,
            Key::Num2,
            Key::Num3,
            Key::Num4,
            Key::Num5,
            Key::Num6,
        ];
        press(&mut h, keys[step.options.len() - 1]);
        press(&mut h, Key::End);
        sweep(&mut h, &format!("step {}", n + 1), step.question);
    }
    press(&mut h, Key::PageDown);
    sweep(&mut h, "recap", "The ladder of fixes");
    click(&mut h, "Sandbox");
    sweep_for(&mut h, "sandbox: edit", &["Run"], form_fits);
    click(&mut h, "Break it");
    sweep(&mut h, "sandbox: break it", "Break it");
    click(&mut h, "Across seeds");
    sweep(&mut h, "sandbox: across seeds", "Across seeds");
    click(&mut h, "Library");
    h.get_all_by_label("Open")
        .next()
        .expect("an Open button")
        .click();
    h.run_steps(3);
    sweep(&mut h, "library, a scenario open", "Verdict");
    // Step 5's first option, a wrong call, beside the right one.
    click(&mut h, "5");
    press(&mut h, Key::Num1);
    press(&mut h, Key::End);
    click(&mut h, "Compare with the right call");
    sweep_for(
        &mut h,
        "step 5 side by side",
        &["First difference at", "Your call: ", "The right call: "],
        side_by_side_fits,
    );
    // The sandbox's design beside the library's unfenced one.
    click(&mut h, "Sandbox");
    click(&mut h, "Compare with…");
    click(&mut h, "Step 5 · The safety hole");
    click(&mut h, "step5-pause-unfenced.toml");
    sweep_for(
        &mut h,
        "sandbox side by side",
        &[
            "First difference at 17 007 ms",
            "Sandbox: Step 5",
            "Library: Step 5",
        ],
        side_by_side_fits,
    );
    click(&mut h, "Challenges");
    sweep(&mut h, "challenges", "Budget: at most");
    click(&mut h, "Glossary");
    sweep(&mut h, "glossary", "fencing token");
}

// One test per density (an ordinary screen, a 150 % Windows laptop, a Retina laptop, a
// phone), so they run in parallel.

#[test]
fn every_page_at_1_pixel_per_point() {
    every_page_at(1.0);
}

#[test]
fn every_page_at_1_5_pixels_per_point() {
    every_page_at(1.5);
}

#[test]
fn every_page_at_2_pixels_per_point() {
    every_page_at(2.0);
}

#[test]
fn every_page_at_3_pixels_per_point() {
    every_page_at(3.0);
}

/// A page at rest stops asking for frames: on the sandbox, with its run played to the end, at
/// every size. (The transcript once chased a scroll offset one point past its list's end, and
/// repainted forever.)
#[test]
fn a_finished_run_at_rest_stops_repainting() {
    // Settled at each size, the harness also checks that every input on the page has a name.
    let mut h = Harness::builder()
        .with_size(vec2(SIZES[0].0, SIZES[0].1))
        .build_ui_state(
            |ui, app: &mut LocksimApp| app.show(ui),
            LocksimApp::restore(None),
        );
    h.run_steps(2);
    click(&mut h, "Sandbox");
    press(&mut h, Key::End);
    for (width, height) in SIZES {
        h.set_size(vec2(width, height));
        h.event(egui::Event::PointerMoved(egui::pos2(
            width * 0.5,
            height * 0.75,
        )));
        if let Err(e) = h.try_run() {
            panic!("at {width}×{height}: {e}");
        }
    }
}

/// The keyboard shortcuts' window fits every size, phones included: its text wraps to the
/// window's width (every word of it lies inside the window), and its title and Close are on
/// screen, with what does not fit the window's height scrolling between them.
#[test]
fn the_help_window_fits_every_size() {
    let mut h = Harness::builder()
        .with_size(vec2(SIZES[0].0, SIZES[0].1))
        .build_ui_state(
            |ui, app: &mut LocksimApp| app.show(ui),
            LocksimApp::restore(None),
        );
    h.run_steps(2);
    press(&mut h, Key::F1);
    for (width, height) in SIZES {
        h.set_size(vec2(width, height));
        // The modal is placed from its size the frame before.
        h.run_steps(3);
        let at = format!("help at {width}×{height}");
        let pixels_per_point = f64::from(h.ctx.pixels_per_point());
        let bounds = |node: &egui_kittest::Node<'_>| {
            let b = node
                .accesskit_node()
                .bounding_box()
                .expect("a node on screen has bounds");
            [b.x0, b.y0, b.x1, b.y1].map(|v| v / pixels_per_point)
        };
        for text in ["Keyboard shortcuts", "Close"] {
            let [left, top, right, bottom] = bounds(&h.get_by_label(text));
            assert!(
                left >= 0.0
                    && top >= 0.0
                    && right <= f64::from(width) + 1.0
                    && bottom <= f64::from(height) + 1.0,
                "{at}: {text:?} is at {left}, {top} to {right}, {bottom}"
            );
        }
        let longest = h.get_by_label_contains("Sandbox and Challenges: place a pause");
        let [left, _, right, _] = bounds(&longest);
        assert!(
            left >= 0.0 && right <= f64::from(width) + 1.0,
            "{at}: the longest line runs from {left} to {right}: it wraps to the window"
        );
        for node in h.query_all_by(|n| n.value().is_some() || n.label().is_some()) {
            let Some(b) = node.accesskit_node().bounding_box() else {
                continue;
            };
            let (left, right) = (b.x0 / pixels_per_point, b.x1 / pixels_per_point);
            assert!(
                left >= -1.0 && right <= f64::from(width) + 1.0,
                "{at}: {:?} {:?} runs from {left} to {right}",
                node.accesskit_node().label(),
                node.value(),
            );
        }
    }
}

/// A harness showing a fresh app in a window `width` × `height` points.
fn fresh_at(width: f32, height: f32) -> Harness<'static, LocksimApp> {
    let mut h = Harness::builder()
        .with_size(vec2(width, height))
        .build_ui_state(
            |ui, app: &mut LocksimApp| app.show(ui),
            LocksimApp::restore(None),
        );
    h.run_steps(2);
    h
}

/// Presenter mode on a 1280×800 screen (985 points wide at its zoom) keeps the verdict beside
/// the timeline: step 5's run played to its end shows its last lane and the verdict's words,
/// down to where to look, whole on screen at once.
#[test]
fn presenter_mode_at_1280_by_800_shows_the_lanes_and_the_verdict() {
    let mut h = fresh_at(1280.0, 800.0);
    click(&mut h, "Presenter");
    pick_step(&mut h, "5");
    press(&mut h, Key::Num1);
    press(&mut h, Key::End);
    h.run_steps(3);
    let window = h.ctx.content_rect();
    assert!(window.width() < 1000.0, "zoomed: {window:?}");
    for (what, text) in [("the last lane", "resource"), ("the verdict", "UNSAFE")] {
        assert!(
            painted_whole(&h, window, |t| t.trim() == text),
            "{what} ({text:?}) is on screen"
        );
    }
    for (what, text) in [
        ("the verdict's headline", "The protected data went wrong"),
        ("where to look", "Watch A's bar outlive its lease"),
    ] {
        assert!(
            painted_whole(&h, window, |t| t.starts_with(text)),
            "{what} ({text:?}) is on screen"
        );
    }
}

/// Presenter mode on a 1024×768 projector: the top bar keeps one row (the steps fold into a
/// picker), and step 5's point — A's grant carries fence 1, B's fence 2 — is painted whole on
/// its bars in text 18 px tall, with the verdict beside it.
#[test]
fn presenter_mode_at_1024_by_768_keeps_one_row_and_the_fences_legible() {
    let mut h = fresh_at(1024.0, 768.0);
    click(&mut h, "Presenter");
    let items = h.state().top_bar_items();
    let tops: Vec<f32> = items.iter().map(|(_, r)| r.center().y).collect();
    let spread = tops.iter().copied().fold(f32::MIN, f32::max)
        - tops.iter().copied().fold(f32::MAX, f32::min);
    assert!(spread < 12.0, "one row: {items:?}");
    let step = pick_step(&mut h, "5");
    let right = step
        .options
        .iter()
        .position(|o| o.right)
        .expect("a right call");
    h.get_by_label_contains(step.options[right].label).click();
    h.run_steps(3);
    press(&mut h, Key::End);
    h.run_steps(3);
    let window = h.ctx.content_rect();
    for fence in ["A#1 · fence 1", "B#1 · fence 2"] {
        let sizes: Vec<f32> = painted(&h, |t| t == fence)
            .into_iter()
            .filter(|(text, clip)| clip.contains_rect(*text) && window.contains_rect(*text))
            .map(|(text, _)| text.height() * h.ctx.pixels_per_point())
            .collect();
        // A line is taller than its font's size: compare with the line of an 18 px font.
        let line_of_18 = h
            .ctx
            .fonts_mut(|f| f.row_height(&egui::FontId::proportional(18.0)));
        assert!(
            sizes.iter().any(|&px| px >= line_of_18 - 0.5),
            "{fence:?} is painted whole in an 18 px font: lines {sizes:?} px, {line_of_18} wanted"
        );
    }
    assert!(
        painted_whole(&h, window, |t| t.trim() == "SAFE"),
        "the verdict is in view"
    );
}

/// Goes to the step numbered `number` through presenter mode's step picker; returns it.
pub(crate) fn pick_step(
    h: &mut Harness<'_, LocksimApp>,
    number: &str,
) -> &'static locksim::course::Step {
    let step = STEPS.iter().find(|s| s.number == number).expect("a step");
    h.get_by_role(egui::accesskit::Role::ComboBox).click();
    h.run_steps(3);
    click(h, &format!("Step {number}: {}", step.title));
    step
}

/// On a touch screen a swipe over text scrolls the page: once a finger has touched it, the
/// app's labels stop being selectable (a mouse's drag still selects).
#[test]
fn a_touch_screen_swipes_text_instead_of_selecting_it() {
    let mut h = fresh_at(390.0, 844.0);
    let selectable =
        |h: &Harness<'_, LocksimApp>| h.ctx.global_style().interaction.selectable_labels;
    assert!(selectable(&h), "with a mouse, text can be selected");
    h.input_mut().events.push(egui::Event::Touch {
        device_id: egui::TouchDeviceId(1),
        id: egui::TouchId(1),
        phase: egui::TouchPhase::Start,
        pos: egui::pos2(200.0, 400.0),
        force: None,
    });
    h.run_steps(2);
    assert!(
        !selectable(&h),
        "after a touch, a swipe over text is a swipe"
    );
}

/// On a phone there is no mouse and the verdict is under the run, not beside it: what the
/// intro, a step, its verdict and the transcript ask of the learner holds for a touch screen
/// too, and nothing says where a panel is that stacking moved.
#[test]
fn on_a_phone_the_words_hold_for_a_touch_screen() {
    let mut h = fresh_at(390.0, 844.0);
    let desktop_only = |h: &Harness<'_, LocksimApp>, page: &str| {
        for word in ["Click", "click ", "on the right"] {
            assert!(!shows(h, word), "{page}: {word:?}");
        }
    };
    desktop_only(&h, "intro");
    press(&mut h, Key::PageDown);
    press(&mut h, Key::PageDown);
    assert!(shows(&h, STEPS[1].question), "step 1");
    desktop_only(&h, "step 1");
    press(&mut h, Key::Num1);
    press(&mut h, Key::End);
    assert!(
        shows(&h, "What the checker found"),
        "step 1's first call fails"
    );
    click(&mut h, "transcript");
    desktop_only(&h, "step 1, its run and transcript");
}

/// Where the timeline starts: the left column's right edge, points.
fn timeline_left(h: &Harness<'_, LocksimApp>) -> f32 {
    h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("timeline: ")))
        .map(|n| n.rect().left())
        .fold(f32::MAX, f32::min)
}

/// The course's left column keeps its width from page to page at 1280×800: every call of
/// every step watched, then step 1 again, and step 1's timeline starts where it did, its room
/// not taken by a column that grew to fit a wider page.
#[test]
fn the_left_column_keeps_its_width_page_after_page() {
    let mut h = fresh_at(1280.0, 800.0);
    let watch = |h: &mut Harness<'_, LocksimApp>, n: usize| {
        crate::support::drive::go_to_step(h, n);
        // The option's button, not the box that names it once chosen.
        h.get_all_by_label_contains(STEPS[n].options[0].label)
            .next()
            .expect("the option")
            .click();
        h.run_steps(3);
        press(h, Key::End);
        h.run_steps(2);
        timeline_left(h)
    };
    let one = STEPS.iter().position(|s| s.number == "1").expect("step 1");
    let first = watch(&mut h, one);
    for (n, step) in STEPS.iter().enumerate() {
        watch(&mut h, n);
        for option in &step.options[1..] {
            h.get_all_by_label_contains(option.label)
                .next()
                .expect("the option")
                .click();
            h.run_steps(3);
            press(&mut h, Key::End);
        }
    }
    assert_eq!(watch(&mut h, one), first, "step 1's timeline, revisited");
}
