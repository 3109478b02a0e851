#!/bin/sh
# make-nightly-swings.sh records testdata/truth/nightly-swings (issue 31,
# case 2), or with STEP_NIGHT set testdata/truth/nightly-swings-step:
# 12 nights night01..night12, each $RUNS wrk runs of svc and $RUNS of
# control (an unchanged reference build), interleaved, on the truth
# server (-procs 1; lib.sh's control_series and control_record). One
# build throughout (svc and control -work $WORK), the machine changed
# between nights by a co-running hog on the server's CPU (scripts/cpuhog,
# spin/sleep, ~12 % of the CPU at 1.8ms/8.2ms):
#   nights 1-3, 10-12: normal (spin $HOG_SPIN sleep $HOG_SLEEP);
#   nights 4-6: varied a little (1.5ms/8.5ms, 2.1ms/7.9ms, 1.65ms/8.35ms);
#   nights 7-9: no hog (the machine clearly faster).
# nightly-swings-step (STEP_NIGHT=8): svc's -work is $WORK_NEW (10 % more
# work a request: a real regression) from night STEP_NIGHT on, hidden by
# the faster machine of nights 7-9 to anything but the control.
#
#   flock /tmp/lv-record.lock sh scripts/truth/make-nightly-swings.sh
#   STEP_NIGHT=8 flock /tmp/lv-record.lock sh scripts/truth/make-nightly-swings.sh
#
# Environment: PORT (19550; control on PORT+1), WORK (10000), WORK_NEW
# (11000), STEP_NIGHT (none), RUNS (2), DURATION (3s), HOG_SPIN (1.8ms),
# HOG_SLEEP (8.2ms), QUIET_WAIT (2), PIN_CPU (1).
PIN_CPU=${PIN_CPU:-1}
export PIN_CPU
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19550}
WORK=${WORK:-10000}
WORK_NEW=${WORK_NEW:-11000}
STEP_NIGHT=${STEP_NIGHT:-}
CONTROL_WORK=$WORK
RUNS=${RUNS:-2}
DURATION=${DURATION:-3s}
HOG_SPIN=${HOG_SPIN:-1.8ms}
HOG_SLEEP=${HOG_SLEEP:-8.2ms}
QUIET_WAIT=${QUIET_WAIT:-2}
NIGHTS=12
night_work() {
	if [ -n "$STEP_NIGHT" ] && [ "$1" -ge "$STEP_NIGHT" ]; then echo "$WORK_NEW"; else echo "$WORK"; fi
}
night_hog() {
	case $1 in
	4) echo "1.5ms 8.5ms" ;;
	5) echo "2.1ms 7.9ms" ;;
	6) echo "1.65ms 8.35ms" ;;
	7 | 8 | 9) echo "0 0" ;;
	*) echo "$HOG_SPIN $HOG_SLEEP" ;;
	esac
}
night_note() {
	n="nightly run"
	case $1 in
	4 | 5 | 6) n="nightly run (the machine varied a little)" ;;
	7 | 8 | 9) n="nightly run (the machine faster: no co-running load)" ;;
	10) n="nightly run (the machine back to normal)" ;;
	esac
	if [ -n "$STEP_NIGHT" ] && [ "$1" = "$STEP_NIGHT" ]; then
		n="$n; the step: 10 % more work per request (-work $WORK -> $WORK_NEW)"
	fi
	echo "$n"
}
if [ -n "$STEP_NIGHT" ]; then
	fresh testdata/truth/nightly-swings-step
	control_series nightly-swings-step
else
	fresh testdata/truth/nightly-swings
	control_series nightly-swings
fi
control_record
