#!/bin/sh
# make-nightly-open-swings.sh records testdata/truth/nightly-open-swings:
# the change points over the control (analysis version 15) and the
# nightly check with a control, under an open model. 10 nights
# night01..night10, each $RUNS vegeta runs of svc and $RUNS of control
# (an unchanged reference build), interleaved, at a fixed -rate=$RATE
# (an open model: the gate reads mean and p99 latency), on the truth
# server (-procs 1; lib.sh's control_series and control_record with
# CONTROL_TOOL=vegeta). svc does $WORK_NEW work a request (15 % more: a
# real regression) from night $STEP_NIGHT on; the control $WORK
# throughout. The machine changed between nights by a co-running hog on
# the servers' CPU (scripts/cpuhog):
#   nights 1-3, 7-8: normal (spin $HOG_SPIN sleep $HOG_SLEEP);
#   nights 4-6: no hog (the machine faster: it hides the step's first
#   nights from svc's own latencies);
#   nights 9-10: heavier (spin $HEAVY_SPIN sleep $HEAVY_SLEEP: slower).
#
#   flock /tmp/lv-record.lock sh scripts/truth/make-nightly-open-swings.sh
#
# Environment: PORT (19570; control on PORT+1), WORK (10000), WORK_NEW
# (11500), STEP_NIGHT (5), RUNS (2), DURATION (3s), RATE (500), HOG_SPIN
# (1.8ms), HOG_SLEEP (8.2ms), HEAVY_SPIN (2.6ms), HEAVY_SLEEP (7.4ms),
# QUIET_WAIT (2), PIN_CPU (1).
PIN_CPU=${PIN_CPU:-1}
export PIN_CPU
CONTROL_TOOL=vegeta
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19570}
WORK=${WORK:-10000}
WORK_NEW=${WORK_NEW:-11500}
STEP_NIGHT=${STEP_NIGHT:-5}
CONTROL_WORK=$WORK
RUNS=${RUNS:-2}
DURATION=${DURATION:-3s}
RATE=${RATE:-500}
HOG_SPIN=${HOG_SPIN:-1.8ms}
HOG_SLEEP=${HOG_SLEEP:-8.2ms}
HEAVY_SPIN=${HEAVY_SPIN:-2.6ms}
HEAVY_SLEEP=${HEAVY_SLEEP:-7.4ms}
QUIET_WAIT=${QUIET_WAIT:-2}
NIGHTS=10
night_work() {
	if [ "$1" -ge "$STEP_NIGHT" ]; then echo "$WORK_NEW"; else echo "$WORK"; fi
}
night_hog() {
	case $1 in
	4 | 5 | 6) echo "0 0" ;;
	9 | 10) echo "$HEAVY_SPIN $HEAVY_SLEEP" ;;
	*) echo "$HOG_SPIN $HOG_SLEEP" ;;
	esac
}
night_note() {
	n="nightly run"
	case $1 in
	4 | 5 | 6) n="nightly run (the machine faster: no co-running load)" ;;
	7) n="nightly run (the machine back to normal)" ;;
	9 | 10) n="nightly run (the machine slower: a heavier co-running load)" ;;
	esac
	if [ "$1" = "$STEP_NIGHT" ]; then
		n="$n; the step: 15 % more work per request (-work $WORK -> $WORK_NEW)"
	fi
	echo "$n"
}
fresh testdata/truth/nightly-open-swings
control_series nightly-open-swings
control_record
