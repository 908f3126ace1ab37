#!/bin/sh
# Merges the parts of a sharded run in seed order onto stdout: the same bytes as one run over
# all their seeds. With a second argument N, first checks that parts 0..N-1 are all there and
# names the missing ones (exit 1).
set -eu
DIR="${1:-parts}"
if [ $# -ge 2 ]; then
  missing=""
  i=0
  while [ "$i" -lt "$2" ]; do
    f="$DIR/part-$(printf %06d "$i").txt"
    [ -f "$f" ] || missing="$missing $i"
    i=$((i + 1))
  done
  if [ -n "$missing" ]; then
    echo "missing parts:$missing (run those shards again)" >&2
    exit 1
  fi
fi
for f in "$DIR"/part-*.txt; do
  cat "$f"
done
