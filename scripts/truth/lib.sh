# lib.sh: shared steps of the make-<case>.sh scripts (sourced, not run).
# It builds scripts/truthserver, starts and stops it (and foreign CPU load)
# by process id, and records the environment of a data set in $OUT/meta.txt:
# tool versions, date, and /proc/loadavg before and after every run.
# Servers, load tools and disturbers run under `nice -n $NICE_LEVEL`
# (default -10; needs root, falls back to plain niceness otherwise) so other
# processes' compiles disturb the measurements less. Linux's autogroup scheduler
# (/proc/sys/kernel/sched_autogroup_enabled) shares the CPUs between
# sessions first and applies a process's nice only within its session, so
# the script re-runs itself in a session of its own (setsid) and gives that
# session nice $NICE_LEVEL as well (/proc/self/autogroup); without this, nice has no
# effect against another session's compile.
set -eu
if [ -z "${TRUTH_SESSION:-}" ] && command -v setsid > /dev/null; then
	TRUTH_SESSION=1 exec setsid -w sh "$0" "$@"
fi
NICE_LEVEL=${NICE_LEVEL:--10}
echo "$NICE_LEVEL" 2> /dev/null > /proc/self/autogroup || true
cd "$(dirname "$0")/../.."
export PATH="$(go env GOPATH)/bin:$PATH"
T=$(mktemp -d)
SRV=
DISTURB=
NICE="nice -n $NICE_LEVEL"
$NICE true 2>/dev/null || NICE=
# PIN_CPU=N (optional): servers, load tools and disturbers run on CPU N
# only, under the real-time FIFO policy at priority 1 (chrt -f 1, needs
# root), so that the other sessions' processes, whatever their niceness,
# run on the other CPUs (the kernel keeps 5 % of CPU N for them: sched_rt_runtime_us).
if [ -n "${PIN_CPU:-}" ] && taskset -c "$PIN_CPU" chrt -f 1 true 2>/dev/null; then
	NICE="taskset -c $PIN_CPU chrt -f 1"
