#!/bin/sh
# make-errors-breakdown.sh records testdata/truth/errors-breakdown (issue
# 22 item 2): one run per tool against a truth server on 127.0.0.1:$PORT
# (-delay 1ms) with three error causes in three windows of its clock (from
# the first request): every request arriving in the -fail-from/-fail-for
# window answers 503 (-fail-status 503), every one in the -burst-at/
# -burst-for window answers 500, and every one in the -reset-from/
# -reset-for window has its connection reset (no answer). Outside them
# every request succeeds. The server restarts (its clock from the first
# request) before each run.
#
#   vegeta/: vegeta -rate=200 -duration=9s; 503 in [1 s, 2.5 s), 500 in
#       [4 s, 5 s), reset in [6.5 s, 7.5 s). vegeta report's text and JSON
#       over it in vegeta-reports/ (a folder of its own: runs of their own).
#   hey/: hey -q 50 -c 4 -z 9s -o csv (200 req/s); 503 in [1.5 s, 2.5 s),
#       500 in [4 s, 5.5 s), reset in [6.5 s, 7.5 s). hey's CSV keeps no
#       request that got no response (hey counts them in its text
#       summary's error distribution only): the resets are not in it.
#   jmeter/: a vegeta attack of two targets in turn (/a and /b), -rate=150
#       -duration=8s; reset in [0.5 s, 1.5 s), 503 in [3 s, 4 s), 500 in
#       [5 s, 6 s); its results written as JMeter's CSV JTL by
#       scripts/truth/vegeta-to-jtl.py (JMeter cannot be installed here:
#       see that script for the format and what JMeter records per outcome).
#   merged/: two vegeta attacks at once (-rate=100 -duration=8s each, m1
#       and m2), parts of one test (loadverdict --merge); 503 in [2 s,
#       3 s), reset in [5 s, 6 s).
#
#   sh scripts/truth/make-errors-breakdown.sh   (from anywhere; root for nice)
#
# Environment: PORT (19800).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19800}
U=http://127.0.0.1:$PORT
fresh testdata/truth/errors-breakdown

start_server "$PORT" -delay 1ms -fail-from 1s -fail-for 1500ms -fail-status 503 -burst-at 4s -burst-for 1s -burst-status 500 -reset-from 6500ms -reset-for 1s
vegeta_run "$OUT/vegeta" run "$U/" -rate=200 -duration=9s
stop_server
# vegeta's own reports beside, not in, the folder the analysis reads.
mkdir -p "$OUT/vegeta-reports"
mv "$OUT/vegeta/run-report.txt" "$OUT/vegeta/run-report.json" "$OUT/vegeta-reports/"

start_server "$PORT" -delay 1ms -fail-from 1500ms -fail-for 1s -fail-status 503 -burst-at 4s -burst-for 1500ms -burst-status 500 -reset-from 6500ms -reset-for 1s
mkdir -p "$OUT/hey"
note "hey -q 50 -c 4 -z 9s -o csv $U/"
$NICE hey -q 50 -c 4 -z 9s -o csv "$U/" | gzip -9n > "$OUT/hey/run.csv.gz"
stop_server

start_server "$PORT" -delay 1ms -reset-from 500ms -reset-for 1s -fail-from 3s -fail-for 1s -fail-status 503 -burst-at 5s -burst-for 1s -burst-status 500
mkdir -p "$OUT/jmeter"
note "targets GET $U/a, GET $U/b in turn: vegeta attack -rate=150 -duration=8s | vegeta encode --to json | vegeta-to-jtl.py --threads 8"
# shellcheck disable=SC2086
printf 'GET %s/a\nGET %s/b\n' "$U" "$U" | $NICE vegeta attack -rate=150 -duration=8s > "$T/jtl.bin"
vegeta encode --to json "$T/jtl.bin" | python3 scripts/truth/vegeta-to-jtl.py --threads 8 | gzip -9n > "$OUT/jmeter/run.jtl.gz"
vegeta report "$T/jtl.bin" > "$T/jtl-report.txt"
stop_server

start_server "$PORT" -delay 1ms -fail-from 2s -fail-for 1s -fail-status 503 -reset-from 5s -reset-for 1s
mkdir -p "$OUT/merged"
note "two at once: echo 'GET $U/' | vegeta attack -rate=100 -duration=8s > m1.bin, m2.bin"
# shellcheck disable=SC2086
echo "GET $U/" | $NICE vegeta attack -rate=100 -duration=8s > "$T/m1.bin" &
m1=$!
# shellcheck disable=SC2086
echo "GET $U/" | $NICE vegeta attack -rate=100 -duration=8s > "$T/m2.bin" &
m2=$!
wait "$m1" "$m2"
for m in m1 m2; do
	vegeta encode --to json "$T/$m.bin" | gzip -9n > "$OUT/merged/$m.json.gz"
done
vegeta report "$T/m1.bin" "$T/m2.bin" > "$T/merged-report.txt"
stop_server

{
	echo "vegeta report of vegeta/:"
	grep -E '^(Requests|Status)' "$OUT/vegeta-reports/run-report.txt"
	echo "its Error Set, client ports folded (count):"
	sed -n '/Error Set/,$p' "$OUT/vegeta-reports/run-report.txt" | tail -n +2 | sed 's/:[0-9]*->/:PORT->/' | sort | uniq -c
	echo "hey/ statuses (count):"
	zcat "$OUT/hey/run.csv.gz" | tail -n +2 | cut -d, -f7 | sort | uniq -c
	echo "vegeta report of the attack behind jmeter/:"
	grep -E '^(Requests|Status)' "$T/jtl-report.txt"
	echo "jmeter/ (label, responseCode, count):"
	zcat "$OUT/jmeter/run.jtl.gz" | tail -n +2 | cut -d, -f3,4 | sort | uniq -c
	echo "vegeta report of merged/ (m1 and m2 together):"
	grep -E '^(Requests|Status)' "$T/merged-report.txt"
} | tee -a "$OUT/meta.txt"
grep stopped "$OUT/server.log" | tee -a "$OUT/meta.txt"
