//! The names of the nodes every scenario has without declaring them: the store nodes
//! `store1` .. `storeN` and the protected `resource`. Faults and `[[node]]` name them, the
//! engine gives them to the trace, and every front end shows them; this is their one spelling.

use super::Scenario;

/// The protected storage node.
pub const RESOURCE: &str = "resource";

/// What every store node's name starts with; its number, counted from 1, follows.
const STORE_PREFIX: &str = "store";

/// The name of store node `n`, counted from 1: `store1`.
pub fn store_name(n: u32) -> String {
    format!("{STORE_PREFIX}{n}")
}

/// The number (from 1) of the store node called `name`, if [`store_name`] spells it so:
/// `store3` is 3; `store03`, `store0` and `store` name no store node.
pub fn parse_store_name(name: &str) -> Option<u32> {
    let n: u32 = name.strip_prefix(STORE_PREFIX)?.parse().ok()?;
    (n >= 1 && store_name(n) == name).then_some(n)
}

/// Whether `name` is kept for store nodes: the prefix and then only digits, whatever the
/// number, so that no worker is called `store07` beside `store7`.
pub fn is_reserved_for_stores(name: &str) -> bool {
    name.strip_prefix(STORE_PREFIX)
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

impl Scenario {
    /// `store1` .. `storeN`, the names the engine gives this scenario's store nodes.
    pub fn store_names(&self) -> Vec<String> {
        (1..=self.store.nodes).map(store_name).collect()
    }

    /// Every node a fault may name: the workers, `store1` .. `storeN`, `resource`.
    pub fn node_names(&self) -> Vec<String> {
        let workers = self.workers.iter().map(|worker| worker.name.clone());
        workers
            .chain(self.store_names())
            .chain([RESOURCE.to_string()])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_canonical_spelling_names_a_store_node() {
        assert_eq!(store_name(3), "store3");
        assert_eq!(parse_store_name("store3"), Some(3));
        for name in ["store03", "store0", "store", "store+1", "Store1", RESOURCE] {
            assert_eq!(parse_store_name(name), None, "{name}");
        }
        assert!(is_reserved_for_stores("store07") && is_reserved_for_stores("store0"));
        assert!(!is_reserved_for_stores("store") && !is_reserved_for_stores("storefront"));
    }
}
