#!/bin/sh
# make-small-drift.sh records testdata/truth/small-drift (issue 19, "a
# negligible drift called a warm-up and the run thrown away"): single
# vegeta runs whose latency drifts by a few percent (a few tenths of a
# millisecond at most), and one with a real warm-up, to show that the part
# of a run after its warm-up is steady data. Four draws:
#   fall6:  -delay 2ms -warmup 5s -warmup-factor 1.06, vegeta 300 req/s for 12 s: 6 % (0.12 ms) higher at the start, falling over 5 s
#   rise5:  -delay 2ms -ramp 10us, vegeta 250 req/s for 12 s: +0.01 ms per second (+6 % over the run)
#   work4:  -procs 1 -work 3000 -warmup 4s -warmup-factor 1.04, vegeta 200 req/s for 10 s: 4 % more work at the start
#   warm2x: -delay 2ms -warmup 4s -warmup-factor 2, vegeta 200 req/s for 12 s: a real warm-up (2x falling to 1x over 4 s), steady 8 s after it
# Truth: fall6, rise5, work4 carry no practical change; warm2x warms up
# over its first 4 s and is steady after; every run's steady part is data.
#
#   sh scripts/truth/make-small-drift.sh        (from anywhere; root for nice)
#
# Files: vegeta/<draw>.json.gz and vegeta's reports. Environment: PORT (19705).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19705}
fresh testdata/truth/small-drift
wait_quiet
start_server "$PORT" -delay 2ms -warmup 5s -warmup-factor 1.06
vegeta_run "$OUT/vegeta" fall6 "http://127.0.0.1:$PORT/" -rate=300 -duration=12s
stop_server
start_server "$PORT" -delay 2ms -ramp 10us
vegeta_run "$OUT/vegeta" rise5 "http://127.0.0.1:$PORT/" -rate=250 -duration=12s
stop_server
start_server "$PORT" -procs 1 -work 3000 -warmup 4s -warmup-factor 1.04
vegeta_run "$OUT/vegeta" work4 "http://127.0.0.1:$PORT/" -rate=200 -duration=10s
stop_server
start_server "$PORT" -delay 2ms -warmup 4s -warmup-factor 2
vegeta_run "$OUT/vegeta" warm2x "http://127.0.0.1:$PORT/" -rate=200 -duration=12s
stop_server
