package analyze_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
)

// TestHistoryErrorsTruthMatrix is issue 31's error regression in a
// nightly series on real data, night by night as a nightly job sees it,
// with wrk, hey and vegeta at 1, 2 and 3 runs a night:
// testdata/truth/nightly-errors (the truth server answers 500 to 0 % of
// requests on nights 1-5, 2 % on nights 6-8, 0.5 % on night 9, 0 % on
// night 10, at the same latency) and testdata/truth/nightly-errors-family
// (1 % on nights 6-7, 5 % on nights 8-9, 0 % on night 10). The error
// check fails (condition errors, "rose") on nights 6-9 and on no other
// night; a night past ErrorRateSevere, whose throughput is not used,
// fails for errors alone (no "inconclusive" of its throughput). On
// nightly-errors with 2 wrk runs, --allow errors passes night 9 (its
// throughput is usable) and leaves nights 6-8 failing as inconclusive
// (fail closed); accepted at night06, nights 7-8 pass and nights 9-10 say
// the errors fell.
func TestHistoryErrorsTruthMatrix(t *testing.T) {
	confusion := map[[2]bool]int{} // {truth rose, check failed}
	for _, set := range []string{"nightly-errors", "nightly-errors-family"} {
		for _, tool := range []string{"wrk", "hey", "vegeta"} {
			for runs := 1; runs <= 3; runs++ {
				all := truthNights(t, set, tool, runs, 10)
				var got strings.Builder
				for to := 2; to <= 10; to++ {
					h, err := analyze.AnalyzeHistory(set, analyze.OrderAsGiven, all[:to], analyze.DefaultOptions())
					if err != nil {
						t.Fatal(err)
					}
					tr := h.Tracks[0]
					e := tr.Errors
					rose := to >= 6 && to <= 9
					confusion[[2]bool{rose, e.Fails}]++
					letter := map[analyze.ErrorCheckVerdict]string{analyze.ErrorsRose: "R", analyze.ErrorsFell: "F", analyze.ErrorsNoChange: ".", analyze.ErrorsUndecided: "?"}[e.Verdict]
					got.WriteString(letter)
					name := fmt.Sprintf("%s, %s, %d runs, nights 1..%d", set, tool, runs, to)
					var conds []gate.Condition
					for _, r := range h.Reasons {
						conds = append(conds, r.Condition)
					}
					severe := tr.Points[len(tr.Points)-1].Status == analyze.PointErrors
					switch {
					case rose && (e.Verdict != analyze.ErrorsRose || !h.Failed || !slices.Contains(conds, gate.Errors)):
						t.Errorf("%s: error check %s (%+v), gate failed %v %v; want rose, failed for errors", name, e.Verdict, e.Comparison, h.Failed, conds)
					case !rose && (e.Fails || slices.Contains(conds, gate.Errors)):
						t.Errorf("%s: error check %s (%+v); want no rise", name, e.Verdict, e.Comparison)
					case severe && slices.Contains(conds, gate.Inconclusive):
						t.Errorf("%s: reasons %v: a severe-error night fails for errors, not inconclusive", name, conds)
					}
					if rose && (len(e.Reference) == 0 || slices.Max(e.Reference) > 4) {
						t.Errorf("%s: reference %v, want nights among 1-5 (those the throughput check holds as reference)", name, e.Reference)
					}
					if set != "nightly-errors" || to < 6 || to > 9 || tool != "wrk" || runs != 2 {
						continue
					}
					o := analyze.DefaultOptions()
					o.Allow = []gate.Condition{gate.Errors}
					ha, err := analyze.AnalyzeHistory(set, analyze.OrderAsGiven, all[:to], o)
					if err != nil {
						t.Fatal(err)
					}
					if ha.Failed != (to <= 8) {
						t.Errorf("%s, --allow errors: gate failed %v, want %v (%+v)", name, ha.Failed, to <= 8, ha.Reasons)
					}
				}
				t.Logf("%s, %s, %d runs: nights 2-10 %s", set, tool, runs, got.String())
				if set != "nightly-errors" {
					continue
				}
				acc := slices.Clone(all)
				acc[5].Accepted = analyze.AcceptedByName
				for to := 7; to <= 10; to++ {
					h, err := analyze.AnalyzeHistory(set, analyze.OrderAsGiven, acc[:to], analyze.DefaultOptions())
					if err != nil {
						t.Fatal(err)
					}
					e := h.Tracks[0].Errors
					want := analyze.ErrorsNoChange
					if to >= 9 {
						want = analyze.ErrorsFell
					}
					if e.Verdict != want || e.Fails {
						t.Errorf("%s, %d runs, accepted at night06, nights 1..%d: %s (%+v), want %s", tool, runs, to, e.Verdict, e.Comparison, want)
					}
				}
			}
		}
	}
	t.Logf("confusion (truth rose, check failed): rose&failed %d, rose&passed %d, none&failed %d, none&passed %d",
		confusion[[2]bool{true, true}], confusion[[2]bool{true, false}], confusion[[2]bool{false, true}], confusion[[2]bool{false, false}])
}
