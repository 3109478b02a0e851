#!/bin/sh
# make-nightly-drift.sh records testdata/truth/nightly-drift (issue 20): 10
# nightly experiments night01..night10 of one service, one a day, each 3 wrk
# runs (-t1 -c8 -d3s --latency), each against a freshly started truth server on
# 127.0.0.1:$PORT, CPU-bound on one core (-procs 1), whose work per request
# grows 2 % a night: -work round($WORK * 1.02^(night-1)), 20000 to 23902
# (19.5 % more work by night10; no step anywhere). Tests take the first 1, 2
# or 3 runs of each night (cmd/loadverdict/history_test.go). Each night's
# loadverdict.yaml gives series: and meta:; nights.tsv the same and -work.
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
fresh testdata/truth/nightly-drift
printf 'night\tcommit\tdate\twork\tnote\n' > "$OUT/nights.tsv"
for e in $(seq "$NIGHTS"); do
	exp=$(printf 'night%02d' "$e")
	mkdir -p "$OUT/$exp"
	work=$(awk -v w="$WORK" -v e="$e" 'BEGIN { printf "%d", w * 1.02 ^ (e - 1) + 0.5 }')
	note="nightly run: 2 % more work per request than the night before"
	if [ "$e" = 1 ]; then note="nightly run: the first"; fi
	commit=$(printf 'loadverdict nightly drift %s' "$exp" | sha1sum | cut -c1-12)
	date=$(date -u -d "2026-11-10 + $e days" +%Y-%m-%d)
	printf '%s\t%s\t%s\t%s\t%s\n' "$exp" "$commit" "$date" "$work" "$note" >> "$OUT/nights.tsv"
	cat > "$OUT/$exp/loadverdict.yaml" <<EOT
# The series this night belongs to, and what it measured (see README.md).
series: nightly-drift
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
		stop_server
	done
done
echo "Requests/sec per night (wrk):"
for e in $(seq "$NIGHTS"); do
	exp=$(printf 'night%02d' "$e")
	printf '%s ' "$exp"
	awk '/^Requests\/sec/ { printf " %s", $2 }' "$OUT/$exp"/wrk*.txt
	echo
done | tee -a "$OUT/meta.txt"
