#!/bin/sh
# make-periodic-pauses.sh records testdata/truth/periodic-pauses (issue 31
# item 4, "28 stop-the-world pauses of 40-76 ms every ~1.06 s called rare
# stalls"): vegeta at a fixed rate against a truth server that freezes all
# handling for a short pause at a regular interval (-stall-every P
# -stall-for S), and controls whose pauses come at irregular times
# (-stall-jitter: each moved by a uniform draw in [-J, J)) or never. The
# server is light (-delay 1ms), so the pauses are what a request waits
# beyond its millisecond. Each run is a fresh server; its log lists every
# pause's times.
#
#   <run>.json.gz (vegeta encode --to json), <run>-report.txt, truth.tsv
#
#   NICE_LEVEL=-20 sh scripts/truth/make-periodic-pauses.sh   (from anywhere; root for nice)
#
# Environment: PORT (19741), DURATION (12s).
. "$(dirname "$0")/lib.sh"
PORT=${PORT:-19741}
DURATION=${DURATION:-12s}
fresh testdata/truth/periodic-pauses
printf 'run\trate\tevery\tfor\tjitter\ttruth\tduration\n' > "$OUT/truth.tsv"
one() { # NAME RATE EVERY FOR JITTER TRUTH [DURATION]
	d=${7:-$DURATION}
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$d" >> "$OUT/truth.tsv"
	wait_quiet
	flags="-delay 1ms"
	if [ "$3" != 0 ]; then flags="$flags -stall-every $3 -stall-for $4 -stall-jitter $5"; fi
	# shellcheck disable=SC2086
	start_server "$PORT" $flags
	vegeta_run "$OUT" "$1" "http://127.0.0.1:$PORT/" -rate="$2" -duration="$d"
	stop_server
}
one p250ms-r400 400 250ms 50ms 0 periodic
one p250ms-r300 300 250ms 40ms 0 periodic
one p1s-r300 300 1s 60ms 0 periodic
one p1s-r500 500 1s 45ms 0 periodic
one p1s-r200 200 1060ms 70ms 0 periodic
one p3s-r300 300 3s 80ms 0 periodic 30s
one p500ms-r250 250 500ms 60ms 0 periodic
one irr1s-r300 300 1s 60ms 450ms irregular
one irr3s-r300 300 3s 80ms 1300ms irregular 30s
one irr500ms-r400 400 500ms 50ms 220ms irregular
one none-r300 300 0 0 0 none
