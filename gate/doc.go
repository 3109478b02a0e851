// Package gate holds the settings of loadverdict's CI gate, parsed
// strictly and shared by the command line (--threshold, --fail-on,
// --max-regression) and the manifest (slo:, gate:): SLO thresholds such
// as `lat_p99_ms<250` or `rps{system=new,connections=100}>=1000`
// (ParseThreshold), the conditions that fail the gate (ParseConditions)
// and the largest regression that does not (ParsePercent).
//
// The grammar of a threshold:
//
//	threshold = metric [ "{" scope { "," scope } "}" ] op number
//	metric    = "rps" | "lat_mean_ms" | "lat_p50_ms" | "lat_p90_ms" | "lat_p99_ms"
//	          | "lat_p999_ms" | "lat_max_ms" | "error_rate"
//	scope     = "system" "=" name | "connections" "=" integer
//	          | "threads" "=" integer | "rate" "=" number
//	op        = "<" | "<=" | ">" | ">="
//
// Blanks around the parts are allowed; a system name runs to the next ','
// or '}' (trimmed), so it cannot contain either. Numbers are Go floats
// (1000, 1e3, 0.01); a metric's limit is >= 0, an error_rate's at most 1.
// Errors are *SyntaxError values with the 1-based column.
//
// The package only parses: analyze evaluates thresholds and the gate on a
// verdict, and report words the outcome.
package gate
