#!/bin/bash
# Runs wrk several times against ingest/internal/testserver on 127.0.0.1:18080,
# printing a (synthetic) prompt and the command line before each real output.
run() { printf '%s%s\n' "$1" "$2"; eval "$2" 2>&1; }
run '$ ' 'wrk -t2 -c10 -d1s http://127.0.0.1:18080/ok'
run 'user@host:~$ ' 'wrk --threads 2 --connections 20 --duration 1s --latency "http://127.0.0.1:18080/ok"'
run '➜  ~ ' 'wrk -t 1 -c 4 -d 2s --timeout 1s "http://127.0.0.1:18080/sleep?ms=1500"'
run 'root@host # ' "wrk -t2 -c8 -d1s -H 'Connection: close' 'http://127.0.0.1:18080/mixed?every=4'"
run '❯ ' 'wrk -t2 -c8 -d2s http://127.0.0.1:18080/close?every=3'
run '% ' 'wrk -t1 -c2 -d1s --latency http://127.0.0.1:18080/sleep?ms=300'
run 'PS C:\> ' 'time wrk -t2 -c16 -d1s http://127.0.0.1:18080/big?kb=16'
