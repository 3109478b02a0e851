#!/bin/sh
# make-disturbed-pair.sh records testdata/truth/disturbed-pair (issue 10): two
# truth servers, A on 127.0.0.1:$PORT_A with -work $WORK_A and B on
# 127.0.0.1:$PORT_B with -work $WORK_B (10 % more work per request), both
# CPU-bound on one core (-procs 1). 8 + 8 wrk runs (-t2 -c16 -d8s --latency)
# interleaved A B A B ... into runs/pairN-A.txt, runs/pairN-B.txt. During
# pair $DISTURBED (both its runs) one busy loop per CPU, at the servers'
# priority, loads the machine on purpose; the other pairs are undisturbed.
# Truth: B is slower than A (about 8-10 % fewer requests per second, higher
# latency); pair $DISTURBED is disturbed by foreign load.
#
#   sh scripts/truth/make-disturbed-pair.sh        (from anywhere; root for nice -n -10)
#
# Environment: PORT_A (19111), PORT_B (19112), WORK_A (3000), WORK_B (3300),
# PAIRS (8), DISTURBED (5), DURATION (8s).
. "$(dirname "$0")/lib.sh"
PORT_A=${PORT_A:-19111}
PORT_B=${PORT_B:-19112}
WORK_A=${WORK_A:-3000}
WORK_B=${WORK_B:-3300}
PAIRS=${PAIRS:-8}
DISTURBED=${DISTURBED:-5}
DURATION=${DURATION:-8s}
fresh testdata/truth/disturbed-pair
mkdir -p "$OUT/runs"
start_server "$PORT_A" -procs 1 -work "$WORK_A"
SRV_A=$SRV
start_server "$PORT_B" -procs 1 -work "$WORK_B"
SRV_B=$SRV
SRV="$SRV_A $SRV_B"
for i in $(seq "$PAIRS"); do
	if [ "$i" = "$DISTURBED" ]; then disturb_start; fi
	wrk_run "$OUT/runs/pair$i-A.txt" -t2 -c16 -d"$DURATION" --latency "http://127.0.0.1:$PORT_A/"
	wrk_run "$OUT/runs/pair$i-B.txt" -t2 -c16 -d"$DURATION" --latency "http://127.0.0.1:$PORT_B/"
	if [ "$i" = "$DISTURBED" ]; then disturb_stop; fi
done
stop_server
echo "Requests/sec per pair (A B B/A):"
for i in $(seq "$PAIRS"); do
	a=$(awk '/^Requests\/sec/ { print $2 }' "$OUT/runs/pair$i-A.txt")
	b=$(awk '/^Requests\/sec/ { print $2 }' "$OUT/runs/pair$i-B.txt")
	echo "pair $i: $a $b $(echo "$a $b" | awk '{ printf "%.3f", $2 / $1 }')$([ "$i" = "$DISTURBED" ] && echo '  (disturbed)')"
done | tee -a "$OUT/meta.txt"
