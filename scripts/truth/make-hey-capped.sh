#!/bin/sh
# make-hey-capped.sh records testdata/truth/hey-capped (issue 10): hey sends
# 1,100,000 requests (-n 1100000 -c 50) to a truth server that answers at
# once (no work, no delay).
# Truth: 1,100,000 requests, all 200. hey v0.1.5 keeps at most 1,000,000
# results (requester/report.go: const maxRes = 1000000): its status code
# distribution and latency distribution cover the first 1,000,000 only,
# while its "Total" and "Requests/sec" count all 1,100,000 (numRes) and its
# "Average" divides the sum of all 1,100,000 latencies by 1,000,000
# (avgTotal / len(lats)): hey's printed average is 1.1x the true mean.
#
#   sh scripts/truth/make-hey-capped.sh        (from anywhere; root for nice -n -10)
#
# Files: hey/capped.txt (the command line, then hey's text summary).
# Environment: PORT (19109), N (1100000), C (50).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19109}
N=${N:-1100000}
C=${C:-50}
fresh testdata/truth/hey-capped
mkdir -p "$OUT/hey"
wait_quiet
start_server "$PORT"
note "hey -n $N -c $C http://127.0.0.1:$PORT/"
{
	echo "\$ hey -n $N -c $C http://127.0.0.1:$PORT/"
	# shellcheck disable=SC2086
	$NICE hey -n "$N" -c "$C" "http://127.0.0.1:$PORT/"
} > "$OUT/hey/capped.txt"
note "done"
stop_server
grep -E 'Total:|Average:|Requests/sec:|responses' "$OUT/hey/capped.txt" | tee -a "$OUT/meta.txt"
