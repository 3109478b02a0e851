#!/usr/bin/env python3
"""jtl-to-k6-json.py writes the samples of a JMeter CSV JTL (with a header,
URL saved) on standard input as the points k6 --out json writes for them,
on standard output: for each sample an http_reqs point (value 1), an
http_req_duration point (value: the elapsed ms) and an http_req_failed
point (1 or 0), each with the tags k6 gives a request: method, name (the
JMeter label, as a script sets it with `tags: {name: ...}`), url, status,
proto, scenario ("default"), group and expected_response; preceded by the
Metric lines k6 writes before a metric's first point. The point's time is
the request's end (k6 stamps a request's metrics when it completes), in
UTC with microseconds, as k6 prints it. Layout: the k6 documentation's
"JSON" output page (k6 v0.4x). No other k6 metric is made up.
"""
import csv
import json
import sys
from datetime import datetime, timezone

METRICS = {
    "http_reqs": {"type": "counter", "contains": "default"},
    "http_req_duration": {"type": "trend", "contains": "time"},
    "http_req_failed": {"type": "rate", "contains": "default"},
}


def main():
    out = sys.stdout
    seen = set()
    for row in csv.DictReader(sys.stdin):
        end_ms = int(row["timeStamp"]) + int(row["elapsed"])
        t = datetime.fromtimestamp(end_ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        code = row["responseCode"]
        status = code if code.isdigit() else "0"
        ok = row["success"] == "true"
        tags = {"expected_response": "true" if ok else "false", "group": "", "method": "GET",
                "name": row["label"], "proto": "HTTP/1.1", "scenario": "default", "status": status,
                "url": row["URL"]}
        for metric, value in (("http_reqs", 1), ("http_req_duration", float(row["elapsed"])),
                              ("http_req_failed", 0 if ok else 1)):
            if metric not in seen:
                seen.add(metric)
                data = dict(METRICS[metric], tainted=None, thresholds=[], submetrics=None, name=metric)
                out.write(json.dumps({"type": "Metric", "data": data, "metric": metric}, separators=(",", ":")) + "\n")
            point = {"type": "Point", "data": {"time": t, "value": value, "tags": tags}, "metric": metric}
            out.write(json.dumps(point, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
