#!/bin/sh
# Regenerates the real vegeta outputs of this folder (see README.md in
# ingest/testdata) with vegeta v12.13.0 against ingest/internal/testserver
# on the loopback interface:
#
#   go install github.com/tsenart/vegeta/v12@v12.13.0
#   sh ingest/vegeta/testdata/vegeta/make-data.sh        (from the repository root)
#
# The "$ " prompts and command lines of report-transcript.txt are printed by
# this script; the outputs under them are real.
set -eu
V=${VEGETA:-$(go env GOPATH)/bin/vegeta}
PORT=${PORT:-19000}
U=http://127.0.0.1:$PORT
D=ingest/vegeta/testdata/vegeta
T=$(mktemp -d)
go build -o "$T/testserver" ./ingest/internal/testserver
"$T/testserver" -addr 127.0.0.1:$PORT &
SRV=$!
trap 'kill $SRV; rm -rf "$T"' EXIT
for i in $(seq 1 50); do curl -s -o /dev/null $U/ok && break; sleep 0.1; done

# Per-request results.
echo "GET $U/ok" | $V attack -rate=100 -duration=2s -name=ok > "$T/ok.gob"
printf 'GET %s\n\nGET %s\n' "$U/ok" "$U/sleep?ms=5" | $V attack -rate=200 -duration=2s > "$T/two.gob"
# 500s from /mixed (every 4th request) and timeouts (-timeout=200ms) from /sleep?ms=300.
printf 'GET %s\n\nGET %s\n' "$U/mixed?every=4" "$U/sleep?ms=300" | $V attack -rate=60 -duration=2s -timeout=200ms -name=errors > "$T/errors.gob"
cp "$T/ok.gob" $D/results-ok.gob
gzip -9n < "$T/two.gob" > $D/results-two-targets.gob.gz
$V encode --to json "$T/two.gob" | gzip -9n > $D/results-two-targets.json.gz
$V encode --to json "$T/errors.gob" > $D/results-errors.json
$V encode --to csv "$T/errors.gob" > $D/results-errors.csv
$V encode --to csv "$T/ok.gob" | gzip -9n > $D/results-ok.csv.gz

# Reports of the same results.
$V report "$T/errors.gob" > $D/report-errors.txt
$V report -type=json "$T/errors.gob" > $D/report-errors.json
$V report -type=json "$T/ok.gob" > $D/report-ok.json
$V report -type=hdrplot "$T/ok.gob" > $D/hdrplot-ok.txt
$V report -type=hdrplot "$T/errors.gob" > $D/hdrplot-errors.txt
# -every: a cumulative report every second, one after the other.
echo "GET $U/ok" | $V attack -rate=200 -duration=3s | tee "$T/every.gob" | $V report -every=1s -output=$D/report-every.txt
echo "GET $U/ok" | $V attack -rate=150 -duration=2500ms | $V report -type=json -every=1s -output=$D/report-every.json

# A transcript: commands with their reports.
{
	run() { printf '$ %s\n' "$1"; sh -c "$1"; printf '\n'; }
	run "echo \"GET $U/ok\" | $V attack -rate=100 -duration=2s -name=ok | tee /dev/null | $V report"
	run "echo 'GET $U/mixed?every=5' | $V attack -duration=2s -rate=50/1s | $V report"
	run "echo \"GET $U/sleep?ms=300\" | $V attack -rate 50 -duration 2s -timeout=200ms | $V report"
	run "echo \"GET $U/sleep?ms=20\" | $V attack -rate=0 -max-workers=4 -duration=1s | $V report"
	printf '$ %s\n' "$V report errors.gob"
	$V report "$T/errors.gob"
} | sed "s|$V|vegeta|g" > $D/report-transcript.txt
