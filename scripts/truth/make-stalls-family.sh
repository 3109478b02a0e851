#!/bin/sh
# make-stalls-family.sh records testdata/truth/stalls-family (issue 19):
# within-run stalls of new shapes, periodic and single, measured with
# vegeta and hey, to show that the stall findings hold beyond the
# conformance grid's draws. A truth server on 127.0.0.1:$PORT (-delay
# 2ms, -work 1000) freezes ALL handling for -stall-for every -stall-every
# from -stall-at (its clock starts at the first request; it restarts
# before each run). Requests sent during a stall wait until its end.
#
#   p1-vegeta: 0.3 s every 2 s from 1.5 s, vegeta -rate=300 16 s
#   p2-hey:    0.6 s every 3.5 s from 2 s, hey -c 4 -q 50 (200/s) 16 s
#   p3-vegeta: 1.2 s every 5 s from 2.5 s, vegeta -rate=120 18 s
#   p4-vegeta: 0.45 s every 6 s from 1.2 s, vegeta -rate=400 18 s
#   p5-hey:    2 s every 6 s from 3 s, hey -c 4 -q 25 (100/s) 18 s
#   s1-vegeta: one 0.3 s stall at 6.3 s, vegeta -rate=250 15 s
#   s2-hey:    one 1.5 s stall at 8 s, hey -c 4 -q 40 (160/s) 15 s
#   s3-vegeta: one 2 s stall at 4.5 s, vegeta -rate=100 14 s
#   s4-vegeta: one 0.8 s stall at 11.7 s, vegeta -rate=350 16 s
#
# Truth: the stalls' times above (server.log lists each stall's actual
# times); no errors. stalls_test.go in analyze asserts each verdict.
#
#   sh scripts/truth/make-stalls-family.sh        (from anywhere; root for nice)
#
# Environment: PORT (19641).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19641}
U=http://127.0.0.1:$PORT/
fresh testdata/truth/stalls-family

# vegeta_case NAME EVERY FOR AT RATE DURATION
vegeta_case() {
	wait_quiet
	start_server "$PORT" -delay 2ms -work 1000 -stall-every "$2" -stall-for "$3" -stall-at "$4"
	vegeta_run "$OUT/$1" run "$U" -rate="$5" -duration="$6" -timeout=5s
	stop_server
}

# hey_case NAME EVERY FOR AT QPS-PER-WORKER DURATION
hey_case() {
	wait_quiet
	start_server "$PORT" -delay 2ms -work 1000 -stall-every "$2" -stall-for "$3" -stall-at "$4"
	mkdir -p "$OUT/$1"
	note "hey -z $6 -c 4 -q $5 -o csv $U"
	# shellcheck disable=SC2086 # NICE is a command prefix
	$NICE hey -z "$6" -c 4 -q "$5" -o csv "$U" | gzip -9n > "$OUT/$1/run.csv.gz"
	stop_server
}

vegeta_case p1-vegeta 2s 300ms 1500ms 300 16s
hey_case p2-hey 3500ms 600ms 2s 50 16s
vegeta_case p3-vegeta 5s 1200ms 2500ms 120 18s
vegeta_case p4-vegeta 6s 450ms 1200ms 400 18s
hey_case p5-hey 6s 2s 3s 25 18s
vegeta_case s1-vegeta 1h 300ms 6300ms 250 15s
hey_case s2-hey 1h 1500ms 8s 40 15s
vegeta_case s3-vegeta 1h 2s 4500ms 100 14s
vegeta_case s4-vegeta 1h 800ms 11700ms 350 16s
# The analysis reads the per-request logs; vegeta's own reports are not kept.
rm -f "$OUT"/*/*-report.json "$OUT"/*/*-report.txt
grep -i stall "$OUT/server.log" | tee -a "$OUT/meta.txt"
