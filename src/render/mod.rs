//! A run as pictures and text, for slides and handouts: the timeline as SVG ([`svg`]), drawn
//! from the same view model the app paints; that SVG rasterised to PNG ([`png`], not in the
//! web build, whose browser rasterises SVG itself); the transcript ([`transcript`]) and the
//! JSON document ([`report`]) that `locksim run` prints; a slide deck of the run's story
//! ([`deck`], not in the web build).
//!
//! `locksim render` and the app's Export menu both come here, so a picture exported from the
//! app and one made on the command line are the same picture.

#[cfg(not(target_arch = "wasm32"))]
pub mod deck;
#[cfg(not(target_arch = "wasm32"))]
pub mod png;
pub mod report;
pub mod svg;
pub mod transcript;
