#!/bin/sh
# memory.sh measures the peak memory (RSS, from GNU time's "Maximum
# resident set size") of `loadverdict report` on real-shaped vegeta JSON
# logs (the committed cold-JVM log repeated with shifted timestamps,
# scripts/perf/makevegeta -from): 1M requests, 4M requests, and 1M requests
# spread over two hours (-spread 2h: the same requests over 7,200 seconds,
# so a run has as many windows as it may, maxWindows, in windows of 4 s).
# GOMEMLIMIT and GOGC are unset: the command sets no memory limit of its
# own, and GOGC=50 (pipeline.CLIGCPercent).
#
#   sh scripts/perf/memory.sh            (from anywhere; needs ~2 GB in $TMP)
#
# Targets: <= 100 MiB in each case, and at 4M at most 10 % more than at 1M.
# Environment: TMP (default /tmp), KEEP=1 keeps the generated files.
set -eu
cd "$(dirname "$0")/../.."
TMP=${TMP:-/tmp}
LV=$TMP/lv
go build -o "$LV" ./cmd/loadverdict
go build -o "$TMP/makevegeta" ./scripts/perf/makevegeta
unset GOMEMLIMIT GOGC
cold=ingest/vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "case        requests   file MiB   peak RSS MiB   wall s"
for c in 1m 4m 1m-2h; do
	f=$TMP/vegeta-real-$c.json
	if [ ! -s "$f" ]; then
		case $c in
		1m) "$TMP/makevegeta" -from "$cold" -n 1000000 -o "$f" ;;
		4m) "$TMP/makevegeta" -from "$cold" -n 4000000 -o "$f" ;;
		1m-2h) "$TMP/makevegeta" -from "$cold" -n 1000000 -spread 2h -o "$f" ;;
		esac
	fi
	out=$TMP/perfout-$c
	rm -rf "$out"
	/usr/bin/time -v "$LV" report -o "$out" "$f" > "$TMP/perf-report-$c.txt" 2> "$TMP/perf-time-$c.txt" || {
		cat "$TMP/perf-time-$c.txt" >&2
		exit 1
	}
	rss=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$TMP/perf-time-$c.txt")
	wall=$(awk '/Elapsed \(wall clock\)/ { print $NF }' "$TMP/perf-time-$c.txt")
	n=$(wc -l < "$f")
	printf '%-8s %11d   %8d   %12.1f   %6s\n' "$c" "$n" $(($(wc -c < "$f") >> 20)) "$(echo "$rss / 1024" | bc -l)" "$wall"
	eval "rss_$(echo $c | tr - _)=$rss"
done
# shellcheck disable=SC2154 # set by eval above
printf '4M/1M peak RSS ratio: %.2f\n' "$(echo "$rss_4m / $rss_1m" | bc -l)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${KEEP:-0}" != 1 ]; then
	rm -f "$TMP/vegeta-real-1m.json" "$TMP/vegeta-real-4m.json" "$TMP/vegeta-real-1m-2h.json"
fi
