#!/bin/sh
# throughput.sh compares the wall time of `loadverdict report` (parse,
# tables, analysis, figures, report) with that of `vegeta report` (plain
# text) on the same 1M-request vegeta JSON file, alternating the two,
# RUNS (5) times each, and prints both medians and their ratio.
#
#   go install github.com/tsenart/vegeta/v12@v12.13.0
#   sh scripts/perf/throughput.sh        (from anywhere)
#
# Target: loadverdict's median <= half of vegeta's.
# Environment: TMP (default /tmp), N (1000000), RUNS (5),
# VEGETA (default $(go env GOPATH)/bin/vegeta), KEEP=1 keeps the file.
set -eu
cd "$(dirname "$0")/../.."
TMP=${TMP:-/tmp}
N=${N:-1000000}
RUNS=${RUNS:-5}
V=${VEGETA:-$(go env GOPATH)/bin/vegeta}
LV=$TMP/lv
go build -o "$LV" ./cmd/loadverdict
go build -o "$TMP/makevegeta" ./scripts/perf/makevegeta
f=$TMP/vegeta-$N.json
[ -s "$f" ] || "$TMP/makevegeta" -n "$N" -o "$f"
cat "$f" > /dev/null # warm the page cache

now() { date +%s.%N; }
: > "$TMP/perf-lv.times"
: > "$TMP/perf-vegeta.times"
i=0
while [ $i -lt "$RUNS" ]; do
	rm -rf "$TMP/perfout-tp"
	t=$(now)
	"$LV" report -o "$TMP/perfout-tp" "$f" > /dev/null
	echo "$(now) - $t" | bc -l >> "$TMP/perf-lv.times"
	t=$(now)
	"$V" report "$f" > /dev/null
	echo "$(now) - $t" | bc -l >> "$TMP/perf-vegeta.times"
	i=$((i + 1))
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
lv=$(median "$TMP/perf-lv.times")
vg=$(median "$TMP/perf-vegeta.times")
printf 'loadverdict report: %s s (runs: %s)\n' "$lv" "$(tr '\n' ' ' < "$TMP/perf-lv.times")"
printf 'vegeta report:      %s s (runs: %s)\n' "$vg" "$(tr '\n' ' ' < "$TMP/perf-vegeta.times")"
printf 'ratio loadverdict/vegeta: %.2f (target <= 0.50)\n' "$(echo "$lv / $vg" | bc -l)"
if [ "${KEEP:-0}" != 1 ]; then
	rm -f "$f"
fi
