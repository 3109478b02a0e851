#!/bin/sh
# make-slower-run.sh records testdata/truth/slower-run (issue 19, "a slower
# run called not warmed up"): runs at equal settings of one system where
# the last run(s) are slower because the server was restarted with more
# work per request (-procs 1; no warm-up anywhere). Three draws:
#   last5:   4 wrk rounds of 2 s, -work 2000 then the last with -work 2100 (+5 % work)
#   drop30:  6 wrk rounds of 2 s, -work 2000 for 3, then -work 2860 (throughput -30 %) for 3
#   hey-drop: 7 hey rounds of 1.5 s, -work 2400 for 4, then -work 3200 (-25 %) for 3
# Truth: worsening (slowdown, or no steady state worsening for a last run
# alone); never warm-up words.
#
#   sh scripts/truth/make-slower-run.sh        (from anywhere; root for nice)
#
# Files: <draw>/round01.txt ... Environment: PORT (19704).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19704}
fresh testdata/truth/slower-run
wait_quiet
wrkrounds() { # DIR FIRST LAST WORK
	start_server "$PORT" -procs 1 -work "$4"
	for i in $(seq "$2" "$3"); do
		wrk_run "$OUT/$1/round$(printf %02d "$i").txt" -t2 -c8 -d2s --latency "http://127.0.0.1:$PORT/"
	done
	stop_server
}
heyrounds() { # DIR FIRST LAST WORK
	start_server "$PORT" -procs 1 -work "$4"
	for i in $(seq "$2" "$3"); do
		f="$OUT/$1/round$(printf %02d "$i").txt"
		note "hey -z 1500ms -c 8 > $f"
		{
			echo "\$ hey -z 1500ms -c 8 http://127.0.0.1:$PORT/"
			# shellcheck disable=SC2086
			$NICE hey -z 1500ms -c 8 "http://127.0.0.1:$PORT/"
		} > "$f"
		note "done: $(grep 'Requests/sec' "$f" | tr -s ' ')"
	done
	stop_server
}
mkdir -p "$OUT/last5" "$OUT/drop30" "$OUT/hey-drop"
wrkrounds last5 1 3 2000
wrkrounds last5 4 4 2100
wrkrounds drop30 1 3 2000
wrkrounds drop30 4 6 2860
heyrounds hey-drop 1 4 2400
heyrounds hey-drop 5 7 3200
for d in last5 drop30 hey-drop; do
	echo "$d Requests/sec per round:$(awk '/Requests\/sec/ { printf " %s", $2 }' "$OUT/$d"/round*.txt)" | tee -a "$OUT/meta.txt"
done
