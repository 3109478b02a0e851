#!/bin/sh
# make-leak-within.sh records testdata/truth/leak-within (issue 19, "a
# steady state claimed over a leak" within one run): vegeta per-request
# logs whose latency keeps climbing to the end of the run. Three draws:
#   grow12: -delay 2ms -grow 0.04, vegeta 200 req/s for 12 s: the wait grows 4 % per second (+48 %)
#   work10: -procs 1 -work 4000 -grow 0.03, vegeta 150 req/s for 10 s: CPU work +3 % per second (+30 %)
#   ramp15: -delay 2ms -ramp 150us, vegeta 250 req/s for 15 s: +0.15 ms per second (+112 %)
# Truth: within the run, no steady state and worsening to the last second.
#
#   sh scripts/truth/make-leak-within.sh        (from anywhere; root for nice)
#
# Files: vegeta/<draw>.json.gz and vegeta's reports. Environment: PORT (19702).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19702}
fresh testdata/truth/leak-within
wait_quiet
start_server "$PORT" -delay 2ms -grow 0.04
vegeta_run "$OUT/vegeta" grow12 "http://127.0.0.1:$PORT/" -rate=200 -duration=12s
stop_server
start_server "$PORT" -procs 1 -work 4000 -grow 0.03
vegeta_run "$OUT/vegeta" work10 "http://127.0.0.1:$PORT/" -rate=150 -duration=10s
stop_server
start_server "$PORT" -delay 2ms -ramp 150us
vegeta_run "$OUT/vegeta" ramp15 "http://127.0.0.1:$PORT/" -rate=250 -duration=15s
stop_server
