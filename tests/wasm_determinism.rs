//! Same run everywhere: every scenario in `assets/scenarios/` and `assets/cases/`
//! gives byte-identical traces and verdicts natively and on wasm32.
//!
//! Each scenario is run with its own seed and three more; the runs' traces and verdicts, as
//! JSON, are hashed with FNV-1a (64 bit) into one line per file. Natively this test prints
//! that table and, given `LOCKSIM_HASHES_OUT`, writes it to that file. The wasm32 build of the
//! same test (wasm-bindgen-test under Node) embeds that file — its path in
//! `LOCKSIM_NATIVE_HASHES` at compile time — and must compute the same table. `web/determinism.sh`
//! runs both sides.
//!
//! The files are embedded with `include_str!` (the browser has no file system); natively the
//! test also checks that the embedded list is exactly the directory listing, so a new scenario
//! cannot be left out.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use locksim::scenario;
use locksim::scenario::library;

/// Every scenario file, as `dir/file` and contents: the list the app's library embeds.
fn scenarios() -> Vec<(String, &'static str)> {
    let dir = |d: &str, files: &[(&'static str, &'static str)]| {
        files
            .iter()
            .map(|(f, text)| (format!("{d}/{f}"), *text))
            .collect::<Vec<_>>()
    };
    let mut all = dir("cases", library::INCIDENTS);
    all.extend(dir("scenarios", library::COURSE));
    all
}

/// Seeds tried per scenario, added to the scenario's own.
const SEED_OFFSETS: [u64; 4] = [0, 1, 2, 1_000_003];

/// FNV-1a, 64 bit: simple, and the same on every platform.
fn fnv1a(bytes: &[u8], mut hash: u64) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// One line per scenario file: `<file> <hash> events=<n>` (n summed over the seeds).
fn table() -> String {
    let mut out = String::new();
    for (file, src) in scenarios() {
        let sc = scenario::parse(src).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut hash = 0xcbf2_9ce4_8422_2325;
        let mut events = 0;
        for offset in SEED_OFFSETS {
            let seed = sc.seed.wrapping_add(offset);
            let locksim::Run { trace, verdict, .. } = locksim::run(&sc, seed);
            events += trace.events.len();
            let json = serde_json::to_string(&(&trace, &verdict)).expect("traces serialize");
            hash = fnv1a(json.as_bytes(), hash);
        }
        out.push_str(&format!("{file} {hash:016x} events={events}\n"));
    }
    out
}

#[test]
fn the_same_scenario_and_seed_give_the_same_run() {
    let table = table();
    assert_eq!(table, self::table(), "two runs in one process differ");
    compare(&table);
}

/// Natively: print the table, write it where asked.
#[cfg(not(target_arch = "wasm32"))]
fn compare(table: &str) {
    println!("{table}");
    if let Ok(path) = std::env::var("LOCKSIM_HASHES_OUT") {
        std::fs::write(&path, table).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}

/// On wasm32: equal to the native table, line by line, so a difference names the scenario.
#[cfg(target_arch = "wasm32")]
fn compare(table: &str) {
    const NATIVE: &str = include_str!(env!(
        "LOCKSIM_NATIVE_HASHES",
        "set LOCKSIM_NATIVE_HASHES to the table the native test wrote (web/determinism.sh does)"
    ));
    let differ: Vec<String> = NATIVE
        .lines()
        .zip(table.lines())
        .filter(|(native, wasm)| native != wasm)
        .map(|(native, wasm)| format!("native: {native}\nwasm32: {wasm}"))
        .collect();
    assert!(
        differ.is_empty(),
        "wasm32 differs from native:\n{}",
        differ.join("\n")
    );
    assert_eq!(
        NATIVE.lines().count(),
        table.lines().count(),
        "the tables have different files"
    );
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_scenario_file_is_embedded() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut on_disk = Vec::new();
    for dir in ["cases", "scenarios"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".toml") {
                on_disk.push(format!("{dir}/{name}"));
            }
        }
    }
    on_disk.sort();
    let embedded: Vec<String> = scenarios().into_iter().map(|(f, _)| f).collect();
    assert_eq!(
        embedded, on_disk,
        "edit the lists in src/scenario/library.rs to match assets/cases/ and assets/scenarios/"
    );
}
