#!/usr/bin/env python3
"""vegeta-to-jtl.py writes the per-request results of a vegeta attack
(vegeta encode --to json, one JSON object a line, on standard input) as the
CSV JTL JMeter's non-GUI mode writes for the same requests, on standard
output: a header line (jmeter.save.saveservice.print_field_names=true) and
one row per request with the fields of JMeter's default CSV result
configuration plus URL (saveservice.url=true), in JMeter's order:

  timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,
  success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,
  IdleTime,Connect

as documented in JMeter's user manual ("Listeners: CSV log format",
"Results file configuration") and written by JMeter 5.x. JMeter cannot be
installed here; the rows are what JMeter records for each outcome:
- a response: responseCode the HTTP status, responseMessage its reason
  phrase, success true for 1xx-3xx (JMeter's default for HTTP samplers:
  a 4xx/5xx fails), failureMessage empty (no assertion);
- no response (vegeta code 0 with an error): JMeter's HTTP sampler records
  the exception, responseCode "Non HTTP response code: <exception class>",
  responseMessage "Non HTTP response message: <exception message>",
  success false; a reset connection is java.net.SocketException
  "Connection reset", a refused one java.net.ConnectException "Connection
  refused", a timeout java.net.SocketTimeoutException "Read timed out".
timeStamp is the request's start in Unix milliseconds (JMeter's shipped
sampleresult.timestamp.start=true), elapsed its latency in whole ms;
label the URL path without its slash ("a" for /a), threadName
"errors 1-N" (vegeta's workers are not reported: N counts the requests
in flight at the start, at most --threads), grpThreads = allThreads =
--threads (the threads a JMeter thread group of that size keeps busy).
"""
import argparse
import csv
import json
import sys
from datetime import datetime
from urllib.parse import urlparse

REASONS = {200: "OK", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout", 404: "Not Found"}
HEADER = ["timeStamp", "elapsed", "label", "responseCode", "responseMessage", "threadName", "dataType", "success",
          "failureMessage", "bytes", "sentBytes", "grpThreads", "allThreads", "URL", "Latency", "IdleTime", "Connect"]


def ts_ms(s):
    # RFC 3339 with nanoseconds: cut to microseconds for datetime.
    head, frac = s.rstrip("Z").split(".") if "." in s else (s.rstrip("Z"), "0")
    zone = ""
    for sep in ("+", "-"):
        if sep in frac:
            frac, zone = frac.split(sep, 1)
            zone = sep + zone
    dt = datetime.fromisoformat(head + "." + (frac + "000000")[:6] + (zone or "+00:00"))
    return int(dt.timestamp() * 1000)


def transport(err):
    e = err.lower()
    if "reset" in e or "broken pipe" in e or e.endswith("eof"):
        return "java.net.SocketException", "Connection reset"
    if "refused" in e:
        return "java.net.ConnectException", "Connection refused"
    if "timeout" in e:
        return "java.net.SocketTimeoutException", "Read timed out"
    return "java.io.IOException", err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=8)
    args = ap.parse_args()
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(HEADER)
    rows = [json.loads(line) for line in sys.stdin if line.strip()]
    rows.sort(key=lambda r: r["timestamp"])
    for i, r in enumerate(rows):
        start = ts_ms(r["timestamp"])
        elapsed = int(r["latency"] // 1_000_000)
        u = urlparse(r["url"])
        label = u.path.strip("/") or "root"
        code = int(r["code"])
        if code == 0:
            cls, msg = transport(r.get("error", ""))
            rc, rm, ok, nbytes = "Non HTTP response code: " + cls, "Non HTTP response message: " + msg, "false", 0
        else:
            rc, rm, ok, nbytes = str(code), REASONS.get(code, ""), "true" if code < 400 else "false", int(r.get("bytes_in", 0)) + 150
        thread = "errors 1-%d" % (i % args.threads + 1)
        w.writerow([start, elapsed, label, rc, rm, thread, "text", ok, "", nbytes, 120, args.threads, args.threads,
                    r["url"], elapsed if code else 0, 0, 0])


if __name__ == "__main__":
    main()
