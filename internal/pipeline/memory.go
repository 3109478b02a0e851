package pipeline

import (
	"os"
	"runtime/debug"
	"strconv"
)

// LambdaMemoryFraction is the part of a Lambda function's memory that
// LambdaMemoryLimit gives the Go heap; the rest is the runtime, the
// binary and the stacks.
const LambdaMemoryFraction = 0.75

// LambdaMemoryLimit sets the Go runtime's soft memory limit to
// LambdaMemoryFraction of the function's memory
// (AWS_LAMBDA_FUNCTION_MEMORY_SIZE, in MB), unless GOMEMLIMIT is set or
// the variable is not a number, and returns the limit set in bytes (0 when
// none). A function is killed when its process passes its memory, so the
// collector should work harder before that rather than never: an input
// of 50,000 wrk runs peaks at 523 MB without a limit and at 364 MB with
// 300 MiB, in less time (scripts/perf/manyruns.sh). The CLI sets no limit
// (its memory is flat in a log's length without one); it sets CLIGCPercent.
func LambdaMemoryLimit() int64 {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return 0
	}
	mb, err := strconv.ParseInt(os.Getenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE"), 10, 64)
	if err != nil || mb <= 0 {
		return 0
	}
	limit := int64(float64(mb<<20) * LambdaMemoryFraction)
	debug.SetMemoryLimit(limit)
	return limit
}

// CLIGCPercent is the command line's GOGC: the heap may grow to 1.5
// times what is live between collections, not twice. A report's peak
// memory is the binary's pages plus its peak heap, about twice what is
// live at the end of the parse under the default 100 (the held samples,
// the exact latencies, the encoder's buffers): on the 1M-request vegeta
// log 50 takes its peak RSS from about 104 to 86 MiB, for twice the
// collections (17 to 36), about 55 ms of CPU of 1.5 s
// (scripts/perf/throughput.sh). The cost stays proportional: at most
// twice the collector's work of GOGC=100 at any input size, unlike a
// memory limit, which an input whose live heap passes it would make the
// collector run without pause.
const CLIGCPercent = 50

// SetCLIGCPercent sets the collector's GOGC to CLIGCPercent unless GOGC
// is set in the environment, and returns the value set (0 when none).
func SetCLIGCPercent() int {
	if _, set := os.LookupEnv("GOGC"); set {
		return 0
	}
	debug.SetGCPercent(CLIGCPercent)
	return CLIGCPercent
}
