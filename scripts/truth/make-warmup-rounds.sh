#!/bin/sh
# make-warmup-rounds.sh records testdata/truth/warmup-rounds (issue 10): ten
# 8 s wrk rounds back to back (-t2 -c16 -d8s --latency) against a truth
# server CPU-bound on one core (-procs 1 -work 3000, ~0.24 ms of hashing per
# request) whose work is 3x larger for the first 30 s after its first
# request, falling linearly over those 30 s (-warmup 30s -warmup-factor 3:
# 9000 iterations at 0 s, 6000 at 15 s, 3000 from 30 s on), like a JIT.
# Truth: warm-up over rounds 1-4 (0-32 s; round 4 is warm from 30 s on, its
# last quarter); steady from round 5 on; round throughput rises from about
# a third of the steady value, then stays flat.
#
# The committed data was made with NICE_LEVEL=-20 (see make-series.sh). A
# first attempt with a sleeping server (-delay 3ms) varied by 12 % between
# steady rounds on this shared machine (timer wake-ups under others' load),
# so the warm-up is CPU work, as a JIT's is.
#
#   NICE_LEVEL=-20 sh scripts/truth/make-warmup-rounds.sh        (from anywhere; root for nice)
#
# Files: wrk/round01.txt .. wrk/round10.txt.
# Environment: PORT (19104), ROUNDS (10), DURATION (8s).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19104}
ROUNDS=${ROUNDS:-10}
DURATION=${DURATION:-8s}
fresh testdata/truth/warmup-rounds
mkdir -p "$OUT/wrk"
wait_quiet
start_server "$PORT" -procs 1 -work 3000 -warmup 30s -warmup-factor 3
for i in $(seq "$ROUNDS"); do
	wrk_run "$OUT/wrk/round$(printf %02d "$i").txt" -t2 -c16 -d"$DURATION" --latency "http://127.0.0.1:$PORT/"
done
stop_server
echo "Requests/sec per round:" | tee -a "$OUT/meta.txt"
awk '/^Requests\/sec/ { printf " %s", $2 } END { print "" }' "$OUT"/wrk/round*.txt | tee -a "$OUT/meta.txt"
