//! The `locksim` binary: a command runs headless ([`locksim::cli`]); no command opens the
//! desktop app ([`locksim::app`]), so the command line itself never depends on the GUI.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    match locksim::cli::parse() {
        Err(status) => status,
        Ok(Some(command)) => locksim::cli::execute(&command),
        Ok(None) => open_app(),
    }
}

/// `locksim` alone: the desktop app, on the course.
#[cfg(all(not(target_arch = "wasm32"), feature = "gui"))]
fn open_app() -> std::process::ExitCode {
    // Without either variable winit can only fail, with an error naming its own source.
    let display = ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()));
    if cfg!(target_os = "linux") && !display {
        return locksim::cli::no_display();
    }
    match locksim::app::run_native() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("locksim: cannot open the app: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(all(not(target_arch = "wasm32"), not(feature = "gui")))]
fn open_app() -> std::process::ExitCode {
    locksim::cli::no_app()
}

/// The browser has no command line: the web build starts at `locksim::app::web::start`
/// (see `web/main.js`), and this binary is only built there as part of `cargo test`.
#[cfg(target_arch = "wasm32")]
fn main() {}
