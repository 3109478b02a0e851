#!/usr/bin/env bash
# End-to-end test of the bucket pipeline with the real parts, on 127.0.0.1:
# versitygw (an S3 API server) and the AWS Lambda Runtime Interface
# Emulator running the two function binaries. Installs what is missing,
# starts everything, runs the Go test tagged e2e, and stops everything it
# started, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."

GOBIN=$(go env GOPATH)/bin
export PATH="$GOBIN:$PATH"
command -v versitygw >/dev/null || GOFLAGS= go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
command -v aws-lambda-rie >/dev/null || GOFLAGS= go install github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@v0.0.0-20261030222936-bef5c4ba774d

WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# Ports: free ones the system picks, or, with E2E_PORT_BASE, the 30 from
# E2E_PORT_BASE on (for a machine that gives a range).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port() { if [ -n "${E2E_PORT_BASE:-}" ]; then echo $((E2E_PORT_BASE + $1)); else free_port; fi; }
S3_PORT=${E2E_S3_PORT:-$(port 0)}
INGEST_PORT=${E2E_INGEST_PORT:-$(port 1)}
REANALYZE_PORT=${E2E_REANALYZE_PORT:-$(port 2)}
# The concurrent-uploads test (TestConcurrentUploads) runs this many
# instances of the ingest function at once: the emulator runs one
# invocation at a time, as one Lambda execution environment does.
CONCURRENT=${E2E_CONCURRENT:-10}
BUCKET=loadverdict-e2e
export AWS_ACCESS_KEY_ID=e2eaccess AWS_SECRET_ACCESS_KEY=e2esecretkey AWS_REGION=us-east-1

echo "== building the function binaries"
for fn in ingest reanalyze; do
  CGO_ENABLED=0 go build -tags lambda.norpc -o "$WORK/$fn/bootstrap" "./functions/$fn"
done

echo "== starting versitygw on 127.0.0.1:$S3_PORT"
mkdir -p "$WORK/s3/$BUCKET"
ROOT_ACCESS_KEY=$AWS_ACCESS_KEY_ID ROOT_SECRET_KEY=$AWS_SECRET_ACCESS_KEY \
  versitygw --port "127.0.0.1:$S3_PORT" posix "$WORK/s3" > "$WORK/versitygw.log" 2>&1 &
PIDS+=($!)

echo "== starting the Lambda runtime emulator for each function"
start_rie() { # function, port, runtime API port, log name
  LOADVERDICT_BUCKET=$BUCKET LOADVERDICT_S3_ENDPOINT="http://127.0.0.1:$S3_PORT" \
    aws-lambda-rie --runtime-interface-emulator-address "127.0.0.1:$2" \
    --runtime-api-address "127.0.0.1:$3" "$WORK/$1/bootstrap" > "$WORK/rie-$4.log" 2>&1 &
  PIDS+=($!)
}
start_rie ingest "$INGEST_PORT" "$(port 3)" ingest
start_rie reanalyze "$REANALYZE_PORT" "$(port 4)" reanalyze
PORTS=("$S3_PORT" "$INGEST_PORT" "$REANALYZE_PORT")
INGEST_URLS=""
for i in $(seq 1 "$CONCURRENT"); do
  p=$(port $((4 + 2 * i - 1)))
  start_rie ingest "$p" "$(port $((4 + 2 * i)))" "ingest-$i"
  PORTS+=("$p")
  INGEST_URLS="$INGEST_URLS http://127.0.0.1:$p/2015-03-31/functions/function/invocations"
done

# Wait for the ports.
for port in "${PORTS[@]}"; do
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
  done
done
for p in "${PIDS[@]}"; do
  kill -0 "$p" || { echo "a server did not start:"; tail -n 20 "$WORK"/*.log; exit 1; }
done

echo "== the local CLI's report of the same inputs, named as in the bucket"
mkdir -p "$WORK/local/raw/zuul-vs-openresty"
cp examples/zuul-vs-openresty.txt "$WORK/local/raw/zuul-vs-openresty/seed.txt"
cp ingest/wrk/testdata/wrk/wrk_05.txt "$WORK/local/raw/zuul-vs-openresty/wrk 2 runs.txt"
printf '\000\001 not a load test\n' > "$WORK/local/raw/zuul-vs-openresty/garbage.bin"
go build -o "$WORK/loadverdict" ./cmd/loadverdict
(cd "$WORK/local" && "$WORK/loadverdict" report -o "$WORK/localreport" --experiment zuul-vs-openresty \
  raw/zuul-vs-openresty/garbage.bin raw/zuul-vs-openresty/seed.txt "raw/zuul-vs-openresty/wrk 2 runs.txt" > /dev/null 2>&1) || true
test -s "$WORK/localreport/report.md"

echo "== the local CLI's history of a series of two experiments"
mkdir -p "$WORK/local-series"
cp -r testdata/truth/series/exp01 testdata/truth/series/exp02 "$WORK/local-series/"
(cd "$WORK/local-series" && "$WORK/loadverdict" history -o "$WORK/localseries" exp01 exp02 > /dev/null)
test -s "$WORK/localseries/summary.json"

echo "== running the e2e test"
# go test's 10 minutes a package would be a bound on the machine's speed;
# the test's own bounds guard against a hang (20 minutes).
status=0
E2E_S3_ENDPOINT="http://127.0.0.1:$S3_PORT" E2E_BUCKET=$BUCKET E2E_LOCAL_REPORT="$WORK/localreport" E2E_LOCAL_SERIES="$WORK/localseries" \
  E2E_INGEST_URL="http://127.0.0.1:$INGEST_PORT/2015-03-31/functions/function/invocations" \
  E2E_REANALYZE_URL="http://127.0.0.1:$REANALYZE_PORT/2015-03-31/functions/function/invocations" \
  E2E_INGEST_URLS="${INGEST_URLS# }" \
  go test -count=1 -timeout 30m -tags e2e -v ./internal/e2e/ || status=$?
if [ "$status" -ne 0 ]; then
  echo "== logs"; tail -n 40 "$WORK"/*.log
fi
exit "$status"
