#!/bin/sh
# make-vegeta-data.sh records the JVM cold-start data set of ingest's tests:
# vegeta attacks a freshly started (cold) ColdServer at a constant 800
# requests per second for 20 s; the per-request results, encoded as JSON
# lines and gzipped, become ingest/vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz.
#
#   go install github.com/tsenart/vegeta/v12@v12.13.0
#   sh scripts/coldjvm/make-vegeta-data.sh [OUT]     (from anywhere)
#
# Steps: start `java ColdServer.java PORT` (the source launcher: a cold
# JVM, nothing compiled yet), wait until it answers one request, wait one
# more second, attack http://127.0.0.1:PORT/work with
# `vegeta attack -rate=800 -duration=20s` (gob results), stop the server,
# encode the results to JSON lines and gzip them. The per-second mean
# latency is printed at the end: it falls during the first seconds while
# the JIT compiles the server's code, then levels off.
#
# JVM flags (JAVA_FLAGS, default below):
#   -Dsun.net.httpserver.nodelay=true  sets TCP_NODELAY on the JDK HTTP
#       server's connections. Without it the server writes headers and body
#       in two segments and Nagle's algorithm holds the body until the
#       client's delayed ACK (~40 ms): every keep-alive request then takes
#       ~40 ms whatever the JIT does, which hides the warm-up entirely.
#   -XX:CompileThresholdScaling=30  multiplies every JIT compilation
#       threshold (interpreter -> C1 -> C2) by 30. With the default
#       thresholds the warm-up is over within the first second on an idle
#       2-CPU machine (per-second means 4.4 ms, then 0.55 ms, flat); scaled,
#       the mean falls from ~1.8 ms to ~0.55 ms over about 6 s and then
#       levels off, which is what the test data is for. The server still
#       reaches C2 (unlike -XX:TieredStopAtLevel=1, which is not wanted);
#       -XX:-TieredCompilation would also do.
# Record on an otherwise idle machine: other processes competing for the
# CPUs (compilers, fuzzers) add stalls of tens of ms to seconds.
#
# The committed ingest/vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz was
# recorded with the defaults (OpenJDK 17.0.15, vegeta v12.13.0, 2 CPUs):
# per-second means 1.77 1.25 1.27 0.93 0.84 0.64 0.60 0.56 0.62 0.58 0.53
# 0.56 0.53 0.47 0.52 0.54 0.52 0.44 0.47 0.52 ms: level from 6 s on.
#
# Environment: PORT (default 19010), VEGETA (default $(go env GOPATH)/bin/vegeta),
# RATE (800), DURATION (20s).
set -eu
cd "$(dirname "$0")/../.."
OUT=${1:-ingest/vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz}
PORT=${PORT:-19010}
RATE=${RATE:-800}
DURATION=${DURATION:-20s}
V=${VEGETA:-$(go env GOPATH)/bin/vegeta}
JAVA_FLAGS=${JAVA_FLAGS:--Dsun.net.httpserver.nodelay=true -XX:CompileThresholdScaling=30}
U=http://127.0.0.1:$PORT/work
T=$(mktemp -d)
SRV=
cleanup() {
	if [ -n "$SRV" ]; then kill "$SRV" 2>/dev/null || true; fi
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

# shellcheck disable=SC2086 # JAVA_FLAGS is a list of flags
java $JAVA_FLAGS scripts/coldjvm/ColdServer.java "$PORT" > "$T/server.log" 2>&1 &
SRV=$!
i=0
until curl -s -o /dev/null --max-time 5 "$U"; do
	i=$((i + 1))
	if [ $i -gt 600 ] || ! kill -0 "$SRV" 2>/dev/null; then
		echo "ColdServer did not answer on port $PORT:" >&2
		cat "$T/server.log" >&2
		exit 1
	fi
	sleep 0.05
done
sleep 1
echo "GET $U" | "$V" attack -rate="$RATE" -duration="$DURATION" > "$T/results.gob"
kill "$SRV"
wait "$SRV" 2>/dev/null || true
SRV=
"$V" report "$T/results.gob"
"$V" encode --to json "$T/results.gob" | gzip -9n > "$OUT"
ls -l "$OUT"
echo "second  requests  mean latency"
"$V" encode --to csv "$T/results.gob" | awk -F, '
	NR == 1 { t0 = $1 }
	{ s = int(($1 - t0) / 1e9); n[s]++; sum[s] += $3; if (s > last) last = s }
	END { for (i = 0; i <= last; i++) if (n[i]) printf "%6d  %8d  %9.3f ms\n", i, n[i], sum[i] / n[i] / 1e6 }'
