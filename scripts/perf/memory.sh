#!/bin/sh
# memory.sh measures the peak memory of `loadverdict report` on vegeta
# per-request results: 1M and 4M requests of synthetic JSON lines
# (scripts/perf/makevegeta, ~350 bytes a line), one report each, peak RSS
# from GNU time (/usr/bin/time -v, "Maximum resident set size").
#
#   sh scripts/perf/memory.sh            (from anywhere; needs ~2 GB in $TMP)
#
# Targets: < 150 MB at 1M requests, and at 4M less than 20 % more than at 1M.
# Environment: TMP (default /tmp), KEEP=1 keeps the generated files.
set -eu
cd "$(dirname "$0")/../.."
TMP=${TMP:-/tmp}
LV=$TMP/lv
go build -o "$LV" ./cmd/loadverdict
go build -o "$TMP/makevegeta" ./scripts/perf/makevegeta
for n in 1000000 4000000; do
	f=$TMP/vegeta-$n.json
	[ -s "$f" ] || "$TMP/makevegeta" -n $n -o "$f"
done
echo "requests   file MB   peak RSS MB   wall s"
for n in 1000000 4000000; do
	f=$TMP/vegeta-$n.json
	out=$TMP/perfout-$n
	rm -rf "$out"
	/usr/bin/time -v "$LV" report -o "$out" "$f" > "$TMP/perf-report-$n.txt" 2> "$TMP/perf-time-$n.txt" || {
		cat "$TMP/perf-time-$n.txt" >&2
		exit 1
	}
	rss=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$TMP/perf-time-$n.txt")
	wall=$(awk '/Elapsed \(wall clock\)/ { print $NF }' "$TMP/perf-time-$n.txt")
	size=$(du -m "$f" | cut -f1)
	printf '%8d   %7d   %11.1f   %6s\n' $n "$size" "$(echo "$rss / 1024" | bc -l)" "$wall"
	eval "rss_$n=$rss"
done
# shellcheck disable=SC2154 # set by eval above
printf '4M/1M peak RSS ratio: %.2f\n' "$(echo "$rss_4000000 / $rss_1000000" | bc -l)"
if [ "${KEEP:-0}" != 1 ]; then
	rm -f "$TMP/vegeta-1000000.json" "$TMP/vegeta-4000000.json"
fi
