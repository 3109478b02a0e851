package testguard

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

const (
	// Deadline ends work that never finishes: minutes, so that a
	// loaded machine never reaches it.
	Deadline = 5 * time.Minute
	// Heap is the live heap past which the work is taken for a runaway.
	Heap = 1 << 30
)

// Run runs f in a goroutine and fails t (Fatal) when f panics, returns an
// error, runs past Deadline or the process's heap grows past Heap while
// it runs.
func Run(t testing.TB, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("panic: %v\n%s", p, debug.Stack())
			}
		}()
		done <- f()
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(Deadline)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return
		case <-tick.C:
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > Heap {
				t.Fatalf("heap %d MiB past %d MiB", m.HeapAlloc>>20, Heap>>20)
			}
		case <-deadline:
			t.Fatalf("not done in %s: a hang", Deadline)
		}
	}
}
