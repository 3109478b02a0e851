#!/bin/sh
# make-merge-vegeta.sh records testdata/truth/merge-vegeta (issue 13): three
# vegeta attacks started at the same time against one truth server on
# 127.0.0.1:$PORT (-delay 2ms), each 100 req/s for 20 s and each writing its
# own results, as three load generators of one distributed test would.
# Truth: one test of 3 x 2000 = 6000 requests at 300 req/s in total, all
# 200; its merged figures are what `vegeta report` prints over the three
# results files together (merged-report.txt, -type=json merged-report.json).
#
#   sh scripts/truth/make-merge-vegeta.sh        (from anywhere; root for nice -n -10)
#
# Files: parts-bin/attack-{a,b,c}.bin (the gob results as vegeta attack
# wrote them), parts-json/attack-{a,b,c}.json.gz (the same, vegeta encode
# --to json, gzipped), reports/attack-{a,b,c}-report.txt (each attack's own
# vegeta report) and reports/merged-report.txt, reports/merged-report.json
# (vegeta report over the three .bin files together).
# Environment: PORT (19108).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19108}
fresh testdata/truth/merge-vegeta
mkdir -p "$OUT/parts-bin" "$OUT/parts-json" "$OUT/reports"
wait_quiet
start_server "$PORT" -delay 2ms
note "three at once: echo 'GET http://127.0.0.1:$PORT/' | vegeta attack -rate=100 -duration=20s -name=X > attack-X.bin, X = a, b, c"
pids=
for x in a b c; do
	# shellcheck disable=SC2086
	echo "GET http://127.0.0.1:$PORT/" | $NICE vegeta attack -rate=100 -duration=20s -name="$x" > "$OUT/parts-bin/attack-$x.bin" &
	pids="$pids $!"
done
for p in $pids; do wait "$p"; done
note "done"
stop_server
for x in a b c; do
	vegeta encode --to json "$OUT/parts-bin/attack-$x.bin" | gzip -9n > "$OUT/parts-json/attack-$x.json.gz"
	vegeta report "$OUT/parts-bin/attack-$x.bin" > "$OUT/reports/attack-$x-report.txt"
done
(cd "$OUT/parts-bin" && vegeta report attack-a.bin attack-b.bin attack-c.bin) > "$OUT/reports/merged-report.txt"
(cd "$OUT/parts-bin" && vegeta report -type=json attack-a.bin attack-b.bin attack-c.bin) > "$OUT/reports/merged-report.json"
cat "$OUT/reports/merged-report.txt"
grep -H Latencies "$OUT"/reports/*-report.txt
