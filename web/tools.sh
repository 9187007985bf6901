#!/usr/bin/env bash
# Installs what the web build and its tests need, from the package registries only:
#   the wasm32 target (rustup), wasm-bindgen-cli at exactly Cargo.lock's wasm-bindgen version
#   (cargo install; it also brings wasm-bindgen-test-runner), Debian's brotli and zopfli (apt:
#   web/build.sh precompresses the site with them), and with --browser Debian's
#   Chromium (apt) and web/'s locked npm packages (npm ci: playwright-core, no browser download).
# Each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-unknown-unknown

# The CLI must match the wasm-bindgen library the module is built with, to the patch version.
version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]]; then
    # Not --locked: one of its locked dependencies is missing from the registry mirror here.
    cargo install wasm-bindgen-cli --version "$version"
fi

sudo=""
[[ "$(id -u)" == 0 ]] || sudo="sudo"
apt_install() {
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "$@"
}

if ! command -v brotli >/dev/null || ! command -v zopfli >/dev/null; then
    apt_install brotli zopfli
fi

if [[ "${1:-}" == "--browser" ]]; then
    if ! command -v chromium >/dev/null; then
        apt_install chromium
    fi
    (cd web && npm ci --no-audit --no-fund)
fi
