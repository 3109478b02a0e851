#!/bin/sh
# make-warmup-rounds-family.sh records testdata/truth/warmup-rounds-family
# (issue 19, "a warm-up across rounds called a level shift"): rounds back
# to back against a truth server CPU-bound on one core that is slow for
# its first seconds and then warm. Three draws, each a fresh server:
#   wrk10: 10 wrk rounds of 2 s, -work 2000 -warmup 6s -warmup-factor 2.5 (linear):
#          rounds 1-3 warming (0-6 s), warm from round 4
#   hey8:  8 hey rounds of 1.5 s, -work 2500 -warmup 4s -warmup-factor 2 -warmup-steps 2:
#          2x for 2 s, 1.5x for 2 s; rounds 1-3 slow (0-4.5 s), warm from round 4
#   wrk12: 12 wrk rounds of 1 s, -work 1500 -warmup 5s -warmup-factor 1.5 -warmup-steps 1:
#          1.5x for 5 s then 1x (abrupt); rounds 1-5 slow, warm from round 6
# Each round starts some tens of ms after the previous one ends, so a
# round that straddles the end of the warm-up may be partly warm: the
# truth is warmup, steady from the round named or the next one.
#
#   sh scripts/truth/make-warmup-rounds-family.sh        (from anywhere; root for nice)
#
# Files: <draw>/round01.txt ... Environment: PORT (19703).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19703}
fresh testdata/truth/warmup-rounds-family
wait_quiet
start_server "$PORT" -procs 1 -work 2000 -warmup 6s -warmup-factor 2.5
mkdir -p "$OUT/wrk10"
for i in $(seq 10); do
	wrk_run "$OUT/wrk10/round$(printf %02d "$i").txt" -t2 -c8 -d2s --latency "http://127.0.0.1:$PORT/"
done
stop_server
start_server "$PORT" -procs 1 -work 2500 -warmup 4s -warmup-factor 2 -warmup-steps 2
mkdir -p "$OUT/hey8"
for i in $(seq 8); do
	f="$OUT/hey8/round$(printf %02d "$i").txt"
	note "hey -z 1500ms -c 8 > $f"
	{
		echo "\$ hey -z 1500ms -c 8 http://127.0.0.1:$PORT/"
		# shellcheck disable=SC2086
		$NICE hey -z 1500ms -c 8 "http://127.0.0.1:$PORT/"
	} > "$f"
	note "done: $(grep 'Requests/sec' "$f" | tr -s ' ')"
done
stop_server
start_server "$PORT" -procs 1 -work 1500 -warmup 5s -warmup-factor 1.5 -warmup-steps 1
mkdir -p "$OUT/wrk12"
for i in $(seq 12); do
	wrk_run "$OUT/wrk12/round$(printf %02d "$i").txt" -t1 -c4 -d1s --latency "http://127.0.0.1:$PORT/"
done
stop_server
for d in wrk10 hey8 wrk12; do
	echo "$d Requests/sec per round:$(awk '/Requests\/sec/ { printf " %s", $2 }' "$OUT/$d"/round*.txt)" | tee -a "$OUT/meta.txt"
done
