//! Colours with a meaning, shared by the timeline, its legend and the verdict panel so
//! that the same thing always looks the same.

use eframe::egui::Color32;

use crate::checker::Kind;
use crate::trace::{NodeId, Token};

/// One hue per worker: a worker's belief bars and the store's lease bars for its grants share
/// it, so the eye pairs "A thinks" with "the store says" across lanes. No green, orange, red or
/// grey here: those mean write outcomes and faults.
const WORKER_HUES: [Color32; 6] = [
    Color32::from_rgb(45, 105, 200),
    Color32::from_rgb(135, 65, 175),
    Color32::from_rgb(0, 128, 140),
    Color32::from_rgb(190, 30, 110),
    Color32::from_rgb(120, 90, 60),
    Color32::from_rgb(60, 70, 170),
];

/// The colour of a worker, by its node id (workers come first in the trace).
pub fn worker(node: NodeId) -> Color32 {
    WORKER_HUES[node.index() % WORKER_HUES.len()]
}

/// The colour of a grant: its worker's.
pub fn token(token: Token) -> Color32 {
    worker(token.worker)
}

/// Text and summaries of the claims a `timestamp` store records (each diamond itself takes
/// its claimant's colour).
pub const CLAIM: Color32 = Color32::from_rgb(90, 110, 130);
/// A write the resource applied.
pub const ACCEPTED: Color32 = Color32::from_rgb(40, 150, 60);
/// A write the resource refused (fenced off).
pub const REJECTED: Color32 = Color32::from_rgb(225, 120, 20);
/// What broke safety: a corrupting write, a stale belief, an UNSAFE verdict.
pub const VIOLATING: Color32 = Color32::from_rgb(210, 35, 35);
/// A lock-level anomaly that did no harm by itself (the resource may have fenced it off).
pub const ANOMALY: Color32 = Color32::from_rgb(215, 130, 0);
/// A liveness violation (stuck, starved).
pub const LIVENESS: Color32 = Color32::from_rgb(120, 60, 170);
/// SAFE and LIVE badges.
pub const SAFE: Color32 = Color32::from_rgb(30, 135, 55);

// The shadings, fault text and playhead below are mid-tones, so they read on the light
// theme's lanes and on the dark theme's alike.

/// Lane shading while the node is paused.
pub const PAUSED: Color32 = Color32::from_rgba_unmultiplied_const(120, 120, 140, 60);
/// Lane shading while the worker is stalled.
pub const STALLED: Color32 = Color32::from_rgba_unmultiplied_const(230, 170, 20, 60);
/// Lane shading while the node is down.
pub const CRASHED: Color32 = Color32::from_rgba_unmultiplied_const(110, 110, 110, 80);
/// Lane shading while the node's outgoing link is slow.
pub const SLOW_LINK: Color32 = Color32::from_rgba_unmultiplied_const(70, 140, 200, 40);
/// Lane shading and axis band while a partition cuts the node off.
pub const PARTITION: Color32 = Color32::from_rgba_unmultiplied_const(150, 80, 200, 40);
/// Text on the fault shadings above.
pub const FAULT_TEXT: Color32 = Color32::from_rgb(115, 115, 125);

/// The playhead and its time label.
pub const PLAYHEAD: Color32 = Color32::from_rgb(40, 90, 200);

/// The colour of a violation of `kind`: red if the data went wrong, orange for a lock-level
/// anomaly, violet for liveness.
pub fn violation(kind: Kind) -> Color32 {
    if kind.breaks_safety() {
        VIOLATING
    } else if kind.breaks_liveness() {
        LIVENESS
    } else {
        ANOMALY
    }
}

/// Messages between store nodes and answers to workers (a worker's requests take its hue).
pub const MESSAGE: Color32 = Color32::from_rgb(95, 105, 120);
/// The cross where a message was lost.
pub const DROPPED: Color32 = Color32::from_rgb(60, 60, 70);
/// Haze where messages are too many to draw as arrows, at its lightest. Blue, to tell it from
/// the grey of pauses and crashes.
pub const MESSAGE_HAZE: Color32 = Color32::from_rgba_unmultiplied_const(60, 110, 200, 14);
/// A store node's role changes (became leader or primary, stepped down).
pub const ROLE: Color32 = Color32::from_rgb(55, 65, 80);
