#!/usr/bin/env bash
# make-data.sh writes the JMeter results under ingest/jmeter/testdata/jmeter/ by
# running plan.jmx non-GUI with Debian's JMeter 2.13 (apt-get install -y
# jmeter) against servers on 127.0.0.1:
#   19300  go run ./ingest/internal/testserver (/ok, /mixed?every=10, /status)
#   19301  python3 -m http.server over a page with two embedded images
#   19399  nothing listens: connection refused
# Every JMeter run is bounded by timeout; the servers are stopped on exit.
#
# Debian's JMeter 2.13 does not start on its recent XStream (1.4.18+ rejects
# JMeter's classes), so JMeter is started through XStreamAllow.java beside
# this script, which lets JMeter's XStream instances read any type; and
# Debian leaves out JMeter's default HTML parser (Lagarto), so embedded
# resources are found with the jsoup one.
#
# Usage: scripts/jmeter/make-data.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$root/ingest/jmeter/testdata/jmeter
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$out"

go build -o "$tmp/testserver" ./ingest/internal/testserver
"$tmp/testserver" -addr 127.0.0.1:19300 &
pids+=($!)
mkdir "$tmp/www"
printf '<html><body><img src="a.png"><img src="b.png"></body></html>\n' >"$tmp/www/page.html"
head -c 2048 /dev/zero >"$tmp/www/a.png"
head -c 4096 /dev/zero >"$tmp/www/b.png"
python3 -m http.server 19301 --bind 127.0.0.1 --directory "$tmp/www" >/dev/null 2>&1 &
pids+=($!)
sleep 1

# A variant of the plan whose transaction controller generates a parent sample.
sed 's|<boolProp name="TransactionController.parent">false</boolProp>|<boolProp name="TransactionController.parent">true</boolProp>|' \
	scripts/jmeter/plan.jmx >"$tmp/plan-parent.jmx"

jmeter() { # jmeter PLAN OUTPUT [-Jname=value ...]
	local plan=$1 file=$2
	shift 2
	rm -f "$file"
	(cd "$tmp" && timeout 180 java -cp /usr/share/jmeter/bin/ApacheJMeter.jar -Djmeter.home=/usr/share/jmeter \
		"$root/scripts/jmeter/XStreamAllow.java" -n -t "$plan" -l "$file" -j "$tmp/jmeter.log" \
		-JhtmlParser.className=org.apache.jmeter.protocol.http.parser.JsoupBasedHtmlParser "$@" >/dev/null)
}
S=-Jjmeter.save.saveservice
modern=("$S.print_field_names=true" "$S.assertion_results_failure_message=true" "$S.url=true"
	"$S.connect_time=true" "$S.idle_time=true")

# 1. JMeter 2.13's defaults: CSV without a header line, 12 columns.
jmeter "$root/scripts/jmeter/plan.jmx" "$tmp/csv-noheader-2.13-default.jtl"
# 2. CSV with a header and the columns later versions save by default (but
#    sentBytes, which 2.13 does not know).
jmeter "$root/scripts/jmeter/plan.jmx" "$tmp/csv-header.jtl" "${modern[@]}"
# 3. Every CSV column 2.13 has, tab-separated, formatted time stamps; small.
jmeter "$root/scripts/jmeter/plan.jmx" "$tmp/csv-header-tab-all.jtl" -Jloops=10 "${modern[@]}" \
	"$S.hostname=true" "$S.sample_count=true" "$S.encoding=true" "$S.filename=true" \
	"$S.default_delimiter=\t" "$S.timestamp_format=yyyy/MM/dd HH:mm:ss.SSS"
# 4. XML with URLs, assertion results, sub-results of embedded resources and
#    transaction parent samples.
jmeter "$tmp/plan-parent.jmx" "$tmp/xml.jtl" "$S.output_format=xml" "$S.url=true" "$S.assertion_results_failure_message=true"
# 5. XML with 2.13's defaults (no URL); small.
jmeter "$root/scripts/jmeter/plan.jmx" "$tmp/xml-default.jtl" -Jloops=10 "$S.output_format=xml"

for f in csv-noheader-2.13-default csv-header xml; do
	gzip -9n <"$tmp/$f.jtl" >"$out/$f.jtl.gz"
done
for f in csv-header-tab-all xml-default; do
	cp "$tmp/$f.jtl" "$out/$f.jtl"
done
ls -l "$out"
