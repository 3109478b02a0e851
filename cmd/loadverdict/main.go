// Command loadverdict turns raw load-generator output into normalized
// tables and an evidence-based verdict. Run `loadverdict help` for usage.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/loadverdict/loadverdict/internal/pipeline"
)

// main sets no memory limit of its own: a per-request log's peak memory is
// flat without one (scripts/perf/memory.sh). It sets GOGC to
// pipeline.CLIGCPercent (50) unless GOGC is set; GOMEMLIMIT and GOGC work
// as for any Go program.
func main() {
	pipeline.SetCLIGCPercent()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil && !errors.Is(err, errReported) {
		fmt.Fprintln(os.Stderr, "loadverdict:", err)
	}
	os.Exit(exitCode(err))
}
