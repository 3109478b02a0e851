#!/usr/bin/env bash
# gen.sh makes the real-* ghz outputs of this folder against
# scripts/grpcserver (grpc.health.v1.Health with reflection) on 127.0.0.1
# (ghz v0.93.0: go install github.com/bojand/ghz/cmd/ghz@v0.93.0). Run from
# the repository root, as root so that nice -n -10 applies:
#   bash ingest/ghz/testdata/ghz/gen.sh
# The "$ ghz ..." prompt lines are printed by this script; the command lines
# and the outputs are real.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=ingest/ghz/testdata/ghz
G=${GHZ:-$(command -v ghz || echo "$(go env GOPATH)/bin/ghz")}
PORT=${PORT:-19360}
(cd scripts/grpcserver && go build -o /tmp/ghz-grpcserver .)
nice -n -10 /tmp/ghz-grpcserver -addr 127.0.0.1:$PORT -delay 1ms -fail-every 5 &
pid=$!
nice -n -10 /tmp/ghz-grpcserver -addr 127.0.0.1:$((PORT + 1)) -delay 1500ms &
pid2=$!
trap 'kill $pid $pid2' EXIT
sleep 1
uptime
CALL=(--insecure --call grpc.health.v1.Health/Check)

# run FILE ARGS...: a transcript: prompt and command line, then the output.
run() {
	local f=$1
	shift
	{
		echo "\$ ghz $*"
		nice -n -10 "$G" "$@" 2>&1
	} >"$out/$f"
}
run real-errors.txt "${CALL[@]}" -c 4 -n 400 127.0.0.1:$PORT                # every 5th call Unavailable
run real-rps.txt "${CALL[@]}" -c 4 -z 2s --rps 200 127.0.0.1:$PORT         # rate limited, timed
run real-timeout.txt "${CALL[@]}" -c 2 -n 6 -t 1s 127.0.0.1:$((PORT + 1))  # DeadlineExceeded
nice -n -10 "$G" "${CALL[@]}" -c 2 -n 100 127.0.0.1:$PORT >"$out/real-bare.txt" 2>&1 # no command line
# -O json: the summary and every call (details).
nice -n -10 "$G" "${CALL[@]}" -c 4 -n 500 -O json 127.0.0.1:$PORT >"$out/real-errors.json"
nice -n -10 "$G" "${CALL[@]}" -c 2 -n 6 -t 1s -O json 127.0.0.1:$((PORT + 1)) >"$out/real-timeout.json"
