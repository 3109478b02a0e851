#!/bin/sh
# make-copies.sh records testdata/truth/copies (issue 32, item 6): vegeta
# attacks each kept as a user keeps them, in several encodings: the gob
# results (attack-N.bin.gz), `vegeta encode --to json` and `--to csv` of them
# (gzipped; loadverdict reads .gz as it is) and `vegeta report` over them,
# text and -type=json. Two truth servers on 127.0.0.1: fast (-delay 2ms) and
# slow (-delay 3ms), three attacks each (-rate 50 -duration 2s). Beside
# them, ab/: two real `ab -n 200` runs against the fast server, whose
# summaries are alike but are two runs (a copy must not be found there).
# Truth: 2 systems of 3 runs each, plus the 2 ab runs; every other file is a
# copy of its attack's gob file.
#
#   sh scripts/truth/make-copies.sh        (from anywhere; root for nice -n -10)
#
# Environment: PORT_FAST (19710), PORT_SLOW (19711).
. "$(dirname "$0")/lib.sh"
PORT_FAST=${PORT_FAST:-19710}
PORT_SLOW=${PORT_SLOW:-19711}
fresh testdata/truth/copies
wait_quiet
for sys in fast slow; do
	if [ $sys = fast ]; then port=$PORT_FAST delay=2ms; else port=$PORT_SLOW delay=3ms; fi
	mkdir -p "$OUT/$sys"
	start_server "$port" -procs 1 -delay "$delay"
	for n in 1 2 3; do
		f="$OUT/$sys/attack-$n"
		note "echo 'GET http://127.0.0.1:$port/' | vegeta attack -rate 50 -duration 2s > attack-$n.bin"
		# shellcheck disable=SC2086 # NICE is a command prefix
		echo "GET http://127.0.0.1:$port/" | $NICE vegeta attack -rate 50 -duration 2s > "$f.bin"
		vegeta encode --to json "$f.bin" | gzip -9n > "$f.json.gz"
		vegeta encode --to csv "$f.bin" | gzip -9n > "$f.csv.gz"
		vegeta report "$f.bin" > "$f-report.txt"
		vegeta report -type=json "$f.bin" > "$f-report.json"
		gzip -9n "$f.bin"
	done
	if [ $sys = fast ]; then
		mkdir -p "$OUT/ab"
		for n in 1 2; do
			note "ab -n 200 -c 2 http://127.0.0.1:$port/"
			# shellcheck disable=SC2086 # NICE is a command prefix
			$NICE ab -n 200 -c 2 "http://127.0.0.1:$port/" > "$OUT/ab/ab-$n.txt" 2>&1
		done
	fi
	stop_server
done
note "done"
