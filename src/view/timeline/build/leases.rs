//! The store side's grants while the events are read: leases closing and reopening across
//! crashes and restarts, followers' logged copies (`consensus`), and, once read, when each
//! belief stopped being backed by the store (the lesson of the course's steps 3 to 5).

use std::collections::BTreeMap;

use super::Builder;
use crate::scenario::{DeletedBy, Head};
use crate::trace::{KeyId, NodeId, SessionEnd, Token, Trace};
use crate::view::timeline::{LeaseEnd, LeaseLost, Span, SpanKind};

impl Builder<'_> {
    /// Ends `node`'s lease bar of `key` at `at`, as `end` says, by the trace event `event`.
    pub(super) fn close_lease(
        &mut self,
        at: u64,
        node: NodeId,
        key: KeyId,
        end: LeaseEnd,
        event: Option<usize>,
    ) {
        if let Some(index) = self.leases.remove(&(node, key)) {
            let span = self.span_mut(node, index);
            let SpanKind::Lease {
                promised_end_ms, ..
            } = span.kind
            else {
                return;
            };
            // A grant over a lease that had already run out does not replace it: the
            // lease ended on its own, earlier.
            match (end, promised_end_ms) {
                (LeaseEnd::Replaced { .. }, Some(p)) if p < at => {
                    span.end_ms = p;
                    set_lease_end(span, LeaseEnd::RanOut);
                }
                _ => {
                    span.end_ms = at;
                    span.end_event = event;
                    set_lease_end(span, end);
                }
            }
        }
    }

    /// Opens a lease bar on `node` from `at`, labelled for what it is.
    pub(super) fn open_lease(&mut self, at: u64, node: NodeId, kind: SpanKind) {
        let SpanKind::Lease {
            key,
            token,
            fence,
            took_over,
            on_disk,
            ..
        } = kind
        else {
            return;
        };
        let grant = self.grant_label(key, token, fence);
        let label = if on_disk {
            format!("on disk, node down: {grant}")
        } else if took_over {
            format!("took over {grant} from the log")
        } else {
            grant
        };
        let index = self.push_span(
            node,
            Span::new(at, self.trace.simulated_until_ms(), kind, label),
        );
        self.leases.insert((node, key), index);
    }

    /// A store node crashed: each grant it held stops being live and goes on as what its
    /// disk holds.
    pub(super) fn freeze_leases(&mut self, at: u64, node: NodeId) {
        for key in Self::keys_of(&self.leases, node) {
            let index = self.leases[&(node, key)];
            let mut kind = self.lanes[node.index()].spans[index].kind.clone();
            self.close_lease(at, node, key, LeaseEnd::NodeDown, Some(self.current));
            if let SpanKind::Lease {
                on_disk, took_over, ..
            } = &mut kind
            {
                *on_disk = true;
                *took_over = false;
            }
            self.open_lease(at, node, kind);
        }
    }

    /// The restart of `node` at `at` (trace event `restart`) is read, persistence events
    /// included: what is still on its disk is live again — on a single node or a Redlock node.
    /// A consensus or replicated node comes back as a follower or replica, which grants
    /// nothing: a consensus follower's log still holds the entry.
    pub(super) fn restarted(&mut self, node: NodeId, at: u64, restart: usize) {
        self.restarting = None;
        let head = self.trace.topology.head();
        let follows = head.is_some();
        for key in Self::keys_of(&self.leases, node) {
            let index = self.leases[&(node, key)];
            let mut kind = self.lanes[node.index()].spans[index].kind.clone();
            let SpanKind::Lease {
                token,
                fence,
                on_disk: true,
                ..
            } = kind
            else {
                continue;
            };
            if !follows {
                self.close_lease(at, node, key, LeaseEnd::NodeUp, Some(restart));
                if let SpanKind::Lease { on_disk, .. } = &mut kind {
                    *on_disk = false;
                }
                self.open_lease(at, node, kind);
                continue;
            }
            self.close_lease(at, node, key, LeaseEnd::BackAsFollower, Some(restart));
            // The fence of a consensus grant is its log index.
            if head.is_some_and(Head::grants_are_log_entries) {
                let label = format!("logged {}", self.trace.token_name(token));
                let kind = SpanKind::Logged {
                    key,
                    token,
                    index: fence.unwrap_or(0),
                    row: 0,
                };
                let i = self.push_span(
                    node,
                    Span::new(at, self.trace.simulated_until_ms(), kind, label),
                );
                self.logged.insert((node, key), i);
            }
        }
    }

    /// `everysec`: the node came back holding `key` for `token` from an older flush: live
    /// again, with the fence and promise its last bar for `token` had.
    pub(super) fn reopen_from_disk(&mut self, at: u64, node: NodeId, key: KeyId, token: Token) {
        let before = self.lanes[node.index()]
            .spans
            .iter()
            .rev()
            .find_map(|s| match s.kind {
                SpanKind::Lease {
                    key: k,
                    token: t,
                    fence,
                    promised_end_ms,
                    ..
                } if (k, t) == (key, token) => Some((fence, promised_end_ms)),
                _ => None,
            });
        let (fence, promised_end_ms) = before.unwrap_or((None, None));
        let kind = SpanKind::Lease {
            key,
            token,
            fence,
            row: 0,
            promised_end_ms,
            end: LeaseEnd::Horizon,
            took_over: false,
            on_disk: false,
        };
        self.open_lease(at, node, kind);
    }

    /// The store side ended `token`'s grant of `key`: the followers' logged copies of it
    /// end too.
    pub(super) fn grant_ended(&mut self, at: u64, key: KeyId, token: Token) {
        self.ended.insert(token);
        let copies: Vec<NodeId> = self
            .logged
            .iter()
            .filter(|&(&(n, k), &i)| {
                k == key
                    && matches!(self.lanes[n.index()].spans[i].kind,
                        SpanKind::Logged { token: t, .. } if t == token)
            })
            .map(|(&(n, _), _)| n)
            .collect();
        for node in copies {
            self.close_logged(at, node, key);
        }
    }

    pub(super) fn close_logged(&mut self, at: u64, node: NodeId, key: KeyId) {
        if let Some(index) = self.logged.remove(&(node, key)) {
            let event = self.current;
            let span = self.span_mut(node, index);
            span.end_ms = at;
            span.end_event = Some(event);
        }
    }

    pub(super) fn lease_holder(&self, node: NodeId, key: KeyId) -> Option<Token> {
        let index = *self.leases.get(&(node, key))?;
        match self.lanes[node.index()].spans[index].kind {
            SpanKind::Lease { token, .. } => Some(token),
            _ => None,
        }
    }

    /// How many store nodes must hold a grant for it to be held: a majority of N independent
    /// nodes for Redlock; one otherwise (a consensus store records a grant only once its
    /// leader committed it, a replicated one on its primary).
    pub(super) fn holders_needed(&self) -> usize {
        self.trace.topology.holders_needed(self.trace.store_nodes())
    }

    /// Every store node's leases, per token: (start, end, how it ended).
    pub(super) fn lease_intervals(&self) -> BTreeMap<Token, Vec<(u64, u64, LeaseEnd)>> {
        let mut held: BTreeMap<Token, Vec<(u64, u64, LeaseEnd)>> = BTreeMap::new();
        for span in self.lanes.iter().flat_map(|l| &l.spans) {
            if let SpanKind::Lease { token, end, .. } = span.kind {
                held.entry(token)
                    .or_default()
                    .push((span.start_ms, span.end_ms, end));
            }
        }
        held
    }
}

