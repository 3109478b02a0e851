#!/bin/sh
# make-nightly-outlier-first.sh records testdata/truth/nightly-outlier-first
# (issue 31, case 1): 14 nights night01..night14, each $RUNS wrk runs of svc
# and $RUNS of control (an unchanged reference build), interleaved, on
# the truth server (-procs 1; lib.sh's control_series and control_record):
#   svc: -work $WORK nights 1-7, $WORK_NEW (8 % more work a request: a
#        real regression) nights 8-11, $WORK again (the revert) nights 12-14;
#   control: -work $WORK every night;
#   machine: night 1 without a hog (faster: the outlier first night),
#        nights 2-14 under a steady light hog (spin $HOG_SPIN sleep
#        $HOG_SLEEP on the server's CPU: ~12 % of it, scripts/cpuhog).
#
#   flock /tmp/lv-record.lock sh scripts/truth/make-nightly-outlier-first.sh
#
# Environment: PORT (19540; control on PORT+1), WORK (10000), WORK_NEW
# (10800), RUNS (2), DURATION (3s), HOG_SPIN (1.8ms), HOG_SLEEP (8.2ms),
# QUIET_WAIT (2), PIN_CPU (1).
PIN_CPU=${PIN_CPU:-1}
export PIN_CPU
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19540}
WORK=${WORK:-10000}
WORK_NEW=${WORK_NEW:-10800}
CONTROL_WORK=$WORK
RUNS=${RUNS:-2}
DURATION=${DURATION:-3s}
HOG_SPIN=${HOG_SPIN:-1.8ms}
HOG_SLEEP=${HOG_SLEEP:-8.2ms}
QUIET_WAIT=${QUIET_WAIT:-2}
NIGHTS=14
night_work() {
	if [ "$1" -ge 8 ] && [ "$1" -le 11 ]; then echo "$WORK_NEW"; else echo "$WORK"; fi
}
night_hog() {
	if [ "$1" = 1 ]; then echo "0 0"; else echo "$HOG_SPIN $HOG_SLEEP"; fi
}
night_note() {
	case $1 in
	1) echo "nightly run (the machine faster: no co-running load)" ;;
	8) echo "the regression: 8 % more work per request (-work $WORK -> $WORK_NEW)" ;;
	12) echo "the revert (-work $WORK_NEW -> $WORK)" ;;
	*) echo "nightly run" ;;
	esac
}
fresh testdata/truth/nightly-outlier-first
control_series nightly-outlier-first
control_record
