// Command loadverdict turns raw load-generator output into normalized
// tables and an evidence-based verdict. Run `loadverdict help` for usage.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
)

// memoryLimit is the Go runtime's soft memory limit, unless GOMEMLIMIT
// sets another: the garbage collector then works harder before the heap
// grows past it, which keeps a large per-request log's peak memory flat.
const memoryLimit = 100 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil && !errors.Is(err, errReported) {
		fmt.Fprintln(os.Stderr, "loadverdict:", err)
	}
	os.Exit(exitCode(err))
}
