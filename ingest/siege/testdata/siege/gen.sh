#!/usr/bin/env bash
# gen.sh makes the real-* siege outputs of this folder against
# ingest/internal/testserver on 127.0.0.1 (siege 4.0.7 from Debian:
# apt-get install siege). Run from the repository root, as root so that
# nice -n -10 applies:
#   bash ingest/siege/testdata/siege/gen.sh
# siege reads ~/.siege/siege.conf, whose Debian template turns JSON output
# on; the runs here use their own resource file (-R) instead. The
# "$ siege ..." prompt lines are printed by this script; the command lines
# and the outputs (stdout and stderr, as a terminal shows them) are real.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=ingest/siege/testdata/siege
PORT=${PORT:-19330}
U=http://127.0.0.1:$PORT
go build -o /tmp/siege-testserver ./ingest/internal/testserver
nice -n -10 /tmp/siege-testserver -addr 127.0.0.1:$PORT &
pid=$!
rc=$(mktemp)
trap 'kill $pid; rm -f "$rc"' EXIT
sleep 1
uptime
printf 'verbose = false\ncolor = off\nquiet = false\njson_output = false\nshow-logfile = false\nlogging = false\nprotocol = HTTP/1.1\nconnection = keep-alive\nlimit = 255\nfailures = 1024\n' >"$rc"

# run FILE ARGS...: a transcript: prompt and command line, then the output.
run() {
	local f=$1
	shift
	{
		echo "\$ siege $*"
		nice -n -10 siege -R "$rc" "$@" 2>&1
	} >"$out/$f"
}
run real-ok.txt -b -c 4 -t 2S "$U/ok"                          # benchmark mode, timed
run real-reps.txt -c 4 -r 50 "$U/mixed?every=3"                # repetitions, 5xx (failed)
run real-close.txt -c 2 -r 20 "$U/close?every=3"               # connections closed: socket failures
run real-verbose.txt -v -c 2 -r 3 "$U/mixed?every=3"           # per-request lines
nice -n -10 siege -R "$rc" -b -c 2 -r 100 "$U/sleep?ms=5" >"$out/real-bare.txt" 2>&1 # no command line
# -j (--json-output): the summary as JSON on stdout.
nice -n -10 siege -R "$rc" -j -b -c 4 -t 2S "$U/ok" >"$out/real-ok.json" 2>/dev/null
nice -n -10 siege -R "$rc" -j -c 2 -r 20 "$U/close?every=3" >"$out/real-close.json" 2>/dev/null
