//! eframe's storage, in memory: what a restart keeps, for the tests of saved progress.

use std::collections::HashMap;

/// eframe's storage, in memory.
#[derive(Default)]
pub struct Memory(pub HashMap<String, String>);

impl eframe::Storage for Memory {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}
