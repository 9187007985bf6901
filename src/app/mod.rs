//! The egui front end (desktop and web). It only reads traces and verdicts.

/// Opens the desktop window.
pub fn run_native() -> Result<(), String> {
    Ok(())
}
