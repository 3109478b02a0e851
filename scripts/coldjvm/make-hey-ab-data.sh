#!/usr/bin/env bash
# make-hey-ab-data.sh makes the hey and ab per-request logs of a cold JVM's
# warm-up, the test data of "hey -o csv and ab -g data from the same kind of
# run give the same class":
#
#   ingest/hey/testdata/hey/hey-coldjvm.csv.gz  hey -z 20s -c 8 -o csv  (offsets, 0.1 ms latencies)
#   ingest/ab/testdata/ab/ab-coldjvm.tsv.gz    ab -t 20 -n 1000000 -c 8 -g  (1 s start times, 1 ms latencies)
#
# Each run gets a fresh ColdServer (java ColdServer.java PORT, beside this
# script), so both see the JIT warm up from a cold start. The server is
# polled with TCP connects only (no HTTP request), so the first request of
# the load generator is the first the JVM serves.
#
# Usage: scripts/coldjvm/make-hey-ab-data.sh [outdir]   (default: ingest, whose
# ingest/hey/testdata/hey and ingest/ab/testdata/ab receive the files)
#
# On a busy machine run it with a higher priority (nice -n -10 ...): other
# processes' CPU bursts show as latency bumps in the steady state. With 20
# one-second windows, the within-run warm-up class is sensitive to them:
# of three runs made here (nice -n -10, other jobs on both CPUs) two gave
# class warmup for both logs, one gave flat for hey (a bump at 12-16 s).
#
# Environment:
#   PORT       port on 127.0.0.1 (default 19150; the vegeta data set uses others)
#   DURATION   seconds of load per tool (default 20)
#   CONC       connections / workers (default 8)
#   JAVA_OPTS  JVM flags (default "-XX:-TieredCompilation -XX:CICompilerCount=1
#              -Dsun.net.httpserver.nodelay=true"):
#              -XX:-TieredCompilation -XX:CICompilerCount=1: C2 only, with one
#              compiler thread, so the handler and the JDK methods it calls
#              stay interpreted longer and get compiled one after another:
#              the warm-up lasts about 3-8 s at this load instead of 1-2 s
#              with C1 in front, long enough to span several 1 s windows;
#              -Dsun.net.httpserver.nodelay=true: TCP_NODELAY on the server's
#              sockets. Without it every keep-alive response (hey keeps its
#              connections alive, ab does not) waits for the client's
#              delayed ACK (Nagle): hey then sees a flat ~44 ms per request
#              that hides the JIT's warm-up entirely.
#   HEY, AB    the programs (default: hey on PATH or in $(go env GOPATH)/bin, ab)
#
# Requires java (17 runs a .java source file directly), hey
# (go install github.com/rakyll/hey@v0.1.5), ab (apt-get install apache2-utils), gzip.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/ingest}
PORT=${PORT:-19150}
DURATION=${DURATION:-20}
CONC=${CONC:-8}
JAVA_OPTS=${JAVA_OPTS--XX:-TieredCompilation -XX:CICompilerCount=1 -Dsun.net.httpserver.nodelay=true}
HEY=${HEY:-$(command -v hey || echo "$(go env GOPATH)/bin/hey")}
AB=${AB:-ab}
URL=http://127.0.0.1:$PORT/work

tmp=$(mktemp -d)
pid=
stop_server() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		pid=
	fi
}
trap 'stop_server; rm -rf "$tmp"' EXIT

# start_server starts a fresh JVM and waits until its port accepts connections.
start_server() {
	# shellcheck disable=SC2086 # JAVA_OPTS is a list of flags
	java $JAVA_OPTS "$here/ColdServer.java" "$PORT" >"$tmp/server.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 300); do
		if grep -q listening "$tmp/server.log" 2>/dev/null && (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			cat "$tmp/server.log" >&2
			echo "ColdServer exited" >&2
			exit 1
		fi
		sleep 0.1
	done
	echo "ColdServer did not start on port $PORT" >&2
	exit 1
}

mkdir -p "$out/hey/testdata/hey" "$out/ab/testdata/ab"

start_server
"$HEY" -z "${DURATION}s" -c "$CONC" -o csv "$URL" >"$tmp/hey-coldjvm.csv"
stop_server
gzip -9 -n -c "$tmp/hey-coldjvm.csv" >"$out/hey/testdata/hey/hey-coldjvm.csv.gz"

start_server
# ab prints its text report on stdout; -g writes the per-request rows.
"$AB" -q -t "$DURATION" -n 1000000 -c "$CONC" -g "$tmp/ab-coldjvm.tsv" "$URL" >"$tmp/ab-coldjvm.txt"
stop_server
gzip -9 -n -c "$tmp/ab-coldjvm.tsv" >"$out/ab/testdata/ab/ab-coldjvm.tsv.gz"

for f in "$out/hey/testdata/hey/hey-coldjvm.csv.gz" "$out/ab/testdata/ab/ab-coldjvm.tsv.gz"; do
	size=$(wc -c <"$f")
	echo "$f: $size bytes, $(gzip -dc "$f" | wc -l) lines"
	if [ "$size" -gt 2000000 ]; then
		echo "warning: $f is over 2 MB: lower CONC or DURATION" >&2
	fi
done
grep -E 'Complete requests|Failed requests|Requests per second' "$tmp/ab-coldjvm.txt" || true