fi
cleanup() {
	for p in $SRV; do kill "$p" 2>/dev/null || true; done
	for p in $DISTURB $HOG $SVC_HOG; do kill "$p" 2>/dev/null || true; done
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
go build -o "$T/truthserver" ./scripts/truthserver
go build -o "$T/cpuhog" ./scripts/cpuhog
HOG=
SVC_HOG=

# fresh DIR: empties the data folder DIR (keeping its README.md) and starts meta.txt.
fresh() {
	OUT=$1
	mkdir -p "$OUT"
	find "$OUT" -mindepth 1 ! -name README.md -exec rm -rf {} +
	{
		echo "script: $0"
		echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
		echo "go: $(go version)"
		echo "wrk: $(wrk -v 2>&1 | head -1 | cut -c1-40)"
		echo "vegeta: $(go version -m "$(command -v vegeta)" | awk '$1 == "mod" { print $3 }')"
		echo "hey: $(go version -m "$(command -v hey)" | awk '$1 == "mod" { print $3 }')"
		echo "nice: ${NICE:-none}; autogroup: $(cat /proc/self/autogroup 2> /dev/null || echo none); PIN_CPU: ${PIN_CPU:-none}"
	} > "$OUT/meta.txt"
}

# note TEXT...: appends a line to meta.txt with the time and the load average.
note() {
	echo "$(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)  $*" >> "$OUT/meta.txt"
}

# wait_quiet: waits up to $QUIET_WAIT s (default 120) until the CPUs were
# at least 50 % idle over 2 s, and notes how long it waited (or that the
# machine never got quiet). Other sessions' work is what it waits out.
wait_quiet() {
	waited=0
	while [ "$waited" -lt "${QUIET_WAIT:-120}" ]; do
		a=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
		sleep 2
		b=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
		idle=$(echo "$a $b" | awk '{ printf "%d", 100 * ($3 - $1) / ($4 - $2) }')
		waited=$((waited + 2))
		if [ "$idle" -ge 50 ]; then
			note "quiet after ${waited} s: ${idle} % idle"
			return
		fi
	done
	note "not quiet after ${waited} s (last ${idle} % idle); going on"
}

# start_server PORT FLAGS...: starts the truth server on 127.0.0.1:PORT and
# waits until /healthz answers; its stderr goes to $OUT/server.log.
start_server() {
	port=$1
	shift
	echo "\$ truthserver -addr 127.0.0.1:$port $*" >> "$OUT/server.log"
	# shellcheck disable=SC2086 # NICE is a command prefix
	$NICE "$T/truthserver" -addr "127.0.0.1:$port" "$@" 2>> "$OUT/server.log" &
	SRV=$!
	i=0
	until curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/healthz"; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$SRV" 2>/dev/null; then
			echo "truthserver did not answer on port $port:" >&2
			cat "$OUT/server.log" >&2
			exit 1
		fi
		sleep 0.1
	done
	note "server started: $*"
}

# stop_server: stops the servers whose ids are in $SRV (the one started
# last, unless the script put more there) and waits for them to exit.
stop_server() {
	for p in $SRV; do kill "$p"; wait "$p" 2>/dev/null || true; done
	SRV=
	note "server stopped"
}

# wrk_run FILE ARGS...: runs wrk with ARGS and writes "$ wrk ARGS" then its
# output to FILE (the command line tells the ingest the settings).
wrk_run() {
	f=$1
	shift
	note "wrk $* > $f"
	{
		echo "\$ wrk $*"
		# shellcheck disable=SC2086
		$NICE wrk "$@"
	} > "$f"
	note "done: $(grep 'Requests/sec' "$f" | tr -s ' ')"
}

# disturb_start: starts one busy loop per CPU at the servers' priority.
disturb_start() {
	for _ in $(seq "$(nproc)"); do
		# shellcheck disable=SC2086
		$NICE sh -c 'while :; do :; done' &
		DISTURB="$DISTURB $!"
	done
	note "foreign CPU load started: $(nproc) busy loops (pids$DISTURB)"
}

# disturb_stop: stops the busy loops.
disturb_stop() {
	for p in $DISTURB; do kill "$p"; wait "$p" 2>/dev/null || true; done
	DISTURB=
	note "foreign CPU load stopped"
}

# hog_start SPIN SLEEP: starts scripts/cpuhog, a duty-cycled busy loop
# (spin SPIN, sleep SLEEP, e.g. 1.2ms 8.8ms) at the servers' priority and,
# with PIN_CPU, on the servers' CPU at their real-time class, so that it
# takes about SPIN/(SPIN+SLEEP) of the server's CPU: the machine made
# slower by construction (issue 31's nightly sets). SPIN 0: no hog.
hog_start() {
	HOG_NOMINAL="$1/$2"
	if [ "$1" = 0 ] || [ "$1" = 0ms ]; then
		note "no co-running hog"
		return
	fi
	# shellcheck disable=SC2086
	$NICE "$T/cpuhog" -spin "$1" -sleep "$2" 2> "$T/hog.err" &
	HOG=$!
	note "co-running hog started: spin $1 sleep $2 (pid $HOG)"
}

# hog_stop: stops the hog and notes the share of the wall time it really
# took (its CPU time over its wall time), also in $HOG_SHARE (percent;
# 0 without a hog).
hog_stop() {
	HOG_SHARE=0
	if [ -z "$HOG" ]; then
		return
	fi
	kill "$HOG"
	wait "$HOG" 2>/dev/null || true
	HOG=
	HOG_SHARE=$(sed -n 's/.*took \([0-9.]*\) %.*/\1/p' "$T/hog.err")
	note "$(cat "$T/hog.err")"
}

# vegeta_run DIR NAME URL ATTACK-FLAGS...: attacks URL (GET) with vegeta,
# keeps the gob results in $T/NAME.bin and writes to DIR the per-request
# results as JSON lines, gzipped (NAME.json.gz), and vegeta's own reports
# over them: text (NAME-report.txt) and -type=json (NAME-report.json).
vegeta_run() {
	dir=$1
	name=$2
	url=$3
	shift 3
	mkdir -p "$dir"
	note "echo 'GET $url' | vegeta attack $* > $name.bin"
	# shellcheck disable=SC2086
	echo "GET $url" | $NICE vegeta attack "$@" > "$T/$name.bin"
	vegeta encode --to json "$T/$name.bin" | gzip -9n > "$dir/$name.json.gz"
	vegeta report "$T/$name.bin" > "$dir/$name-report.txt"
	vegeta report -type=json "$T/$name.bin" > "$dir/$name-report.json"
	note "done: $(grep -E '^Requests' "$dir/$name-report.txt" | tr -s ' ')"
}

# vegeta_text FILE URL ATTACK-FLAGS...: attacks URL (GET) with vegeta and
# writes to FILE the command line ("$ echo 'GET URL' | vegeta attack FLAGS |
# vegeta report", which tells the ingest the settings) and vegeta's text
# report: a few hundred bytes a run, where vegeta_run keeps every request.
vegeta_text() {
	f=$1
	url=$2
	shift 2
	note "echo 'GET $url' | vegeta attack $* | vegeta report > $f"
	{
		echo "\$ echo \"GET $url\" | vegeta attack $* | vegeta report"
		# shellcheck disable=SC2086
		echo "GET $url" | $NICE vegeta attack "$@" | vegeta report
	} > "$f"
	note "done: $(grep -E '^Requests' "$f" | tr -s ' ')"
}

# The nightly series (make-nightly-step.sh, make-nightly-drift.sh): NIGHTS
# nights night01.. of one service, one a day, each RUNS wrk runs (-t1 -c8
# -d$DURATION --latency) and RUNS vegeta runs (closed model: -rate=0
# -max-workers=8 -duration=$DURATION), against the truth server on
# 127.0.0.1:$PORT, CPU-bound on one core (-procs 1). The script sets NIGHTS,
# RUNS, DURATION and PORT and defines night_work E (night E's -work) and
# night_note E (its meta note).

# nightly_series SERIES: empties $OUT (fresh) and writes $OUT/nights.tsv
# (night, a made-up commit id, one date a day, -work, note) and each night's
# loadverdict.yaml (series: and meta:).
nightly_series() {
	series=$1
	printf 'night\tcommit\tdate\twork\tnote\n' > "$OUT/nights.tsv"
	for e in $(seq "$NIGHTS"); do
		exp=$(printf 'night%02d' "$e")
		mkdir -p "$OUT/$exp"
		work=$(night_work "$e")
		note=$(night_note "$e")
		commit=$(printf 'loadverdict %s %s' "$(echo "$series" | tr - ' ')" "$exp" | sha1sum | cut -c1-12)
		date=$(date -u -d "2026-11-10 + $e days" +%Y-%m-%d)
		printf '%s\t%s\t%s\t%s\t%s\n' "$exp" "$commit" "$date" "$work" "$note" >> "$OUT/nights.tsv"
		cat > "$OUT/$exp/loadverdict.yaml" <<EOT
# The series this night belongs to, and what it measured (see README.md).
series: $series
meta:
  commit: $commit
  version: work-$work
  branch: main
  date: $date
  note: "$note"
EOT
	done
}

# nightly_record: records the nights round-robin (run r of every night,
# then run r+1), so that the load of this shared machine, which changes
# over the recording, falls on every night alike instead of making later
# nights slower (a drift that is not the truth). Each run gets a freshly
# started server with its night's -work (nights.tsv), then wrk, then
# vegeta; then the throughput of every run is appended to meta.txt.
nightly_record() {
	for r in $(seq "$RUNS"); do
		for e in $(seq "$NIGHTS"); do
			exp=$(printf 'night%02d' "$e")
			work=$(awk -F'\t' -v n="$exp" '$1 == n { print $4 }' "$OUT/nights.tsv")
			wait_quiet
			start_server "$PORT" -procs 1 -work "$work"
			wrk_run "$OUT/$exp/wrk$r.txt" -t1 -c8 -d"$DURATION" --latency "http://127.0.0.1:$PORT/"
			vegeta_text "$OUT/$exp/vegeta$r.txt" "http://127.0.0.1:$PORT/" -rate=0 -max-workers=8 -duration="$DURATION"
			stop_server
		done
	done
	echo "Requests/sec per night (wrk; vegeta throughput):"
	for e in $(seq "$NIGHTS"); do
		exp=$(printf 'night%02d' "$e")
		printf '%s ' "$exp"
		awk '/^Requests\/sec/ { printf " %s", $2 }' "$OUT/$exp"/wrk*.txt
		printf ';'
		awk '/^Requests/ { printf " %s", $7 }' "$OUT/$exp"/vegeta*.txt
		echo
	done | tee -a "$OUT/meta.txt"
}

# CONTROL_TOOL (wrk, the default, or vegeta): the load tool of the
# nightly series with a control. wrk runs closed (-t1 -c8); vegeta runs
# open at -rate=$RATE (an open model: the gate reads latency).
CONTROL_TOOL=${CONTROL_TOOL:-wrk}

# control_run FILE PORT: one run of the series' tool against PORT into FILE.
control_run() {
	case $CONTROL_TOOL in
	vegeta) vegeta_text "$1" "http://127.0.0.1:$2/" -rate="$RATE" -duration="$DURATION" ;;
	*) wrk_run "$1" -t1 -c8 -d"$DURATION" --latency "http://127.0.0.1:$2/" ;;
	esac
}

