#!/bin/sh
# bigfield.sh measures `loadverdict report` on an input holding one huge
# field (issue 21 item 7: one 500 MB field of an Artillery, autocannon or
# ghz JSON cost 2.1 GB, of a JMeter XML 1.1 GB), against the named
# baseline: the same tool's real file from ingest/<tool>/testdata without it, in
# the same run. The field is added at the end of the report (past the
# detection's head): "pad":"xxx..." in the JSON object, a <responseData>
# of a sample in the XML. Target: refused (exit 1, the input's rejection
# naming file, line and the bound) in <= 2 s and <= 100 MB peak RSS.
# Whole process, GNU time -v.
#
#   sh scripts/perf/bigfield.sh          (from anywhere; ~2 GB in $TMP)
#
# Environment: TMP (default /tmp), MB (default 500), KEEP=1 keeps the files,
# LV=path measures that binary instead of building one (an older build).
set -eu
cd "$(dirname "$0")/../.."
TMP=${TMP:-/tmp}
MB=${MB:-500}
if [ -z "${LV:-}" ]; then
	LV=$TMP/lv-bigfield
	go build -o "$LV" ./cmd/loadverdict
fi

# big SRC OUT: SRC with the field added.
big() {
	case $1 in
	*.jtl)
		sed '/<\/testResults>/,$d' "$1"
		printf '<httpSample t="1" lt="1" ts="1796218670456" s="true" lb="ok" rc="200" rm="OK" tn="load 1-4" dt="text" by="1" ng="1" na="1"><responseData class="java.lang.String">'
		head -c $((MB * 1000000)) /dev/zero | tr '\0' x
		printf '</responseData></httpSample>\n</testResults>\n'
		;;
	*)
		content=$(cat "$1")
		printf '%s,"pad":"' "${content%\}}"
		head -c $((MB * 1000000)) /dev/zero | tr '\0' x
		printf '"}\n'
		;;
	esac > "$2"
}

# measure FILE: prints "exit wall_s rss_mb".
measure() {
	out=$TMP/bigfield-out
	rm -rf "$out"
	code=0
	/usr/bin/time -v -o "$TMP/bigfield-time" "$LV" report -o "$out" "$1" > /dev/null 2> "$TMP/bigfield-err" || code=$?
	rss=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$TMP/bigfield-time")
	wall=$(awk '/Elapsed \(wall clock\)/ { print $NF }' "$TMP/bigfield-time")
	printf '%s %s %.0f\n' "$code" "$wall" "$(echo "$rss / 1024" | bc -l)"
}

echo "load: $(uptime | sed 's/.*load average: //') (1, 5, 15 min), $(nproc) cores"
echo "tool        input                      MB   exit   wall    peak RSS MB"
for src in ingest/artillery/testdata/artillery/real-ok.json ingest/autocannon/testdata/autocannon/real-timeout.json \
	ingest/ghz/testdata/ghz/real-errors.json ingest/jmeter/testdata/jmeter/xml-default.jtl; do
	tool=$(basename "$(dirname "$src")")
	set -- $(measure "$src")
	printf '%-11s %-24s %4d   %4s  %6s  %8s\n' "$tool" baseline 0 "$1" "$2" "$3"
	f=$TMP/bigfield-$tool.${src##*.}
	[ -s "$f" ] || big "$src" "$f"
	set -- $(measure "$f")
	printf '%-11s %-24s %4d   %4s  %6s  %8s\n' "$tool" "+${MB} MB field" "$(($(wc -c < "$f") >> 20))" "$1" "$2" "$3"
	echo "            $(head -c 240 "$TMP/bigfield-err" | head -n 1)"
done
echo "load after: $(uptime | sed 's/.*load average: //')"
[ "${KEEP:-0}" = 1 ] || rm -f "$TMP"/bigfield-*
