//! TOML in, TOML out.

use super::Scenario;

/// A scenario that cannot be used: which field, where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Dotted path of the field, e.g. `worker[1].work_ms` (empty if the file as a whole).
    pub field: String,
    /// 1-based line and column in the source, when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// Parses and validates a scenario file.
pub fn parse(src: &str) -> Result<Scenario, ScenarioError> {
    let s: Scenario = toml::from_str(src).map_err(|e| ScenarioError {
        field: String::new(),
        line: None,
        column: None,
        message: e.to_string(),
    })?;
    s.validate()?;
    Ok(s)
}

/// Writes a scenario as TOML that [`parse`] reads back to the same value.
pub fn to_toml(scenario: &Scenario) -> String {
    toml::to_string(scenario).unwrap_or_default()
}
