#!/usr/bin/env bash
# Regenerates assets/fonts/: the web build's fonts, which are egui's own (Ubuntu-Light for text,
# Hack for code, egui-icons), cut down to the scripts and symbols locksim shows — Latin,
# punctuation, arrows, maths, box drawing, geometric shapes. The cut keeps every glyph in those
# ranges with its hinting and layout tables, and saves ≈ 170 KB of the gzipped wasm (the budget
# is 1.5 MB). The desktop build keeps egui's full fonts.
# Needs fonttools (`pip install fonttools`); the build itself only reads the committed files.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(awk '/^name = "epaint_default_fonts"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
cargo fetch --quiet
src="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"epaint_default_fonts-$version"/fonts | head -n 1)"
out=assets/fonts
ranges="U+0020-007E,U+00A0-017F,U+0192,U+02C6-02DD,U+2000-206F,U+2070-209F,U+20AC,U+2100-214F"
ranges="$ranges,U+2190-21FF,U+2200-22FF,U+2300-23FF,U+2500-257F,U+25A0-25FF,U+2600-27BF,U+FFFD"
for font in Ubuntu-Light Hack-Regular; do
    python3 -m fontTools.subset "$src/$font.ttf" --unicodes="$ranges" --layout-features='*' \
        --output-file="$out/$font.subset.ttf"
done
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
cp "$src/egui-icons.ttf" "$src/UFL.txt" "$src/Hack-Regular.txt" "$src/emoji-icon-font-mit-license.txt" "$out/"
ls -l "$out"
