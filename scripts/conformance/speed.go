package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/stats"
)

// The machine as the truth server's work saw it. A grid experiment's
// truth is the server's planned cost; what the tools measure is that
// cost on the machine of that moment. Other processes' share of the CPU
// (others_cpu_pct, the host's steal included) is one way the machine
// moves; a CPU clocked down and caches a neighbour shares are others,
// which no CPU account shows. The truth server times each request's hash
// loop (truthserver's speedMeter: nanoseconds per iteration, per second
// of its clock), and gen reads it after every run: where the machine
// moved, the planned truth is not what was measured.

// RunSpeed is the server's work speed during one run: nanoseconds per
// hash iteration over the run, and per second of the server's clock
// (with that second's iterations).
type RunSpeed struct {
	NsPerIter float64   `json:"ns_per_iter"`
	Slices    []float64 `json:"slices_ns_per_iter,omitempty"`
	Iters     []int64   `json:"slices_iters,omitempty"`
}

// speedSlice is truthserver's SpeedSlice.
type speedSlice struct {
	AtS   int64 `json:"at_s"`
	Iters int64 `json:"iters"`
	Ns    int64 `json:"ns"`
}

// readSpeed reads (and drains) the speed the server at addr measured
// since the last read; nil when it did no work (a server without
// -work).
func readSpeed(ctx context.Context, addr string) (*RunSpeed, error) {
	c := &http.Client{Timeout: 5 * time.Second}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/speed", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("server speed: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("server speed: %s", resp.Status)
	}
	var sl []speedSlice
	if err := json.NewDecoder(resp.Body).Decode(&sl); err != nil {
		return nil, fmt.Errorf("server speed: %w", err)
	}
	var sp RunSpeed
	var iters, ns int64
	for _, x := range sl {
		if x.Iters <= 0 {
			continue
		}
		iters, ns = iters+x.Iters, ns+x.Ns
		sp.Slices = append(sp.Slices, round(float64(x.Ns)/float64(x.Iters), 2))
		sp.Iters = append(sp.Iters, x.Iters)
	}
	if iters == 0 {
		return nil, nil
	}
	sp.NsPerIter = round(float64(ns)/float64(iters), 2)
	return &sp, nil
}

// minBusy is the least share of a second the server's work must fill
// for that second to measure the machine: an idle server's loops start
// on cold caches and a CPU clocked down, so at a light load (a
// per-request run at 100-250 req/s fills 3-10 % of each second) their
// time per iteration moves with the planned load too (a warm-up's cost,
// a stall's backlog: 5-84 % from second to second within such runs of
// the held-out grid), not only with the machine. Saturated servers (wrk
// rounds, comparison runs) fill 90 % and more.
const minBusy = 0.5

// machineMovedPct is how far the machine moved during an experiment, as
// the servers' work saw it, in percent: the largest of, per system, the
// slowest run's nanoseconds per iteration over the fastest's, and within
// each run the slowest busy second's over the fastest's, less 1. Only
// the seconds the work filled at least minBusy of count, and runs beside
// a planned busy loop (Hog) are left out: their slowness is the truth.
// NaN when no second counts.
func machineMovedPct(runs []RunRecord) float64 {
	per := map[string][]float64{}
	moved, any := 0.0, false
	for _, r := range runs {
		if r.Speed == nil || r.Hog != "" {
			continue
		}
		busy, ns := busySeconds(r.Speed)
		if len(busy) == 0 {
			continue
		}
		any = true
		sys, _, _ := strings.Cut(r.File, "/")
		per[sys] = append(per[sys], ns)
		moved = max(moved, spreadPct(busy))
	}
	for _, v := range per {
		moved = max(moved, spreadPct(v))
	}
	if !any {
		return math.NaN()
	}
	return moved
}

// busySeconds is the nanoseconds per iteration of the run's seconds its
// work filled at least minBusy of, and over them all.
func busySeconds(sp *RunSpeed) ([]float64, float64) {
	if len(sp.Iters) != len(sp.Slices) {
		return nil, 0
	}
	var out []float64
	var ns, iters float64
	for k, v := range sp.Slices {
		if d := v * float64(sp.Iters[k]); d >= minBusy*1e9 {
			out = append(out, v)
			ns, iters = ns+d, iters+float64(sp.Iters[k])
		}
	}
	if iters == 0 {
		return nil, 0
	}
	return out, ns / iters
}

// spreadPct is max/min - 1 of the positive values x, percent (0 for
// fewer than two).
func spreadPct(x []float64) float64 {
	lo, hi := math.Inf(1), 0.0
	for _, v := range x {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == 0 || lo == hi {
		return 0
	}
	return 100 * (hi/lo - 1)
}

// nightMovedPct is how far the machine moved on each night of a series,
// as its servers' work saw it: the median time per iteration of the
// night's runs (both servers, every second: an open model's light load
// fills few of them) over the median of the earlier nights' medians,
// percent (positive: slower). NaN on the first night and where the
// speed was not measured (series made before it was).
func nightMovedPct(rec SeriesRecord) []float64 {
	out := make([]float64, len(rec.Nights))
	var earlier []float64
	for i := range rec.Nights {
		out[i] = math.NaN()
		if i >= len(rec.Made.Nights) {
			continue
		}
		var ns []float64
		for _, r := range rec.Made.Nights[i].Runs {
			if r.Speed != nil && r.Speed.NsPerIter > 0 {
				ns = append(ns, r.Speed.NsPerIter)
			}
		}
		if len(ns) == 0 {
			continue
		}
		m := stats.Median(ns)
		if len(earlier) > 0 {
			out[i] = 100 * (m/stats.Median(earlier) - 1)
		}
		earlier = append(earlier, m)
	}
	return out
}
