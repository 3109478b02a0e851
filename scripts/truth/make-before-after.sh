#!/bin/sh
# make-before-after.sh records testdata/truth/before-after (issue 9): one
# truth server on one address, CPU-bound by its per-request work (one core:
# -procs 1), measured by wrk -t2 -c16 -d10s --latency:
#   old/   6 runs, -work $WORK_OLD
#   new/   6 runs after a restart with -work $WORK_NEW (15 % more work per request)
#   same/  6 runs after another restart with -work $WORK_OLD again
# Truth: new is slower than old (throughput down, latency up, by a little
# less than 15 % because each request also costs HTTP handling); same and
# old are the same build.
#
#   sh scripts/truth/make-before-after.sh        (from anywhere; root for nice -n -10)
#
# Environment: PORT (19101), WORK_OLD (3000), WORK_NEW (3450), RUNS (6), DURATION (10s).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19101}
WORK_OLD=${WORK_OLD:-3000}
WORK_NEW=${WORK_NEW:-3450}
RUNS=${RUNS:-6}
DURATION=${DURATION:-10s}
fresh testdata/truth/before-after
for phase in old:$WORK_OLD new:$WORK_NEW same:$WORK_OLD; do
	dir=${phase%%:*}
	work=${phase#*:}
	mkdir -p "$OUT/$dir"
	start_server "$PORT" -procs 1 -work "$work"
	for i in $(seq "$RUNS"); do
		wrk_run "$OUT/$dir/run$i.txt" -t2 -c16 -d"$DURATION" --latency "http://127.0.0.1:$PORT/"
	done
	stop_server
done
echo "Requests/sec per run:"
for dir in old new same; do
	printf '%s ' "$dir"
	awk '/^Requests\/sec/ { printf " %s", $2; s += $2; ss += $2 * $2; n++ }
		END { m = s / n; printf "   mean %.1f  CV %.2f %%\n", m, 100 * sqrt((ss - n * m * m) / (n - 1)) / m }' "$OUT/$dir"/run*.txt
done | tee -a "$OUT/meta.txt"
