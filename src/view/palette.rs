//! Colours with a meaning, shared by every picture of a run — the app's timeline, its legend
//! and verdict panel, and the exported SVG and PNG ([`crate::render`]) — so that the same
//! thing always looks the same. Kept free of any UI toolkit; the app turns them into its own
//! colour type.

use crate::checker::ViolationKind;
use crate::trace::{NodeId, Token};

/// A colour: red, green, blue, and its opacity (0 transparent, 255 opaque), not
/// premultiplied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgba {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Opacity.
    pub a: u8,
}

impl Rgba {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Rgba { r, g, b, a: 255 }
    }

    /// A colour `a` opaque out of 255.
    pub const fn translucent(r: u8, g: u8, b: u8, a: u8) -> Self {
        Rgba { r, g, b, a }
    }

    /// Its opacity from 0 to 1.
    pub fn opacity(self) -> f32 {
        f32::from(self.a) / 255.0
    }

    /// The same hue, `factor` times as opaque: what egui's `gamma_multiply` makes of it.
    pub fn faded(self, factor: f32) -> Self {
        Rgba {
            a: (f32::from(self.a) * factor + 0.5).min(255.0) as u8,
            ..self
        }
    }
}

/// One hue per worker: a worker's belief bars and the store's lease bars for its grants share
/// it, so the eye pairs "A thinks" with "the store says" across lanes. No green, orange, red or
/// grey here: those mean write outcomes and faults.
const WORKER_HUES: [Rgba; 6] = [
    Rgba::rgb(45, 105, 200),
    Rgba::rgb(135, 65, 175),
    Rgba::rgb(0, 128, 140),
    Rgba::rgb(190, 30, 110),
    Rgba::rgb(120, 90, 60),
    Rgba::rgb(60, 70, 170),
];

/// The colour of a worker, by its node id (workers come first in the trace).
pub fn worker(node: NodeId) -> Rgba {
    WORKER_HUES[node.index() % WORKER_HUES.len()]
}

/// The colour of a grant: its worker's.
pub fn token(token: Token) -> Rgba {
    worker(token.worker)
}

/// Text and summaries of the claims a `timestamp` store records (each diamond itself takes
/// its claimant's colour).
pub const CLAIM: Rgba = Rgba::rgb(90, 110, 130);
/// A write the resource applied.
pub const ACCEPTED: Rgba = Rgba::rgb(40, 150, 60);
/// A write the resource refused (fenced off).
pub const REJECTED: Rgba = Rgba::rgb(225, 120, 20);
/// What broke safety: a corrupting write, a stale belief, an UNSAFE verdict.
pub const VIOLATING: Rgba = Rgba::rgb(210, 35, 35);
/// A lock-level anomaly that did no harm by itself (the resource may have fenced it off).
pub const ANOMALY: Rgba = Rgba::rgb(215, 130, 0);
/// A liveness violation (stuck, starved).
pub const LIVENESS: Rgba = Rgba::rgb(120, 60, 170);
/// SAFE and LIVE badges.
pub const SAFE: Rgba = Rgba::rgb(30, 135, 55);

// The shadings, fault text and playhead below are mid-tones, so they read on the light
// theme's lanes and on the dark theme's alike.

/// Lane shading while the node is paused.
pub const PAUSED: Rgba = Rgba::translucent(120, 120, 140, 60);
/// Lane shading while the worker is stalled.
pub const STALLED: Rgba = Rgba::translucent(230, 170, 20, 60);
/// Lane shading while the node is down.
pub const CRASHED: Rgba = Rgba::translucent(110, 110, 110, 80);
/// Lane shading while the node's outgoing link is slow.
pub const SLOW_LINK: Rgba = Rgba::translucent(70, 140, 200, 40);
/// Lane shading and axis band while a partition cuts the node off.
pub const PARTITION: Rgba = Rgba::translucent(150, 80, 200, 40);
/// Text on the fault shadings above.
pub const FAULT_TEXT: Rgba = Rgba::rgb(115, 115, 125);

/// The playhead and its time label.
pub const PLAYHEAD: Rgba = Rgba::rgb(40, 90, 200);

/// The colour of a violation of `kind`: red if the data went wrong, orange for a lock-level
/// anomaly, violet for liveness.
pub fn violation(kind: ViolationKind) -> Rgba {
    if kind.breaks_safety() {
        VIOLATING
    } else if kind.breaks_liveness() {
        LIVENESS
    } else {
        ANOMALY
    }
}

/// Messages between store nodes and answers to workers (a worker's requests take its hue).
pub const MESSAGE: Rgba = Rgba::rgb(95, 105, 120);
/// The cross where a message was lost.
pub const DROPPED: Rgba = Rgba::rgb(60, 60, 70);
/// Haze where messages are too many to draw as arrows, at its lightest. Blue, to tell it from
/// the grey of pauses and crashes.
pub const MESSAGE_HAZE: Rgba = Rgba::translucent(60, 110, 200, 14);
/// A store node's role changes (became leader or primary, stepped down).
pub const ROLE: Rgba = Rgba::rgb(55, 65, 80);
