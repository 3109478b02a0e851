#!/bin/sh
# make-overload.sh records testdata/truth/overload (issue 10): a truth server
# with a capacity of 400 req/s (-workers 4 -delay 10ms: four workers, 10 ms
# service time each; requests queue for a worker, and one whose client has
# gone is dropped unserved) attacked by vegeta at 2000 req/s for 20 s with a
# 1 s request timeout (-timeout=1s).
# Truth: requested 2000 req/s, capacity 400 req/s: overloaded. After the
# first second the queue holds a second's worth of requests, so about 80 %
# of requests time out (status 0, "Client.Timeout exceeded") and the
# successes come at ~400 req/s with latencies just under 1 s.
#
#   sh scripts/truth/make-overload.sh        (from anywhere; root for nice -n -10)
#
# Files (one attack): vegeta/results.json.gz (vegeta encode --to json),
# vegeta/results-report.txt and vegeta/results-report.json (vegeta report).
# Environment: PORT (19105), DURATION (20s).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19105}
DURATION=${DURATION:-20s}
fresh testdata/truth/overload
wait_quiet
start_server "$PORT" -workers 4 -delay 10ms
vegeta_run "$OUT/vegeta" results "http://127.0.0.1:$PORT/" -rate=2000 -duration="$DURATION" -timeout=1s
stop_server
