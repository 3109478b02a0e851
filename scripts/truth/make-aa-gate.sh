#!/bin/sh
# make-aa-gate.sh records testdata/truth/aa-gate (issue 20): A/A comparisons
# for the gate's false-failure rate. One truth server per tool, unchanged for
# the whole script: wrk against 127.0.0.1:$PORT_WRK (-procs 1 -work $WORK_WRK),
# vegeta against 127.0.0.1:$PORT_VEGETA (-procs 1 -work 300 -delay 2ms).
# $PAIRS pairs per tool; pair N is side a (NA runs) then side b (NB runs), in
# blocks as two CI jobs would run them, sizes cycling through $SIZES. Each
# run lasts $DURATION: wrk -t1 -c4 --latency (wrk/pNN/{a,b}/runK.txt);
# vegeta -rate 200 (vegeta/pNN/{a,b}/runK.json.gz, per-request results).
# Truth: a and b are the same system (A/A): no difference, no regression.
#
#   sh scripts/truth/make-aa-gate.sh        (from anywhere; root for nice -n -10)
#
# Environment: PORT_WRK (19803), PORT_VEGETA (19804), PAIRS (10),
# SIZES ("4:4 5:5 6:6 8:8 4:6 6:4 4:8 8:4 5:7 7:5"), DURATION (1s),
# TOOLS ("wrk vegeta": the tools whose folders are (re)made; the others are
# kept), WORK_WRK (3000).
. "$(dirname "$0")/lib.sh"
PORT_WRK=${PORT_WRK:-19803}
PORT_VEGETA=${PORT_VEGETA:-19804}
PAIRS=${PAIRS:-10}
SIZES=${SIZES:-4:4 5:5 6:6 8:8 4:6 6:4 4:8 8:4 5:7 7:5}
DURATION=${DURATION:-1s}
TOOLS=${TOOLS:-wrk vegeta}
WORK_WRK=${WORK_WRK:-3000}
OUT=testdata/truth/aa-gate
if [ "$TOOLS" = "wrk vegeta" ]; then fresh "$OUT"; else
	for tool in $TOOLS; do rm -rf "${OUT:?}/$tool"; done
	echo "script: $0 (TOOLS=$TOOLS) date: $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$OUT/meta.txt"
fi
start_server "$PORT_WRK" -procs 1 -work "$WORK_WRK"
SRV_W=$SRV
start_server "$PORT_VEGETA" -procs 1 -work 300 -delay 2ms
SRV="$SRV_W $SRV"
# size N: the sizes of pair N, "NA NB".
size() {
	echo "$SIZES" | tr ' ' '\n' | awk -v n="$1" 'NF { s[++k] = $0 } END { split(s[(n - 1) % k + 1], x, ":"); print x[1], x[2] }'
}
for tool in $TOOLS; do
	for n in $(seq "$PAIRS"); do
		p=$(printf 'p%02d' "$n")
		set -- $(size "$n")
		QUIET_WAIT=10 wait_quiet
		for side in a b; do
			k=$1
			[ "$side" = b ] && k=$2
			mkdir -p "$OUT/$tool/$p/$side"
			for i in $(seq "$k"); do
				if [ "$tool" = wrk ]; then
					wrk_run "$OUT/$tool/$p/$side/run$i.txt" -t1 -c4 -d"$DURATION" --latency "http://127.0.0.1:$PORT_WRK/"
				else
					vegeta_run "$OUT/$tool/$p/$side" "run$i" "http://127.0.0.1:$PORT_VEGETA/" -rate 200 -duration "$DURATION"
					rm "$OUT/$tool/$p/$side/run$i"-report.*
				fi
			done
		done
	done
done
stop_server
