package report

// MetricWords names a compared metric for people ("throughput", "mean
// latency", ...), as the reports do: loadverdict duel's lines use it.
func MetricWords(m string) string { return metricWords(m) }