# The nightly series with a same-night control (issue 31:
# make-nightly-outlier-first.sh, make-nightly-swings.sh,
# make-nightly-swings-step.sh): NIGHTS nights night01.., one a day, each
# with two systems measured in the same job, interleaved run by run: svc
# (the system under test, -work night_work E) on 127.0.0.1:$PORT and
# control (an unchanged reference build of the same server, -work
# $CONTROL_WORK) on 127.0.0.1:$((PORT + 1)), both CPU-bound on one core
# (-procs 1), both pinned with the load tool and the night's hog to
# PIN_CPU. The machine of night E is set by construction: night_hog E
# prints "SPIN SLEEP" for hog_start (0 0: none). The script sets NIGHTS,
# RUNS, DURATION, PORT, CONTROL_WORK and defines night_work E, night_hog
# E and night_note E.

# control_series SERIES: empties $OUT (fresh) and writes $OUT/nights.tsv
# (night, a made-up commit id, one date a day, svc's -work, control's
# -work, the hog, note) and each night's loadverdict.yaml: series:,
# meta:, systems svc and control (folders svc/ and control/), and order:
# the runs as they were made (svc1 control1 svc2 control2 ...).
control_series() {
	series=$1
	printf 'night\tcommit\tdate\twork\tcontrol_work\thog\tnote\n' > "$OUT/nights.tsv"
	for e in $(seq "$NIGHTS"); do
		exp=$(printf 'night%02d' "$e")
		mkdir -p "$OUT/$exp/svc" "$OUT/$exp/control"
		work=$(night_work "$e")
		note=$(night_note "$e")
		commit=$(printf 'loadverdict %s %s' "$(echo "$series" | tr - ' ')" "$exp" | sha1sum | cut -c1-12)
		date=$(date -u -d "2026-11-10 + $e days" +%Y-%m-%d)
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$exp" "$commit" "$date" "$work" "$CONTROL_WORK" "$(night_hog "$e" | tr ' ' /)" "$note" >> "$OUT/nights.tsv"
		{
			cat <<EOT
# The series this night belongs to, and what it measured (see README.md):
# svc is the system under test, control an unchanged reference build of
# the same server measured in the same job (loadverdict history --control control).
series: $series
meta:
  commit: $commit
  version: work-$work
  branch: main
  date: $date
  note: "$note"
systems:
  svc: [svc]
  control: [control]
order:
EOT
			for r in $(seq "$RUNS"); do
				printf '  - svc/%s%d.txt\n  - control/%s%d.txt\n' "$CONTROL_TOOL" "$r" "$CONTROL_TOOL" "$r"
			done
		} > "$OUT/$exp/loadverdict.yaml"
	done
}

