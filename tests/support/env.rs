//! Settings the long campaigns (the fuzz test and bench, the monkey test) read from the
//! environment, so a run can go longer or explore other cases without an edit.

/// The number in the environment variable `name`, or `default` when it is unset or not a
/// number.
pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
