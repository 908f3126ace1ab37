#!/bin/sh
# A levelgen search metric (examples/search/zelda-door.json): the fewest steps from the
# player to the nearest enemy, counted 4-neighbour and through walls.
#
# Reads one map on stdin as levelgen writes it with --format json (tiles by name, in
# "rows"), prints one number: 99 when the map has no player or no enemy.
exec awk '
{ text = text $0 }
END {
  sub(/.*"rows":\[\[/, "", text)
  sub(/\]\].*/, "", text)
  n = split(text, rows, /\],\[/)
  np = 0; ne = 0
  for (y = 1; y <= n; y++) {
    m = split(rows[y], cells, ",")
    for (x = 1; x <= m; x++) {
      if (cells[x] == "\"player\"") { px[np] = x; py[np] = y; np++ }
      else if (cells[x] == "\"enemy\"") { ex[ne] = x; ey[ne] = y; ne++ }
    }
  }
  best = 99
  for (i = 0; i < np; i++) for (j = 0; j < ne; j++) {
    d = px[i] - ex[j]; if (d < 0) d = -d
    e = py[i] - ey[j]; if (e < 0) e = -e
    if (d + e < best) best = d + e
  }
  print best
}'