# svc_hog_start E and svc_hog_stop NIGHT RUN: a second hog during svc's
# wrk run only (not the control's), when the script defines
# night_svc_hog E (printing "SPIN SLEEP"; 0 0: none): a neighbour that
# lands on one system's part of the job, which the control cannot cancel
# (nightly-odd-ratio). Its measured share goes to $OUT/svc-hog.tsv.
svc_hog_start() {
	command -v night_svc_hog > /dev/null || return 0
	# shellcheck disable=SC2046 # SPIN SLEEP
	set -- $(night_svc_hog "$1")
	if [ "$1" = 0 ] || [ "$1" = 0ms ]; then
		return 0
	fi
	$NICE "$T/cpuhog" -spin "$1" -sleep "$2" 2> "$T/svchog.err" &
	SVC_HOG=$!
	note "hog on svc's run only: spin $1 sleep $2 (pid $SVC_HOG)"
}
svc_hog_stop() {
	if [ -z "$SVC_HOG" ]; then
		return 0
	fi
	kill "$SVC_HOG"
	wait "$SVC_HOG" 2> /dev/null || true
	SVC_HOG=
	note "$(cat "$T/svchog.err")"
	printf '%s\t%s\t%s\n' "$1" "$2" "$(sed -n 's/.*took \([0-9.]*\) %.*/\1/p' "$T/svchog.err")" >> "$OUT/svc-hog.tsv"
}

