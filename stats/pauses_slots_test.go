package stats

import "testing"

// TestPausePeriodBurstsFillOneSlot: the pauses of a control run of the
// conformance grid (pauses/001: hey's 8 workers against a server that
// never stalls, on a busy host) come in bursts: 20 pauses, 11 of them in
// three bursts of 3-6 about 7.3 s apart. A grid of 3 slots is no rhythm,
// however many pauses fall near them: each burst fills one slot, and
// fewer than PeriodicMinPauses slots are filled.
func TestPausePeriodBurstsFillOneSlot(t *testing.T) {
	from := []float64{0.341, 0.378, 0.421, 1.821, 2.618, 2.660, 2.821, 5.658, 7.542, 7.658,
		7.699, 7.741, 7.778, 7.818, 9.698, 11.661, 13.978, 14.781, 14.901, 15.018}
	var ps []Pause
	for _, f := range from {
		ps = append(ps, Pause{FromS: f, ToS: f + 0.025, Requests: 4})
	}
	if per, ok := PausePeriod(ps); ok {
		t.Errorf("bursts called periodic: period %.3f s, %d pauses on %d slots", per.PeriodS, len(per.Matched), per.Slots)
	}
	// Five bursts on a 3 s grid are a rhythm: each fills its slot.
	var rhythm []Pause
	for k := range 5 {
		for j := range 3 {
			f := 0.5 + 3*float64(k) + 0.02*float64(j)
			rhythm = append(rhythm, Pause{FromS: f, ToS: f + 0.015, Requests: 4})
		}
	}
	if per, ok := PausePeriod(rhythm); !ok || per.PeriodS < 2.9 || per.PeriodS > 3.1 {
		t.Errorf("five bursts every 3 s: %v, period %.3f s", ok, per.PeriodS)
	}
}
