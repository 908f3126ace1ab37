#!/bin/sh
# One shard of a large levelgen run: the seeds INDEX*SIZE .. (INDEX+1)*SIZE of a Marahel
# script, as text, into $OUT/part-INDEX.txt (INDEX zero-padded, so the parts sort in seed
# order). INDEX is $SHARD_INDEX, or the array index Slurm ($SLURM_ARRAY_TASK_ID) or a
# Kubernetes Indexed Job ($JOB_COMPLETION_INDEX) gives the task. The part appears whole or
# not at all (written beside, then renamed), so a killed task leaves nothing to merge.
set -eu
INDEX="${SHARD_INDEX:-${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:?no shard index: set SHARD_INDEX}}}"
SIZE="${SHARD_SIZE:-10000}"
OUT="${OUT:-parts}"
SCRIPT="${SCRIPT:-examples/marahel/cave.json}"
if [ "$SIZE" -lt 2 ]; then
  echo "SHARD_SIZE=$SIZE: a shard holds at least 2 seeds (its maps are headed by their seeds)" >&2
  exit 2
fi
A=$((INDEX * SIZE))
B=$((A + SIZE))
PART="$OUT/part-$(printf %06d "$INDEX").txt"
mkdir -p "$OUT"
levelgen marahel "$SCRIPT" --seeds "$A..$B" -q > "$PART.tmp"
mv "$PART.tmp" "$PART"
