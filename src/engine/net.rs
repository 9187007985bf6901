//! The network: which links are cut, which are slowed, and — for TCP — each connection's
//! messages in flight, in the order they were sent.
//!
//! TCP (the default) follows what the kernel does for a lock client's connection: a segment
//! that finds its link cut, or is lost, is retransmitted on a back-off (Linux starts at
//! 200 ms, `TCP_RTO_MIN`, and doubles, at most `TCP_RTO_MAX`; here capped at 60 s), so a
//! partition delays a message instead of dropping it; the receiving application sees a
//! connection's bytes in order, so a later message waits behind an earlier one (head-of-line
//! blocking); and the connection dies — losing what it still carries — only when data has gone
//! unacknowledged for the give-up time (Linux `tcp_retries2`, about 15 minutes) or an end
//! crashes. Kleppmann (2016) uses exactly such a held packet, delivered after the next
//! holder's write, against timing-based locks.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::msg::Msg;
use crate::trace::{MsgId, NodeId};

/// First retransmission after this many ms (Linux `TCP_RTO_MIN`).
const FIRST_RETRY_MS: u64 = 200;
/// Longest gap between retransmissions, ms.
const MAX_RETRY_GAP_MS: u64 = 60_000;

/// True ms after a message's first send at which retransmission `n` (1-based) goes out:
/// 200, 600, 1 400, 3 000 … — the gap doubles from 200 ms, at most [`MAX_RETRY_GAP_MS`].
pub fn retry_offset_ms(n: u32) -> u64 {
    let mut offset = 0u64;
    let mut gap = FIRST_RETRY_MS;
    for _ in 0..n {
        offset = offset.saturating_add(gap);
        gap = (gap * 2).min(MAX_RETRY_GAP_MS);
    }
    offset
}

/// One active partition: its groups, to undo it when it ends.
struct Cut {
    id: u32,
    groups: Vec<Vec<NodeId>>,
}

/// The delays added to one link by its active `delay` faults: their sum, and when each ends
/// (earliest first), so a send reads the sum in constant time however many faults slow the
/// link, and an ended one is taken off once.
#[derive(Default)]
struct Slowed {
    extra_ms: u64,
    ends: BinaryHeap<Reverse<(u64, u64)>>,
}

/// Where one TCP message is.
#[derive(Debug)]
enum Stage {
    /// A transmission is under way; its arrival event is in the queue.
    OnWire,
    /// Its last transmission was cut or lost: a retransmission event is in the queue.
    Retrying,
    /// It reached the receiver's kernel but waits behind an earlier message.
    Arrived(Msg),
}

/// One message a TCP connection still carries.
#[derive(Debug)]
struct InFlight {
    id: MsgId,
    /// True ms of its first send: the retransmission schedule and the give-up time count from it.
    sent_ms: u64,
    /// Retransmissions so far.
    retries: u32,
    stage: Stage,
}

/// A message handed back by the connection, or dropped with it.
pub struct Flushed {
    pub id: MsgId,
    pub msg: Msg,
}

/// Link state of the whole run.
pub struct Net {
    cuts: Vec<Cut>,
    /// Per (a, b): how many active partitions put `a` and `b` in different groups, so a
    /// message asks whether its link is cut in constant time, not once per partition.
    separated: Vec<u16>,
    /// Per (from, to): the extra delay of its active `delay` faults.
    slowed: Vec<Slowed>,
    next_cut: u32,
    nodes: usize,
    /// TCP: per (from, to), messages sent and not yet handed to the receiver, oldest first.
    /// Ids rise with each send, so a connection is sorted by id and a message is found by
    /// binary search: a cut link's backlog of thousands costs a lookup of a dozen steps.
    conns: Vec<VecDeque<InFlight>>,
}

impl Net {
    /// A network of `nodes` nodes with no cuts and empty connections.
    pub fn new(nodes: usize) -> Self {
        Net {
            cuts: Vec::new(),
            separated: vec![0; nodes * nodes],
            slowed: (0..nodes * nodes).map(|_| Slowed::default()).collect(),
            next_cut: 0,
            nodes,
            conns: (0..nodes * nodes).map(|_| VecDeque::new()).collect(),
        }
    }

    /// Adds `by` (1 or -1) to the separation of every pair `groups` puts apart.
    fn separate(&mut self, groups: &[Vec<NodeId>], by: i32) {
        for (g, members) in groups.iter().enumerate() {
            for other in groups.iter().skip(g + 1) {
                for &a in members {
                    for &b in other {
                        for (x, y) in [(a, b), (b, a)] {
                            let n = &mut self.separated[x.index() * self.nodes + y.index()];
                            *n = n.saturating_add_signed(by as i16);
                        }
                    }
                }
            }
        }
    }

