#!/bin/sh
# manyruns.sh measures `loadverdict report` on one text file of many wrk
# runs (issue 11 item 4: cost linear in runs) against the named baseline
# `loadverdict parse` of the same file (reading and detecting the runs
# alone), alternating the two, REPEAT times each (median wall time, largest
# peak RSS from GNU time). The ratio report/parse stays flat when the
# analysis, the figures and the report cost time in proportion to the runs.
# 200,000 runs (~80 MB) are past pipeline.MaxRuns (50,000 runs an input):
# refused at once with a rejection, which the last line times.
#
#   sh scripts/perf/manyruns.sh          (from anywhere; ~100 MB in $TMP)
#
# Environment: TMP (default /tmp), REPEAT (default 3), SIZES.
set -eu
cd "$(dirname "$0")/../.."
TMP=${TMP:-/tmp}
REPEAT=${REPEAT:-3}
SIZES=${SIZES:-"2000 20000 40000 50000"}
LV=$TMP/lv-manyruns
go build -o "$LV" ./cmd/loadverdict

# make N FILE: N wrk runs of ~400 bytes, four connection levels, values
# varying by a few percent (the shape of BenchmarkManyRuns' file).
make() {
	awk -v n="$1" 'BEGIN { srand(1); for (i = 0; i < n; i++) { rps = 20000 + 2000 * rand(); c = (i % 4 == 0) ? 50 : (i % 4 == 1) ? 100 : (i % 4 == 2) ? 200 : 400
		printf "Running 10s test @ http://127.0.0.1:8080/\n  2 threads and %d connections\n", c
		printf "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency    %.2fms  %.2fms  %.2fms   88.20%%\n", 1 + rand(), 0.5 + rand(), 20 + 10 * rand()
		printf "    Req/Sec     %.2fk     1.10k   12.47k    79.51%%\n  Latency Distribution\n     50%%    1.20ms\n     75%%    1.43ms\n     90%%    2.95ms\n     99%%    9.67ms\n", rps / 2000
		printf "  %d requests in 10.00s, 30.50MB read\nRequests/sec:  %.2f\nTransfer/sec:      3.05MB\n\n", int(rps * 10), rps } }' > "$2"
}

# measure CMD FILE: prints "wall_s rss_mb" of one run.
measure() {
	out=$TMP/manyruns-out
	rm -rf "$out"
	if [ "$1" = report ]; then set -- report -o "$out" "$2"; else set -- parse "$2"; fi
	/usr/bin/time -f '%e %M' -o "$TMP/manyruns-time" "$LV" "$@" > /dev/null 2>&1 || true
	tail -n 1 "$TMP/manyruns-time" | awk '{ printf "%s %.0f\n", $1, $2 / 1024 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load: $(uptime | sed 's/.*load average: //') (1, 5, 15 min), $(nproc) cores"
echo "runs      MB   parse s  report s  report/parse  report peak RSS MB"
for n in $SIZES; do
	f=$TMP/manyruns-$n.txt
	[ -s "$f" ] || make "$n" "$f"
	: > "$TMP/manyruns-p"; : > "$TMP/manyruns-r"
	for _ in $(seq "$REPEAT"); do
		measure parse "$f" >> "$TMP/manyruns-p"
		measure report "$f" >> "$TMP/manyruns-r"
	done
	p=$(cut -d' ' -f1 "$TMP/manyruns-p" | median)
	r=$(cut -d' ' -f1 "$TMP/manyruns-r" | median)
	rss=$(cut -d' ' -f2 "$TMP/manyruns-r" | sort -n | tail -n 1)
	printf '%6d  %4d  %8s  %8s  %12.1f  %18s\n' "$n" "$(du -m "$f" | cut -f1)" "$p" "$r" "$(echo "$r / $p" | bc -l)" "$rss"
done
f=$TMP/manyruns-200000.txt
[ -s "$f" ] || make 200000 "$f"
set -- $(measure report "$f")
echo "200000 runs ($(du -m "$f" | cut -f1) MB): refused in $1 s, peak RSS $2 MB: $("$LV" report -o "$TMP/manyruns-out" "$f" 2>&1 >/dev/null | head -c 160)"
[ "${KEEP:-0}" = 1 ] || rm -f "$TMP"/manyruns-*.txt
