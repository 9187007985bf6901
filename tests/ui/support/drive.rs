//! Driving the app as a learner does, a few frames at a time: what most of the UI tests share.

use eframe::egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use locksim::app::LocksimApp;

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
