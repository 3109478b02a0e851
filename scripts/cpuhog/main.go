// Command cpuhog is a duty-cycled busy loop: a co-running load that takes
// a chosen share of one CPU, to vary the machine of a recording by
// construction (scripts/truth/lib.sh's hog_start; the nightly sets). It spins for -spin, sleeps for -sleep, and repeats until it is
// stopped (SIGTERM or SIGINT), then writes to stderr the share of the
// wall time it really took: its own CPU time (getrusage) over the wall
// time since it started. Pinned with the server to one CPU at the
// server's scheduling class (taskset -c N chrt -f 1, as lib.sh runs the
// servers), a spin is never cut short by the server: the server waits
// for it, so the hog takes up to spin/(spin+sleep) of the server's CPU.
// The report is what it really took (sleeps overshoot, and the hog waits
// for the CPU when it wakes while the server or the load tool runs).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"
)

func main() {
	spin := flag.Duration("spin", time.Millisecond, "busy time of one cycle")
	sleep := flag.Duration("sleep", 9*time.Millisecond, "idle time of one cycle")
	flag.Parse()
	if *spin <= 0 || *sleep < 0 {
		fmt.Fprintln(os.Stderr, "cpuhog: -spin must be > 0 and -sleep >= 0")
		os.Exit(2)
	}
	runtime.GOMAXPROCS(1)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	start := time.Now()
	cycles := 0
	for {
		select {
		case <-stop:
			var ru syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			wall := time.Since(start).Seconds()
			cpu := float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
			fmt.Fprintf(os.Stderr, "cpuhog: spin %v sleep %v (nominal share %.1f %%): %d cycles in %.2f s wall, %.2f s CPU: took %.1f %%\n",
				*spin, *sleep, 100*spin.Seconds()/(spin.Seconds()+sleep.Seconds()), cycles, wall, cpu, 100*cpu/wall)
			return
		default:
		}
		t := time.Now()
		for time.Since(t) < *spin {
		}
		if *sleep > 0 {
			time.Sleep(*sleep)
		}
		cycles++
	}
}
