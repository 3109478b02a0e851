package analyze_test

import (
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// The headline leads with errors above 1 %, then overload, then the
// comparison; it carries a latency comparison that disagrees with the
// throughput one.
func TestHeadlineLeads(t *testing.T) {
	interleave := func(a, b func(i int) results.Run) []results.Run {
		var runs []results.Run
		for i := range 5 {
			runs = append(runs, a(i), b(i))
		}
		return runs
	}
	// b has 10 % more throughput; a 20 ms better p99 (a disagreement).
	withP99 := func(r results.Run, p99 float64) results.Run { r.LatP99Ms = results.Ptr(p99); return r }
	disagree := interleave(
		func(i int) results.Run { return withP99(run("a:80", 2*i, 100, 1000+float64(i), 100), 100+float64(i)) },
		func(i int) results.Run { return withP99(run("b:80", 2*i+1, 100, 1100+float64(i), 91), 120+float64(i)) })
	agree := interleave(
		func(i int) results.Run { return withP99(run("a:80", 2*i, 100, 1000+float64(i), 100), 130+float64(i)) },
		func(i int) results.Run { return withP99(run("b:80", 2*i+1, 100, 1100+float64(i), 91), 120+float64(i)) })
	// a fails 0.5 % of its requests (a warning, not a lead), b 3 %.
	errs := interleave(
		func(i int) results.Run { r := run("a:80", 2*i, 100, 1000, 100); r.Errors = 300; return r },
		func(i int) results.Run { r := run("b:80", 2*i+1, 100, 1000, 100); r.Errors = 1800; return r })
	// An open-model run achieving 25 of 2000 requested req/s, 98.7 % timeouts.
	over := results.Run{RunID: "o", Seq: 0, Tool: "vegeta", LoadModel: results.LoadOpen, Label: "v:80", TargetRPS: results.Ptr(2000.0),
		DurationS: 20, RPS: 24.76, Requests: 39999, Errors: 39479, LatMeanMs: results.Ptr(995.0)}
	overOK := over
	overOK.Errors = 0
	for _, tc := range []struct {
		name       string
		runs       []results.Run
		lead, main analyze.Lead
		errors     []string // systems
		overloaded int
		latency    string // metric of Headline.Latency, "" for none
	}{
		{"latency disagrees", disagree, analyze.LeadComparison, analyze.LeadComparison, nil, 0, "lat_p99_ms"},
		{"latency agrees", agree, analyze.LeadComparison, analyze.LeadComparison, nil, 0, ""},
		{"errors lead", errs, analyze.LeadErrors, analyze.LeadComparison, []string{"b:80"}, 0, ""},
		{"errors before overload", []results.Run{over}, analyze.LeadErrors, analyze.LeadSystem, []string{"v:80"}, 1, ""},
		{"overload", []results.Run{overOK}, analyze.LeadOverload, analyze.LeadSystem, nil, 1, ""},
	} {
		v := analyzeWith(t, tc.runs, nil)
		h := v.Headline
		var errs []string
		for _, e := range h.Errors {
			errs = append(errs, e.System)
			if e.Rate < 0.01 || e.Runs == 0 {
				t.Errorf("%s: error lead %+v", tc.name, e)
			}
		}
		latency := ""
		if h.Latency >= 0 {
			latency = v.Comparisons[h.Latency].Metric
		}
		if h.Lead != tc.lead || h.Main != tc.main || len(errs) != len(tc.errors) || len(h.Overloaded) != tc.overloaded || latency != tc.latency {
			t.Errorf("%s: %+v (latency %q)", tc.name, h, latency)
		}
		for i := range errs {
			if errs[i] != tc.errors[i] {
				t.Errorf("%s: errors %v, want %v", tc.name, errs, tc.errors)
			}
		}
	}
}
