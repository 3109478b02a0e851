#!/bin/sh
# make-errors.sh records testdata/truth/errors (issue 10): a truth server
# that waits 1 ms per request (-delay 1ms) and answers 500 to a fixed share
# of requests, counted by the server in arrival order:
#   5 %:  -fail-every 20     every 20th request answers 500
#   95 %: -succeed-every 20  every 20th request answers 200, all others 500
# each measured with wrk (-t2 -c16 -d10s --latency) and with vegeta (200
# req/s for 20 s). The server restarts (its counter from 1) before each run.
# Truth: error rates of 5.0 % and 95.0 % (to within one request per run:
# requests still in flight when the tool stops are counted by the server,
# not by the tool); errors cost the same 1 ms as successes; no timeouts.
#
#   NICE_LEVEL=-20 sh scripts/truth/make-errors.sh        (from anywhere; root for nice)
#
# The committed data was made with NICE_LEVEL=-20: at -10, under others' load
# (0 % idle), vegeta fell behind its rate (3980 of 4000 requests sent).
#
# Files: wrk/errors-5pct.txt, wrk/errors-95pct.txt; vegeta/errors-5pct.json.gz,
# vegeta/errors-95pct.json.gz (vegeta encode --to json) with their
# -report.txt and -report.json (vegeta report).
# Environment: PORT (19107).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19107}
fresh testdata/truth/errors
mkdir -p "$OUT/wrk"
wait_quiet
for c in 5pct:-fail-every 95pct:-succeed-every; do
	name=errors-${c%%:*}
	flag=${c#*:}
	start_server "$PORT" -delay 1ms "$flag" 20
	wrk_run "$OUT/wrk/$name.txt" -t2 -c16 -d10s --latency "http://127.0.0.1:$PORT/"
	stop_server
	start_server "$PORT" -delay 1ms "$flag" 20
	vegeta_run "$OUT/vegeta" "$name" "http://127.0.0.1:$PORT/" -rate=200 -duration=20s
	stop_server
done
grep -E 'requests in|Non-2xx' "$OUT"/wrk/*.txt | tee -a "$OUT/meta.txt"
grep -H -E '^(Success|Status)' "$OUT"/vegeta/*-report.txt | tee -a "$OUT/meta.txt"
grep stopped "$OUT/server.log" | tee -a "$OUT/meta.txt"
