#!/bin/sh
# make-order-from-time.sh records testdata/truth/order-from-time (issue 19
# item 6): the order in which runs ran is their start times, not the order
# of the files on the command line. Two truth servers, A on
# 127.0.0.1:$PORT_A (-delay 2ms) and B on 127.0.0.1:$PORT_B (-delay 2ms),
# runs of $DURATION:
#
#   d1-interleaved-vegeta: vegeta -rate=150, run A B A B A B A B in time;
#       files a1..a4, b1..b4: read in name order, every A file comes
#       before every B file. Truth: interleaved (per-request logs carry
#       their times).
#   d2-blocks-vegeta: vegeta -rate=200, run B B B then A A A in time;
#       files 1-A 1-B 2-A 2-B 3-A 3-B (alternating on the command line).
#       Truth: not interleaved, B ran first.
#   d3-blocks-wrk: wrk -t1 -c4, run A A A then B B B; wrk prints no
#       start time, so only the argument order (files in name order, the
#       order they ran) can tell. Truth: not interleaved, A ran first,
#       from argument order.
#   d4-interleaved-vegeta: vegeta -rate=100 for 1.5 s, A B B A A B in time,
#       files x-B1 x-B2 x-B3 y-A1 y-A2 y-A3. Truth: interleaved.
#
#   sh scripts/truth/make-order-from-time.sh        (from anywhere; root for nice)
#
# Environment: PORT_A (19621), PORT_B (19622), DURATION (1s).
. "$(dirname "$0")/lib.sh"
PORT_A=${PORT_A:-19621}
PORT_B=${PORT_B:-19622}
DURATION=${DURATION:-1s}
fresh testdata/truth/order-from-time
start_server "$PORT_A" -delay 2ms
sa=$SRV
start_server "$PORT_B" -delay 2ms
SRV="$sa $SRV"
A=http://127.0.0.1:$PORT_A/
B=http://127.0.0.1:$PORT_B/

d=$OUT/d1-interleaved-vegeta
for i in 1 2 3 4; do
	vegeta_run "$d" "a$i" "$A" -rate=150 -duration="$DURATION"
	vegeta_run "$d" "b$i" "$B" -rate=150 -duration="$DURATION"
done
d=$OUT/d2-blocks-vegeta
for i in 1 2 3; do vegeta_run "$d" "$i-B" "$B" -rate=200 -duration="$DURATION"; done
for i in 1 2 3; do vegeta_run "$d" "$i-A" "$A" -rate=200 -duration="$DURATION"; done
d=$OUT/d3-blocks-wrk
mkdir -p "$d"
for i in 1 2 3; do wrk_run "$d/$i-A.txt" -t1 -c4 -d"$DURATION" --latency "$A"; done
for i in 4 5 6; do wrk_run "$d/$i-B.txt" -t1 -c4 -d"$DURATION" --latency "$B"; done
d=$OUT/d4-interleaved-vegeta
vegeta_run "$d" y-A1 "$A" -rate=100 -duration=1500ms
vegeta_run "$d" x-B1 "$B" -rate=100 -duration=1500ms
vegeta_run "$d" x-B2 "$B" -rate=100 -duration=1500ms
vegeta_run "$d" y-A2 "$A" -rate=100 -duration=1500ms
vegeta_run "$d" y-A3 "$A" -rate=100 -duration=1500ms
vegeta_run "$d" x-B3 "$B" -rate=100 -duration=1500ms
stop_server
# The reports are vegeta's own summaries; the analysis reads the logs.
rm -f "$OUT"/*/*-report.txt "$OUT"/*/*-report.json
