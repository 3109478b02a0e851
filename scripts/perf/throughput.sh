#!/bin/sh
# throughput.sh compares `loadverdict report` (parse, tables, analysis,
# figures, report) with `vegeta report` (plain text) on the same vegeta JSON
# log of N requests, alternating the two, RUNS times each, and prints the
# medians of their wall and CPU (user + system) times and the ratios
# loadverdict/vegeta. Both run under `nice -n -10` when the script may (as
# root), so that other work on the machine disturbs them less; the load
# average before and after is printed: take figures on an idle machine.
#
# Two logs: "real", a real-shaped one (the committed cold-JVM log of
# ingest/vegeta/testdata/vegeta, 16,000 requests of a warming JVM, repeated with
# shifted timestamps by scripts/perf/makevegeta -from), and "synthetic"
# (scripts/perf/makevegeta: lognormal latencies, 0.1 % errors).
#
#   go install github.com/tsenart/vegeta/v12@v12.13.0
#   sh scripts/perf/throughput.sh            (from anywhere)
#
# Targets (the real-shaped log, 1M requests): wall <= 0.35x, CPU <= 0.5x.
# Environment: TMP (default /tmp), N (1000000), RUNS (5), LOGS ("real
# synthetic"), VEGETA (default $(go env GOPATH)/bin/vegeta), KEEP=1 keeps
# the logs.
set -eu
cd "$(dirname "$0")/../.."
TMP=${TMP:-/tmp}
N=${N:-1000000}
RUNS=${RUNS:-5}
LOGS=${LOGS:-real synthetic}
V=${VEGETA:-$(go env GOPATH)/bin/vegeta}
LV=$TMP/lv
go build -o "$LV" ./cmd/loadverdict
go build -o "$TMP/makevegeta" ./scripts/perf/makevegeta
NICE=""
if [ "$(id -u)" = 0 ]; then NICE="nice -n -10"; fi

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# timed NAME CMD...: runs CMD, appends "wall cpu" to $TMP/perf-NAME.times.
timed() {
	name=$1
	shift
	# shellcheck disable=SC2086 # NICE is a command prefix or nothing
	/usr/bin/time -f '%e %U %S' -o "$TMP/perf-time.txt" $NICE "$@" > /dev/null
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$TMP/perf-time.txt" >> "$TMP/perf-$name.times"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for log in $LOGS; do
	f=$TMP/vegeta-$log-$N.json
	if [ ! -s "$f" ]; then
		if [ "$log" = real ]; then
			"$TMP/makevegeta" -from ingest/vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz -n "$N" -o "$f"
		else
			"$TMP/makevegeta" -n "$N" -o "$f"
		fi
	fi
	cat "$f" > /dev/null # warm the page cache
	: > "$TMP/perf-lv.times"
	: > "$TMP/perf-vegeta.times"
	i=0
	while [ $i -lt "$RUNS" ]; do
		rm -rf "$TMP/perfout-tp"
		timed lv "$LV" report -o "$TMP/perfout-tp" "$f"
		timed vegeta "$V" report "$f"
		i=$((i + 1))
	done
	lvw=$(cut -d' ' -f1 "$TMP/perf-lv.times" | median)
	lvc=$(cut -d' ' -f2 "$TMP/perf-lv.times" | median)
	vgw=$(cut -d' ' -f1 "$TMP/perf-vegeta.times" | median)
	vgc=$(cut -d' ' -f2 "$TMP/perf-vegeta.times" | median)
	echo "== $log log: $N requests, $(($(wc -c < "$f") >> 20)) MiB, $RUNS runs each, alternating"
	printf 'loadverdict report: median wall %s s, CPU %s s (wall, CPU per run: %s)\n' "$lvw" "$lvc" "$(tr '\n' ' ' < "$TMP/perf-lv.times")"
	printf 'vegeta report:      median wall %s s, CPU %s s (wall, CPU per run: %s)\n' "$vgw" "$vgc" "$(tr '\n' ' ' < "$TMP/perf-vegeta.times")"
	printf 'ratio loadverdict/vegeta: wall %.2f, CPU %.2f\n' "$(echo "$lvw / $vgw" | bc -l)" "$(echo "$lvc / $vgc" | bc -l)"
	if [ "${KEEP:-0}" != 1 ]; then
		rm -f "$f"
	fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
