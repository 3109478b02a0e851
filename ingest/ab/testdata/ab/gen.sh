#!/usr/bin/env bash
# gen.sh makes the real-* ab outputs of this folder (ab from Debian's
# apache2-utils, "ApacheBench, Version 2.3 <$Revision: 1923142 $>") against
# ingest/internal/testserver, the cold JVM server (variable response
# lengths: Length failures) and an openssl s_server (TLS), all on
# 127.0.0.1. Run from the repository root:
#   bash ingest/ab/testdata/ab/gen.sh
# The "$ ab ..." prompt lines are printed by this script; the command lines
# and the outputs are real. The cold-JVM data set (ab-coldjvm.tsv.gz) is
# made by scripts/coldjvm/make-hey-ab-data.sh.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=ingest/ab/testdata/ab
PORT=${PORT:-19100}
U=http://127.0.0.1:$PORT
tmp=$(mktemp -d)
go build -o /tmp/heyab-testserver ./ingest/internal/testserver
/tmp/heyab-testserver -addr 127.0.0.1:$PORT &
pids=$!
java scripts/coldjvm/ColdServer.java $((PORT + 1)) >"$tmp/java.log" 2>&1 &
pids="$pids $!"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 1 -subj /CN=127.0.0.1 2>/dev/null
openssl s_server -quiet -accept 127.0.0.1:$((PORT + 2)) -www -cert "$tmp/cert.pem" -key "$tmp/key.pem" >/dev/null 2>&1 &
pids="$pids $!"
trap 'kill $pids; rm -rf "$tmp"' EXIT
sleep 3

# run FILE ARGS...: a transcript: prompt and command line, then the output.
run() {
	local f=$1
	shift
	{
		echo "\$ ab $*"
		ab "$@" 2>&1
	} >"$out/$f"
}
run real-ok.txt -n 2000 -c 10 "$U/ok"
run real-keepalive.txt -k -n 2000 -c 10 "$U/ok"                 # Keep-Alive requests
run real-non2xx.txt -n 2000 -c 10 "$U/mixed?every=3"            # Non-2xx responses
run real-length.txt -n 500 -c 4 "http://127.0.0.1:$((PORT + 1))/work" # Length failures
run real-receive.txt -r -n 2000 -c 4 "$U/close?every=100"       # Receive/Exceptions failures
run real-timelimit.txt -t 2 -c 4 "$U/sleep?ms=5"                # -t: Finished N requests
run real-tls.txt -n 200 -c 2 "https://127.0.0.1:$((PORT + 2))/" # SSL/TLS Protocol
ab -q -S -d -n 500 -c 5 "$U/sleep?ms=1" >"$out/real-quiet-S-d.txt" # -S: min avg max; -d: no percentiles; no command line
ab -n 2000 -c 10 -g "$out/real-ok.tsv" -e "$out/real-ok-e.csv" "$U/sleep?ms=1" >/dev/null
