#!/bin/sh
# make-nightly-drift.sh records testdata/truth/nightly-drift (issue 20): 10
# nightly experiments night01..night10 of one service, one a day, each 3 wrk
# runs (-t1 -c8 -d3s --latency) and 3 vegeta runs (closed model: -rate=0
# -max-workers=8 -duration=3s), alternating, each against a freshly started
# truth server on 127.0.0.1:$PORT, CPU-bound on one core (-procs 1), whose
# work per request grows 2 % a night: -work round($WORK * 1.02^(night-1)),
# 20000 to 23902 (19.5 % more work by night10; no step anywhere). Tests take
# the first 1, 2 or 3 runs of each night and one tool at a time
# (analyze/history_test.go, cmd/loadverdict/history_test.go). Each night's
# loadverdict.yaml gives series: and meta:; nights.tsv the same and -work.
# The steps shared with make-nightly-step.sh are lib.sh's nightly_series
# and nightly_record.
#
#   NICE_LEVEL=-20 sh scripts/truth/make-nightly-drift.sh     (root for nice)
#
# Environment: PORT (19511), WORK (20000), RUNS (3), DURATION (3s), QUIET_WAIT (2: seconds to wait for a quiet moment before each run),
# PIN_CPU (1: the CPU the server and the load tool share, real-time; lib.sh).
PIN_CPU=${PIN_CPU:-1}
export PIN_CPU
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19511}
WORK=${WORK:-20000}
RUNS=${RUNS:-3}
DURATION=${DURATION:-3s}
QUIET_WAIT=${QUIET_WAIT:-2}
NIGHTS=10
night_work() {
	awk -v w="$WORK" -v e="$1" 'BEGIN { printf "%d", w * 1.02 ^ (e - 1) + 0.5 }'
}
night_note() {
	if [ "$1" = 1 ]; then
		echo "nightly run: the first"
	else
		echo "nightly run: 2 % more work per request than the night before"
	fi
}
fresh testdata/truth/nightly-drift
nightly_series nightly-drift
nightly_record
