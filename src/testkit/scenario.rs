//! A scenario to check hand-made traces against.

use crate::scenario::{Check, Lock, Network, Resource, ResourceMode, Scenario, Store, Worker};

/// A scenario with every default, resource in `mode`, starve limit 10 000 ms.
pub fn scenario(mode: ResourceMode) -> Scenario {
    Scenario {
        version: 1,
        name: "test".into(),
        description: String::new(),
        source: String::new(),
        seed: 0,
        until_ms: 20_000,
        network: Network::default(),
        lock: Lock::default(),
        store: Store::default(),
        resource: Resource {
            fencing: false,
            fence_reads: false,
            mode,
        },
        check: Check::default(),
        workers: vec![Worker::new("A")],
        store_clocks: Vec::new(),
        faults: Vec::new(),
        expect: None,
    }
}
