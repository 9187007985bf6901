//! Driving the app as a learner does, a few frames at a time: what most of the UI tests share.

use eframe::egui::{self, Key};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use locksim::app::LocksimApp;
use locksim::course::STEPS;

use super::screen::shows;

/// Lets the app answer an input: three frames (a click, the frame it acts in, the repaint).
pub fn settle(h: &mut Harness<'_, LocksimApp>) {
    h.run_steps(3);
}

/// Clicks what is labelled `label` and lets the app answer.
pub fn click(h: &mut Harness<'_, LocksimApp>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

/// Presses `key` and lets the app answer.
pub fn press(h: &mut Harness<'_, LocksimApp>, key: Key) {
    h.key_press(key);
    settle(h);
}

/// Presses the mouse at `from`, moves in steps to `to` and releases there.
pub fn drag(h: &mut Harness<'_, LocksimApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.run_steps(1);
    h.event(egui::Event::PointerButton {
        pos: from,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(1);
    for i in 1..=8 {
        let t = i as f32 / 8.0;
        h.hover_at(from + (to - from) * t);
        h.run_steps(1);
    }
    h.event(egui::Event::PointerButton {
        pos: to,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(4);
}

/// Opens `STEPS[n]` from the top bar, by its number ("5", "7b").
pub fn go_to_step(h: &mut Harness<'_, LocksimApp>, n: usize) {
    if h.query_by_label(STEPS[n].number).is_some() {
        click(h, STEPS[n].number);
    } else {
        // A window too narrow for every step: the steps are one picker.
        h.get_by_role(egui::accesskit::Role::ComboBox).click();
        settle(h);
        click(h, &format!("Step {}: {}", STEPS[n].number, STEPS[n].title));
    }
    assert!(
        shows(h, STEPS[n].question),
        "step {} is on screen",
        STEPS[n].number
    );
}
