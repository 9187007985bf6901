//! The view model: what a front end shows of a run, worked out from the trace and the verdict
//! without any UI toolkit, so the command line, the app and the tests share it and it builds
//! and is tested without the `gui` feature.
//!
//! [`wording`] is the one source of sentences about events and violations; [`timeline`] lays
//! a run out as lanes; [`verdict`] words the verdict panel; [`watch`] points at where a run's
//! lesson happens; [`playback`] is the playhead moving over a finished run; [`link`] is the
//! shareable web link that names a view; [`compare`] puts two runs of one seed side by side;
//! [`transcript`] lists a run's events as sentences, in step with the playhead; [`palette`] the
//! colours every picture of a run shares; [`fault_edit`] faults placed on a timeline by hand;
//! [`fault_fields`] the fields of a fault a form edits.

pub mod compare;
pub mod fault_edit;
pub mod fault_fields;
pub mod link;
pub mod palette;
pub mod playback;
pub mod timeline;
pub mod transcript;
pub mod verdict;
pub mod watch;
pub mod wording;
