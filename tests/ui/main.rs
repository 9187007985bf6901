//! The app's tests, in one binary: the app driven headless through its accessibility tree
//! (egui_kittest) and read from what it painted, one module per area.

#![cfg(feature = "gui")]

mod support {
    pub mod drive;
    pub mod memory;
    pub mod painted;
    pub mod screen;
}
#[path = "../support/env.rs"]
mod env;
#[path = "../support/winning.rs"]
mod winning;

mod challenges;
mod course;
mod faults;
mod glossary;
mod labels;
mod monkey;
mod sizes;
mod transcript;
