//! The app's look: readable type sizes, dark or light, and presenter mode's larger scale.

use eframe::egui::{
    Button, Color32, Context, FontDefinitions, FontFamily, FontId, RichText, TextStyle, Theme, Ui,
};

/// How much presenter mode enlarges everything, for the back row of a lecture hall.
pub(super) const PRESENTER_ZOOM: f32 = 1.3;

/// How much larger the lanes' text is in presenter mode, on top of its zoom: a bar's label
/// then comes out 18 px tall on a screen of one pixel per point, legible from a room's back.
const PRESENTER_TEXT: f32 = 18.0 / (crate::picture::sizes::LABEL * PRESENTER_ZOOM);

/// Applies the learner's settings to the egui context when they change (not every frame:
/// the zoom is also the user's Ctrl+plus / Ctrl+minus, which must stick). Presenter mode
/// multiplies whatever zoom there is, and leaving it divides it out again; the screen's own
/// scale (the OS scale factor, the browser's device pixel ratio) is egui's native pixels per
/// point, under both.
///
/// Once a touch screen is seen, labels are no longer selectable: a finger's swipe over text
/// must scroll the page (egui's drag-to-scroll on touch), not select the words under it.
#[derive(Default)]
pub struct Look {
    applied: Option<(bool, bool, bool)>,
}

impl Look {
    /// Makes the context `dark` or light, and presenter-sized or not.
    pub fn apply(&mut self, ctx: &Context, dark: bool, presenter: bool) {
        if self.applied.is_none() {
            fonts(ctx);
            type_sizes(ctx);
        }
        let touch = ctx.input(|i| i.has_touch_screen());
        if self.applied == Some((dark, presenter, touch)) {
            return;
        }
        ctx.set_theme(if dark { Theme::Dark } else { Theme::Light });
        ctx.all_styles_mut(|style| style.interaction.selectable_labels = !touch);
        let was_presenter = self.applied.is_some_and(|(_, p, _)| p);
        if was_presenter != presenter {
            let zoom = ctx.zoom_factor();
            ctx.set_zoom_factor(if presenter {
                zoom * PRESENTER_ZOOM
            } else {
                zoom / PRESENTER_ZOOM
            });
        }
        super::timeline::set_text_scale(ctx, if presenter { PRESENTER_TEXT } else { 1.0 });
        self.applied = Some((dark, presenter, touch));
    }
}

/// The bundled fonts, with Hack behind Ubuntu for running text.
fn fonts(ctx: &Context) {
    // The web build bundles smaller cuts of the same fonts (`web_fonts`).
    #[cfg(target_arch = "wasm32")]
    let fonts = super::web_fonts::definitions();
    #[cfg(not(target_arch = "wasm32"))]
    let fonts = FontDefinitions::default();
    ctx.set_fonts(with_hack_fallback(fonts));
}

/// `fonts` with Hack last in the proportional family: Ubuntu has no arrows or geometric
/// shapes (← ▶ ●), Hack has, and it ships with egui anyway.
pub(super) fn with_hack_fallback(mut fonts: FontDefinitions) -> FontDefinitions {
    fonts
        .families
        .entry(FontFamily::Proportional)
        .or_default()
        .push("Hack".to_string());
    fonts
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

/// The one button a page wants pressed next (Begin, Next step, Reveal): white on a strong
/// blue that carries white text in either theme.
pub fn prominent<'a>(text: impl Into<RichText>, ui: &Ui) -> Button<'a> {
    let fill = if ui.visuals().dark_mode {
        Color32::from_rgb(40, 110, 210)
    } else {
        Color32::from_rgb(25, 95, 195)
    };
    Button::new(text.into().strong().color(Color32::WHITE)).fill(fill)
}

/// A card in a list (a step in "Your calls", a glossary entry): a faint panel with rounded
/// corners, its content inset.
pub fn card(ui: &Ui) -> eframe::egui::Frame {
    eframe::egui::Frame::new()
        .fill(ui.visuals().faint_bg_color)
        .corner_radius(eframe::egui::CornerRadius::same(6))
        .inner_margin(eframe::egui::Margin::symmetric(10, 6))
}
