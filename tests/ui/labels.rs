//! The timeline's labels at a classroom's screen sizes (1024×768 and 1280×800), on every tool
//! page and on the course in presenter mode: every lane is at least as tall as its labels,
//! and no label — a bar's, a mark's, a fault's chip — covers another or leaves its lane.
//! Read from what the app painted and from its accessibility tree: the timeline is named by
//! its lanes, each placed fault is a button as large as its chip.

use eframe::egui::{self, Key, Rect, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use locksim::app::LocksimApp;
use locksim::course::progress::Place;
use locksim::picture::sizes::{AXIS, RIGHT_PAD, gutter};
use locksim::scenario::{self, FaultTag};
use locksim::view::link::{self, SharedState};
use strum::VariantArray;

use crate::sizes::pick_step;
use crate::support::drive::{click, drag, press, settle};
use crate::support::painted::texts;

/// How far past the plot's sides the chips' clip reaches, points (an instant fault's marker
/// at the edge is drawn whole).
const SLACK: f32 = 13.0;

/// A classroom's screens: a projector's and a laptop's.
const SIZES: [(f32, f32); 2] = [(1024.0, 768.0), (1280.0, 800.0)];

/// Where the timeline on screen put each lane, points: its rectangle, divided as the app
/// divides it (the axis on top, the lane names on the left, lanes of one height).
fn lanes(h: &Harness<'_, LocksimApp>) -> Vec<(String, Rect)> {
    let timeline = h
        .query_all_by(|n| {
            n.role() == Role::Image && n.label().is_some_and(|l| l.starts_with("timeline: "))
        })
        .next()
        .expect("a timeline on the page");
    let rect = timeline.rect();
    let label = timeline.accesskit_node().label().expect("named");
    let names: Vec<&str> = label["timeline: ".len()..].split(", ").collect();
    let top = rect.top() + AXIS;
    let lane_h = (rect.bottom() - top) / names.len() as f32;
    let (left, right) = (rect.left() + gutter(rect.width()), rect.right() - RIGHT_PAD);
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let y = top + lane_h * i as f32;
            let lane = Rect::from_x_y_ranges(left..=right, y..=y + lane_h);
            (name.to_string(), lane)
        })
        .collect()
}

/// The page as it is now, at each classroom size, with the pointer off the window (no hover
/// text over the lanes): every label painted on the lanes and every fault's chip lies inside
/// its lane, a chip's name inside its chip (what is clicked is what is seen), and none covers
/// another. `page` names the page in a failure; it shows `placed` faults' chips.
fn labels_clear(h: &mut Harness<'_, LocksimApp>, page: &str, placed: usize) {
    let names: Vec<&str> = FaultTag::VARIANTS.iter().map(|k| k.label()).collect();
    for (width, height) in SIZES {
        h.set_size(egui::vec2(width, height));
        h.event(egui::Event::PointerGone);
        settle(h);
        let at = format!("{page} at {width}×{height}");
        let lanes = lanes(h);
        let plot = lanes[0].1.union(lanes[lanes.len() - 1].1);
        let chips: Vec<(String, Rect)> = h
            .query_all_by(|n| {
                n.role() == Role::Button && n.label().is_some_and(|l| !l.starts_with("end of the "))
            })
            .filter(|n| plot.contains(n.rect().center()))
            .map(|n| (n.accesskit_node().label().unwrap_or_default(), n.rect()))
            .collect();
        assert_eq!(
            chips.len(),
            placed,
            "{at}: the chips on the lanes: {chips:?}"
        );
        let mut boxes = chips.clone();
        for (text, rect, clip) in texts(h) {
            // Only what is clipped to the plot, as the lanes' labels and the chips are: what
            // another panel paints over a lane scrolled under it is clipped to that panel.
            let own = clip.left() >= plot.left() - SLACK && clip.right() <= plot.right() + SLACK;
            if !own || !plot.contains(rect.center()) || !rect.intersects(clip) {
                continue;
            }
            if names.contains(&text.as_str()) {
                assert!(
                    chips.iter().any(|(_, chip)| chip.contains_rect(rect)),
                    "{at}: the chip's name {text:?} ({rect:?}) lies inside its chip: {chips:?}"
                );
            } else {
                boxes.push((text, rect.intersect(clip)));
            }
        }
        assert!(boxes.len() > placed, "{at}: the lanes' labels are painted");
        let mut faults = Vec::new();
        for (i, (text, rect)) in boxes.iter().enumerate() {
            let (lane, lane_rect) = lanes
                .iter()
                .find(|(_, l)| l.y_range().contains(rect.center().y))
                .expect("in a lane");
            if rect.top() < lane_rect.top() - 0.5 || rect.bottom() > lane_rect.bottom() + 0.5 {
                faults.push(format!(
                    "{text:?} ({rect:?}) leaves lane {lane} ({lane_rect:?})"
                ));
            }
            for (other, other_rect) in &boxes[i + 1..] {
                if rect.shrink(0.5).intersects(other_rect.shrink(0.5)) {
                    faults.push(format!(
                        "{text:?} ({rect:?}) covers {other:?} ({other_rect:?})"
                    ));
                }
            }
        }
        assert!(faults.is_empty(), "{at}:\n{}", faults.join("\n"));
        drawn_clear(h, &at, placed);
    }
}

