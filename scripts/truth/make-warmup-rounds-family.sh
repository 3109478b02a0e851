#!/bin/sh
# make-warmup-rounds-family.sh records testdata/truth/warmup-rounds-family
# (issue 19, "a warm-up across rounds called a level shift"): rounds back
# to back against a truth server that is slow for its first seconds and
# then warm. The server's cost is a wait per request (-delay), so
# throughput is about connections / delay and other processes' CPU load
# moves it little (a first take with CPU-bound servers, under a load
# average of 23 on 2 CPUs, varied by 30-60 % between warm rounds). Three
# draws, each a fresh server:
#   wrk10: 10 wrk rounds of 2 s (-t2 -c16), -delay 10ms -warmup 6s -warmup-factor 3 (linear):
#          rounds 1-3 warming (0-6 s), warm from round 4
#   hey8:  8 hey rounds of 1.5 s (-c 16), -delay 8ms -warmup 4s -warmup-factor 2.5 -warmup-steps 2:
#          2.5x for 2 s, 1.75x for 2 s; rounds 1-3 slow (0-4.5 s), warm from round 4
#   wrk12: 12 wrk rounds of 1 s (-t2 -c16), -delay 5ms -warmup 5s -warmup-factor 2.5 -warmup-steps 1:
#          2.5x for 5 s then 1x (abrupt); rounds 1-5 slow, warm from round 6
# Each round starts some tens of ms after the previous one ends, so a
# round that straddles the end of the warm-up may be partly warm: the
# truth is warmup, steady from the round named or the next one.
#
#   NICE_LEVEL=-20 sh scripts/truth/make-warmup-rounds-family.sh        (from anywhere; root for nice)
#
# Files: <draw>/round01.txt ... Environment: PORT (19703).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19703}
fresh testdata/truth/warmup-rounds-family
wait_quiet
heyround() { # FILE DURATION
	note "hey -z $2 -c 16 > $1"
	{
		echo "\$ hey -z $2 -c 16 http://127.0.0.1:$PORT/"
		# shellcheck disable=SC2086
		$NICE hey -z "$2" -c 16 "http://127.0.0.1:$PORT/"
	} > "$1"
	note "done: $(grep 'Requests/sec' "$1" | tr -s ' ')"
}
start_server "$PORT" -delay 10ms -warmup 6s -warmup-factor 3
mkdir -p "$OUT/wrk10"
for i in $(seq 10); do
	wrk_run "$OUT/wrk10/round$(printf %02d "$i").txt" -t2 -c16 -d2s --latency "http://127.0.0.1:$PORT/"
done
stop_server
start_server "$PORT" -delay 8ms -warmup 4s -warmup-factor 2.5 -warmup-steps 2
mkdir -p "$OUT/hey8"
for i in $(seq 8); do
	heyround "$OUT/hey8/round$(printf %02d "$i").txt" 1500ms
done
stop_server
start_server "$PORT" -delay 5ms -warmup 5s -warmup-factor 2.5 -warmup-steps 1
mkdir -p "$OUT/wrk12"
for i in $(seq 12); do
	wrk_run "$OUT/wrk12/round$(printf %02d "$i").txt" -t2 -c16 -d1s --latency "http://127.0.0.1:$PORT/"
done
stop_server
for d in wrk10 hey8 wrk12; do
	echo "$d Requests/sec per round:$(awk '/Requests\/sec/ { printf " %s", $2 }' "$OUT/$d"/round*.txt)" | tee -a "$OUT/meta.txt"
done
