#!/bin/sh
# make-leak-rounds.sh records testdata/truth/leak-rounds (issue 19, "a steady
# state claimed over a leak"): rounds back to back against a truth server
# CPU-bound on one core whose work per request grows with elapsed time
# (-grow G: the work is multiplied by 1 + G·t), so every round is slower
# than the one before and throughput never levels off. Three draws of the
# family, each a fresh server:
#   wrk8:  8 wrk rounds of 2 s (-t2 -c8), -work 2000 -grow 0.02: about +4 % of work per round (+30 % over the series)
#   hey6:  6 hey rounds of 3 s (-c 8), -work 2500 -grow 0.012: about +3.6 % per round
#   wrk10: 10 wrk rounds of 1 s (-t1 -c4), -work 1500 -grow 0.05: about +5 % per round
# Truth: no steady state, worsening (throughput falls round after round to
# the last); never "steady", never warm-up words.
#
#   sh scripts/truth/make-leak-rounds.sh        (from anywhere; root for nice)
#
# Files: <draw>/round01.txt ... Environment: PORT (19701).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19701}
fresh testdata/truth/leak-rounds
wait_quiet
start_server "$PORT" -procs 1 -work 2000 -grow 0.02
mkdir -p "$OUT/wrk8"
for i in $(seq 8); do
	wrk_run "$OUT/wrk8/round$(printf %02d "$i").txt" -t2 -c8 -d2s --latency "http://127.0.0.1:$PORT/"
done
stop_server
start_server "$PORT" -procs 1 -work 2500 -grow 0.012
mkdir -p "$OUT/hey6"
for i in $(seq 6); do
	f="$OUT/hey6/round$(printf %02d "$i").txt"
	note "hey -z 3s -c 8 > $f"
	{
		echo "\$ hey -z 3s -c 8 http://127.0.0.1:$PORT/"
		# shellcheck disable=SC2086
		$NICE hey -z 3s -c 8 "http://127.0.0.1:$PORT/"
	} > "$f"
	note "done: $(grep 'Requests/sec' "$f" | tr -s ' ')"
done
stop_server
start_server "$PORT" -procs 1 -work 1500 -grow 0.05
mkdir -p "$OUT/wrk10"
for i in $(seq 10); do
	wrk_run "$OUT/wrk10/round$(printf %02d "$i").txt" -t1 -c4 -d1s --latency "http://127.0.0.1:$PORT/"
done
stop_server
for d in wrk8 hey6 wrk10; do
	echo "$d Requests/sec per round:$(awk '/^Requests\/sec/ { printf " %s", $2 } /Requests\/sec:/ && !/^Requests/ { printf " %s", $2 }' "$OUT/$d"/round*.txt)" | tee -a "$OUT/meta.txt"
done