    /// Starts a partition; returns its id (to end it later).
    pub fn cut(&mut self, groups: &[Vec<NodeId>]) -> u32 {
        self.separate(groups, 1);
        self.next_cut += 1;
        self.cuts.push(Cut {
            id: self.next_cut,
            groups: groups.to_vec(),
        });
        self.next_cut
    }

    /// Ends one partition; returns its groups, or `None` if a heal already ended it.
    pub fn end_cut(&mut self, id: u32) -> Option<Vec<Vec<NodeId>>> {
        let i = self.cuts.iter().position(|c| c.id == id)?;
        let groups = self.cuts.remove(i).groups;
        self.separate(&groups, -1);
        Some(groups)
    }

    /// Ends every partition.
    pub fn heal(&mut self) {
        self.cuts.clear();
        self.separated.fill(0);
    }

    /// Whether a message between `a` and `b` is blocked now.
    #[inline]
    pub fn is_cut(&self, a: NodeId, b: NodeId) -> bool {
        self.separated[a.index() * self.nodes + b.index()] > 0
    }

    /// Slows `from → to` by `extra_ms` for messages sent before `until_ms`.
    pub fn slow(&mut self, from: NodeId, to: NodeId, extra_ms: u64, until_ms: u64) {
        let link = &mut self.slowed[from.index() * self.nodes + to.index()];
        link.extra_ms = link.extra_ms.saturating_add(extra_ms);
        link.ends.push(Reverse((until_ms, extra_ms)));
    }

    /// Extra delay for a message sent now on `from → to`, ms. Simulated time only moves on,
    /// so a delay that has ended is taken off for good.
    #[inline]
    pub fn extra_ms(&mut self, from: NodeId, to: NodeId, now_ms: u64) -> u64 {
        let link = &mut self.slowed[from.index() * self.nodes + to.index()];
        while let Some(&Reverse((until_ms, extra_ms))) = link.ends.peek() {
            if now_ms < until_ms {
                break;
            }
            link.ends.pop();
            link.extra_ms = link.extra_ms.saturating_sub(extra_ms);
        }
        link.extra_ms
    }

    #[inline]
    fn conn(&mut self, from: NodeId, to: NodeId) -> &mut VecDeque<InFlight> {
        &mut self.conns[from.index() * self.nodes + to.index()]
    }

    #[inline]
    fn find(&mut self, from: NodeId, to: NodeId, id: MsgId) -> Option<&mut InFlight> {
        let conn = self.conn(from, to);
        let i = conn.binary_search_by_key(&id, |m| m.id).ok()?;
        conn.get_mut(i)
    }

    /// TCP: a new message enters the connection `from → to` at `now_ms`, on the wire. `id` is
    /// later than every message the connection carries (ids rise with each send).
    #[inline]
    pub fn open(&mut self, from: NodeId, to: NodeId, id: MsgId, now_ms: u64) {
        let conn = self.conn(from, to);
        debug_assert!(
            conn.back().is_none_or(|m| m.id < id),
            "ids rise with each send"
        );
        conn.push_back(InFlight {
            id,
            sent_ms: now_ms,
            retries: 0,
            stage: Stage::OnWire,
        });
    }

    /// TCP: whether the connection still carries message `id` (a dead connection lost it).
    #[inline]
    pub fn carries(&mut self, from: NodeId, to: NodeId, id: MsgId) -> bool {
        self.find(from, to, id).is_some()
    }

    /// TCP: the transmission of `id` was cut or lost; returns the true ms of its next
    /// retransmission after `now_ms`, or `None` if the message has waited the give-up time,
    /// in which case the caller kills the connection ([`Net::kill`]). A retransmission that
    /// would fall past the give-up time is moved to it, where the connection dies: Linux
    /// shortens the last retransmission timer to the time left (`tcp_clamp_rto_to_user_timeout`)
    /// and aborts at the limit itself.
    pub fn retry_at(
        &mut self,
        from: NodeId,
        to: NodeId,
        id: MsgId,
        now_ms: u64,
        give_up_ms: u64,
    ) -> Option<u64> {
        let m = self.find(from, to, id)?;
        m.stage = Stage::Retrying;
        let limit = m.sent_ms.saturating_add(give_up_ms);
        if now_ms >= limit {
            return None;
        }
        loop {
            m.retries += 1;
            let at = (m.sent_ms + retry_offset_ms(m.retries)).min(limit);
            if at > now_ms {
                return Some(at);
            }
        }
    }

