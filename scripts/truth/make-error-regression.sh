#!/bin/sh
# make-error-regression.sh records testdata/truth/error-regression (issue 31
# item 3): an error-rate regression at unchanged latency, and A/A pairs with
# equal error rates. One truth server (-procs 1 -work 300 -delay 1ms) whose
# -fail-share S answers 500 to a deterministic share S of its requests,
# evenly spread in arrival order (the n-th fails when floor(n·S) steps);
# errors cost what successes cost. Each case is a side old/ then a side
# new/, the server restarted between them:
#   aa0: old 0 %, new 0 %      aa2: old 2 %, new 2 %       (A/A: pass)
#   r05: old 0 %, new 0.5 %    r15: old 0 %, new 1.5 %
#   r2:  old 0 %, new 2 %      r5:  old 0 %, new 5 %       (regressions)
# measured with wrk (-t1 -c8 -d1s --latency; non-2xx responses counted),
# $RUNS_WRK runs a side, and with vegeta's text report (-rate 1000
# -duration 1s), $RUNS_VEGETA runs a side: wrk/<case>/{old,new}/runK.txt,
# vegeta/<case>/{old,new}/runK.txt.
# Truth: new's error rate minus old's is 0, 0, +0.5, +1.5, +2 and +5
# points (to within a request a run: requests in flight when the tool
# stops are counted by the server, not by the tool); latency and the
# work per request are the same on both sides.
#
#   sh scripts/truth/make-error-regression.sh   (from anywhere; root for nice -n -10)
#
# Environment: PORT (19831), RUNS_WRK (5), RUNS_VEGETA (4).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19831}
RUNS_WRK=${RUNS_WRK:-5}
RUNS_VEGETA=${RUNS_VEGETA:-4}
fresh testdata/truth/error-regression
QUIET_WAIT=20 wait_quiet
for tool in wrk vegeta; do
	runs=$RUNS_WRK
	[ "$tool" = vegeta ] && runs=$RUNS_VEGETA
	for c in aa0:0:0 aa2:0.02:0.02 r05:0:0.005 r15:0:0.015 r2:0:0.02 r5:0:0.05; do
		name=${c%%:*}
		shares=${c#*:}
		for side in old new; do
			share=${shares%%:*}
			[ "$side" = new ] && share=${shares#*:}
			d="$OUT/$tool/$name/$side"
			mkdir -p "$d"
			start_server "$PORT" -procs 1 -work 300 -delay 1ms -fail-share "$share"
			for i in $(seq "$runs"); do
				if [ "$tool" = wrk ]; then
					wrk_run "$d/run$i.txt" -t1 -c8 -d1s --latency "http://127.0.0.1:$PORT/"
				else
					vegeta_text "$d/run$i.txt" "http://127.0.0.1:$PORT/" -rate 1000 -duration 1s
				fi
			done
			stop_server
		done
	done
done
grep -H -E 'requests in|Non-2xx' "$OUT"/wrk/*/*/*.txt | tee -a "$OUT/meta.txt"
grep -H -E '^(Requests|Success|Status)' "$OUT"/vegeta/*/*/*.txt | tee -a "$OUT/meta.txt"
grep stopped "$OUT/server.log" | tee -a "$OUT/meta.txt"
