#!/usr/bin/env bash
# Builds locksim's static web site into dist/ (or the directory given as $1):
#   index.html, main.js, worker.js, style.css, favicon.svg, locksim.js, locksim_bg.wasm,
#   and beside each file NAME.br (brotli, quality 11) and NAME.gz (zopfli), for a static host
#   that serves precompressed files by the browser's Accept-Encoding (web/static.mjs does).
# Every URL in it is relative, so any static server can serve it from any sub-path.
#
# On a fresh machine it first installs what it needs from the registries only (web/tools.sh:
# the wasm32 target, wasm-bindgen-cli at exactly Cargo.lock's version, Debian's brotli and
# zopfli). It downloads no
# binaries, and runs no wasm-opt: on this crate binaryen 132's -Oz took 11 minutes and left
# the gzipped module 2% *larger* than opt-level "z" + LTO alone.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
target_dir="${CARGO_TARGET_DIR:-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

web/tools.sh

# The `web` profile (Cargo.toml): opt-level "z", LTO, one codegen unit, panic = abort.
# SIMD128 (every current browser has it) lets egui's glyph rasteriser use wasm SIMD instead of
# its scalar fallback, which is ~1 MB of code larger. Set for this build only.
# The source paths kept for panic locations are cut to the crate's own path: shorter, and the
# module then names no directory of the machine that built it.
flags="-C target-feature=+simd128 --remap-path-prefix=$PWD/="
for crates in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
    flags="$flags --remap-path-prefix=$crates="
done
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$flags"
cargo rustc --lib --crate-type cdylib --target wasm32-unknown-unknown --profile web

rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section \
    --out-dir "$out" --out-name locksim \
    "$target_dir/wasm32-unknown-unknown/web/locksim.wasm"
cp index.html web/main.js web/worker.js web/style.css web/favicon.svg "$out/"

# Precompressed copies: a host that serves them sends the module in about 0.78 of its gzip -9
# size with brotli (and gzip, from zopfli, a few per cent smaller than gzip -9).
for file in "$out"/*; do
    brotli --quality=11 --keep --force --output="$file.br" "$file"
    zopfli --gzip "$file"
done

wasm="$out/locksim_bg.wasm"
echo "built $out/: $(wc -c <"$wasm") bytes of wasm, $(wc -c <"$wasm.gz") with zopfli's gzip, $(wc -c <"$wasm.br") with brotli"
