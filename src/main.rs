fn main() -> std::process::ExitCode {
    locksim::cli::main()
}
