#!/usr/bin/env bash
# gen.sh makes the real-* bombardier outputs of this folder against
# ingest/internal/testserver on 127.0.0.1 (bombardier v1.2.6:
# go install github.com/codesenberg/bombardier@v1.2.6). Run from the
# repository root, as root so that nice -n -10 applies:
#   bash ingest/bombardier/testdata/bombardier/gen.sh
# The "$ bombardier ..." prompt lines are printed by this script; the
# command lines and the outputs are real.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=ingest/bombardier/testdata/bombardier
B=${BOMBARDIER:-$(command -v bombardier || echo "$(go env GOPATH)/bin/bombardier")}
PORT=${PORT:-19310}
U=http://127.0.0.1:$PORT
go build -o /tmp/bombardier-testserver ./ingest/internal/testserver
nice -n -10 /tmp/bombardier-testserver -addr 127.0.0.1:$PORT &
pid=$!
trap 'kill $pid' EXIT
sleep 1
uptime

# run FILE ARGS...: a transcript: prompt and command line, then the output.
run() {
	local f=$1
	shift
	{
		echo "\$ bombardier $*"
		nice -n -10 "$B" "$@"
	} >"$out/$f"
}
run real-ok.txt -c 10 -d 2s -l "$U/ok"                          # timed, latency distribution
nice -n -10 "$B" -c 8 -n 5000 "$U/ok" >"$out/real-count.txt"     # count-based, no command line
run real-non2xx.txt -c 8 -d 2s -l "$U/mixed?every=3"            # 5xx codes
run real-errors.txt --http1 -c 4 -n 40 -l "$U/close?every=4"    # net/http client: others and an Errors section
run real-timeout.txt -c 4 -d 2s -t 500ms -l "$U/sleep?ms=1000"  # timeouts, no response at all
run real-rate.txt -c 4 -d 2s -r 200 -p i,r "$U/ok"              # -r, no progress bar
# -o json -p r: one JSON object per run.
nice -n -10 "$B" -c 10 -d 2s -l -o json -p r "$U/ok" >"$out/real-ok.json"
nice -n -10 "$B" -c 4 -d 2s -t 500ms -o json -p r "$U/sleep?ms=1000" >"$out/real-timeout.json"
{
	# Two runs appended to one file (>>), without -l: no latency percentiles.
	nice -n -10 "$B" -c 8 -n 3000 -o json -p r "$U/mixed?every=5"
	nice -n -10 "$B" -c 8 -n 3000 -o json -p r "$U/sleep?ms=2"
} >"$out/real-appended.json"