    /// TCP: whether `id`, still undelivered, has waited the give-up time at `now_ms`.
    pub fn gave_up(
        &mut self,
        from: NodeId,
        to: NodeId,
        id: MsgId,
        now_ms: u64,
        give_up_ms: u64,
    ) -> bool {
        self.find(from, to, id)
            .is_some_and(|m| now_ms >= m.sent_ms.saturating_add(give_up_ms))
    }

    /// TCP: a retransmission of `id` goes out now.
    #[inline]
    pub fn on_wire(&mut self, from: NodeId, to: NodeId, id: MsgId) {
        if let Some(m) = self.find(from, to, id) {
            m.stage = Stage::OnWire;
        }
    }

    /// TCP: message `id` reached the receiver's end of the connection. Returns it if the
    /// receiving process can read it now (every earlier message is in); otherwise it waits
    /// there, and [`Net::next_ready`] hands it out once the gap before it is filled.
    #[inline]
    pub fn arrive(&mut self, from: NodeId, to: NodeId, id: MsgId, msg: Msg) -> Option<Msg> {
        let conn = self.conn(from, to);
        if conn.front().is_some_and(|m| m.id == id) {
            conn.pop_front();
            return Some(msg);
        }
        if let Some(m) = self.find(from, to, id) {
            m.stage = Stage::Arrived(msg);
        }
        None
    }

    /// TCP: the next message the receiving process can read on `from → to`, in the order sent:
    /// `None` while the oldest one still travels (or the connection is empty).
    #[inline]
    pub fn next_ready(&mut self, from: NodeId, to: NodeId) -> Option<Flushed> {
        let conn = self.conn(from, to);
        if !matches!(conn.front()?.stage, Stage::Arrived(_)) {
            return None;
        }
        match conn.pop_front() {
            Some(InFlight {
                id,
                stage: Stage::Arrived(msg),
                ..
            }) => Some(Flushed { id, msg }),
            _ => None,
        }
    }

    /// TCP: the connection `from → to` dies; returns the ids of the messages it lost.
    pub fn kill(&mut self, from: NodeId, to: NodeId) -> Vec<MsgId> {
        self.conn(from, to).drain(..).map(|m| m.id).collect()
    }

