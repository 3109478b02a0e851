#!/bin/sh
# throughput.sh compares `loadverdict report` (parse, tables, analysis,
# figures, report) with `vegeta report` (plain text) on the same vegeta JSON
# log of N requests, alternating the two, RUNS times each, and prints the
# medians of their wall and CPU (user + system) times, loadverdict's peak
# memory (RSS, GNU time's %M) and the ratios loadverdict/vegeta. With
# BASE=<git rev> a loadverdict built from that revision runs too, in the
# same alternation, and the ratios new/base are printed. All run under
# `nice -n -10` when the script may (as root), so that other work on the
# machine disturbs them less; `uptime` before and after is printed: take
# figures on an idle machine.
#
# Two logs: "real", a real-shaped one (the committed cold-JVM log of
# ingest/vegeta/testdata/vegeta, 16,000 requests of a warming JVM, repeated with
# shifted timestamps by scripts/perf/makevegeta -from), and "synthetic"
# (scripts/perf/makevegeta: lognormal latencies, 0.1 % errors).
#
#   go install github.com/tsenart/vegeta/v12@v12.13.0
#   sh scripts/perf/throughput.sh            (from anywhere)
#
# Targets (issue 33; the real-shaped log, 1M requests): wall <= 0.30x,
# CPU <= 0.45x, peak RSS <= 80 MiB.
# Environment: TMP (default /tmp), N (1000000), RUNS (5), LOGS ("real
# synthetic"), VEGETA (default $(go env GOPATH)/bin/vegeta), BASE (none),
# KEEP=1 keeps the logs.
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
if [ -n "${BASE:-}" ]; then
	rm -rf "$TMP/lv-base-src"
	mkdir -p "$TMP/lv-base-src"
	git archive "$BASE" | tar -x -C "$TMP/lv-base-src"
	(cd "$TMP/lv-base-src" && go build -o "$TMP/lv-base" ./cmd/loadverdict)
fi
NICE=""
if [ "$(id -u)" = 0 ]; then NICE="nice -n -10"; fi

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# timed NAME CMD...: runs CMD, appends "wall cpu peak-RSS-MiB" to
# $TMP/perf-NAME.times.
timed() {
	name=$1
	shift
	# shellcheck disable=SC2086 # NICE is a command prefix or nothing
	/usr/bin/time -f '%e %U %S %M' -o "$TMP/perf-time.txt" $NICE "$@" > /dev/null
	awk '{ printf "%s %.2f %.1f\n", $1, $2 + $3, $4 / 1024 }' "$TMP/perf-time.txt" >> "$TMP/perf-$name.times"
}
# medians NAME: sets w, c and m to the medians of NAME's wall, CPU and peak.
medians() {
	w=$(cut -d' ' -f1 "$TMP/perf-$1.times" | median)
	c=$(cut -d' ' -f2 "$TMP/perf-$1.times" | median)
	m=$(cut -d' ' -f3 "$TMP/perf-$1.times" | median)
}

echo "before: $(uptime)"
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
	: > "$TMP/perf-base.times"
	i=0
	while [ $i -lt "$RUNS" ]; do
		rm -rf "$TMP/perfout-tp"
		timed lv "$LV" report -o "$TMP/perfout-tp" "$f"
		timed vegeta "$V" report "$f"
		if [ -n "${BASE:-}" ]; then
			rm -rf "$TMP/perfout-tp"
			timed base "$TMP/lv-base" report -o "$TMP/perfout-tp" "$f"
		fi
		i=$((i + 1))
	done
	echo "== $log log: $N requests, $(($(wc -c < "$f") >> 20)) MiB, $RUNS runs each, alternating"
	medians lv
	lvw=$w lvc=$c lvm=$m
	printf 'loadverdict report: median wall %s s, CPU %s s, peak RSS %s MiB (wall, CPU, peak per run: %s)\n' "$lvw" "$lvc" "$lvm" "$(tr '\n' ' ' < "$TMP/perf-lv.times")"
	medians vegeta
	vgw=$w vgc=$c
	printf 'vegeta report:      median wall %s s, CPU %s s (per run: %s)\n' "$vgw" "$vgc" "$(tr '\n' ' ' < "$TMP/perf-vegeta.times")"
	printf 'ratio loadverdict/vegeta: wall %.2f, CPU %.2f\n' "$(echo "$lvw / $vgw" | bc -l)" "$(echo "$lvc / $vgc" | bc -l)"
	if [ -n "${BASE:-}" ]; then
		medians base
		printf 'loadverdict %s: median wall %s s, CPU %s s, peak RSS %s MiB (per run: %s)\n' "$BASE" "$w" "$c" "$m" "$(tr '\n' ' ' < "$TMP/perf-base.times")"
		printf 'ratio %s/vegeta: wall %.2f, CPU %.2f; this checkout/%s: wall %.2f, CPU %.2f, peak %.2f\n' "$BASE" "$(echo "$w / $vgw" | bc -l)" "$(echo "$c / $vgc" | bc -l)" \
			"$BASE" "$(echo "$lvw / $w" | bc -l)" "$(echo "$lvc / $c" | bc -l)" "$(echo "$lvm / $m" | bc -l)"
	fi
	if [ "${KEEP:-0}" != 1 ]; then
		rm -f "$f"
	fi
done
echo "after: $(uptime)"