# control_record: records the nights round-robin (run r of every night,
# then run r+1; see nightly_record). For each night and run: the night's
# hog started, svc's and control's servers freshly started, a run on svc,
# then one on control (control_run: wrk -t1 -c8 -d$DURATION --latency, or
# vegeta at -rate=$RATE), servers and hog stopped. meta.txt gets the load before and after every run, the hog's
# measured share and, at the end, per night every run's req/s and the
# svc/control ratio of the night's means.
control_record() {
	uptime >> "$OUT/meta.txt"
	for r in $(seq "$RUNS"); do
		for e in $(seq "$NIGHTS"); do
			exp=$(printf 'night%02d' "$e")
			work=$(awk -F'\t' -v n="$exp" '$1 == n { print $4 }' "$OUT/nights.tsv")
			wait_quiet
			# shellcheck disable=SC2046 # SPIN SLEEP
			hog_start $(night_hog "$e")
			start_server "$PORT" -procs 1 -work "$work"
			svcpid=$SRV
			start_server $((PORT + 1)) -procs 1 -work "$CONTROL_WORK"
			SRV="$svcpid $SRV"
			svc_hog_start "$e"
			control_run "$OUT/$exp/svc/$CONTROL_TOOL$r.txt" "$PORT"
			svc_hog_stop "$exp" "$r"
			control_run "$OUT/$exp/control/$CONTROL_TOOL$r.txt" $((PORT + 1))
			stop_server
			hog_stop
			printf '%s\t%s\t%s\n' "$exp" "$r" "$HOG_SHARE" >> "$OUT/hog.tsv"
		done
		uptime >> "$OUT/meta.txt"
	done
	if [ "$CONTROL_TOOL" = vegeta ]; then
		echo "Mean latency per night (svc runs; control runs; hog share % per run):"
		for e in $(seq "$NIGHTS"); do
			exp=$(printf 'night%02d' "$e")
			s=$(awk '/^Latencies/ { printf " %s", $10 }' "$OUT/$exp"/svc/vegeta*.txt)
			c=$(awk '/^Latencies/ { printf " %s", $10 }' "$OUT/$exp"/control/vegeta*.txt)
			h=$(awk -F'\t' -v n="$exp" '$1 == n { printf " %s", $3 }' "$OUT/hog.tsv")
			echo "$exp svc$s; control$c; hog$h"
		done | tee -a "$OUT/meta.txt"
		return
	fi
	echo "Requests/sec per night (svc runs; control runs; hog share % per run; svc/control of the means):"
	for e in $(seq "$NIGHTS"); do
		exp=$(printf 'night%02d' "$e")
		s=$(awk '/^Requests\/sec/ { printf " %s", $2 }' "$OUT/$exp"/svc/wrk*.txt)
		c=$(awk '/^Requests\/sec/ { printf " %s", $2 }' "$OUT/$exp"/control/wrk*.txt)
		h=$(awk -F'\t' -v n="$exp" '$1 == n { printf " %s", $3 }' "$OUT/hog.tsv")
		echo "$exp svc$s; control$c; hog$h; $(echo "$s;$c" | awk -F';' '{ n = split($1, a, " "); m = split($2, b, " "); for (i = 1; i <= n; i++) x += a[i]; for (i = 1; i <= m; i++) y += b[i]; printf "ratio %.4f", (x / n) / (y / m) }')"
	done | tee -a "$OUT/meta.txt"
}
