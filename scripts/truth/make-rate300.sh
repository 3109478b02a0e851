#!/bin/sh
# make-rate300.sh records testdata/truth/rate300 (issue 20): two truth
# servers, OLD on 127.0.0.1:$PORT_OLD with -delay $DELAY_OLD and NEW on
# 127.0.0.1:$PORT_NEW with -delay $DELAY_NEW (each request 1 ms slower), both
# -work $WORK. $RUNS vegeta attacks a side at -rate 300 for $DURATION,
# interleaved OLD NEW OLD NEW ..., each saved as per-request results
# (old/runN.json.gz, new/runN.json.gz: no command line, so the rate is
# inferred from the send times, 300.x req/s per run) and vegeta's own reports
# (reports/old/, reports/new/). During OLD's run $DISTURBED one busy loop per
# CPU, at the servers' priority, loads the machine on purpose.
# Truth: each side's runs are ONE setting (-rate 300); NEW is slower by 1 ms
# a request (a latency regression); OLD's run $DISTURBED is disturbed.
#
#   sh scripts/truth/make-rate300.sh        (from anywhere; root for nice -n -10)
#
# Environment: PORT_OLD (19801), PORT_NEW (19802), DELAY_OLD (4ms),
# DELAY_NEW (5ms), WORK (300), RUNS (4), DISTURBED (2), DURATION (3s).
. "$(dirname "$0")/lib.sh"
PORT_OLD=${PORT_OLD:-19801}
PORT_NEW=${PORT_NEW:-19802}
DELAY_OLD=${DELAY_OLD:-4ms}
DELAY_NEW=${DELAY_NEW:-5ms}
WORK=${WORK:-300}
RUNS=${RUNS:-4}
DISTURBED=${DISTURBED:-2}
DURATION=${DURATION:-3s}
fresh testdata/truth/rate300
mkdir -p "$OUT/old" "$OUT/new" "$OUT/reports/old" "$OUT/reports/new"
start_server "$PORT_OLD" -procs 1 -work "$WORK" -delay "$DELAY_OLD"
SRV_OLD=$SRV
start_server "$PORT_NEW" -procs 1 -work "$WORK" -delay "$DELAY_NEW"
SRV="$SRV_OLD $SRV"
for i in $(seq "$RUNS"); do
	wait_quiet
	if [ "$i" = "$DISTURBED" ]; then disturb_start; fi
	vegeta_run "$OUT/old" "run$i" "http://127.0.0.1:$PORT_OLD/" -rate 300 -duration "$DURATION"
	if [ "$i" = "$DISTURBED" ]; then disturb_stop; fi
	vegeta_run "$OUT/new" "run$i" "http://127.0.0.1:$PORT_NEW/" -rate 300 -duration "$DURATION"
done
stop_server
for side in old new; do
	mv "$OUT/$side"/*-report.* "$OUT/reports/$side/"
done
echo "rate, mean and p50 latency per run (old | new):"
for i in $(seq "$RUNS"); do
	o=$(awk -F'  +' '/^Requests/ { split($3, r, ", ") } /^Latencies/ { split($3, l, ", ") } END { print r[2], l[2], l[3] }' "$OUT/reports/old/run$i-report.txt")
	n=$(awk -F'  +' '/^Requests/ { split($3, r, ", ") } /^Latencies/ { split($3, l, ", ") } END { print r[2], l[2], l[3] }' "$OUT/reports/new/run$i-report.txt")
	echo "run $i: $o | $n$([ "$i" = "$DISTURBED" ] && echo '  (old disturbed)')"
done | tee -a "$OUT/meta.txt"
