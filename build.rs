//! Lists the shipped scenarios for `scenario::library`: every `.toml` file of
//! `assets/scenarios/` and of `assets/cases/` (not its subfolders), in name order, embedded
//! with `include_str!`. A new scenario file is then in the course's list, the app's library and
//! the wasm32 determinism test without another edit.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let mut out = String::new();
    for (name, dir) in [("COURSE", "scenarios"), ("INCIDENTS", "cases")] {
        let folder = Path::new("assets").join(dir);
        println!("cargo::rerun-if-changed={}", folder.display());
        let mut files: Vec<String> = fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
            .map(|entry| entry.expect("a readable folder entry").file_name())
            .filter_map(|file| file.into_string().ok())
            .filter(|file| file.ends_with(".toml"))
            .collect();
        files.sort();
        writeln!(
            out,
            "/// `(file name, contents)` of each `.toml` of `assets/{dir}/`."
        )
        .unwrap();
        writeln!(out, "pub const {name}: &[(&str, &str)] = &[").unwrap();
        for file in files {
            writeln!(
                out,
                "    ({file:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/assets/{dir}/{file}\"))),"
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    let generated = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("library.rs");
    fs::write(&generated, out).unwrap_or_else(|e| panic!("{}: {e}", generated.display()));
}
