//! Keyboard shortcuts: read once at the start of a frame, before any widget, and consumed,
//! so that a focused button does not also take the Space meant for the playhead.

use eframe::egui::{Context, Key, Modifiers};

/// What the playback keys ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaybackKey {
    /// Play or pause (Space).
    PlayPause,
    /// To the previous moment something changed (←).
    StepBack,
    /// To the next moment something changes (→).
    StepForward,
    /// To the start (Home).
    ToStart,
    /// To the end, which tells the verdict (End).
    ToEnd,
}

/// What a key asks the app to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// A key for the run on screen.
    Playback(PlaybackKey),
    /// Choose option `n` (0-based) of the step on screen.
    Pick(usize),
    /// The course page before (Page Up).
    PrevPage,
    /// The course page after (Page Down).
    NextPage,
    /// Show the answer (presenter mode hides it until asked).
    Reveal,
    /// Open or close the help window (F1, ?).
    Help,
}

/// The keys and what they do, for the help window; [`read`] follows the same list.
pub const HELP: &[(&str, &str)] = &[
    ("Space", "play / pause the run"),
    ("← / →", "previous / next moment of the run"),
    ("Home / End", "start / end of the run"),
    ("1 – 9", "choose an option"),
    ("Page Up / Page Down", "previous / next page of the course"),
    ("R", "reveal the answer (a course step in presenter mode)"),
    (
        "P S C R N H J D K F",
        "Sandbox and Challenges: place a pause, stall, crash, restart, partition, heal, clock \
         jump, delay, kill store or force release at the playhead on the selected lane",
    ),
    (
        "← → ↑ ↓ / Delete",
        "a placed fault selected: move it (Shift: 1 s), to another lane / remove it",
    ),
    ("F1 or ?", "this help"),
];

const BINDINGS: &[(Key, Shortcut)] = &[
    (Key::Space, Shortcut::Playback(PlaybackKey::PlayPause)),
    (Key::ArrowLeft, Shortcut::Playback(PlaybackKey::StepBack)),
    (
        Key::ArrowRight,
        Shortcut::Playback(PlaybackKey::StepForward),
    ),
    (Key::Home, Shortcut::Playback(PlaybackKey::ToStart)),
    (Key::End, Shortcut::Playback(PlaybackKey::ToEnd)),
    (Key::Num1, Shortcut::Pick(0)),
    (Key::Num2, Shortcut::Pick(1)),
    (Key::Num3, Shortcut::Pick(2)),
    (Key::Num4, Shortcut::Pick(3)),
    (Key::Num5, Shortcut::Pick(4)),
    (Key::Num6, Shortcut::Pick(5)),
    (Key::Num7, Shortcut::Pick(6)),
    (Key::Num8, Shortcut::Pick(7)),
    (Key::Num9, Shortcut::Pick(8)),
    (Key::PageUp, Shortcut::PrevPage),
    (Key::PageDown, Shortcut::NextPage),
    (Key::R, Shortcut::Reveal),
    (Key::F1, Shortcut::Help),
    (Key::Questionmark, Shortcut::Help),
];

/// The shortcuts pressed this frame, grouped by key in binding order. None while a text field has the
/// keyboard: typing "1" or a space into the sandbox must not pick an option or pause.
pub fn read(ctx: &Context) -> Vec<Shortcut> {
    if ctx.text_edit_focused() {
        return Vec::new();
    }
    ctx.input_mut(|input| {
        // A key pressed twice within one frame (a quick double Page Down) acts twice.
        BINDINGS
            .iter()
            .flat_map(|&(key, shortcut)| {
                let times = input.count_and_consume_key(Modifiers::NONE, key);
                std::iter::repeat_n(shortcut, times)
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::STEPS;

    #[test]
    fn every_option_of_every_step_has_its_digit() {
        for (n, step) in STEPS.iter().enumerate() {
            for i in 0..step.options.len() {
                assert!(
                    BINDINGS.iter().any(|&(_, s)| s == Shortcut::Pick(i)),
                    "step {} option {} has no key",
                    n + 1,
                    i + 1
                );
            }
        }
    }
}
