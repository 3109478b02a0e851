#!/bin/sh
# manyfiles.sh measures `loadverdict report` over one folder of many small
# wrk files (issue 21 item 8: the command line's local store listed the
# whole partition for every input, so 1k files took 17 s and 10k 834 s).
# The named baseline is the same report over 1,000 files: the cost per
# file at 10,000 files stays within 1.5x of the baseline's when ingest is
# linear in the files. Whole process, GNU time (wall, peak RSS).
#
#   sh scripts/perf/manyfiles.sh        (from anywhere; ~60 MB in $TMP)
#
# Environment: TMP (default /tmp), SIZES (default "1000 10000").
set -eu
cd "$(dirname "$0")/../.."
TMP=${TMP:-/tmp}
SIZES=${SIZES:-"1000 10000"}
LV=$TMP/lv-manyfiles
go build -o "$LV" ./cmd/loadverdict
src=ingest/wrk/testdata/wrk/real-latency-ok.txt

echo "load: $(uptime | sed 's/.*load average: //') (1, 5, 15 min), $(nproc) cores"
echo " files   wall s   ms/file   peak RSS MB   per-file ratio to the first size"
base=
for n in $SIZES; do
	d=$TMP/manyfiles-$n
	if [ ! -d "$d" ]; then
		mkdir -p "$d"
		# n files differing in their request rate.
		awk -v n="$n" -v d="$d" -v src="$src" 'BEGIN {
			while ((getline l < src) > 0) lines[++m] = l
			for (i = 1; i <= n; i++) {
				f = sprintf("%s/run%05d.txt", d, i)
				for (j = 1; j <= m; j++) {
					l = lines[j]
					if (l ~ /^Requests\/sec:/) l = sprintf("Requests/sec:  %d.00", 20000 + i)
					print l > f
				}
				close(f)
			}
		}'
	fi
	out=$TMP/manyfiles-out
	rm -rf "$out"
	/usr/bin/time -f '%e %M' -o "$TMP/manyfiles-time" "$LV" report -o "$out" "$d" > /dev/null 2> "$TMP/manyfiles-err" || {
		tail -n 5 "$TMP/manyfiles-err" >&2
		exit 1
	}
	set -- $(tail -n 1 "$TMP/manyfiles-time")
	per=$(echo "$1 * 1000 / $n" | bc -l)
	[ -n "$base" ] || base=$per
	printf '%6d  %7s  %8.2f  %12.0f  %6.2f\n' "$n" "$1" "$per" "$(echo "$2 / 1024" | bc -l)" "$(echo "$per / $base" | bc -l)"
done
echo "load after: $(uptime | sed 's/.*load average: //')"
[ "${KEEP:-0}" = 1 ] || rm -rf "$TMP"/manyfiles-[0-9]* "$TMP/manyfiles-out"
