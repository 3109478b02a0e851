#!/bin/sh
# make-nightly-step.sh records testdata/truth/nightly-step (issue 20): 8
# nightly experiments night01..night08 of one service, one a day, each 3 wrk
# runs (-t1 -c8 -d3s --latency) and 3 vegeta runs (closed model: -rate=0
# -max-workers=8 -duration=3s), alternating, each against a freshly started truth
# server on 127.0.0.1:$PORT, CPU-bound on one core (-procs 1):
#   night01-night03: -work $WORK_OLD
#   night04-night08: -work $WORK_NEW (10 % more work per request: the step, at night04)
# Tests take the first 1, 2 or 3 runs of each night and one tool at a time
# (cmd/loadverdict/history_test.go), so one recording stands for 1, 2 and 3
# runs a night with either tool. Each night's loadverdict.yaml gives series:
# and meta: (a made-up commit id, one date a day); nights.tsv the same and the
# -work setting.
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
fresh testdata/truth/nightly-step
printf 'night\tcommit\tdate\twork\tnote\n' > "$OUT/nights.tsv"
for e in $(seq "$NIGHTS"); do
	exp=$(printf 'night%02d' "$e")
	mkdir -p "$OUT/$exp"
	work=$WORK_OLD
	note="nightly run"
	if [ "$e" -ge "$STEP" ]; then work=$WORK_NEW; fi
	if [ "$e" = "$STEP" ]; then note="the step: 10 % more work per request (-work $WORK_OLD -> $WORK_NEW)"; fi
	commit=$(printf 'loadverdict nightly step %s' "$exp" | sha1sum | cut -c1-12)
	date=$(date -u -d "2026-11-10 + $e days" +%Y-%m-%d)
	printf '%s\t%s\t%s\t%s\t%s\n' "$exp" "$commit" "$date" "$work" "$note" >> "$OUT/nights.tsv"
	cat > "$OUT/$exp/loadverdict.yaml" <<EOT
# The series this night belongs to, and what it measured (see README.md).
series: nightly-step
meta:
  commit: $commit
  version: work-$work
  branch: main
  date: $date
  note: "$note"
EOT
done
# Round-robin: run r of every night, then run r+1, so that the load of
# this shared machine, which changes over the recording, falls on every
# night alike instead of making later nights slower (a drift that is not
# the truth). Each run gets a freshly started server with its night's -work.
for r in $(seq "$RUNS"); do
	for e in $(seq "$NIGHTS"); do
		exp=$(printf 'night%02d' "$e")
		work=$(awk -F'\t' -v n="$exp" '$1 == n { print $4 }' "$OUT/nights.tsv")
		wait_quiet
		start_server "$PORT" -procs 1 -work "$work"
		wrk_run "$OUT/$exp/wrk$r.txt" -t1 -c8 -d"$DURATION" --latency "http://127.0.0.1:$PORT/"
		vegeta_text "$OUT/$exp/vegeta$r.txt" "http://127.0.0.1:$PORT/" -rate=0 -max-workers=8 -duration="$DURATION"
		stop_server
	done
done
echo "Requests/sec per night (wrk; vegeta):"
for e in $(seq "$NIGHTS"); do
	exp=$(printf 'night%02d' "$e")
	printf '%s ' "$exp"
	awk '/^Requests\/sec/ { printf " %s", $2 }' "$OUT/$exp"/wrk*.txt
	printf ';'
	awk '/^Requests/ { printf " %s", $5 }' "$OUT/$exp"/vegeta*.txt
	echo
done | tee -a "$OUT/meta.txt"
