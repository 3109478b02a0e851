#!/bin/sh
# manifest.sh measures `loadverdict report --manifest M` on one small wrk
# file with hostile and large manifests (issue 21 defects 4 and 5: YAML
# aliases that stand for millions of patterns; yaml.v3's duplicate-key
# check, quadratic in a mapping's keys) against the named baseline: the
# same command with a tiny manifest, in the same run. Whole processes,
# REPEAT times each (median wall time, largest peak RSS from GNU time).
#
#   407 KB aliases    systems: 32,000 aliases of a list of 1,000 patterns
#                     (32M patterns): refused, larger than 256 KiB
#   200k labels       labels: 200,000 targets (~5 MB): refused, too large
#   250 KB aliases    as the first, 18,000 aliases, under the size bound:
#                     refused by the node count (aliases expanded)
#   9k labels         labels: as many targets as 256 KiB holds: parsed
#   9k unknown keys   as many top-level keys as 256 KiB holds: refused at
#                     the first unknown key
#
# The floor of a process is `loadverdict version`'s peak RSS (the binary
# and its runtime), printed first.
#
# Target: each refused or parsed in <= 2 s and <= 64 MB peak.
#
#   sh scripts/perf/manifest.sh          (from anywhere; ~6 MB in $TMP)
#
# Environment: TMP (default /tmp), REPEAT (default 3).
set -eu
cd "$(dirname "$0")/../.."
TMP=${TMP:-/tmp}
REPEAT=${REPEAT:-3}
W=$TMP/lv-manifest-perf
mkdir -p "$W"
LV=$W/loadverdict
go build -o "$LV" ./cmd/loadverdict
INPUT=ingest/wrk/testdata/wrk/wrk_05.txt

# aliases N FILE: a list of 1,000 patterns and N systems naming it by alias.
aliases() {
	awk -v n="$1" 'BEGIN { printf "systems:\n  s0: &p ["; for (i = 0; i < 1000; i++) printf "%sp%04d", (i ? ", " : ""), i
		print "]"; for (i = 1; i <= n; i++) printf "  s%d: *p\n", i }' > "$2"
}
# labels N FILE: N distinct targets, each its own system.
labels() {
	awk -v n="$1" 'BEGIN { print "labels:"; for (i = 0; i < n; i++) printf "  \"10.%d.%d.%d:8080\": s%d\n", int(i / 65536), int(i / 256) % 256, i % 256, i }' > "$2"
}
# fill CMD FILE: as many lines of CMD as fit in 256 KiB less 1 KiB.
fill() {
	n=1000
	while :; do
		"$1" "$n" "$2.next"
		[ "$(stat -c %s "$2.next")" -le $((256 * 1024 - 1024)) ] || break
		mv "$2.next" "$2"
		n=$((n + 500))
	done
	rm -f "$2.next"
}
unknown() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "key%06d: %d\n", i, i }' > "$2"; }

printf 'thresholds: {min_runs: 3}\n' > "$W/tiny.yaml"
aliases 32000 "$W/aliases-407k.yaml"
labels 200000 "$W/labels-200k.yaml"
aliases 18000 "$W/aliases-250k.yaml"
fill labels "$W/labels-max.yaml"
fill unknown "$W/unknown-max.yaml"

# measure FILE: prints "wall_s rss_mb exit" of one run.
measure() {
	rm -rf "$W/out"
	code=0
	/usr/bin/time -f '%e %M' -o "$W/time" "$LV" report -o "$W/out" --manifest "$1" "$INPUT" > /dev/null 2> "$W/stderr" || code=$?
	tail -n 1 "$W/time" | awk -v c="$code" '{ printf "%s %.0f %s\n", $1, $2 / 1024, c }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load: $(uptime | sed 's/.*load average: //') (1, 5, 15 min), $(nproc) cores"
/usr/bin/time -f '%M' -o "$W/time" "$LV" version > /dev/null
echo "process floor (loadverdict version): $(($(tail -n 1 "$W/time") / 1024)) MB peak RSS"
printf '%-26s %8s %8s %8s %5s  %s\n' manifest KB wall_s peak_MB exit "first line of stderr"
for m in tiny aliases-407k labels-200k aliases-250k labels-max unknown-max; do
	f=$W/$m.yaml
	: > "$W/runs"
	for _ in $(seq "$REPEAT"); do measure "$f" >> "$W/runs"; done
	wall=$(cut -d' ' -f1 "$W/runs" | median)
	rss=$(cut -d' ' -f2 "$W/runs" | sort -n | tail -n 1)
	code=$(tail -n 1 "$W/runs" | cut -d' ' -f3)
	name=$m
	[ "$m" = tiny ] && name="tiny (baseline)"
	printf '%-26s %8d %8s %8s %5s  %s\n' "$name" "$(($(stat -c %s "$f") / 1024))" "$wall" "$rss" "$code" "$(head -n 1 "$W/stderr" | cut -c1-110)"
done
rm -rf "$W"
