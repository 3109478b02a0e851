#!/bin/sh
# make-repeated-warmup.sh records testdata/truth/repeated-warmup (issue 10,
# optional): a truth server that does ~2.4 ms of CPU work per request
# (-work 30000) but repeats a short warm-up every 60 s (-warmup 5s
# -warmup-factor 3 -warmup-every 60s: at 0-5 s, 60-65 s, 120-125 s,
# 180-185 s and 240-245 s after the first request the work falls linearly
# from 3x to 1x), attacked by vegeta at 50 req/s for 5 minutes.
# Truth: five slow phases of 5 s, one every 60 s (period 60 s, 8.3 % of the
# time, ~8.3 % of the requests), each 3x slower at its start; ~2.4 ms
# otherwise; no errors.
#
#   NICE_LEVEL=-20 sh scripts/truth/make-repeated-warmup.sh        (from anywhere; root for nice)
#
# Two first attempts waited instead of working (-delay 2ms, then -delay
# 10ms): on this shared machine (a VM under load 8-12) a 10 ms time.Sleep
# overshoots by 8 ms at p90 and 17 ms at p99 even at nice -20, so the
# per-second mean outside the slow phases wandered as much as the phases
# rose. CPU work of 2.4 ms varies far less (p90 2.5 ms).
#
# Files: vegeta/results.json.gz, vegeta/results-report.txt, vegeta/results-report.json.
# Environment: PORT (19110), DURATION (5m).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19110}
DURATION=${DURATION:-5m}
fresh testdata/truth/repeated-warmup
wait_quiet
start_server "$PORT" -work 30000 -warmup 5s -warmup-factor 3 -warmup-every 60s
vegeta_run "$OUT/vegeta" results "http://127.0.0.1:$PORT/" -rate=50 -duration="$DURATION"
stop_server
