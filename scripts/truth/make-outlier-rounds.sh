#!/bin/sh
# make-outlier-rounds.sh records testdata/truth/outlier-rounds (issue 31
# item 4, "one round at half the others' throughput, a neighbour took the
# CPU"): series of 6-8 rounds back to back against a flat, CPU-bound truth
# server (-procs 1 -work $WORK, pinned to CPU $SRV_CPU; the load tool
# pinned to CPU $TOOL_CPU). In a disturbed series, during one round only,
# a busy loop pinned to the server's CPU takes part of it: at the
# server's niceness it takes about half (the round measures ~-50 %), at 5
# nice levels below about a quarter (~-25 %, CFS weights 1024:335). The
# controls are the same series undisturbed. Each series is a fresh server.
#
#   <series>/round01.txt ...   wrk -t1 -c8 -d${DURATION} --latency, or hey -z ${DURATION} -c 8
#   truth.tsv                  series, tool, rounds, disturbed round (0: none), size
#
# Truth: the server is flat in every series; in a disturbed series the
# round named in truth.tsv is the only one a neighbour disturbed.
#
#   NICE_LEVEL=-20 sh scripts/truth/make-outlier-rounds.sh   (from anywhere; root for nice)
#
# Environment: PORT (19731), WORK (2000), DURATION (2s), SRV_CPU (1), TOOL_CPU (0).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19731}
WORK=${WORK:-2000}
DURATION=${DURATION:-2s}
SRV_CPU=${SRV_CPU:-1}
TOOL_CPU=${TOOL_CPU:-0}
fresh testdata/truth/outlier-rounds
printf 'series\ttool\trounds\tdisturbed\tsize\n' > "$OUT/truth.tsv"
hogs=
hog_start() { # NICE-OFFSET: a busy loop on the server's CPU, NICE-OFFSET levels below the server
	lvl=$((NICE_LEVEL + $1))
	taskset -c "$SRV_CPU" nice -n "$lvl" sh -c 'while :; do :; done' &
	hogs="$hogs $!"
	DISTURB="$DISTURB $!"
	note "hog started on CPU $SRV_CPU at nice $lvl (pid $!)"
}
hog_stop() {
	for p in $hogs; do kill "$p"; wait "$p" 2>/dev/null || true; done
	hogs=
	DISTURB=
	note "hog stopped"
}
round() { # TOOL FILE
	case $1 in
	wrk)
		note "wrk -t1 -c8 -d$DURATION --latency > $2"
		{
			echo "\$ wrk -t1 -c8 -d$DURATION --latency http://127.0.0.1:$PORT/"
			taskset -c "$TOOL_CPU" nice -n "$NICE_LEVEL" wrk -t1 -c8 -d"$DURATION" --latency "http://127.0.0.1:$PORT/"
		} > "$2"
		;;
	hey)
		note "hey -z $DURATION -c 8 > $2"
		{
			echo "\$ hey -z $DURATION -c 8 http://127.0.0.1:$PORT/"
			taskset -c "$TOOL_CPU" nice -n "$NICE_LEVEL" hey -z "$DURATION" -c 8 "http://127.0.0.1:$PORT/"
		} > "$2"
		;;
	esac
	note "done: $(grep 'Requests/sec' "$2" | tr -s ' ')"
}
series() { # NAME TOOL ROUNDS DISTURBED(0: none) SIZE(25|50|-)
	name=$1 tool=$2 rounds=$3 dist=$4 size=$5
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$tool" "$rounds" "$dist" "$size" >> "$OUT/truth.tsv"
	mkdir -p "$OUT/$name"
	wait_quiet
	echo "\$ truthserver -addr 127.0.0.1:$PORT -procs 1 -work $WORK (taskset -c $SRV_CPU)" >> "$OUT/server.log"
	taskset -c "$SRV_CPU" nice -n "$NICE_LEVEL" "$T/truthserver" -addr "127.0.0.1:$PORT" -procs 1 -work "$WORK" 2>> "$OUT/server.log" &
	SRV=$!
	i=0
	until curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/healthz"; do
		i=$((i + 1))
		[ $i -gt 100 ] && { echo "no server" >&2; exit 1; }
		sleep 0.1
	done
	note "series $name: $tool, $rounds rounds, disturbed round $dist ($size)"
	for r in $(seq "$rounds"); do
		if [ "$r" = "$dist" ]; then
			case $size in 50) hog_start 0 ;; 25) hog_start 5 ;; esac
		fi
		round "$tool" "$OUT/$name/round$(printf %02d "$r").txt"
		if [ "$r" = "$dist" ]; then hog_stop; fi
	done
	stop_server
	printf '%s:' "$name" | tee -a "$OUT/meta.txt"
	for f in "$OUT/$name"/round*.txt; do printf ' %s' "$(awk '/Requests\/sec/ { printf "%.0f", $2 }' "$f")"; done | tee -a "$OUT/meta.txt"
	echo | tee -a "$OUT/meta.txt"
}
series wrk6-ctrl-a wrk 6 0 -
series wrk6-d50-r2 wrk 6 2 50
series wrk6-d50-r4 wrk 6 4 50
series wrk6-d50-r6 wrk 6 6 50
series wrk6-d25-r3 wrk 6 3 25
series wrk8-ctrl-b wrk 8 0 -
series wrk8-d25-r2 wrk 8 2 25
series wrk8-d25-r5 wrk 8 5 25
series wrk8-d25-r8 wrk 8 8 25
series wrk8-d50-r6 wrk 8 6 50
series wrk7-ctrl-c wrk 7 0 -
series hey7-ctrl-d hey 7 0 -
series hey7-d50-r4 hey 7 4 50
series hey7-d25-r6 hey 7 6 25
series hey6-d50-r2 hey 6 2 50
