#!/bin/sh
# sameoutput.sh checks that this checkout's loadverdict writes the same
# bytes as another revision's (BASE, default main) on the test inputs:
# `loadverdict report -o DIR FILE` on every input under ingest/**/testdata
# (one report per file: tables, rejection records, report.md, summary.md,
# summary.json and figures), on the zuul-vs-openresty example, on each
# folder of testdata/truth (one experiment each; before-after also through
# `compare`), and on a real-shaped 200,000-request vegeta log
# (scripts/perf/makevegeta -from the cold-JVM log); with BIG=1 also on
# 1,100,000 requests (beyond the exact percentiles' cap). The exit status,
# standard output and error (with the output folder's name replaced) and
# every file written must be identical; Parquet files whose bytes differ
# must hold the same tables (scripts/perf/sametables: rows and metadata).
#
#   sh scripts/perf/sameoutput.sh        (from anywhere; BASE=<git rev>)
#
# It prints one line per difference; it exits 1 when anything differs. Environment: TMP (default /tmp), BASE, BIG, KEEP=1 keeps the
# folders.
set -eu
cd "$(dirname "$0")/../.."
BASE=${BASE:-main}
W=${TMP:-/tmp}/sameoutput.$$
mkdir -p "$W/src"
git archive "$BASE" | tar -x -C "$W/src"
(cd "$W/src" && go build -o "$W/lv-base" ./cmd/loadverdict)
go build -o "$W/lv-new" ./cmd/loadverdict
go build -o "$W/makevegeta" ./scripts/perf/makevegeta
cold=ingest/vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz
"$W/makevegeta" -from "$cold" -n 200000 -o "$W/real-200k.json"
if [ "${BIG:-0}" = 1 ]; then
	"$W/makevegeta" -from "$cold" -n 1100000 -o "$W/real-1100k.json"
fi

# run NAME ARGS...: both builds, each in its own folder NAME.
run() {
	name=$1
	shift
	for b in base new; do
		out=$W/$b/$name
		mkdir -p "$out"
		set +e
		"$W/lv-$b" "$@" -o "$out/o" > "$out/stdout" 2> "$out/stderr"
		echo $? > "$out/status"
		set -e
		sed "s|$out/o|OUT|g" "$out/stdout" > "$out/stdout.n" && mv "$out/stdout.n" "$out/stdout"
		sed "s|$out/o|OUT|g" "$out/stderr" > "$out/stderr.n" && mv "$out/stderr.n" "$out/stderr"
	done
}

i=0
find ingest -path '*/testdata/*' -type f ! -name '*.golden*' ! -name '*.src' ! -name '*.md' ! -name '*.sh' ! -path '*/fuzz/*' | sort > "$W/inputs"
while read -r f; do
	i=$((i + 1))
	run "in$i" report "$f"
done < "$W/inputs"
run zuul report examples/zuul-vs-openresty.txt
for d in testdata/truth/*/; do
	i=$((i + 1))
	run "truth$i" report "$d"
done
run compare compare testdata/truth/before-after/old testdata/truth/before-after/new
run real200k report "$W/real-200k.json"
if [ "${BIG:-0}" = 1 ]; then
	run real1100k report "$W/real-1100k.json"
fi

# Parquet files whose bytes differ are compared by content (sametables:
# rows and key-value metadata); every other file by its bytes.
n=$(find "$W/base" -type f | wc -l)
# The lock file holds the pid of the process that wrote the folder.
diff -r -q -x .loadverdict.lock "$W/base" "$W/new" > "$W/diff" 2>&1 || true
grep -E '^Files .*\.parquet and .*\.parquet differ$' "$W/diff" | sed 's/^Files \(.*\) and \(.*\) differ$/\1 \2/' > "$W/parquet-pairs" || true
grep -vE '^Files .*\.parquet and .*\.parquet differ$' "$W/diff" > "$W/other" || true
np=$(wc -l < "$W/parquet-pairs")
status=0
if [ "$np" -gt 0 ]; then
	# shellcheck disable=SC2046 # the pairs are paths without blanks
	go run ./scripts/perf/sametables $(cat "$W/parquet-pairs") > "$W/tables" || status=1
	sed "s|$W/||g" "$W/tables"
fi
if [ -s "$W/other" ]; then
	sed "s|$W/||g" "$W/other"
	status=1
fi
if [ $status = 0 ]; then
	echo "same: $n files of $(find "$W/base" -name status | wc -l) invocations identical ($BASE vs this checkout); $np Parquet files differ in bytes but hold the same tables"
else
	echo "DIFFERENT ($BASE vs this checkout): see above; inputs listed in $W/inputs"
fi
if [ "${KEEP:-0}" != 1 ] && [ $status = 0 ]; then
	rm -rf "$W"
fi
exit $status
