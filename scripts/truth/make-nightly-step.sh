#!/bin/sh
# make-nightly-step.sh records testdata/truth/nightly-step (issue 20): 8
# nightly experiments night01..night08 of one service, one a day, each 3 wrk
# runs (-t1 -c8 -d3s --latency) and 3 vegeta runs (closed model: -rate=0
# -max-workers=8 -duration=3s), alternating, each against a freshly started truth
# server on 127.0.0.1:$PORT, CPU-bound on one core (-procs 1):
#   night01-night03: -work $WORK_OLD
#   night04-night08: -work $WORK_NEW (10 % more work per request: the step, at night04)
# Tests take the first 1, 2 or 3 runs of each night and one tool at a time
# (analyze/history_test.go, cmd/loadverdict/history_test.go), so one
# recording stands for 1, 2 and 3 runs a night with either tool. Each
# night's loadverdict.yaml gives series: and meta: (a made-up commit id,
# one date a day); nights.tsv the same and the -work setting. The steps
# shared with make-nightly-drift.sh are lib.sh's nightly_series and
# nightly_record.
#
#   NICE_LEVEL=-20 sh scripts/truth/make-nightly-step.sh     (root for nice)
#
# Environment: PORT (19510), WORK_OLD (20000), WORK_NEW (22000), RUNS (3),
# DURATION (3s), QUIET_WAIT (2: seconds to wait for a quiet moment before each run),
# PIN_CPU (1: the CPU the server and the load tool share, real-time; lib.sh).
PIN_CPU=${PIN_CPU:-1}
export PIN_CPU
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19510}
WORK_OLD=${WORK_OLD:-20000}
WORK_NEW=${WORK_NEW:-22000}
RUNS=${RUNS:-3}
DURATION=${DURATION:-3s}
QUIET_WAIT=${QUIET_WAIT:-2}
NIGHTS=8
STEP=4
night_work() {
	if [ "$1" -ge "$STEP" ]; then echo "$WORK_NEW"; else echo "$WORK_OLD"; fi
}
night_note() {
	if [ "$1" = "$STEP" ]; then
		echo "the step: 10 % more work per request (-work $WORK_OLD -> $WORK_NEW)"
	else
		echo "nightly run"
	fi
}
fresh testdata/truth/nightly-step
nightly_series nightly-step
nightly_record
