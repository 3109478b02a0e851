#!/bin/sh
# make-error-bursts.sh records testdata/truth/error-bursts (issue 19 item
# 7): errors concentrated in time. A truth server on 127.0.0.1:$PORT with
# -delay 1ms whose requests arriving in an error window [-fail-from,
# -fail-from + -fail-for) of its clock (from the first request) all fail
# with -fail-status; outside it every request succeeds. The server
# restarts (its clock from the first request) before each run.
#
#   d1-middle-vegeta: vegeta -rate=200 -duration=8s, window 3s + 1s, 503:
#       12.5 % of requests fail, all within [3 s, 4 s).
#   d2-start-vegeta: vegeta -rate=300 -duration=6s, window 0.2s + 0.8s, 500.
#   d3-end-hey: hey -q 50 -c 4 -z 8s -o csv (200 req/s), window 6.5s + 1.5s, 502.
#   d4-spread-vegeta: vegeta -rate=200 -duration=8s, -fail-every 8
#       (12.5 % of requests, evenly spread). Truth: no burst.
#   d5-twice-vegeta: vegeta -rate=200 -duration=8s, window 1s + 0.5s,
#       and a second run of the same with window 5.5s + 1s (two runs of
#       one group, one burst each).
#
#   sh scripts/truth/make-error-bursts.sh        (from anywhere; root for nice)
#
# Environment: PORT (19631).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19631}
U=http://127.0.0.1:$PORT/
fresh testdata/truth/error-bursts

start_server "$PORT" -delay 1ms -fail-from 3s -fail-for 1s -fail-status 503
vegeta_run "$OUT/d1-middle-vegeta" run "$U" -rate=200 -duration=8s
stop_server
start_server "$PORT" -delay 1ms -fail-from 200ms -fail-for 800ms -fail-status 500
vegeta_run "$OUT/d2-start-vegeta" run "$U" -rate=300 -duration=6s
stop_server
start_server "$PORT" -delay 1ms -fail-from 6500ms -fail-for 1500ms -fail-status 502
mkdir -p "$OUT/d3-end-hey"
note "hey -q 50 -c 4 -z 8s -o csv $U"
$NICE hey -q 50 -c 4 -z 8s -o csv "$U" | gzip -9n > "$OUT/d3-end-hey/run.csv.gz"
stop_server
start_server "$PORT" -delay 1ms -fail-every 8
vegeta_run "$OUT/d4-spread-vegeta" run "$U" -rate=200 -duration=8s
stop_server
start_server "$PORT" -delay 1ms -fail-from 1s -fail-for 500ms -fail-status 503
vegeta_run "$OUT/d5-twice-vegeta" run1 "$U" -rate=200 -duration=8s
stop_server
start_server "$PORT" -delay 1ms -fail-from 5500ms -fail-for 1s -fail-status 503
vegeta_run "$OUT/d5-twice-vegeta" run2 "$U" -rate=200 -duration=8s
stop_server
# The analysis reads the per-request logs; vegeta's own reports are not kept.
rm -f "$OUT"/*/*-report.json "$OUT"/*/*-report.txt
grep stopped "$OUT/server.log" | tee -a "$OUT/meta.txt"
