#!/usr/bin/env bash
# gen.sh makes the real-* hey outputs of this folder against
# ingest/internal/testserver on 127.0.0.1 (hey v0.1.5:
# go install github.com/rakyll/hey@v0.1.5). Run from the repository root:
#   bash ingest/hey/testdata/hey/gen.sh
# The "$ hey ..." prompt lines are printed by this script; the command lines
# and the outputs are real. The cold-JVM data set (hey-coldjvm.csv.gz) is
# made by scripts/coldjvm/make-hey-ab-data.sh.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=ingest/hey/testdata/hey
HEY=${HEY:-$(command -v hey || echo "$(go env GOPATH)/bin/hey")}
PORT=${PORT:-19100}
U=http://127.0.0.1:$PORT
go build -o /tmp/heyab-testserver ./ingest/internal/testserver
/tmp/heyab-testserver -addr 127.0.0.1:$PORT &
pid=$!
trap 'kill $pid' EXIT
sleep 1

# run FILE ARGS...: a transcript: prompt and command line, then the output.
run() {
	local f=$1
	shift
	{
		echo "\$ hey $*"
		"$HEY" "$@"
	} >"$out/$f"
}
run real-ok.txt -n 2000 -c 20 "$U/ok"
"$HEY" -n 2000 -c 10 "$U/sleep?ms=2" >"$out/real-bare.txt" # no command line: no target
run real-mixed.txt -n 2000 -c 10 "$U/mixed?every=3"       # 500s
run real-close.txt -n 2000 -c 10 "$U/close?every=10"      # Error distribution
run real-duration.txt -z 2s -c 10 -q 100 -m GET "$U/ok"   # -z, -q
run real-one.txt -n 1 -c 1 "$U/ok"                        # "0%% in 0.0000 secs" rows
run real-refused.txt -n 20 -c 2 "http://127.0.0.1:19199/ok" # every request failed: NaN
run real-timeout.txt -n 10 -c 5 -t 1 "$U/sleep?ms=1500"   # Client.Timeout exceeded
{
	# Two runs in one terminal session, the second with a different target.
	echo "user@host:~\$ hey -n 500 -c 5 $U/ok"
	"$HEY" -n 500 -c 5 "$U/ok"
	echo "user@host:~\$ hey -n 300 -c 3 -disable-keepalive \"$U/big?kb=4\""
	"$HEY" -n 300 -c 3 -disable-keepalive "$U/big?kb=4"
	echo "user@host:~\$ exit"
} >"$out/real-transcript.txt"
"$HEY" -o csv -n 2000 -c 10 "$U/mixed?every=5" >"$out/real-mixed.csv"
"$HEY" -o csv -z 2s -c 4 -q 200 "$U/sleep?ms=1" | gzip -9 -n >"$out/real-duration.csv.gz"
