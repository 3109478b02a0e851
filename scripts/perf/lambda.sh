#!/usr/bin/env bash
# lambda.sh measures the peak memory of the ingest function on a
# 1,000,000-request vegeta log: the function binary (functions/ingest, built
# as scripts/e2e.sh builds it) under the AWS Lambda Runtime Interface
# Emulator, reading from versitygw on 127.0.0.1, gets one S3 event for
# raw/perf/real-1m.json (a real-shaped log, scripts/perf/makevegeta -from the
# cold-JVM log); it ingests the log and writes the experiment's report. The
# peak is the function process's VmHWM (/proc/PID/status) after the
# invocation, with GOMEMLIMIT unset.
#
#   bash scripts/perf/lambda.sh          (from anywhere; N=4000000 for 4M)
#
# Target: < 256 MB (MiB here). Environment: TMP (default /tmp), N (1000000).
set -euo pipefail
cd "$(dirname "$0")/../.."
GOBIN=$(go env GOPATH)/bin
export PATH="$GOBIN:$PATH"
command -v versitygw >/dev/null || GOFLAGS= go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
command -v aws-lambda-rie >/dev/null || GOFLAGS= go install github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@v0.0.0-20261030222936-bef5c4ba774d
N=${N:-1000000}
WORK=$(mktemp -d "${TMP:-/tmp}/lambda-perf.XXXXXX")
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
S3_PORT=$(free_port)
FN_PORT=$(free_port)
BUCKET=loadverdict-perf
KEY=raw/perf/real-$N.json
export AWS_ACCESS_KEY_ID=perfaccess AWS_SECRET_ACCESS_KEY=perfsecretkey AWS_REGION=us-east-1

CGO_ENABLED=0 go build -tags lambda.norpc -o "$WORK/ingest/bootstrap" ./functions/ingest
go build -o "$WORK/makevegeta" ./scripts/perf/makevegeta
# versitygw's posix backend keeps an object as the file at its key.
mkdir -p "$WORK/s3/$BUCKET/raw/perf"
"$WORK/makevegeta" -from ingest/vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz -n "$N" -o "$WORK/s3/$BUCKET/$KEY"
size=$(stat -c %s "$WORK/s3/$BUCKET/$KEY")

ROOT_ACCESS_KEY=$AWS_ACCESS_KEY_ID ROOT_SECRET_KEY=$AWS_SECRET_ACCESS_KEY \
	versitygw --port "127.0.0.1:$S3_PORT" posix "$WORK/s3" > "$WORK/versitygw.log" 2>&1 &
PIDS+=($!)
LOADVERDICT_BUCKET=$BUCKET LOADVERDICT_S3_ENDPOINT="http://127.0.0.1:$S3_PORT" \
	aws-lambda-rie --runtime-interface-emulator-address "127.0.0.1:$FN_PORT" \
	--runtime-api-address "127.0.0.1:$(free_port)" "$WORK/ingest/bootstrap" > "$WORK/rie.log" 2>&1 &
RIE=$!
PIDS+=("$RIE")
for port in "$S3_PORT" "$FN_PORT"; do
	for _ in $(seq 1 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
		sleep 0.1
	done
done

cat > "$WORK/event.json" <<EOF
{"Records":[{"eventSource":"aws:s3","eventName":"ObjectCreated:Put",
 "s3":{"bucket":{"name":"$BUCKET"},"object":{"key":"$KEY","size":$size}}}]}
EOF
start=$(date +%s.%N)
curl -sS -o "$WORK/response.json" -X POST --data-binary @"$WORK/event.json" \
	"http://127.0.0.1:$FN_PORT/2015-03-31/functions/function/invocations"
wall=$(echo "$(date +%s.%N) - $start" | bc -l)
# The function process: the emulator's child running bootstrap.
fn=""
for c in $(cat /proc/"$RIE"/task/*/children 2>/dev/null); do
	if [ "$(readlink /proc/"$c"/exe 2>/dev/null)" = "$WORK/ingest/bootstrap" ]; then fn=$c; fi
done
if [ -z "$fn" ]; then
	echo "function process not found"; tail -n 20 "$WORK/rie.log"; exit 1
fi
hwm=$(awk '/^VmHWM/ { print $2 }' /proc/"$fn"/status)
if [ -s "$WORK/response.json" ] && grep -q errorMessage "$WORK/response.json"; then
	echo "the invocation failed:"; cat "$WORK/response.json"; tail -n 20 "$WORK/rie.log"; exit 1
fi
test -e "$WORK/s3/$BUCKET/reports/perf/report.md" || { echo "no report written"; tail -n 20 "$WORK/rie.log"; exit 1; }
printf 'ingest function, %d requests (%d MB): peak RSS (VmHWM) %.1f MiB, invocation %.2f s wall; load: %s\n' \
	"$N" $((size >> 20)) "$(echo "$hwm / 1024" | bc -l)" "$wall" "$(cut -d' ' -f1-3 /proc/loadavg)"
