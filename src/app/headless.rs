//! Draws a panel for one frame with no window and no renderer, so unit tests can run the
//! egui code of the panels.

use eframe::egui::{Context, RawInput, Ui};

/// Runs `draw` inside one frame of `ctx`.
pub fn frame(ctx: &Context, draw: impl FnMut(&mut Ui)) {
    let mut output = ctx.run_ui(RawInput::default(), draw);
    // No renderer takes the font texture; egui asserts that someone did.
    output.textures_delta.clear();
}
