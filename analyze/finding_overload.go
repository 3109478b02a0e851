package analyze

import "github.com/loadverdict/loadverdict/results"

// OverloadFacts are the figures of an overload finding.
type OverloadFacts struct {
	// TargetRPS is the requested rate, RPS the achieved rate of
	// successful responses, SentRPS the rate requests were sent at (when
	// known), all of the group's representative (last or steady) runs.
	TargetRPS, RPS float64
	SentRPS        *float64
	// ErrorRate is the share of the requests of the group's last run that
	// failed (ErrorRate), when known.
	ErrorRate *float64
}

func (OverloadFacts) facts() {}

// checkOverload adds an overload finding per system whose open-model
// group fell short of its requested rate (Capacity.Saturation).
func checkOverload(v *Verdict, _ *findingContext) {
	for _, s := range v.Systems {
		if c := s.Capacity; c.Saturated && c.Saturation.Kind == SaturationOpenShortfall {
			v.overload(s)
		}
	}
}

// overload records the overload finding of s. Groups of one endpoint are
// not it: capacity leaves them out, as a requested rate is the whole
// test's, shared across its endpoints.
func (v *Verdict) overload(s System) {
	sat := s.Capacity.Saturation
	f := OverloadFacts{TargetRPS: sat.TargetRPS, RPS: sat.RPS, SentRPS: sat.SentRPS}
	subj := Subject{Systems: []string{s.Label}}
	for _, g := range s.Groups {
		if g.Endpoint == nil && g.LoadModel == results.LoadOpen && g.TargetRPS != nil && *g.TargetRPS == sat.TargetRPS {
			subj.Settings = ptrTo(g.Settings)
			if rate, ok := ErrorRate(g.Runs[len(g.Runs)-1]); ok {
				f.ErrorRate = &rate
			}
			break
		}
	}
	v.add(SeverityError, CodeOverload, subj, f)
}
