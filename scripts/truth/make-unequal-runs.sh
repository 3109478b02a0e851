#!/bin/sh
# make-unequal-runs.sh records testdata/truth/unequal-runs (issue 19 items
# 3 and 5): comparisons whose decidability follows from the exact
# Mann-Whitney test at the sizes held, not from a fixed "runs per side".
# Two truth servers, A on 127.0.0.1:$PORT_A and B on 127.0.0.1:$PORT_B,
# whose requests wait (-delay; not CPU-bound work: on this shared 2-CPU
# machine at load 15, CPU-bound throughput swung 10x from run to run),
# started afresh for each draw; runs of
# $DURATION, interleaved by time as the pattern says (a = A, b = B), each
# draw in a folder of its own, files named NN-A.txt / NN-B.txt in run order:
#
#   d1-3v8-wrk:     A -delay 4ms, B -delay 5ms (25 % longer), wrk -t1 -c8,
#                   pattern a b b b a b b b a b b: 3 runs of A, 8 of B.
#                   Smallest attainable p 2/C(11,3) = 2/165 = 0.012 < 0.05:
#                   decidable. Truth: A faster.
#   d2-2v10-hey:    A -delay 6ms (50 % longer), B -delay 4ms, hey -c 8 -z,
#                   pattern b b b b b a b b b b b a: 2 runs of A, 10 of B.
#                   Smallest p 2/C(12,2) = 2/66 = 0.030: decidable. Truth: B faster.
#   d3-5v3-wrk:     A -delay 3ms, B -delay 4ms (33 % longer), wrk -t1 -c8,
#                   pattern a b a b a b a a: 5 of A, 3 of B; 2/C(8,3) = 0.036:
#                   decidable. Truth: A faster.
#   d4-3v3-wrk:     A -delay 4ms, B -delay 5ms, wrk, a b a b a b: 3 and 3;
#                   2/C(6,3) = 0.1: cannot be decided at 0.05 whatever the
#                   data. Truth: A faster, undecidable; runs needed > 3.
#   d5-4v4-aa-wrk:  A and B both -delay 4ms (A/A), wrk, a b a b a b a b.
#                   Truth: no difference; never "4 runs per side would
#                   settle it" beside 4/4 runs.
#   d6-warm-wrk:    A -delay 3ms with -warmup 3300ms -warmup-factor 3 -warmup-steps 1
#                   (its first 3.3 s of clock three times slower: its first
#                   one or two runs), B -delay 4ms, wrk; pattern
#                   a b a b a b a b a b a b: 6 and 6.
#                   Truth: A's first run(s) are warm-up, left out; A faster.
#
#   sh scripts/truth/make-unequal-runs.sh        (from anywhere; root for nice)
#
# Environment: PORT_A (19611), PORT_B (19612), DURATION (1s), QUIET_WAIT (15).
. "$(dirname "$0")/lib.sh"
PORT_A=${PORT_A:-19611}
PORT_B=${PORT_B:-19612}
DURATION=${DURATION:-1s}
QUIET_WAIT=${QUIET_WAIT:-15}
export QUIET_WAIT
fresh testdata/truth/unequal-runs

# draw NAME TOOL PATTERN "A-FLAGS" "B-FLAGS"
draw() {
	name=$1 tool=$2 pattern=$3 fa=$4 fb=$5
	mkdir -p "$OUT/$name"
	wait_quiet
	# shellcheck disable=SC2086
	start_server "$PORT_A" $fa
	sa=$SRV
	# shellcheck disable=SC2086
	start_server "$PORT_B" $fb
	SRV="$sa $SRV"
	i=0
	for s in $pattern; do
		i=$((i + 1))
		port=$PORT_A side=A
		if [ "$s" = b ]; then port=$PORT_B side=B; fi
		f="$OUT/$name/$(printf %02d "$i")-$side.txt"
		case $tool in
		wrk) wrk_run "$f" -t1 -c8 -d"$DURATION" --latency "http://127.0.0.1:$port/" ;;
		hey)
			note "hey -c 8 -z $DURATION http://127.0.0.1:$port/ > $f"
			{
				echo "\$ hey -c 8 -z $DURATION http://127.0.0.1:$port/"
				$NICE hey -c 8 -z "$DURATION" "http://127.0.0.1:$port/"
			} > "$f"
			note "done: $(grep 'Requests/sec' "$f" | tr -s ' ')"
			;;
		esac
	done
	stop_server
}

draw d1-3v8-wrk wrk "a b b b a b b b a b b" "-delay 4ms" "-delay 5ms"
draw d2-2v10-hey hey "b b b b b a b b b b b a" "-delay 6ms" "-delay 4ms"
draw d3-5v3-wrk wrk "a b a b a b a a" "-delay 3ms" "-delay 4ms"
draw d4-3v3-wrk wrk "a b a b a b" "-delay 4ms" "-delay 5ms"
draw d5-4v4-aa-wrk wrk "a b a b a b a b" "-delay 4ms" "-delay 4ms"
draw d6-warm-wrk wrk "a b a b a b a b a b a b" "-delay 3ms -warmup 3300ms -warmup-factor 3 -warmup-steps 1" "-delay 4ms"
grep -H 'Requests/sec' "$OUT"/*/*.txt | tee -a "$OUT/meta.txt"
