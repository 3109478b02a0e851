#!/bin/sh
# make-stalls.sh records testdata/truth/stalls (issue 10): a truth server
# that answers in about 1 ms (-delay 1ms) but freezes ALL handling for 1.5 s
# every 10 s (-stall-every 10s -stall-for 1.5s -stall-at 5s: stalls at
# 5-6.5 s, 15-16.5 s, ... 55-56.5 s after the first request, six in 60 s),
# attacked by vegeta at 300 req/s for 60 s.
# Truth: 15 % of the time is stalled; requests sent during a stall wait
# until its end (0 to 1.5 s), so about 15 % of requests are slow and the rest
# take ~1 ms; period 10 s; no errors. server.log lists each stall's actual times.
#
#   sh scripts/truth/make-stalls.sh        (from anywhere; root for nice -n -10)
#
# Files: vegeta/results.json.gz (vegeta encode --to json), vegeta/results-report.txt
# and vegeta/results-report.json (vegeta report of the same attack).
# Environment: PORT (19102).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19102}
fresh testdata/truth/stalls
wait_quiet
start_server "$PORT" -delay 1ms -stall-every 10s -stall-for 1.5s -stall-at 5s
vegeta_run "$OUT/vegeta" results "http://127.0.0.1:$PORT/" -rate=300 -duration=60s
stop_server
