#!/usr/bin/env bash
# locksim against SimPy on the same lock: benches/data/four-workers-token.toml swept by
# `locksim check` (engine and checker, on one thread and on every core) and the same model
# scripted in SimPy (benches/simpy/lock_model.py) for the same number of simulated events.
# Prints both rates and their ratio. Installs SimPy from PyPI into a virtualenv in the build
# directory. Usage: benches/simpy_ratio.sh [SEEDS] (default 400).
set -euo pipefail
cd "$(dirname "$0")/.."
seeds="${1:-400}"
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
venv="$target_dir/simpy-venv"

if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet simpy
fi
cargo build --release --no-default-features --quiet
locksim="$target_dir/release/locksim"
scenario=benches/data/four-workers-token.toml

# One sweep on $1 threads: prints "events wall_seconds".
sweep() {
    local start end events
    start=$(date +%s.%N)
    events=$("$locksim" check "$scenario" --seeds "$seeds" --threads "$1" --json \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["events"])') || true
    end=$(date +%s.%N)
    echo "$events $(python3 -c "print($end - $start)")"
}

read -r events one_wall < <(sweep 1)
threads=$(nproc)
read -r _ all_wall < <(sweep "$threads")
simpy=$("$venv/bin/python" benches/simpy/lock_model.py --events "$events")
simpy_rate=$(echo "$simpy" | python3 -c 'import json, sys; print(json.load(sys.stdin)["events_per_s"])')

python3 - "$events" "$one_wall" "$all_wall" "$threads" "$simpy_rate" <<'PY'
import sys
events, one, every, threads, simpy = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
one_rate, all_rate = events / one, events / every
print(f"simulated events:       {events:,}")
print(f"SimPy:                  {simpy / 1e6:6.2f} M events/s")
print(f"locksim, 1 thread:      {one_rate / 1e6:6.2f} M events/s  = {one_rate / simpy:5.1f}x SimPy")
print(f"locksim, {threads} threads:     {all_rate / 1e6:6.2f} M events/s  = {all_rate / simpy:5.1f}x SimPy")
PY