pub(super) fn set_lease_end(span: &mut Span, new_end: LeaseEnd) {
    if let SpanKind::Lease { end, .. } = &mut span.kind {
        *end = new_end;
    }
}

/// When, within a belief from `start` to `end`, fewer than `needed` store nodes held its grant,
/// and why: the lease of the grant that ended last before that moment.
pub(super) fn lease_lost_from(
    trace: &Trace,
    leases: &[(u64, u64, LeaseEnd)],
    needed: usize,
    start: u64,
    end: u64,
) -> Option<LeaseLost> {
    let intervals: Vec<(u64, u64)> = leases.iter().map(|&(s, e, _)| (s, e)).collect();
    let at_ms = lost_at(&intervals, needed, start, end)?;
    let cause = leases
        .iter()
        .filter(|&&(_, e, _)| e <= at_ms)
        .max_by_key(|&&(_, e, _)| e)
        .map(|&(_, _, how)| how);
    let label = match cause {
        Some(LeaseEnd::Expired) => "lease expired".to_string(),
        Some(LeaseEnd::RanOut) => "lease ran out".to_string(),
        Some(LeaseEnd::Removed { by }) => format!("removed by {}", trace.token_name(by)),
        Some(LeaseEnd::Forgot) => "store forgot it".to_string(),
        Some(LeaseEnd::Unflushed) => "lost in the store's crash".to_string(),
        Some(LeaseEnd::Forced(DeletedBy::Operator)) => "an operator deleted it".to_string(),
        Some(LeaseEnd::Forced(DeletedBy::Eviction)) => "evicted to free memory".to_string(),
        Some(LeaseEnd::Forced(DeletedBy::Flush)) => "a flush deleted it".to_string(),
        Some(LeaseEnd::SessionEnded(why)) => match why {
            SessionEnd::Reset => "its session ended: the connection was reset",
            SessionEnd::GaveUp => "its session ended: the connection gave up",
            SessionEnd::HolderCrashed => "its session ended: the holder's process died",
            SessionEnd::ServerStopped => "its session ended: the server stopped",
        }
        .to_string(),
        Some(LeaseEnd::Replaced { by }) => format!("overwritten by {}", trace.token_name(by)),
        Some(LeaseEnd::BackAsFollower) => "its node came back as a follower".to_string(),
        Some(LeaseEnd::Horizon | LeaseEnd::NodeDown | LeaseEnd::NodeUp) | None => {
            "not held by the store".to_string()
        }
    };
    Some(LeaseLost {
        at_ms,
        cause,
        label,
    })
}

/// The first time in `[start, end)` at which fewer than `needed` of `intervals` (half-open)
/// cover it, if any.
fn lost_at(intervals: &[(u64, u64)], needed: usize, start: u64, end: u64) -> Option<u64> {
    let holders_at = |t: u64| intervals.iter().filter(|&&(s, e)| s <= t && t < e).count();
    // The count only drops at an interval's end, so checking those (and the start) suffices.
    let mut candidates: Vec<u64> = intervals.iter().map(|&(_, e)| e).collect();
    candidates.push(start);
    crate::order::sort(&mut candidates);
    candidates
        .into_iter()
        .filter(|&t| start <= t && t < end)
        .find(|&t| holders_at(t) < needed)
}

#[cfg(test)]
mod tests {
    use super::lost_at;

    #[test]
    fn redlock_grant_is_lost_when_the_majority_goes() {
        // Held on three of five nodes; the first to go leaves two, below the majority of three.
        let held = [(0, 50), (0, 80), (0, 100)];
        assert_eq!(lost_at(&held, 3, 10, 200), Some(50));
        assert_eq!(lost_at(&held, 1, 10, 200), Some(100));
        assert_eq!(lost_at(&held, 1, 10, 90), None);
        assert_eq!(lost_at(&[], 1, 10, 90), Some(10));
    }
}
