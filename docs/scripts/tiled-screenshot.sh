#!/bin/sh
# Makes docs/images/tiled-zones.png: the default TMX export opened in Tiled 1.8 (Debian's
# `tiled` package) under a virtual X display, the terrain brush picked with the `wall`
# terrain of the exported corner wangset, and one stroke painted across open floor.
# Needs: levelgen on PATH, and the Debian packages tiled, xvfb, xdotool and imagemagick.
# Run from the repository root: sh docs/scripts/tiled-screenshot.sh [OUT-DIR]
# (default docs/images); the pictures manifest runs it as
# `cargo run --release --example pictures tiled-zones`.
set -eu
out=$(cd "${1:-docs/images}" && pwd)
work=$(mktemp -d)
levelgen zones --zones 14x9 --zone-size 48 --seed 4 --out "$work/zones.tmx" --quiet
export HOME="$work/home" DISPLAY=:77
mkdir -p "$HOME"
Xvfb :77 -screen 0 1600x1000x24 >/dev/null 2>&1 &
xvfb=$!
tiled=
trap 'kill $tiled $xvfb 2>/dev/null; rm -rf "$work"' EXIT
sleep 2
tiled "$work/zones.tmx" >/dev/null 2>&1 &
tiled=$!
sleep 8
click() { xdotool mousemove "$1" "$2" click 1; sleep 1; }
window=$(xdotool search --name "zones.tmx" | head -1)
xdotool windowmove "$window" 0 0 windowsize "$window" 1600 1000
sleep 2
click 252 31    # close the Project panel
click 262 100   # close the Properties panel
click 308 70    # the Terrain Brush tool
click 1374 955  # the Terrain Sets tab
xdotool mousemove 1463 985 click --repeat 3 1   # zoom: 150 %
sleep 0.5
xdotool key ctrl+a type 150
xdotool key Return
sleep 1
click 1371 757  # the `wall` terrain
click 1366 494  # the Mini-map tab
click 1461 296  # centre the map
# One stroke of wall across open floor, then the brush hovering.
xdotool mousemove 518 300 mousedown 1
for x in $(seq 520 8 650); do xdotool mousemove "$x" 300; sleep 0.05; done
for y in $(seq 300 8 390); do xdotool mousemove 650 "$y"; sleep 0.05; done
xdotool mouseup 1
sleep 0.5
xdotool mousemove 760 330
sleep 1
import -window root "$out/tiled-zones.png"
