#!/usr/bin/env bash
# Regenerates assets/fonts/: the web build's fonts, which are egui's own (Ubuntu-Light for text
# and code, and of Hack the symbols Ubuntu lacks; not egui-icons, whose five brand logos
# locksim never shows), cut down to what locksim shows — the Latin letters and punctuation any
# text may hold, and of the symbol blocks only the symbols locksim and egui draw (← → ▶ ● ≈ …)
# and their nearest kin. The cut drops the layout features and the TrueType hinting programs: egui's rasteriser (skrifa) then fits the
# outlines to the pixel grid with its autohinter, and the hints were over half of each font's
# bytes. Together the cut saves ≈ 280 KB of the gzipped wasm (the budget is 1.43 MB).
# `app::web_fonts`'s test fails if the app's text holds a character the cut left out.
# The desktop build keeps egui's full fonts.
# Needs fonttools (`pip install fonttools`); the build itself only reads the committed files.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(awk '/^name = "epaint_default_fonts"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
cargo fetch --quiet
src="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"epaint_default_fonts-$version"/fonts | head -n 1)"
out=assets/fonts
# Text: ASCII; of Latin-1 the letters (À–ÿ, with × and ÷), the no-break space and the signs
# locksim writes (§ ° ± ·); the common punctuation (spaces, dashes, quotes, bullets, ellipsis,
# per mille, primes, angle quotes) and the euro sign. Latin Extended-A (Ł ő č …) and the rest of
# Latin-1's signs (© « ¿ …) were 4.9 KB of the gzipped module that no text of locksim's
# needs; a learner typing one sees the fallback glyph.
text="U+0020-007E,U+00A0,U+00A7,U+00B0-00B1,U+00B7,U+00C0-00FF,U+0192,U+2000-203A,U+20AC"
# Symbols: arrows (← ↑ → ↓ ↔ ↕, ⇐ ⇒ ⇔, egui's ⇧), maths (egui's minus −, ≈ ≠ ≤ ≥ ∞) and
# shapes (■ □ ▲ ▶ ▼ ◀ ○ ●). Ubuntu has few of them; the app falls back to Hack for the rest
# (`app::theme::with_hack_fallback`). Neither font has check marks, ⚠ or egui's key names.
symbols="U+2190-2195,U+21D0-21D4,U+21E7,U+2212,U+221E,U+2248,U+2260,U+2264-2265"
symbols="$symbols,U+25A0-25A1,U+25B2,U+25B6,U+25BC,U+25C0,U+25CB,U+25CF,U+FFFD"
# Of Hack, egui's code font, the web keeps only what Ubuntu lacks: the symbols and the dashes,
# quotes and bullets of U+2010–2027. Code (the Sandbox's TOML, key names) is set in Ubuntu on
# the web: its digits are all one width, so columns of numbers still line up, and the whole
# of Hack was 10 KB of the gzipped module. The desktop keeps egui's full fonts.
code="U+2010-2027"
# --no-hinting drops the glyphs' instructions and the tables only hinting reads (fpgm, prep,
# cvt, hdmx, VDMX, Hack's ttfautohint control table). No layout feature stays: Ubuntu's
# ligatures, fractions and superiors, and the glyphs only they reach, are ≈ 6 KB of the
# gzipped wasm that no text of locksim's needs, and its kerning (a third of the cut font,
# ≈ 3 KB gzipped) moves a letter pair such as "To" by under a pixel at the app's 13–14 px;
# Hack is monospaced.
subset() {
    python3 -m fontTools.subset "$src/$1.ttf" --unicodes="$3" --layout-features="$4" \
        --no-hinting --output-file="$out/$2.subset.ttf"
}
subset Ubuntu-Light Ubuntu-Light "$text,$symbols" ""
subset Hack-Regular Hack-Symbols "$code,$symbols" ""
# The Ubuntu Font Licence (2c) asks a modified font that is not substantially changed to keep
# its name with "derivative <name of the new work>" appended.
python3 - "$out/Ubuntu-Light.subset.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont
path = sys.argv[1]
font = TTFont(path)
for record in font["name"].names:
    if record.nameID in (1, 3, 4, 6, 16, 18):
        text = record.toUnicode()
        if "Ubuntu" in text:
            joiner = "-" if record.nameID == 6 else " "
            record.string = f"{text}{joiner}derivative{joiner}locksim"
font.save(path)
PY
cp "$src/UFL.txt" "$src/Hack-Regular.txt" "$out/"
ls -l "$out"
