#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    locksim::cli::main()
}

/// The browser has no command line: the web build starts at `locksim::app::web::start`
/// (see `web/main.js`), and this binary is only built there as part of `cargo test`.
#[cfg(target_arch = "wasm32")]
fn main() {}
