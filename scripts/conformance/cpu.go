package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// userHZ is the unit of /proc/stat's and /proc/<pid>/stat's CPU times
// (sysconf(_SC_CLK_TCK), 100 on every Linux this runs on).
const userHZ = 100

// cpuMark is a moment's CPU account: the machine's busy time (every
// CPU's user, nice, system, irq, softirq and steal time: steal is a
// neighbour on the host taking the CPU) and the time used by the
// experiment's own processes (this generator, the tools it ran and
// waited for, and the truth servers, which are still running).
type cpuMark struct {
	busyS, oursS float64
}

// markCPU reads the account; servers are the truth servers' pids. On a
// machine without /proc it returns ok false.
func markCPU(servers []int) (cpuMark, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuMark{}, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return cpuMark{}, false
	}
	var m cpuMark
	for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system irq softirq steal
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return cpuMark{}, false
		}
		m.busyS += v / userHZ
	}
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			m.oursS += float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
		}
	}
	for _, pid := range servers {
		m.oursS += procCPU(pid)
	}
	return m, true
}

// procCPU is a running process's user and system time from
// /proc/<pid>/stat (fields 14 and 15, counted after the command's
// closing parenthesis, which may itself hold spaces).
func procCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); utime is field 14, stime 15.
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (u + st) / userHZ
}

// othersPct is the share of the machine's CPU capacity (all CPUs over
// wallS seconds) that processes other than the experiment's used
// between two marks, in percent; never below 0 (the accounts tick at
// different moments).
func othersPct(a, b cpuMark, wallS float64) float64 {
	if wallS <= 0 {
		return 0
	}
	others := (b.busyS - a.busyS) - (b.oursS - a.oursS)
	pct := 100 * others / (wallS * float64(runtime.NumCPU()))
	if pct < 0 {
		return 0
	}
	return round(pct, 1)
}
