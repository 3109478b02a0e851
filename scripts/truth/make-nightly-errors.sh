#!/bin/sh
# make-nightly-errors.sh records testdata/truth/nightly-errors (issue 31):
# 10 nightly experiments night01..night10 of one service, one a day, each
# $RUNS runs of each of wrk (-t1 -c8 -d3s --latency), hey (-z 3s -c 8) and
# vegeta (closed model: -rate=0 -max-workers=8 -duration=3s), against a
# freshly started truth server on 127.0.0.1:$PORT, CPU-bound on one core
# (-procs 1, -work $WORK on every night: the same latency), whose only
# change between nights is the share of requests answered 500
# (-fail-share, deterministic: evenly spread):
#   night01-night05: 0          (no errors)
#   night06-night08: 0.02       (2 % errors: the regression of errors)
#   night09:         0.005      (0.5 %: smaller, still beyond the 0.1-point band)
#   night10:         0          (recovered)
# Tests take the first 1, 2 or 3 runs of one tool a night
# (analyze/history_errors_test.go, cmd/loadverdict/history_errors_test.go).
# Recorded round-robin (run r of every night, then run r+1) as lib.sh's
# nightly_record does, so the machine's load falls on every night alike.
#
#   flock /tmp/lv-record.lock sh scripts/truth/make-nightly-errors.sh
#
# The family's other shares (testdata/truth/nightly-errors-family: 1 % on
# nights 6-7, 5 % on nights 8-9, 0 on night 10):
#
#   SET=nightly-errors-family SHARES="0 0 0 0 0 0.01 0.01 0.05 0.05 0" \
#     flock /tmp/lv-record.lock sh scripts/truth/make-nightly-errors.sh
#
# Environment: SET (nightly-errors), SHARES (the -fail-share of nights
# 1-10), PORT (19530), WORK (5000), RUNS (3), DURATION (3s),
# QUIET_WAIT (2), PIN_CPU (1: the CPU the server and the load tools share,
# real-time; lib.sh).
PIN_CPU=${PIN_CPU:-1}
export PIN_CPU
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19530}
WORK=${WORK:-5000}
RUNS=${RUNS:-3}
DURATION=${DURATION:-3s}
QUIET_WAIT=${QUIET_WAIT:-2}
NIGHTS=10
SET=${SET:-nightly-errors}
# SHARES: the -fail-share of nights 1..10, in order (the family's other
# shares: SET=nightly-errors-family SHARES="0 0 0 0 0 0.01 0.01 0.05 0.05 0").
SHARES=${SHARES:-0 0 0 0 0 0.02 0.02 0.02 0.005 0}
night_share() {
	echo "$SHARES" | awk -v n="$1" '{ print $n }'
}
night_work() { echo "$WORK"; }
night_note() { echo "fail-share $(night_share "$1")"; }
fresh "testdata/truth/$SET"
note "uptime: $(uptime)"
note "shares: $SHARES"
nightly_series "$SET"
for r in $(seq "$RUNS"); do
	for e in $(seq "$NIGHTS"); do
		exp=$(printf 'night%02d' "$e")
		share=$(night_share "$e")
		wait_quiet
		start_server "$PORT" -procs 1 -work "$WORK" -fail-share "$share"
		wrk_run "$OUT/$exp/wrk$r.txt" -t1 -c8 -d"$DURATION" --latency "http://127.0.0.1:$PORT/"
		note "hey -z $DURATION -c 8 http://127.0.0.1:$PORT/ > $OUT/$exp/hey$r.txt"
		{
			echo "\$ hey -z $DURATION -c 8 http://127.0.0.1:$PORT/"
			# shellcheck disable=SC2086
			$NICE hey -z "$DURATION" -c 8 "http://127.0.0.1:$PORT/"
		} > "$OUT/$exp/hey$r.txt"
		note "done: $(grep 'Requests/sec' "$OUT/$exp/hey$r.txt" | tr -s ' ')"
		vegeta_text "$OUT/$exp/vegeta$r.txt" "http://127.0.0.1:$PORT/" -rate=0 -max-workers=8 -duration="$DURATION"
		stop_server
	done
done
note "uptime: $(uptime)"
echo "Per night: wrk req/s and non-2xx; hey req/s; vegeta success ratio:"
for e in $(seq "$NIGHTS"); do
	exp=$(printf 'night%02d' "$e")
	printf '%s share %s:' "$exp" "$(night_share "$e")"
	awk '/^Requests\/sec/ { printf " %s", $2 } /Non-2xx/ { printf " (%s non-2xx)", $NF }' "$OUT/$exp"/wrk*.txt
	printf ';'
	awk '/Requests\/sec/ { printf " %s", $2 }' "$OUT/$exp"/hey*.txt
	printf ';'
	awk '/^Success/ { printf " %s", $NF }' "$OUT/$exp"/vegeta*.txt
	echo
done | tee -a "$OUT/meta.txt"
