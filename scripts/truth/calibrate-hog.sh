#!/bin/sh
# calibrate-hog.sh records testdata/truth/hog-calibration (issue 31): how
# much scripts/cpuhog (lib.sh's hog_start) slows the truth server down at
# each duty cycle, so that the nightly sets can vary the machine by
# construction. A truth server on 127.0.0.1:$PORT (-procs 1 -work $WORK),
# wrk -t1 -c8 -d3s --latency, server, wrk and hog pinned to CPU $PIN_CPU
# at real-time priority; for each cycle in $CYCLES (spin/sleep; 0/0: no
# hog) $RUNS runs, cycles round-robin so that the machine's own drift
# falls on every cycle alike. The hog's measured share and each run's
# req/s go to meta.txt.
#
#   flock /tmp/lv-record.lock sh scripts/truth/calibrate-hog.sh
PIN_CPU=${PIN_CPU:-1}
export PIN_CPU
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19531}
WORK=${WORK:-10000}
RUNS=${RUNS:-3}
QUIET_WAIT=${QUIET_WAIT:-2}
CYCLES=${CYCLES:-"0/0 0.5ms/9.5ms 1ms/9ms 1.5ms/8.5ms 2ms/8ms"}
fresh testdata/truth/hog-calibration
uptime >> "$OUT/meta.txt"
start_server "$PORT" -procs 1 -work "$WORK"
for r in $(seq "$RUNS"); do
	for c in $CYCLES; do
		spin=${c%/*}
		sleep=${c#*/}
		tag=$(echo "$c" | tr / _)
		wait_quiet
		hog_start "$spin" "$sleep"
		wrk_run "$OUT/hog-$tag-$r.txt" -t1 -c8 -d3s --latency "http://127.0.0.1:$PORT/"
		hog_stop
		echo "$c $r $HOG_SHARE $(awk '/^Requests\/sec/ { print $2 }' "$OUT/hog-$tag-$r.txt")" >> "$T/table"
	done
done
stop_server
uptime >> "$OUT/meta.txt"
{
	echo "cycle run hog_share_pct req_per_s"
	sort -s -k1,1 "$T/table"
} | tee -a "$OUT/meta.txt"
