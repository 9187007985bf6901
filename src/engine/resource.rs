//! The protected resource: one record per lock key, optionally fenced, in one of three
//! write modes (`plain`, and step 8's `idempotent` and `cas`, which stay correct without a
//! lock).

use super::Sim;
use super::msg::Msg;
use crate::engine::marks::mark;
use crate::scenario::ResourceMode;
use crate::trace::{EventKind, NodeId, RejectReason};

/// One record.
#[derive(Clone, Copy, Default)]
struct Record {
    value: u64,
    version: u64,
    /// Highest fencing token accepted so far (on writes, and on reads when they are fenced).
    highest_fence: Option<u64>,
}

/// The resource's state.
pub struct Resource {
    records: Vec<Record>,
}

impl Resource {
    pub fn new(keys: usize) -> Self {
        Resource {
            records: vec![Record::default(); keys],
        }
    }
}

impl<const EVENTS: bool> Sim<'_, EVENTS> {
    pub(super) fn resource_receive(&mut self, from: NodeId, msg: Msg) {
        let me = self.layout.resource();
        match msg {
            Msg::Read { key, token, fence } => {
                let checks = self.sc.resource.fencing && self.sc.resource.fence_reads;
                let r = &mut self.resource.records[key.index()];
                let stale = checks && is_stale(fence, r.highest_fence);
                if checks && !stale {
                    remember(&mut r.highest_fence, fence);
                }
                let (value, version) = (r.value, r.version);
                if stale {
                    self.record(
                        me,
                        EventKind::ReadRejected {
                            key,
                            token,
                            fence,
                            reason: RejectReason::StaleToken,
                        },
                    );
                } else {
                    self.record(
                        me,
                        EventKind::Read {
                            key,
                            token,
                            fence,
                            value,
                            version,
                        },
                    );
                }
                self.send(
                    me,
                    from,
                    Msg::ReadReply {
                        key,
                        token,
                        ok: !stale,
                        value,
                        version,
                    },
                );
            }
            Msg::Write {
                key,
                token,
                fence,
                expected_version,
                value,
            } => {
                let fencing = self.sc.resource.fencing;
                let mode = self.sc.resource.mode;
                let r = &mut self.resource.records[key.index()];
                let reject = if fencing && is_stale(fence, r.highest_fence) {
                    mark!("stale_fence_refused");
                    Some(RejectReason::StaleToken)
                } else if mode == ResourceMode::Cas && expected_version != r.version {
                    Some(RejectReason::VersionMoved)
                } else {
                    None
                };
                let ok = reject.is_none();
                if ok {
                    // Idempotent mode applies the same operation every time: the value is fixed.
                    r.value = if mode == ResourceMode::Idempotent {
                        1
                    } else {
                        value
                    };
                    r.version += 1;
                    remember(&mut r.highest_fence, fence);
                }
                let (value, version) = (r.value, r.version);
                match reject {
                    Some(reason) => self.record(
                        me,
                        EventKind::WriteRejected {
                            key,
                            token,
                            fence,
                            reason,
                        },
                    ),
                    None => self.record(
                        me,
                        EventKind::WriteAccepted {
                            key,
                            token,
                            fence,
                            value,
                            version,
                        },
                    ),
                }
                self.send(
                    me,
                    from,
                    Msg::WriteReply {
                        key,
                        token,
                        ok,
                        version,
                    },
                );
            }
            _ => {}
        }
    }
}

/// Whether `fence` is lower than the highest the resource has seen (Kleppmann 2016: the
/// tokens need only increase).
fn is_stale(fence: Option<u64>, highest: Option<u64>) -> bool {
    matches!((fence, highest), (Some(f), Some(h)) if f < h)
}

/// Raises `highest` to `fence`.
fn remember(highest: &mut Option<u64>, fence: Option<u64>) {
    if let Some(f) = fence {
        *highest = Some(highest.map_or(f, |h| h.max(f)));
    }
}
