package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// pausedRun simulates an open-model run: requests sent at rate for durS
// seconds, latency base·exp(0.3 Z) ms (and a heavy tail: 1 % of requests
// 5-20x slower), and pauses of lenMs starting at onsets: a request sent
// during a pause is answered at its end.
func pausedRun(rng *rand.Rand, rate, durS, baseMs, lenMs float64, onsets []float64) (ts, lat []float64) {
	k := 0
	for i := 0; float64(i)/rate < durS; i++ {
		t := float64(i) / rate
		l := baseMs * math.Exp(0.3*rng.NormFloat64())
		if rng.Float64() < 0.01 {
			l *= 5 + 15*rng.Float64()
		}
		for k < len(onsets) && onsets[k]+lenMs/1000 <= t {
			k++
		}
		if k < len(onsets) && t >= onsets[k] {
			l += 1000 * (onsets[k] + lenMs/1000 - t)
		}
		ts, lat = append(ts, t), append(lat, l)
	}
	return ts, lat
}

// TestPausesFamily: short pauses (40-80 ms) every 0.2-3 s, at 200-500
// req/s, in 12-30 s runs, with onsets jittered by 0.5 % of the period (SD; a
// runtime's timer) are found periodic with their period; the same pauses
// at irregular times (each moved by up to ±40 % of the period) and runs
// without pauses are not. Rates are logged and asserted.
func TestPausesFamily(t *testing.T) {
	t.Parallel() // a pure function of fixed seeds
	type cell struct {
		kind                   string
		period, lenMs, rate, d float64
	}
	var cells []cell
	for _, period := range []float64{0.2, 0.25, 0.5, 1, 1.06, 3} {
		for _, lenMs := range []float64{40, 60, 80} {
			for _, rate := range []float64{200, 300, 500} {
				d := 12.0
				if period >= 3 {
					d = 30
				}
				cells = append(cells, cell{"periodic", period, lenMs, rate, d}, cell{"irregular", period, lenMs, rate, d})
			}
		}
	}
	for _, rate := range []float64{200, 300, 500} {
		cells = append(cells, cell{"none", 0, 0, rate, 12})
	}
	const draws = 20
	right := map[string][2]int{}
	for ci, c := range cells {
		rng := rand.New(rand.NewPCG(31, uint64(ci)))
		for range draws {
			var onsets []float64
			if c.kind != "none" {
				for s := c.period * rng.Float64(); s < c.d; s += c.period {
					j := 0.005 * c.period * rng.NormFloat64()
					if c.kind == "irregular" {
						j = 0.4 * c.period * (2*rng.Float64() - 1)
					}
					onsets = append(onsets, max(0, s+j))
				}
				for i := 1; i < len(onsets); i++ { // irregular: keep them apart
					onsets[i] = max(onsets[i], onsets[i-1]+c.lenMs/1000+0.03)
				}
			}
			ts, lat := pausedRun(rng, c.rate, c.d, 1.0, c.lenMs, onsets)
			ps, _, _ := Pauses(ts, lat)
			per, regular := PausePeriod(ps)
			period := per.PeriodS
			ok := regular == (c.kind == "periodic")
			if ok && regular && math.Abs(period-c.period) > 0.05*c.period {
				ok = false
			}
			key := fmt.Sprintf("%s period %g s", c.kind, c.period)
			if c.kind == "none" {
				key = "none"
			}
			r := right[key]
			r[1]++
			if ok {
				r[0]++
			}
			right[key] = r
		}
	}
	for _, k := range []string{"periodic period 0.2 s", "periodic period 0.25 s", "periodic period 0.5 s", "periodic period 1 s", "periodic period 1.06 s", "periodic period 3 s",
		"irregular period 0.2 s", "irregular period 0.25 s", "irregular period 0.5 s", "irregular period 1 s", "irregular period 1.06 s", "irregular period 3 s", "none"} {
		r := right[k]
		rate := float64(r[0]) / float64(r[1])
		t.Logf("%-26s right %d/%d = %.1f %%", k, r[0], r[1], 100*rate)
		if rate < 0.95 {
			t.Errorf("%s: right %.1f %% < 95 %%", k, 100*rate)
		}
	}
}
