//! The marks while the events are read: writes at the resource (and which of them the
//! verdict names), claims, hold counts and the store nodes' roles.

use super::Builder;
use crate::checker::ViolationKind;
use crate::trace::{KeyId, NodeId, Role, Token};
use crate::view::timeline::{Mark, MarkKind, WriteOutcome};

impl Builder<'_> {
    /// `replicated` and `consensus` start with store1 as primary or leader of term 1, which
    /// the trace does not record: mark it, so the first role change has something before it.
    pub(super) fn initial_leader(&mut self) {
        if self.trace.topology.head().is_none() {
            return;
        }
        if let Some(first) = self.trace.first_with_role(Role::Store) {
            self.push_role(0, first, true, 1, true);
        }
    }

    /// Marks a store node becoming (`up`) or ceasing to be the primary or leader.
    pub(super) fn push_role(&mut self, at: u64, node: NodeId, up: bool, term: u64, at_start: bool) {
        // Only a topology with a head changes roles.
        let Some(head) = self.trace.topology.head() else {
            return;
        };
        let (label, kind) = if up {
            (
                format!("{} · {} {term}", head.title(), head.round()),
                MarkKind::BecameLeader { term, at_start },
            )
        } else {
            (
                format!("now a {}", head.follower()),
                MarkKind::SteppedDown { term },
            )
        };
        self.lanes[node.index()].marks.push(Mark {
            at_ms: at,
            kind,
            label,
            event: (!at_start).then_some(self.current),
        });
    }

    /// The safety violation the verdict reports for a write of `token` accepted at `at`.
    pub(super) fn violation_at(&self, at: u64, token: Token) -> Option<ViolationKind> {
        self.violating.get(&(at, token)).copied().or_else(|| {
            self.stale_from
                .get(&token)
                .filter(|&&first| first <= at)
                .map(|_| ViolationKind::StaleWrite)
        })
    }

    pub(super) fn push_claim(
        &mut self,
        at: u64,
        node: NodeId,
        key: KeyId,
        token: Token,
        stamp_ms: Option<i64>,
        label: String,
    ) {
        self.lanes[node.index()].marks.push(Mark {
            at_ms: at,
            kind: MarkKind::Claim {
                key,
                token,
                stamp_ms,
            },
            label,
            event: Some(self.current),
        });
    }

    pub(super) fn push_write(
        &mut self,
        at: u64,
        node: NodeId,
        key: KeyId,
        token: Token,
        fence: Option<u64>,
        outcome: WriteOutcome,
    ) {
        let what = match outcome {
            WriteOutcome::Accepted => "accepted".to_string(),
            WriteOutcome::Violating(kind) => format!("accepted: {kind}"),
            WriteOutcome::Rejected { .. } => "rejected".to_string(),
        };
        let label = format!("{} {what}", self.grant_label(key, token, fence));
        self.lanes[node.index()].marks.push(Mark {
            at_ms: at,
            kind: MarkKind::Write {
                key,
                token,
                fence,
                outcome,
            },
            label,
            event: Some(self.current),
        });
    }
}
