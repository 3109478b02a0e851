#!/usr/bin/env bash
# gen.sh makes the real-* h2load outputs of this folder against
# ingest/internal/testserver -h2c on 127.0.0.1 (h2load from Debian's
# nghttp2-client 1.52.0: apt-get install nghttp2-client). Run from the
# repository root, as root so that nice -n -10 applies:
#   bash ingest/h2load/testdata/h2load/gen.sh
# The "$ h2load ..." prompt lines are printed by this script; the command
# lines and the outputs are real.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=ingest/h2load/testdata/h2load
PORT=${PORT:-19320}
U=http://127.0.0.1:$PORT
go build -o /tmp/h2load-testserver ./ingest/internal/testserver
nice -n -10 /tmp/h2load-testserver -addr 127.0.0.1:$PORT -h2c &
pid=$!
trap 'kill $pid' EXIT
sleep 1
uptime

# run FILE ARGS...: a transcript: prompt and command line, then the output.
run() {
	local f=$1
	shift
	{
		echo "\$ h2load $*"
		nice -n -10 h2load "$@" 2>&1
	} >"$out/$f"
}
run real-h1.txt --h1 -c 4 -n 2000 "$U/ok"                      # HTTP/1.1
run real-h2.txt -c 4 -m 10 -n 4000 "$U/ok"                     # h2c, 10 streams per client
run real-threads.txt -t 2 -c 8 -n 4000 "$U/mixed?every=3"      # two threads, 5xx
run real-duration.txt -c 4 -D 2 --warm-up-time=1 "$U/sleep?ms=2" # timed, with warm-up
run real-refused.txt -c 2 -n 20 "http://127.0.0.1:19329/ok"    # nothing listens: every request errored
nice -n -10 h2load --h1 -c 2 -n 200 "$U/big?kb=16" >"$out/real-bare.txt" 2>&1 # no command line