/// The same rule held to what the app itself says it drew ([`locksim::app::drawn`]), as the
/// web page writes it for the browser test: each label within a lane's height, none covering
/// another.
fn drawn_clear(h: &Harness<'_, LocksimApp>, at: &str, placed: usize) {
    let drawn = h.state().drawn();
    assert!(
        drawn.labels.len() > placed,
        "{at}: labels are told: {drawn:?}"
    );
    for (i, label) in drawn.labels.iter().enumerate() {
        assert!(
            drawn
                .lanes
                .iter()
                .any(|lane| lane.top() - 0.5 <= label.top()
                    && label.bottom() <= lane.bottom() + 0.5
                    && lane.x_range().intersects(label.x_range())),
            "{at}: the label at {label:?} lies in a lane: {:?}",
            drawn.lanes
        );
        for other in &drawn.labels[i + 1..] {
            assert!(
                !label.shrink(0.5).intersects(other.shrink(0.5)),
                "{at}: the label at {label:?} covers the one at {other:?}"
            );
        }
    }
}

/// The app opened on `page` with `scenario` (a shipped file's source, with `more` TOML
/// after it: faults to place), run and played to its end.
fn opened(page: Place, source: &str, more: &str) -> Harness<'static, LocksimApp> {
    let scenario = scenario::parse(&format!("{source}\n{more}")).expect("a valid scenario");
    let state = SharedState {
        step: link::page_number(page),
        scenario: Some(scenario),
        ..SharedState::default()
    };
    let mut h = linked(&state);
    press(&mut h, Key::End);
    h
}

/// The app opened on the link of `state`, at the first classroom size, settled.
fn linked(state: &SharedState) -> Harness<'static, LocksimApp> {
    let app = LocksimApp::open_link(&link::encode(state)).expect("the link reads");
    let (width, height) = SIZES[0];
    let mut h = Harness::builder()
        .with_size(egui::vec2(width, height))
        .build_ui_state(|ui, app: &mut LocksimApp| app.show(ui), app);
    settle(&mut h);
    h
}

/// A partition of `node` from `from`, for `for_ms` from `at_ms`, in TOML.
fn partition(at_ms: u64, node: &str, from: &str, for_ms: u64) -> String {
    format!(
        "[[fault]]\nat_ms = {at_ms}\nkind = \"partition\"\ngroups = [[\"{node}\"], [{from}]]\n\
         for_ms = {for_ms}\n"
    )
}

#[test]
fn the_sandbox_keeps_a_paused_holders_chips_clear_of_its_labels_and_of_each_other() {
    // Step 5's pause on A and a partition over the same time on A's lane, a crash of B.
    let more = partition(1_000, "A", "\"store1\", \"resource\"", 15_000)
        + "[[fault]]\nat_ms = 12000\nkind = \"crash\"\nnode = \"B\"\n";
    let source = include_str!("../../assets/scenarios/step5-pause-unfenced.toml");
    let mut h = opened(Place::Sandbox, source, &more);
    labels_clear(&mut h, "sandbox: step 5 unfenced, paused and cut off", 3);
}

#[test]
fn the_sandbox_keeps_delays_on_two_store_lanes_apart() {
    let delay = |from: &str| {
        format!(
            "[[fault]]\nat_ms = 2000\nkind = \"delay\"\nfrom = \"{from}\"\nto = \"B\"\n\
             extra_ms = 500\nfor_ms = 6000\n"
        )
    };
    let source = include_str!("../../assets/scenarios/step6-redlock-clock-jump.toml");
    let mut h = opened(
        Place::Sandbox,
        source,
        &(delay("store3") + &delay("store4")),
    );
    labels_clear(&mut h, "sandbox: Redlock, two delays", 5);
}

#[test]
fn break_it_keeps_its_chips_clear_once_fencing_is_removed() {
    let source = include_str!("../../assets/scenarios/step5-fencing-token.toml");
    let mut h = opened(Place::Sandbox, source, "");
    click(&mut h, "Break it");
    click(&mut h, "Remove fencing");
    click(&mut h, "Cut off from the store");
    press(&mut h, Key::End);
    labels_clear(&mut h, "break it: fencing removed, A cut off", 2);
}

#[test]
fn a_challenge_keeps_a_dropped_chip_clear() {
    let c = locksim::challenge::find("pause-past-lease").expect("listed");
    let state = SharedState {
        step: link::page_number(Place::Challenges),
        scenario: Some(c.design.clone()),
        challenge: Some(c.id.clone()),
        ..SharedState::default()
    };
    let mut h = linked(&state);
    let from = h.get_by_label("pause P").rect().center();
    let lane = h.get_by_label("lane A").rect();
    drag(
        &mut h,
        from,
        egui::pos2(lane.right() + 20.0, lane.center().y),
    );
    press(&mut h, Key::End);
    labels_clear(&mut h, "challenge: a pause dropped on A", 1);
}

#[test]
fn the_library_keeps_a_redlock_runs_labels_clear() {
    let source = include_str!("../../assets/scenarios/step6-redlock-node-dies.toml");
    let mut h = opened(Place::Library, source, "");
    labels_clear(&mut h, "library: Redlock, a node dies", 0);
}

#[test]
fn presenter_mode_keeps_the_labels_of_steps_5_and_6_clear() {
    let (width, height) = SIZES[0];
    let mut h = Harness::builder()
        .with_size(egui::vec2(width, height))
        .build_ui_state(
            |ui, app: &mut LocksimApp| app.show(ui),
            LocksimApp::restore(None),
        );
    settle(&mut h);
    click(&mut h, "Presenter");
    for number in ["5", "6"] {
        // The picker the steps fold into on a projector.
        h.set_size(egui::vec2(width, height));
        settle(&mut h);
        let step = pick_step(&mut h, number);
        for (i, option) in step.options.iter().enumerate() {
            h.get_by_label_contains(option.label).click();
            settle(&mut h);
            press(&mut h, Key::End);
            labels_clear(
                &mut h,
                &format!("presenter: step {number}, option {}", i + 1),
                0,
            );
        }
    }
}
