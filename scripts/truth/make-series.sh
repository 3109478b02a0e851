#!/bin/sh
# make-series.sh records testdata/truth/series (issue 12): 8 experiments
# exp01..exp08, one a day in a pretend nightly job, each 4 wrk runs
# (-t2 -c16 -d6s --latency) against a freshly started truth server on
# 127.0.0.1:$PORT, CPU-bound on one core (-procs 1):
#   exp01-exp04, exp06-exp08: undisturbed
#   exp01-exp04: -work $WORK_OLD;  exp05-exp08: -work $WORK_NEW (12 % more work: the real change, at exp05)
#   exp03: run while one busy loop per CPU, at the server's priority, loads the machine on purpose
# series.tsv records per experiment a made-up commit id, a date (one day
# apart), the -work setting and a note; each experiment's loadverdict.yaml
# says the same as series: and meta:, for loadverdict history.
#
#   NICE_LEVEL=-20 sh scripts/truth/make-series.sh        (from anywhere; root for nice)
#
# The committed data was made with NICE_LEVEL=-20: at -10 the run-to-run
# noise of this shared 2-CPU machine (load 8-14 from other sessions'
# compiles) was as large as the change (CV up to 9 % within one experiment).
# Before each experiment the script waits up to 120 s for a quiet moment.
#
# Environment: PORT (19121), WORK_OLD (3000), WORK_NEW (3360), RUNS (4), DURATION (6s).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19121}
WORK_OLD=${WORK_OLD:-3000}
WORK_NEW=${WORK_NEW:-3360}
RUNS=${RUNS:-4}
DURATION=${DURATION:-6s}
fresh testdata/truth/series
printf 'experiment\tcommit\tdate\twork\tnote\n' > "$OUT/series.tsv"
for e in 1 2 3 4 5 6 7 8; do
	exp=exp0$e
	mkdir -p "$OUT/$exp"
	work=$WORK_OLD
	note="nightly run"
	if [ $e -ge 5 ]; then work=$WORK_NEW; fi
	if [ $e = 5 ]; then note="the real change: 12 % more work per request (-work $WORK_OLD -> $WORK_NEW)"; fi
	if [ $e = 3 ]; then note="disturbed on purpose: foreign CPU load (busy loops) during all runs"; fi
	# A made-up but stable commit id and one date a day.
	commit=$(printf 'loadverdict truth series %s' "$exp" | sha1sum | cut -c1-12)
	date=$(date -u -d "2026-11-20 + $e days" +%Y-%m-%d)
	printf '%s\t%s\t%s\t%s\t%s\n' "$exp" "$commit" "$date" "$work" "$note" >> "$OUT/series.tsv"
	# The same as the experiment's manifest, which loadverdict history reads.
	cat > "$OUT/$exp/loadverdict.yaml" <<EOF
# The series this experiment belongs to, and what it measured (see README.md).
series: truth-series
meta:
  commit: $commit
  version: work-$work
  branch: main
  date: $date
  note: "$note"
EOF
	wait_quiet
	start_server "$PORT" -procs 1 -work "$work"
	if [ $e = 3 ]; then disturb_start; fi
	for i in $(seq "$RUNS"); do
		wrk_run "$OUT/$exp/run$i.txt" -t2 -c16 -d"$DURATION" --latency "http://127.0.0.1:$PORT/"
	done
	if [ $e = 3 ]; then disturb_stop; fi
	stop_server
done
echo "Requests/sec per experiment:"
for e in 1 2 3 4 5 6 7 8; do
	printf 'exp0%s ' "$e"
	awk '/^Requests\/sec/ { printf " %s", $2; s += $2; n++ } END { printf "   mean %.1f\n", s / n }' "$OUT/exp0$e"/run*.txt
done | tee -a "$OUT/meta.txt"
