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
// (its memory is flat in a log's length without one).
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
