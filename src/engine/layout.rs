//! Who is who: node ids of the workers, the store nodes and the resource, and the store
//! index that names a store node among its peers.

use crate::scenario::names::{parse_store_name, store_name};
use crate::trace::NodeId;

/// A store node's place among the store nodes: `store1` is index 0. Replication histories,
/// election votes and a client's idea of the leader all name store nodes this way; the trace
/// names them by [`NodeId`], and [`Layout`] converts between the two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StoreIx(u32);

impl StoreIx {
    /// `store1`, the first primary and first leader.
    pub const FIRST: StoreIx = StoreIx(0);

    /// The index into per-store-node tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The next store node of `nodes`, wrapping round to `store1`.
    pub fn next(self, nodes: usize) -> StoreIx {
        StoreIx(((self.index() + 1) % nodes.max(1)) as u32)
    }

    /// The store node `n` places after this one.
    pub fn plus(self, n: u32) -> StoreIx {
        StoreIx(self.0 + n)
    }

    /// The node's name, `store1` for [`StoreIx::FIRST`].
    pub fn name(self) -> String {
        store_name(self.0 + 1)
    }

    /// Index `i`, for tests that name a store node by its place.
    #[cfg(test)]
    pub const fn new(i: usize) -> StoreIx {
        StoreIx(i as u32)
    }
}

/// Node ids are given out in order: the workers, then the store nodes, then the resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    workers: u32,
    stores: u32,
}

impl Layout {
    /// `workers` workers and `stores` store nodes (at least one).
    pub fn new(workers: usize, stores: usize) -> Self {
        Layout {
            workers: workers as u32,
            stores: stores.max(1) as u32,
        }
    }

    /// Whether node `id` is a worker.
    pub fn is_worker(self, id: NodeId) -> bool {
        id.get() < self.workers
    }

    /// The node id of store node `ix`.
    pub fn store_id(self, ix: StoreIx) -> NodeId {
        NodeId::new(self.workers + ix.0)
    }

    /// The store index of node `id`, if it is a store node.
    pub fn store_ix(self, id: NodeId) -> Option<StoreIx> {
        (self.workers..self.workers + self.stores)
            .contains(&id.get())
            .then(|| StoreIx(id.get() - self.workers))
    }

    /// The node id of the store node called `name` (`store2`), if there is one.
    pub fn store_named(self, name: &str) -> Option<NodeId> {
        let n = parse_store_name(name)?;
        (n <= self.stores).then(|| NodeId::new(self.workers + n - 1))
    }

    /// The resource's node id (after every store node).
    pub fn resource(self) -> NodeId {
        NodeId::new(self.workers + self.stores)
    }

    /// How many store nodes there are.
    pub fn stores(self) -> usize {
        self.stores as usize
    }

    /// Every store node, `store1` first.
    pub fn store_ixs(self) -> impl Iterator<Item = StoreIx> {
        (0..self.stores).map(StoreIx)
    }

    /// How many store nodes make a majority.
    pub fn majority(self) -> usize {
        crate::scenario::majority(self.stores())
    }

    /// Every node: workers, store nodes and the resource.
    pub fn nodes(self) -> usize {
        (self.workers + self.stores + 1) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_ids_follow_the_workers_and_precede_the_resource() {
        let l = Layout::new(2, 3);
        assert_eq!(l.store_id(StoreIx::FIRST), NodeId::new(2));
        assert_eq!(l.store_ix(NodeId::new(4)), Some(StoreIx::new(2)));
        assert_eq!(
            (l.store_ix(NodeId::new(1)), l.store_ix(NodeId::new(5))),
            (None, None)
        );
        assert_eq!(l.resource(), NodeId::new(5));
        assert_eq!(l.store_named("store3"), Some(NodeId::new(4)));
        assert_eq!(
            (l.store_named("store4"), StoreIx::new(1).name()),
            (None, "store2".into())
        );
        assert_eq!(StoreIx::new(2).next(3), StoreIx::FIRST);
        assert_eq!(l.majority(), 2);
    }
}
