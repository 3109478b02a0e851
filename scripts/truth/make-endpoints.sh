#!/bin/sh
# make-endpoints.sh records testdata/truth/endpoints (issue 13): one JMeter
# test of three endpoints against the ingest testserver on
# 127.0.0.1:$PORT, run twice (rounds 1 and 2), saved as CSV JTL with a
# header, and the same samples written as k6 --out json points by
# jtl-to-k6-json.py (k6 cannot be installed here: see the README).
# Truth: per round, 4 threads x 200 loops of "home" (/ok, at once), "search"
# (/sleep?ms=20: at least 20 ms) and "checkout" (/mixed?every=4: every 4th
# answers 500): 800 requests per endpoint, 200 of checkout's failing (the
# server counts /mixed requests from its start, so per round exactly 200).
#
#   sh scripts/truth/make-endpoints.sh        (from anywhere; root for nice -n -10)
#
# Needs Debian's JMeter 2.13 (apt-get install -y jmeter), started through
# scripts/jmeter/XStreamAllow.java (Java 17: see scripts/jmeter/make-data.sh).
# Environment: PORT (19110).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19110}
fresh testdata/truth/endpoints
echo "jmeter: $(dpkg-query -W -f '${Version}' jmeter 2>/dev/null || echo unknown); java: $(java -version 2>&1 | head -1)" >> "$OUT/meta.txt"
go build -o "$T/testserver" ./ingest/internal/testserver
S=-Jjmeter.save.saveservice
for round in 1 2; do
	wait_quiet
	# shellcheck disable=SC2086
	$NICE "$T/testserver" -addr "127.0.0.1:$PORT" 2>> "$OUT/server.log" &
	SRV=$!
	sleep 1
	note "round $round: JMeter endpoints.jmx, 4 threads x 200 loops of home, search, checkout"
	rm -f "$T/round.jtl"
	# shellcheck disable=SC2086
	(cd "$T" && timeout 300 $NICE java -cp /usr/share/jmeter/bin/ApacheJMeter.jar -Djmeter.home=/usr/share/jmeter \
		"$OLDPWD/scripts/jmeter/XStreamAllow.java" -n -t "$OLDPWD/scripts/truth/endpoints.jmx" -l "$T/round.jtl" -j "$T/jmeter.log" \
		-Jport="$PORT" "$S.print_field_names=true" "$S.url=true" "$S.assertion_results_failure_message=true" \
		"$S.connect_time=true" "$S.idle_time=true" > /dev/null)
	cp "$T/round.jtl" "$OUT/jmeter-round$round.jtl"
	python3 scripts/truth/jtl-to-k6-json.py < "$T/round.jtl" | gzip -9n > "$OUT/k6-round$round.json.gz"
	stop_server
	note "done: $(tail -n +2 "$OUT/jmeter-round$round.jtl" | wc -l) samples"
done
for round in 1 2; do
	echo "round $round (label, requests, errors, mean ms):"
	tail -n +2 "$OUT/jmeter-round$round.jtl" | awk -F, '{ n[$3]++; s[$3] += $2; if ($8 != "true") e[$3]++ } END { for (k in n) printf "  %s %d %d %.2f\n", k, n[k], e[k], s[k] / n[k] }'
done
