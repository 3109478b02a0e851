#!/bin/sh
# make-single-vegeta.sh records testdata/truth/single-vegeta (issue 22): one
# vegeta attack as a new user makes it, `vegeta attack -rate 500 -duration
# 5s | tee results.bin`, against a truth server on 127.0.0.1:$PORT with
# -delay $DELAY and -work $WORK, -fail-every $FAIL_EVERY (every N-th request
# answers 500, so the error rate is known: 1/N). Kept: the gob results as
# vegeta wrote them, gzipped (vegeta/results.bin.gz: `gunzip -c` gives the
# results.bin that `cat results.bin | loadverdict report -` reads; loadverdict
# also reads the .gz as it is), `vegeta report` over them, text and
# -type=json (reports/), and the exact latency percentiles (nearest rank over
# every request, from `vegeta encode --to csv`) in reports/exact-percentiles.txt:
# vegeta's own p50..p99 are t-digest estimates. Truth: 2500 requests at 500
# req/s, error rate 1/$FAIL_EVERY; the report's figures are `vegeta
# report`'s (exact ones to its rounding, percentiles to the exact ones).
#
#   sh scripts/truth/make-single-vegeta.sh        (from anywhere; root for nice -n -10)
#
# Environment: PORT (19700), DELAY (2ms), WORK (300), FAIL_EVERY (50).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19700}
DELAY=${DELAY:-2ms}
WORK=${WORK:-300}
FAIL_EVERY=${FAIL_EVERY:-50}
fresh testdata/truth/single-vegeta
mkdir -p "$OUT/vegeta" "$OUT/reports"
start_server "$PORT" -procs 1 -work "$WORK" -delay "$DELAY" -fail-every "$FAIL_EVERY"
wait_quiet
note "echo 'GET http://127.0.0.1:$PORT/' | vegeta attack -rate 500 -duration 5s | tee results.bin"
# shellcheck disable=SC2086 # NICE is a command prefix
echo "GET http://127.0.0.1:$PORT/" | $NICE vegeta attack -rate 500 -duration 5s | tee "$OUT/vegeta/results.bin" > /dev/null
vegeta report "$OUT/vegeta/results.bin" > "$OUT/reports/results-report.txt"
vegeta report -type=json "$OUT/vegeta/results.bin" > "$OUT/reports/results-report.json"
vegeta encode --to csv "$OUT/vegeta/results.bin" | awk -F, '{ print $3 }' | sort -n | awk '
	{ a[NR] = $1 }
	END {
		n = NR
		split("50 90 95 99", q, " ")
		printf "requests %d\nmin_ms %.6f\n", n, a[1] / 1e6
		for (i = 1; i <= 4; i++) {
			k = int(q[i] * n / 100)
			if (k < q[i] * n / 100) k++
			printf "p%s_ms %.6f\n", q[i], a[k] / 1e6
		}
		printf "max_ms %.6f\n", a[n] / 1e6
	}' > "$OUT/reports/exact-percentiles.txt"
gzip -9n "$OUT/vegeta/results.bin"
note "done: $(grep -E '^Requests' "$OUT/reports/results-report.txt" | tr -s ' ')"
stop_server
cat "$OUT/reports/results-report.txt"
