//! The app's look: readable type sizes, dark or light, and presenter mode's larger scale.

use eframe::egui::{Context, FontId, TextStyle, Theme};

/// How much presenter mode enlarges everything, for the back row of a lecture hall.
const PRESENTER_ZOOM: f32 = 1.3;

/// Applies the learner's settings to the egui context when they change (not every frame:
/// the zoom is also the user's Ctrl+plus / Ctrl+minus, which must stick).
#[derive(Default)]
pub struct Look {
    applied: Option<(bool, bool)>,
}

impl Look {
    /// Makes the context `dark` or light, and presenter-sized or not.
    pub fn apply(&mut self, ctx: &Context, dark: bool, presenter: bool) {
        if self.applied.is_none() {
            type_sizes(ctx);
        }
        if self.applied == Some((dark, presenter)) {
            return;
        }
        ctx.set_theme(if dark { Theme::Dark } else { Theme::Light });
        if self.applied.map(|(_, p)| p) != Some(presenter) {
            ctx.set_zoom_factor(if presenter { PRESENTER_ZOOM } else { 1.0 });
        }
        self.applied = Some((dark, presenter));
    }
}

/// egui's default sizes suit tool panels; a lesson is read in longer stretches.
fn type_sizes(ctx: &Context) {
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (TextStyle::Small, FontId::proportional(11.5)),
            (TextStyle::Body, FontId::proportional(14.5)),
            (TextStyle::Button, FontId::proportional(14.5)),
            (TextStyle::Heading, FontId::proportional(21.0)),
            (TextStyle::Monospace, FontId::monospace(13.0)),
        ]
        .into();
    });
}
