//! The app's drop-down menus. egui's `Ui::menu_button` is generic over its title and its
//! contents, and each copy of it costs ≈ 10 KB of the web build's wasm; every menu of the app
//! goes through the one copy here.

use eframe::egui::{Response, Ui, WidgetText};

/// A button titled `title` that opens a menu (a submenu inside another menu) of what
/// `contents` adds. Returns the button's response.
pub fn button(
    ui: &mut Ui,
    title: impl Into<WidgetText>,
    contents: &mut dyn FnMut(&mut Ui),
) -> Response {
    open(ui, title.into(), contents)
}

#[inline(never)]
fn open(ui: &mut Ui, title: WidgetText, contents: &mut dyn FnMut(&mut Ui)) -> Response {
    ui.menu_button(title, |ui| contents(ui)).response
}
