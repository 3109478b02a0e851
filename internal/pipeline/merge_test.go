package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// mergeVegeta is the truth data of three vegeta attacks run at once.
const mergeVegeta = "../../testdata/truth/merge-vegeta"

// mergeStore ingests the three attacks of merge-vegeta (dir: parts-bin or
// parts-json) into experiment "mv".
func mergeStore(t *testing.T, dir string) *Pipeline {
	t.Helper()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	for _, x := range []string{"a", "b", "c"} {
		name := "attack-" + x + ".bin"
		if dir == "parts-json" {
			name = "attack-" + x + ".json.gz"
		}
		key := "raw/mv/parts/" + name
		upload(t, s, key, mergeVegeta+"/"+dir+"/"+name)
		if _, err := p.Ingest(context.Background(), key); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestMergeVegetaTruth: the three attacks (each 100 req/s for 20 s, each
// writing its own results) merged are one run of 6000 requests at 300
// req/s whose p50, p90, p99, min and max are the exact ones of the 6000
// latencies, and what `vegeta report` printed over the three files
// together (merged-report.json) within vegeta's estimate: its quantiles
// come from a t-digest (p50 and p90 within 0.1 %, p99 7.045 ms against
// the exact 6.946, 1.4 %), its min, max and mean are exact. Unmerged, the
// same runs are three runs of 100 req/s, and a split-run finding says they
// look like one test.
func TestMergeVegetaTruth(t *testing.T) {
	want := readVegetaMergedReport(t)
	// The exact quantiles of the 6000 latencies (vegeta's report
	// estimates them with a t-digest): the smallest latency with at least
	// q of the requests at or below it.
	lat := mergeVegetaLatencies(t)
	exact := func(q float64) float64 { return lat[int(math.Ceil(q*float64(len(lat))))-1] }
	for _, dir := range []string{"parts-bin", "parts-json"} {
		t.Run(dir, func(t *testing.T) {
			p := mergeStore(t, dir)
			for _, how := range []string{"manifest", "flag"} {
				checkMergedVegeta(t, p, mergeVegetaRequest(t, dir, how), how, want, exact)
			}
			checkUnmergedVegeta(t, p)
		})
	}
}

// vegetaMergedReport is the part of merged-report.json (`vegeta report`
// over the three attacks) the test compares with.
type vegetaMergedReport struct {
	Latencies  map[string]float64 `json:"latencies"`
	Requests   int64              `json:"requests"`
	Throughput float64            `json:"throughput"`
	Rate       float64            `json:"rate"`
}

func readVegetaMergedReport(t *testing.T) vegetaMergedReport {
	t.Helper()
	b, err := os.ReadFile(mergeVegeta + "/reports/merged-report.json")
	if err != nil {
		t.Fatal(err)
	}
	var want vegetaMergedReport
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	return want
}

// mergeVegetaLatencies returns the latencies (ms) of every request of the
// three attacks, sorted.
func mergeVegetaLatencies(t *testing.T) []float64 {
	t.Helper()
	var lat []float64
	for _, x := range []string{"a", "b", "c"} {
		f, err := os.Open(mergeVegeta + "/parts-json/attack-" + x + ".json.gz")
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(zr)
		for dec.More() {
			var res struct {
				Latency int64 `json:"latency"`
			}
			if err := dec.Decode(&res); err != nil {
				t.Fatal(err)
			}
			lat = append(lat, float64(res.Latency)/1e6)
		}
		f.Close()
	}
	slices.Sort(lat)
	return lat
}

// mergeVegetaRequest merges the three parts by the manifest's merge
// groups (how "manifest") or by the --merge flag's rule ("flag").
func mergeVegetaRequest(t *testing.T, dir, how string) Request {
	t.Helper()
	req := Request{Experiment: "mv"}
	if how == "manifest" {
		req.Manifest = namesManifest(t, "merge: [[parts/*]]")
		req.Manifest.Dir = "raw/mv"
	} else {
		req.Overrides.Merge = []experiment.MergeRule{{Sources: []string{"raw/mv/parts/" + name(dir, "a"), "raw/mv/parts/" + name(dir, "b"),
			"raw/mv/parts/" + name(dir, "c")}, Flag: "--merge"}}
	}
	return req
}

// checkMergedVegeta: the merged report is one run with vegeta's counts
// and rate, the exact quantiles within vegeta's estimate, a note, and no
// split-run finding.
func checkMergedVegeta(t *testing.T, p *Pipeline, req Request, how string, want vegetaMergedReport, exact func(float64) float64) {
	t.Helper()
	r, err := p.Report(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	v := r.Verdict
	if len(v.Runs) != 1 {
		t.Fatalf("%s: %d runs", how, len(v.Runs))
	}
	run := v.Runs[0]
	// 3 x 100 req/s; vegeta's merged rate and throughput are 300.08, 300.04.
	if run.Requests != want.Requests || run.Errors != 0 || math.Abs(run.RPS-want.Rate) > 0.5 || math.Abs(run.RPS-want.Throughput) > 0.5 {
		t.Errorf("%s: %d requests, %d errors, %v req/s", how, run.Requests, run.Errors, run.RPS)
	}
	for _, c := range []struct {
		got *float64
		key string
		q   float64
		tol float64 // relative: vegeta's t-digest estimate
	}{{run.LatP50Ms, "50th", 0.5, 0.001}, {run.LatP90Ms, "90th", 0.9, 0.001}, {run.LatP99Ms, "99th", 0.99, 0.02},
		{run.LatMaxMs, "max", 1, 0}, {run.LatMinMs, "min", 0, 0}} {
		w := want.Latencies[c.key] / 1e6
		if c.got == nil || math.Abs(*c.got-w) > c.tol*w+1e-9 || *c.got != exact(max(c.q, 1e-9)) {
			t.Errorf("%s: %s %v ms, vegeta report %v ms, exact %v ms", how, c.key, c.got, w, exact(max(c.q, 1e-9)))
		}
	}
	if m := want.Latencies["mean"] / 1e6; run.LatMeanMs == nil {
		t.Errorf("%s: no mean, vegeta report %v ms", how, m)
	} else if math.Abs(*run.LatMeanMs-m) > 1e-3 {
		t.Errorf("%s: mean %v ms, vegeta report %v ms", how, *run.LatMeanMs, m)
	}
	if run.Notes == nil || !strings.Contains(*run.Notes, "merged from 3 parts") {
		t.Errorf("%s: notes %v", how, run.Notes)
	}
	for _, f := range v.Findings {
		if f.Code == analyze.CodeSplitRun {
			t.Errorf("%s: split-run finding on a merged run", how)
		}
	}
}

// checkUnmergedVegeta: not merged, three runs of 100 req/s, and the
// split-run finding over them.
func checkUnmergedVegeta(t *testing.T, p *Pipeline) {
	t.Helper()
	r, err := p.Report(context.Background(), Request{Experiment: "mv"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Verdict.Runs) != 3 {
		t.Fatalf("unmerged: %d runs", len(r.Verdict.Runs))
	}
	found := false
	for _, f := range r.Verdict.Findings {
		found = found || f.Code == analyze.CodeSplitRun && len(f.Subject.Runs) == 3
	}
	if !found {
		t.Errorf("unmerged: no split-run finding over the three runs: %+v", r.Verdict.Findings)
	}
}

func name(dir, x string) string {
	if dir == "parts-json" {
		return "attack-" + x + ".json.gz"
	}
	return "attack-" + x + ".bin"
}

// TestMergeNames: a merge group that matches nothing, or a source in two
// groups, is a *NameError, as a system that matches nothing is.
func TestMergeNames(t *testing.T) {
	p := mergeStore(t, "parts-bin")
	for _, yaml := range []string{"merge: [[nosuch/*]]", "merge: [[parts/attack-a.bin, parts/attack-b.bin], [parts/attack-b.bin, parts/attack-c.bin]]"} {
		m := namesManifest(t, yaml)
		m.Dir = "raw/mv"
		_, err := p.Report(context.Background(), Request{Experiment: "mv", Manifest: m})
		var ne *experiment.NameError
		if !errors.As(err, &ne) || len(ne.Known) == 0 {
			t.Errorf("%s: %v", yaml, err)
		}
	}
}

// TestMergeTextSummaries: parts without per-request data (vegeta's text
// reports of the same attacks) merge into a run whose counts and rates
// add up and whose percentiles are null, with a note: percentiles of the
// parts are never averaged.
func TestMergeTextSummaries(t *testing.T) {
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	var rps float64
	for _, x := range []string{"a", "b", "c"} {
		key := "raw/mt/reports/attack-" + x + "-report.txt"
		upload(t, s, key, mergeVegeta+"/reports/attack-"+x+"-report.txt")
		if _, err := p.Ingest(context.Background(), key); err != nil {
			t.Fatal(err)
		}
	}
	r, err := p.Report(context.Background(), Request{Experiment: "mt"})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range r.Verdict.Runs {
		rps += run.RPS
	}
	m := namesManifest(t, "merge: [reports]")
	m.Dir = "raw/mt"
	r, err = p.Report(context.Background(), Request{Experiment: "mt", Manifest: m})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Verdict.Runs) != 1 {
		t.Fatalf("%d runs", len(r.Verdict.Runs))
	}
	run := r.Verdict.Runs[0]
	if run.Requests != 6000 || math.Abs(run.RPS-rps) > 1e-9 || run.LatP50Ms != nil || run.LatP99Ms != nil || run.LatStdevMs != nil ||
		run.LatMaxMs == nil || run.Notes == nil || !strings.Contains(*run.Notes, "percentiles of the parts are never averaged") {
		t.Errorf("merged: %d requests, %v req/s (parts %v), p50 %v p99 %v max %v, notes %v", run.Requests, run.RPS, rps, run.LatP50Ms,
			run.LatP99Ms, run.LatMaxMs, run.Notes)
	}
}

// TestMergeCommittedSamples: a merged run's percentiles come from the
// samples files of the committed generations, those whose runs were read:
// a samples file of another generation of a part (a concurrent ingest's,
// not committed; here part c under the content of attack a) changes
// nothing, and a committed samples file gone since is a
// *MissingTablesError, which Analyze repairs by ingesting the part again.
func TestMergeCommittedSamples(t *testing.T) {
	ctx := context.Background()
	p := mergeStore(t, "parts-bin")
	partC := "raw/mv/parts/attack-c.bin"
	req := Request{Experiment: "mv", Overrides: experiment.Overrides{Merge: []experiment.MergeRule{{Sources: []string{"raw/mv/parts/attack-a.bin",
		"raw/mv/parts/attack-b.bin", partC}, Flag: "--merge"}}}}
	r, err := p.Report(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	want := r.Verdict.Runs[0]

	// Part c's run ids over attack a's samples, from another store.
	other := mergeStore(t, "parts-bin")
	upload(t, other.Store, partC, mergeVegeta+"/parts-bin/attack-a.bin")
	if _, err := other.Ingest(ctx, partC); err != nil {
		t.Fatal(err)
	}
	stray, _, err := store.ReadAll(ctx, other.Store, committedTable(t, other, "mv", partC, columnar.TableSamples))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Store.Put(ctx, store.TableKey(string(columnar.TableSamples), "mv", partC, "ffffffffffff"), bytes.NewReader(stray)); err != nil {
		t.Fatal(err)
	}
	r, err = p.Report(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Verdict.Runs[0]
	for _, c := range [][2]*float64{{got.LatP50Ms, want.LatP50Ms}, {got.LatP99Ms, want.LatP99Ms}, {got.LatMaxMs, want.LatMaxMs}, {got.LatStdevMs, want.LatStdevMs}} {
		if c[0] == nil || c[1] == nil || *c[0] != *c[1] {
			t.Errorf("with a stray generation: %v, want %v", c[0], c[1])
		}
	}

	// The committed samples file of part c deleted behind the back.
	if err := p.Store.Delete(ctx, committedTable(t, p, "mv", partC, columnar.TableSamples)); err != nil {
		t.Fatal(err)
	}
	var mt *MissingTablesError
	if _, err := p.Report(ctx, req); !errors.As(err, &mt) || !slices.Equal(mt.Sources, []string{partC}) {
		t.Fatalf("samples deleted: %v, want a *MissingTablesError of %s", err, partC)
	}
	if err := p.Store.Put(ctx, store.ManifestKey("mv"), strings.NewReader("merge: [[parts/*]]\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Analyze(ctx, "mv"); err != nil {
		t.Fatal(err)
	}
	b, _, err := store.ReadAll(ctx, p.Store, store.ReportKey("mv", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Runs []struct {
			Parts []struct {
				Source string `json:"source"`
			} `json:"parts"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) != 1 || len(sum.Runs[0].Parts) != 3 || sum.Runs[0].Parts[2].Source != partC {
		t.Errorf("after Analyze: %s", b)
	}
	// Part c's samples are committed again, and the merge reads them.
	committedTable(t, p, "mv", partC, columnar.TableSamples)
	if r, err = p.Report(ctx, req); err != nil || *r.Verdict.Runs[0].LatP99Ms != *want.LatP99Ms || r.Verdict.Runs[0].Requests != 6000 {
		t.Errorf("after Analyze: %v", err)
	}
}

// vegetaJSON is attack x of merge-vegeta as vegeta's JSON results, each
// result changed by edit (its timestamp, its URL).
func vegetaJSON(t *testing.T, x string, edit func(res map[string]any)) []byte {
	t.Helper()
	f, err := os.Open(mergeVegeta + "/parts-json/attack-" + x + ".json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	dec := json.NewDecoder(zr)
	enc := json.NewEncoder(&out)
	for dec.More() {
		res := map[string]any{}
		if err := dec.Decode(&res); err != nil {
			t.Fatal(err)
		}
		edit(res)
		if err := enc.Encode(res); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes()
}

// shifted moves a vegeta result by d.
func shifted(t *testing.T, d time.Duration) func(map[string]any) {
	return func(res map[string]any) {
		ts, err := time.Parse(time.RFC3339Nano, res["timestamp"].(string))
		if err != nil {
			t.Fatal(err)
		}
		res["timestamp"] = ts.Add(d).Format(time.RFC3339Nano)
	}
}

// editedStore ingests attacks a, b and c of merge-vegeta (JSON results)
// into experiment "ed", attack b edited.
func editedStore(t *testing.T, editB func(map[string]any)) *Pipeline {
	t.Helper()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	for _, x := range []string{"a", "b", "c"} {
		edit := func(map[string]any) {}
		if x == "b" {
			edit = editB
		}
		key := "raw/ed/parts/attack-" + x + ".json"
		if err := s.Put(context.Background(), key, bytes.NewReader(vegetaJSON(t, x, edit))); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Ingest(context.Background(), key); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestMergeRefusesPartsNotRunTogether: parts that did not run at once,
// hit different targets or belong to different systems are refused (a
// *NameError saying why: exit 2 on the command line, the manifest's
// rejection record in a bucket), never added up. The three attacks of
// merge-vegeta ran at once for 20 s each; attack b is moved in time (2 h
// made one 7,220 s run "at 200.07 req/s" before), pointed at another
// port, or named another system. Parts of 20 s must share at least 9 s
// (half the shortest, less MergeSlackS): b moved by 5 s or 10 s shares 15
// or 10 s and merges; by 12 s, 15 s, 2 h or -2 h it does not.
func TestMergeRefusesPartsNotRunTogether(t *testing.T) {
	ctx := context.Background()
	otherPort := func(res map[string]any) { res["url"] = strings.Replace(res["url"].(string), ":19108/", ":19109/", 1) }
	for _, tc := range []struct {
		name   string
		edit   func(map[string]any)
		yaml   string
		refuse string // "" for merged
	}{
		{"2 h later", shifted(t, 2*time.Hour), "merge: [[parts/*]]", "the parts did not run at once: raw/ed/parts/attack-a.json#0 ran 2026-12-02T19:22:13Z to 2026-12-02T19:22:33Z, raw/ed/parts/attack-b.json#0 ran 2026-12-02T21:22:13Z to 2026-12-02T21:22:33Z (0.0 s in common; parts of one test share at least half the shortest part's 20.0 s, less 1 s)"},
		{"2 h earlier", shifted(t, -2*time.Hour), "merge: [[parts/*]]", "the parts did not run at once"},
		{"15 s later", shifted(t, 15*time.Second), "merge: [[parts/*]]", "the parts did not run at once"},
		{"12 s later", shifted(t, 12*time.Second), "merge: [[parts/*]]", "the parts did not run at once"},
		{"10 s later", shifted(t, 10*time.Second), "merge: [[parts/*]]", ""},
		{"5 s later", shifted(t, 5*time.Second), "merge: [[parts/*]]", ""},
		{"other target", otherPort, "merge: [[parts/*]]", "hit http://127.0.0.1:19108/ and raw/ed/parts/attack-b.json#0 hit http://127.0.0.1:19109/"},
		{"other system", func(map[string]any) {}, "systems: {old: [parts/attack-b.json], new: [parts/attack-a.json, parts/attack-c.json]}\nmerge: [[parts/*]]",
			"raw/ed/parts/attack-a.json#0 is of system new and raw/ed/parts/attack-b.json#0 of system old"},
		{"other system by label", func(map[string]any) {}, "labels: {\"127.0.0.1:19108\": new}\nsystems: {old: [parts/attack-b.json]}\nmerge: [[parts/*]]",
			"of system old"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := editedStore(t, tc.edit)
			m := namesManifest(t, tc.yaml)
			m.Dir = "raw/ed"
			flag := Request{Experiment: "ed", Overrides: experiment.Overrides{Merge: []experiment.MergeRule{{Sources: []string{"raw/ed/parts/attack-a.json",
				"raw/ed/parts/attack-b.json", "raw/ed/parts/attack-c.json"}, Flag: "--merge parts"}}}}
			if tc.name == "other system" || tc.name == "other system by label" {
				noMerge := *m
				noMerge.Merge = nil
				flag.Manifest = &noMerge
			}
			for how, req := range map[string]Request{"manifest": {Experiment: "ed", Manifest: m}, "flag": flag} {
				r, err := p.Report(ctx, req)
				var ne *experiment.NameError
				if tc.refuse == "" {
					if err != nil || len(r.Verdict.Runs) != 1 || r.Verdict.Runs[0].Requests != 6000 {
						t.Errorf("%s: %v", how, err)
					}
					continue
				}
				if !errors.As(err, &ne) || !strings.Contains(err.Error(), tc.refuse) {
					t.Errorf("%s: %v, want a *NameError with %q", how, err, tc.refuse)
				}
			}
		})
	}
	// In a bucket the manifest gets a rejection record saying why, and
	// the experiment is analysed without it: three runs, none summed.
	p := editedStore(t, shifted(t, 2*time.Hour))
	if err := p.Store.Put(ctx, "raw/ed/loadverdict.yaml", strings.NewReader("merge: [[parts/*]]\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Analyze(ctx, "ed"); err != nil {
		t.Fatal(err)
	}
	b, _, err := store.ReadAll(ctx, p.Store, store.RejectedKey("ed", "raw/ed/loadverdict.yaml"))
	if err != nil || !strings.Contains(string(b), "the parts did not run at once") {
		t.Errorf("the manifest's rejection record: %s %v", b, err)
	}
	sum, _, _ := store.ReadAll(ctx, p.Store, "reports/ed/summary.json")
	var s struct{ Runs []json.RawMessage }
	if err := json.Unmarshal(sum, &s); err != nil || len(s.Runs) != 3 {
		t.Errorf("bucket: %d runs (%v), want the three parts apart", len(s.Runs), err)
	}
}

// TestMergeRejectedPart: a merge part that cannot be parsed is rejected,
// that part alone (its record, listed in the report): the group is merged
// from the parts read and the manifest, its slo: and gate: with it, stays
// (issue 21: the whole manifest was rejected, and summary.json said
// "fail_on": [], "failed": false). The report is the one of the same
// experiment without the bad part, but for the rejection it lists.
func TestMergeRejectedPart(t *testing.T) {
	ctx := context.Background()
	manifest := "merge: [[parts/attack-a.bin, parts/attack-b.bin, parts/attack-c.bin]]\nslo: [rps>=250]\ngate: {fail_on: [threshold]}\n"
	without := strings.Replace(manifest, ", parts/attack-c.bin", "", 1)
	var sums [2]string
	for i, bad := range []bool{true, false} {
		s := newStore(t)
		p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
		for _, x := range []string{"a", "b"} {
			upload(t, s, "raw/mv/parts/attack-"+x+".bin", mergeVegeta+"/parts-bin/attack-"+x+".bin")
		}
		if bad {
			if err := s.Put(ctx, "raw/mv/parts/attack-c.bin", strings.NewReader("not a vegeta result\x00\x01")); err != nil {
				t.Fatal(err)
			}
		}
		if !bad {
			manifest = without
		}
		if err := s.Put(ctx, "raw/mv/loadverdict.yaml", strings.NewReader(manifest)); err != nil {
			t.Fatal(err)
		}
		objs, _ := s.List(ctx, "raw/mv/parts/")
		for _, o := range objs {
			if _, err := p.Ingest(ctx, o.Key); err != nil && !IsInputFault(err) {
				t.Fatal(err)
			}
		}
		if _, err := p.Analyze(ctx, "mv"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Head(ctx, store.RejectedKey("mv", "raw/mv/loadverdict.yaml")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("bad part %v: the manifest was rejected (%v)", bad, err)
		}
		b, _, err := store.ReadAll(ctx, s, "reports/mv/summary.json")
		if err != nil {
			t.Fatal(err)
		}
		var sum struct {
			Gate struct {
				FailOn []string `json:"fail_on"`
				Failed bool     `json:"failed"`
			} `json:"gate"`
			Runs []struct {
				Parts []struct{ Source string }
			} `json:"runs"`
		}
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		// Two attacks of 100 req/s: 200 req/s < 250, the gate fails.
		if !slices.Contains(sum.Gate.FailOn, "threshold") || !sum.Gate.Failed || len(sum.Runs) != 1 || len(sum.Runs[0].Parts) != 2 {
			t.Errorf("bad part %v: gate %+v, runs %+v", bad, sum.Gate, sum.Runs)
		}
		md, _, _ := store.ReadAll(ctx, s, "reports/mv/report.md")
		if bad != strings.Contains(string(md), "attack-c.bin") {
			t.Errorf("bad part %v: report.md lists attack-c.bin: %v", bad, !bad)
		}
		sums[i] = string(b)
	}
	if sums[0] != sums[1] {
		t.Errorf("summary.json with the bad part differs from the one without it:\n%s\n%s", sums[0], sums[1])
	}
}

// TestMergeNamedTwice: an input named twice in one merge group is said to
// be so, not "matched no input".
func TestMergeNamedTwice(t *testing.T) {
	p := mergeStore(t, "parts-bin")
	a := "raw/mv/parts/attack-a.bin"
	_, err := p.Report(context.Background(), Request{Experiment: "mv", Overrides: experiment.Overrides{Merge: []experiment.MergeRule{{Sources: []string{a, a, "raw/mv/parts/attack-b.bin"}, Flag: "--merge x"}}}})
	var ne *experiment.NameError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "merge group --merge x: raw/mv/parts/attack-a.bin is named twice") {
		t.Errorf("%v", err)
	}
	// Overlapping patterns are no mistake: each matched.
	m := namesManifest(t, "merge: [[parts/*, parts/attack-a.bin]]")
	m.Dir = "raw/mv"
	if r, err := p.Report(context.Background(), Request{Experiment: "mv", Manifest: m}); err != nil || len(r.Verdict.Runs) != 1 {
		t.Errorf("overlapping patterns: %v", err)
	}
}