    /// TCP: `node` crashed. Every connection into it dies with what it carries; on its
    /// connections out, what is already on the wire ahead of any gap still arrives, and the
    /// rest — nobody is left to retransmit it — is lost. Returns (from, to, id) of each loss.
    pub fn crash(&mut self, node: NodeId) -> Vec<(NodeId, NodeId, MsgId)> {
        let mut lost = Vec::new();
        for other in NodeId::all(self.nodes) {
            for id in self.kill(other, node) {
                lost.push((other, node, id));
            }
            let conn = self.conn(node, other);
            let keep = conn
                .iter()
                .position(|m| !matches!(m.stage, Stage::OnWire))
                .unwrap_or(conn.len());
            for m in conn.drain(keep..) {
                lost.push((node, other, m.id));
            }
        }
        lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::layout::StoreIx;
    use crate::engine::msg::ReplId;

    fn node(n: u32) -> NodeId {
        NodeId::new(n)
    }

    fn id(n: u32) -> MsgId {
        MsgId::new(n)
    }

    fn msg() -> Msg {
        Msg::Heartbeat {
            epoch: 1,
            id: ReplId {
                node: StoreIx::FIRST,
                era: 0,
            },
            offset: 0,
        }
    }

    #[test]
    fn retransmissions_back_off_from_the_first_send() {
        let offsets: Vec<u64> = (1..=10).map(retry_offset_ms).collect();
        assert_eq!(
            offsets,
            [
                200, 600, 1_400, 3_000, 6_200, 12_600, 25_400, 51_000, 102_200, 162_200
            ]
        );
    }

    #[test]
    fn a_cut_message_is_retried_after_now_and_given_up_at_last() {
        let mut net = Net::new(2);
        net.open(node(0), node(1), id(7), 1_000);
        // Cut at its arrival 5 ms later: the first retransmission is at send + 200.
        assert_eq!(
            net.retry_at(node(0), node(1), id(7), 1_005, 900_000),
            Some(1_200)
        );
        // Still cut at 1 200 and found again at 2 000: the next point after now is send + 1 400.
        assert_eq!(
            net.retry_at(node(0), node(1), id(7), 2_000, 900_000),
            Some(2_400)
        );
        // With a give-up time of 2.5 s, the retransmission due at send + 3 000 is moved to
        // the limit, send + 2 500, where the connection dies.
        assert_eq!(
            net.retry_at(node(0), node(1), id(7), 2_400, 2_500),
            Some(3_500)
        );
        assert!(!net.gave_up(node(0), node(1), id(7), 3_499, 2_500));
        assert!(net.gave_up(node(0), node(1), id(7), 3_500, 2_500));
        assert_eq!(net.retry_at(node(0), node(1), id(7), 3_500, 2_500), None);
        assert_eq!(net.kill(node(0), node(1)), vec![id(7)]);
        assert!(!net.carries(node(0), node(1), id(7)));
    }

    #[test]
    fn a_later_message_waits_behind_an_earlier_one() {
        let mut net = Net::new(2);
        net.open(node(0), node(1), id(1), 0);
        net.open(node(0), node(1), id(2), 1);
        net.retry_at(node(0), node(1), id(1), 3, 900_000);
        assert!(
            net.arrive(node(0), node(1), id(2), msg()).is_none(),
            "2 waits behind 1"
        );
        assert!(net.next_ready(node(0), node(1)).is_none());
        net.on_wire(node(0), node(1), id(1));
        assert!(
            net.arrive(node(0), node(1), id(1), msg()).is_some(),
            "1 is read at once"
        );
        let ids: Vec<MsgId> = std::iter::from_fn(|| net.next_ready(node(0), node(1)))
            .map(|f| f.id)
            .collect();
        assert_eq!(ids, [id(2)]);
    }

    #[test]
    fn a_crash_kills_what_waits_but_not_what_is_on_the_wire_ahead() {
        let mut net = Net::new(3);
        net.open(node(0), node(1), id(1), 0); // on the wire: still arrives
        net.open(node(0), node(1), id(2), 0);
        net.retry_at(node(0), node(1), id(2), 1, 900_000); // waiting to be retransmitted: lost
        net.open(node(0), node(1), id(3), 0); // behind the gap: lost
        net.open(node(2), node(0), id(4), 0); // into the crashed node: lost
        let mut lost = net.crash(node(0));
        lost.sort();
        assert_eq!(
            lost,
            [
                (node(0), node(1), id(2)),
                (node(0), node(1), id(3)),
                (node(2), node(0), id(4))
            ]
        );
        assert!(net.carries(node(0), node(1), id(1)));
    }

    #[test]
    fn a_link_stays_cut_while_any_partition_over_it_lasts() {
        let mut net = Net::new(3);
        let first = net.cut(&[vec![node(0)], vec![node(1)]]);
        let second = net.cut(&[vec![node(0), node(2)], vec![node(1)]]);
        net.end_cut(first);
        assert!(
            net.is_cut(node(1), node(0)),
            "the second still separates them"
        );
        assert!(net.is_cut(node(2), node(1)) && !net.is_cut(node(0), node(2)));
        net.end_cut(second);
        assert!(!net.is_cut(node(0), node(1)) && !net.is_cut(node(2), node(1)));
        net.cut(&[vec![node(0)], vec![node(1)]]);
        net.heal();
        assert!(!net.is_cut(node(0), node(1)));
    }

    #[test]
    fn delays_on_a_link_add_up_until_each_ends() {
        let mut net = Net::new(2);
        net.slow(node(0), node(1), 100, 1_000);
        net.slow(node(0), node(1), 30, 500);
        assert_eq!(net.extra_ms(node(0), node(1), 0), 130);
        assert_eq!(net.extra_ms(node(1), node(0), 0), 0, "one direction only");
        assert_eq!(net.extra_ms(node(0), node(1), 499), 130);
        assert_eq!(net.extra_ms(node(0), node(1), 500), 100);
        assert_eq!(net.extra_ms(node(0), node(1), 1_000), 0);
    }

    #[test]
    fn partitions_cut_only_between_listed_groups() {
        let mut net = Net::new(4);
        let id = net.cut(&[vec![node(0)], vec![node(1), node(2)]]);
        assert!(net.is_cut(node(0), node(1)) && net.is_cut(node(2), node(0)));
        assert!(!net.is_cut(node(1), node(2)) && !net.is_cut(node(0), node(3)));
        assert_eq!(
            net.end_cut(id),
            Some(vec![vec![node(0)], vec![node(1), node(2)]])
        );
        assert!(!net.is_cut(node(0), node(1)));
        assert_eq!(net.end_cut(id), None, "already over");
    }
}
