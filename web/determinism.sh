#!/usr/bin/env bash
# Same run everywhere: every scenario in tests/ hashed natively, then the same test built for
# wasm32 and run under Node (wasm-bindgen-test) must compute the same table.
# Needs node; web/tools.sh installs the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
table="$target_dir/locksim-native-trace-hashes.txt"

LOCKSIM_HASHES_OUT="$table" cargo test --no-default-features --test wasm_determinism -- --quiet
echo "native: $(wc -l <"$table") scenario files hashed into $table"

web/tools.sh
LOCKSIM_NATIVE_HASHES="$table" \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo test --no-default-features --target wasm32-unknown-unknown --test wasm_determinism
