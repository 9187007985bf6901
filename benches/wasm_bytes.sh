#!/usr/bin/env bash
# Where the web build's bytes go: the wasm module of the last `web/build.sh` (before
# wasm-bindgen strips its function names) profiled by twiggy, summed per crate, with the largest
# single items and the most duplicated generic functions. The code figures are raw bytes in the
# module; the download is gzipped, so compare them with each other, not with the budget.
# Installs twiggy from crates.io if it is missing.
# Usage: benches/wasm_bytes.sh [MODULE] [TOP] (default: the `web` profile's module, 25 rows).
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
module="${1:-$target_dir/wasm32-unknown-unknown/web/locksim.wasm}"
top="${2:-25}"
[[ -f "$module" ]] || { echo "no $module: run web/build.sh first" >&2; exit 1; }
command -v twiggy >/dev/null || cargo install twiggy --locked

echo "== $module: $(wc -c <"$module") bytes, names included"
csv="$(mktemp)"
trap 'rm -f "$csv"' EXIT
twiggy top --format csv -o "$csv" "$module"
python3 - "$csv" "$top" <<'PY'
import csv, re, sys
from collections import Counter

top = int(sys.argv[2])
# What wasm-bindgen removes from the shipped module (names, its descriptors): not downloaded.
STRIPPED = ('"function names" subsection', "custom section")
with open(sys.argv[1], newline="") as f:
    rows = [(r["Name"], int(r["ShallowSize"])) for r in csv.DictReader(f)]
shipped = [
    # A crate's disambiguating hash (`core[c3a1]::`) is dropped, so its items group by name.
    (re.sub(r"\[[0-9a-f]+\]", "", n), b)
    for n, b in rows
    if not n.startswith(STRIPPED) and "__wbindgen_describe" not in n and "WasmDescribe" not in n
]


def crate(name):
    # An item's crate is the first path segment of the type or function it belongs to:
    # `<egui::Ui as T>::f` is egui's; drop glue or a `core::mem` helper is its argument's.
    if name.startswith("data segment"):
        return "(static data: fonts, text, tables)"
    blanket = re.match(r"^<+[&*]*(?:mut |const )?[A-Z]\w* as ([a-z_]\w*)::", name)
    if blanket:
        return blanket.group(1)
    if not re.match(r"^[<&]*[A-Za-z_]\w*::", name):
        return "(unnamed code)" if name.startswith("func[") else "(types, tables, glue)"
    generic = re.match(
        r"^(?:core|alloc|std)::(?:ptr::drop_in_place|mem::|any::)[^<]*<+[&*]*(?:mut |const |dyn )?([A-Za-z_]\w*)::",
        name,
    )
    if generic:
        return generic.group(1)
    return re.match(r"^[<&]*(?:mut |dyn )?([A-Za-z_]\w*)::", name).group(1)


total = sum(b for _, b in shipped)
per = Counter()
for n, b in shipped:
    per[crate(n)] += b
shown = per.most_common(top)
print(f"{total:>9} bytes of code and data that wasm-bindgen keeps\n")
print(f"{'bytes':>9}  {'%':>5}  crate")
for c, b in shown:
    print(f"{b:>9}  {100 * b / total:5.1f}  {c}")
print(f"{total - sum(b for _, b in shown):>9}         the other {max(len(per) - top, 0)} crates\n")
print(f"{'bytes':>9}  largest items")
for n, b in sorted(shipped, key=lambda r: -r[1])[:top]:
    print(f"{b:>9}  {re.sub(r'::h[0-9a-f]{16}$', '', n)[:110]}")
PY
echo
echo "== generic functions with the most bytes across their copies"
twiggy monos -g -m "$top" "$module" | cut -c1-140
