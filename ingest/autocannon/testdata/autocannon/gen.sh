#!/usr/bin/env bash
# gen.sh makes the real-* autocannon outputs of this folder against
# ingest/internal/testserver on 127.0.0.1 (autocannon 9.0.0 on node 20:
# npm install autocannon@9.0.0 in a scratch folder, AUTOCANNON=its
# node_modules/.bin/autocannon). Run from the repository root, as root so
# that nice -n -10 applies:
#   AUTOCANNON=/path/to/autocannon bash ingest/autocannon/testdata/autocannon/gen.sh
# The "$ autocannon ..." prompt lines are printed by this script; the
# command lines and the outputs (stderr, where autocannon writes its
# tables, and stdout) are real.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=ingest/autocannon/testdata/autocannon
A=${AUTOCANNON:-autocannon}
PORT=${PORT:-19340}
U=http://127.0.0.1:$PORT
go build -o /tmp/autocannon-testserver ./ingest/internal/testserver
nice -n -10 /tmp/autocannon-testserver -addr 127.0.0.1:$PORT &
pid=$!
trap 'kill $pid' EXIT
sleep 1
uptime

# run FILE ARGS...: a transcript: prompt and command line, then the output.
run() {
	local f=$1
	shift
	{
		echo "\$ autocannon $*"
		nice -n -10 "$A" "$@" 2>&1
	} >"$out/$f"
}
run real-ok.txt -c 10 -d 2 "$U/ok"                                  # default tables
run real-latency.txt -c 4 -d 2 -l --renderStatusCodes "$U/mixed?every=3" # -l percentile table, status codes, non 2xx
run real-timeout.txt -c 2 -d 3 -t 1 "$U/sleep?ms=1500"              # timeouts: "N errors (N timeouts)"
run real-amount.txt -c 4 -a 3000 -p 2 "$U/sleep?ms=1"               # -a amount, pipelining
nice -n -10 "$A" -c 2 -d 1 "$U/big?kb=32" >"$out/real-bare.txt" 2>&1 # no command line
# -j: one JSON object per run.
nice -n -10 "$A" -c 4 -d 2 -j "$U/mixed?every=3" >"$out/real-mixed.json" 2>/dev/null
nice -n -10 "$A" -c 2 -d 3 -t 1 -j "$U/sleep?ms=1500" >"$out/real-timeout.json" 2>/dev/null
