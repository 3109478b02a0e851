#!/usr/bin/env bash
# gen.sh makes the real-* Fortio outputs of this folder against
# ingest/internal/testserver on 127.0.0.1 (Fortio 1.68.2:
# go install fortio.org/fortio@v1.68.2; later versions need a module the
# Go proxy here does not serve). Run from the repository root, as root so
# that nice -n -10 applies:
#   bash ingest/fortio/testdata/fortio/gen.sh
# The "$ fortio ..." prompt lines are printed by this script; the command
# lines and the outputs (stderr, where fortio writes, with its log lines)
# are real.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=ingest/fortio/testdata/fortio
F=${FORTIO:-$(command -v fortio || echo "$(go env GOPATH)/bin/fortio")}
PORT=${PORT:-19350}
U=http://127.0.0.1:$PORT
go build -o /tmp/fortio-testserver ./ingest/internal/testserver
nice -n -10 /tmp/fortio-testserver -addr 127.0.0.1:$PORT &
pid=$!
trap 'kill $pid' EXIT
sleep 1
uptime

# run FILE ARGS...: a transcript: prompt and command line, then the output.
run() {
	local f=$1
	shift
	{
		echo "\$ fortio $*"
		nice -n -10 "$F" "$@" 2>&1
	} >"$out/$f"
}
run real-qps.txt load -logger-json=false -qps 200 -c 4 -t 2s "$U/ok"                      # fixed rate
run real-max.txt load -logger-json=false -qps -1 -c 8 -t 2s "$U/sleep?ms=1"               # as fast as possible
run real-errors.txt load -logger-json=false -allow-initial-errors -qps 100 -c 2 -n 200 "$U/mixed?every=3" # 500s, -n
run real-timeout.txt load -logger-json=false -allow-initial-errors -qps 4 -c 2 -t 3s -timeout 500ms "$U/sleep?ms=1000" # timeouts: code -1
nice -n -10 "$F" load -quiet -qps 50 -c 2 -t 1s "$U/ok" >"$out/real-quiet.txt" 2>&1         # -quiet: no command line
# -json: the result as JSON.
nice -n -10 "$F" load -quiet -allow-initial-errors -qps 100 -c 2 -t 2s -json "$out/real-errors.json" "$U/mixed?every=3" >/dev/null 2>&1
nice -n -10 "$F" load -quiet -qps -1 -c 4 -n 2000 -json "$out/real-max.json" "$U/ok" >/dev/null 2>&1
