#!/bin/sh
# make-nightly-odd-ratio.sh records testdata/truth/nightly-odd-ratio
# (issue 31, the level look-back): 10 nights night01..night10, each $RUNS
# wrk runs of svc and $RUNS of control (an unchanged reference build),
# interleaved, on the truth server (-procs 1; lib.sh's control_series and
# control_record), the machine's usual co-running hog on every night
# (spin $HOG_SPIN sleep $HOG_SLEEP, both systems).
#   - night $ODD_NIGHT: a second hog during svc's runs only (spin
#     $ODD_SPIN sleep $ODD_SLEEP): a neighbour that lands on svc's part
#     of the job, so that night's svc/control ratio is off the other
#     reference nights' with no change of the code (the control cannot
#     cancel what hit only svc);
#   - from night $STEP_NIGHT: svc's -work $WORK_NEW (10 % more work a
#     request: a real regression), the control unchanged.
# The step lands on a short reference (nights 1-3) that the odd night
# widened, so it is within that reference's noise and joins it.
#
#   flock /tmp/lv-record.lock sh scripts/truth/make-nightly-odd-ratio.sh
#
# Environment: PORT (19560; control on PORT+1), WORK (10000), WORK_NEW
# (11000), STEP_NIGHT (4), ODD_NIGHT (2), ODD_SPIN (1.0ms), ODD_SLEEP
# (9.0ms), RUNS (2), DURATION (3s), HOG_SPIN (1.8ms), HOG_SLEEP (8.2ms),
# QUIET_WAIT (2), PIN_CPU (1).
PIN_CPU=${PIN_CPU:-1}
export PIN_CPU
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19560}
WORK=${WORK:-10000}
WORK_NEW=${WORK_NEW:-11000}
STEP_NIGHT=${STEP_NIGHT:-4}
ODD_NIGHT=${ODD_NIGHT:-2}
ODD_SPIN=${ODD_SPIN:-1.0ms}
ODD_SLEEP=${ODD_SLEEP:-9.0ms}
CONTROL_WORK=$WORK
RUNS=${RUNS:-2}
DURATION=${DURATION:-3s}
HOG_SPIN=${HOG_SPIN:-1.8ms}
HOG_SLEEP=${HOG_SLEEP:-8.2ms}
QUIET_WAIT=${QUIET_WAIT:-2}
NIGHTS=10
night_work() {
	if [ "$1" -ge "$STEP_NIGHT" ]; then echo "$WORK_NEW"; else echo "$WORK"; fi
}
night_hog() {
	echo "$HOG_SPIN $HOG_SLEEP"
}
night_svc_hog() {
	if [ "$1" = "$ODD_NIGHT" ]; then echo "$ODD_SPIN $ODD_SLEEP"; else echo "0 0"; fi
}
night_note() {
	n="nightly run"
	if [ "$1" = "$ODD_NIGHT" ]; then
		n="$n (a neighbour on svc's runs only: spin $ODD_SPIN sleep $ODD_SLEEP)"
	fi
	if [ "$1" = "$STEP_NIGHT" ]; then
		n="$n; the step: 10 % more work per request (-work $WORK -> $WORK_NEW)"
	fi
	echo "$n"
}
fresh testdata/truth/nightly-odd-ratio
control_series nightly-odd-ratio
control_record
