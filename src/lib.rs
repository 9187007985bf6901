//! locksim: a deterministic simulator of distributed locks, built to teach why they are hard.
//!
//! Data flows one way (ARCHITECTURE.md): a [`scenario::Scenario`] is parsed and validated,
//! the [`engine`] plays it out into a [`trace::Trace`], the [`checker`] turns the trace into a
//! [`checker::Verdict`] ([`run()`] does both; [`judged()`] checks the events as they come, for
//! runs nobody will see), and the front ends only show those, through the
//! [`view`] model. Around that flow, without the front ends: [`sweep`] counts many seeds,
//! [`ladder`] moves a scenario onto another rung of the design ladder, and [`breakage`] makes
//! "Break it"'s changes to a scenario. [`picture`] draws a run's timeline once, for the app and
//! the SVG alike; [`render`] makes pictures and text of a run for slides and handouts.
//! [`assignment`] (command line only) holds a teacher's assignments and grades hand-ins.

#![warn(missing_docs)]

#[cfg(not(target_arch = "wasm32"))]
pub mod assignment;
pub mod breakage;
pub mod challenge;
pub mod checker;
// The command line reads files and talks to a terminal; the web build has neither.
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod course;
pub mod engine;
pub mod ladder;
mod order;
pub mod picture;
// Threads, and only the CLI calls it: not in the web build.
#[cfg(not(target_arch = "wasm32"))]
pub mod prove;
pub mod render;
mod run;
pub mod scenario;
pub mod search;
pub mod sweep;
#[cfg(test)]
mod testkit;
pub mod text;
pub mod trace;
pub mod view;
pub mod violation;

pub use run::{Judged, Run, judged, run};

#[cfg(feature = "gui")]
pub mod app;
