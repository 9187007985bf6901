//! The network: which links are cut, which are slowed, and how long a message takes.

use crate::trace::NodeId;

/// One active partition: every node's group, or `None` if it is not listed (unaffected).
struct Cut {
    id: u32,
    group_of: Vec<Option<u16>>,
}

/// A window during which messages on one link take longer.
struct Slow {
    from: NodeId,
    to: NodeId,
    extra_ms: u64,
    until_ms: u64,
}

/// Link state of the whole run.
#[derive(Default)]
pub struct Net {
    cuts: Vec<Cut>,
    slows: Vec<Slow>,
    next_cut: u32,
}

impl Net {
    /// Starts a partition; returns its id (to end it later).
    pub fn cut(&mut self, node_count: usize, groups: &[Vec<NodeId>]) -> u32 {
        let mut group_of = vec![None; node_count];
        for (g, members) in groups.iter().enumerate() {
            for &n in members {
                group_of[n as usize] = Some(g as u16);
            }
        }
        self.next_cut += 1;
        self.cuts.push(Cut {
            id: self.next_cut,
            group_of,
        });
        self.next_cut
    }

    /// Ends one partition (no-op if already healed).
    pub fn end_cut(&mut self, id: u32) {
        self.cuts.retain(|c| c.id != id);
    }

    /// Ends every partition.
    pub fn heal(&mut self) {
        self.cuts.clear();
    }

    /// Whether a message between `a` and `b` is blocked now.
    pub fn is_cut(&self, a: NodeId, b: NodeId) -> bool {
        self.cuts
            .iter()
            .any(|c| match (c.group_of[a as usize], c.group_of[b as usize]) {
                (Some(x), Some(y)) => x != y,
                _ => false,
            })
    }

    /// Slows `from → to` by `extra_ms` for messages sent before `until_ms`.
    pub fn slow(&mut self, from: NodeId, to: NodeId, extra_ms: u64, until_ms: u64) {
        self.slows.push(Slow {
            from,
            to,
            extra_ms,
            until_ms,
        });
    }

    /// Extra delay for a message sent now on `from → to`, ms.
    pub fn extra_ms(&self, from: NodeId, to: NodeId, now_ms: u64) -> u64 {
        self.slows
            .iter()
            .filter(|s| s.from == from && s.to == to && now_ms < s.until_ms)
            .map(|s| s.extra_ms)
            .sum()
    }
}
