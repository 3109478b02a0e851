#!/bin/sh
# make-ramp.sh records testdata/truth/ramp (issue 10): a truth server whose
# latency grows linearly with the time since its first request and never
# levels off (-delay 1ms -ramp 1ms: 1 ms + 1 ms per second elapsed, so about
# 1 ms at the start and 61 ms at 60 s), attacked by vegeta at 100 req/s for 60 s.
# Truth: no warm-up and no steady state; latency rises ~1 ms/s throughout;
# throughput stays at the requested 100 req/s (vegeta is open-model and the
# server has no capacity limit); no errors.
#
#   sh scripts/truth/make-ramp.sh        (from anywhere; root for nice -n -10)
#
# Files: vegeta/results.json.gz, vegeta/results-report.txt, vegeta/results-report.json.
# Environment: PORT (19103).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19103}
fresh testdata/truth/ramp
wait_quiet
start_server "$PORT" -delay 1ms -ramp 1ms
vegeta_run "$OUT/vegeta" results "http://127.0.0.1:$PORT/" -rate=100 -duration=60s
stop_server
