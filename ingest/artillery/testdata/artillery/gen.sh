#!/usr/bin/env bash
# gen.sh makes the real-* Artillery outputs of this folder against
# ingest/internal/testserver on 127.0.0.1 with the scripts scripts/ok.yml and
# scripts/timeout.yml (Artillery 2.0.21, the newest that runs on node 20: later
# ones require node 22; npm install --ignore-scripts artillery@2.0.21 in a
# scratch folder, ARTILLERY=its node_modules/.bin/artillery). Run from the
# repository root, as root so that nice -n -10 applies:
#   ARTILLERY=/path/to/artillery bash ingest/artillery/testdata/artillery/gen.sh
# The "$ artillery ..." prompt lines are printed by this script; the command
# lines and the console output are real.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=ingest/artillery/testdata/artillery
A=${ARTILLERY:-artillery}
export PORT=${PORT:-19370}
export ARTILLERY_DISABLE_TELEMETRY=true
go build -o /tmp/artillery-testserver ./ingest/internal/testserver
nice -n -10 /tmp/artillery-testserver -addr 127.0.0.1:$PORT &
pid=$!
trap 'kill $pid' EXIT
sleep 1
uptime

# run FILE ARGS...: a transcript: prompt and command line, then the output.
run() {
	local f=$1
	shift
	{
		echo "\$ artillery $*"
		nice -n -10 "$A" "$@" 2>&1
	} >"$out/$f"
}
run real-ok.txt run --output "$out/real-ok.json" "$out/scripts/ok.yml"
run real-timeout.txt run --output "$out/real-timeout.json" "$out/scripts/timeout.yml"
