package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// The two sources of the naming tests: the seed hits localhost:5555 and
// localhost:80 (three runs each), wrk_05 localhost:80 (three runs). The
// seed's prose names its ports (Zuul 5555, OpenResty 80): that name comes
// after every mapping and names localhost:80 in both sources.
const (
	seedSrc = "raw/names/a/seed.txt"
	w5Src   = "raw/names/b/w5.txt"
)

// namesStore ingests the two sources into experiment "names".
func namesStore(t *testing.T) *Pipeline {
	t.Helper()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	upload(t, s, seedSrc, "../../examples/zuul-vs-openresty.txt")
	upload(t, s, w5Src, "../../ingest/wrk/testdata/wrk/wrk_05.txt")
	for _, k := range []string{seedSrc, w5Src} {
		if _, err := p.Ingest(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// namesManifest parses a manifest of experiment "names".
func namesManifest(t *testing.T, yaml string) *experiment.Manifest {
	t.Helper()
	m, err := experiment.ParseManifest("m.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	m.Dir = "raw/names"
	return m
}

// systemsOf maps each source to the sorted set of its runs' systems, as
// summary.json says.
func systemsOf(t *testing.T, r *Report) map[string]string {
	t.Helper()
	var sum report.Summary
	for _, f := range r.Files {
		if f.Name == "summary.json" {
			if err := json.Unmarshal(f.Data, &sum); err != nil {
				t.Fatal(err)
			}
		}
	}
	sets := map[string]map[string]bool{}
	for _, run := range sum.Runs {
		if sets[run.Source] == nil {
			sets[run.Source] = map[string]bool{}
		}
		sets[run.Source][run.Label] = true
	}
	out := map[string]string{}
	for src, set := range sets {
		out[src] = strings.Join(slices.Sorted(maps.Keys(set)), "+")
	}
	return out
}

// TestReportSystemPrecedence: source-named system (command line, then
// manifest) > target mapping (command line, then manifest) > host:port.
func TestReportSystemPrecedence(t *testing.T) {
	p := namesStore(t)
	manifest := func(yaml string) *experiment.Manifest { return namesManifest(t, yaml) }
	const both = "OpenResty+Zuul"
	for _, tc := range []struct {
		name       string
		manifest   string
		over       experiment.Overrides
		seed, w5   string
		wantSystem []string // the systems, sorted
	}{
		{name: "host:port (named by the seed's prose)", seed: both, w5: "OpenResty"},
		{name: "manifest labels", manifest: "labels: {localhost:80: openresty}",
			seed: "Zuul+openresty", w5: "openresty"},
		{name: "flag label beats manifest label", manifest: "labels: {localhost:80: openresty}",
			over: experiment.Overrides{Labels: map[string]string{"localhost:80": "nginx"}}, seed: "Zuul+nginx", w5: "nginx"},
		{name: "manifest system beats labels", manifest: "systems: {bee: [b]}\nlabels: {localhost:80: openresty}",
			over: experiment.Overrides{Labels: map[string]string{"localhost:80": "nginx"}}, seed: "Zuul+nginx", w5: "bee"},
		{name: "manifest glob over the whole key", manifest: "systems: {bee: ['raw/names/b/*.txt']}", seed: both, w5: "bee"},
		{name: "manifest glob relative to its folder", manifest: "systems: {ess: ['*/seed.txt']}", seed: "ess", w5: "OpenResty"},
		{name: "flag system beats manifest system", manifest: "systems: {bee: [b]}",
			over: experiment.Overrides{Systems: []experiment.SystemRule{{Name: "zz", Sources: []string{w5Src}}}}, seed: both, w5: "zz"},
		{name: "same target in two named systems", over: experiment.Overrides{Systems: []experiment.SystemRule{
			{Name: "x", Sources: []string{seedSrc}}, {Name: "y", Sources: []string{w5Src}}}},
			seed: "x", w5: "y", wantSystem: []string{"x", "y"}},
		{name: "a system of an experiment", over: experiment.Overrides{Systems: []experiment.SystemRule{{Name: "all", Experiments: []string{"names"}}}},
			seed: "all", w5: "all"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := Request{Experiment: "names", Overrides: tc.over}
			if tc.manifest != "" {
				req.Manifest = manifest(tc.manifest)
			}
			r, err := p.Report(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			got := systemsOf(t, r)
			if got[seedSrc] != tc.seed || got[w5Src] != tc.w5 {
				t.Errorf("systems: seed %q, w5 %q; want %q, %q", got[seedSrc], got[w5Src], tc.seed, tc.w5)
			}
			if tc.wantSystem != nil {
				var labels []string
				for _, s := range r.Verdict.Systems {
					labels = append(labels, s.Label)
				}
				slices.Sort(labels)
				if !slices.Equal(labels, tc.wantSystem) {
					t.Errorf("verdict systems %v, want %v", labels, tc.wantSystem)
				}
			}
		})
	}
}

// TestReportUnknownNames: every name that matches nothing is a
// *NameError listing the systems.
func TestReportUnknownNames(t *testing.T) {
	p := namesStore(t)
	m := func(yaml string) *experiment.Manifest { return namesManifest(t, yaml) }
	for _, tc := range []struct {
		name  string
		req   Request
		want  string
		known string
	}{
		{"flag baseline", Request{Overrides: experiment.Overrides{Baseline: "nosuch"}}, `baseline "nosuch"`, "OpenResty, Zuul"},
		{"manifest baseline", Request{Manifest: m("baseline: nosuch")}, `baseline "nosuch"`, "OpenResty, Zuul"},
		{"a baseline named before labels apply", Request{Manifest: m("labels: {localhost:80: web}\nbaseline: localhost:80")},
			`baseline "localhost:80"`, "Zuul, web"},
		{"manifest glob matching nothing", Request{Manifest: m("systems: {cee: [c, b]}")}, `system "cee": c matched no input`,
			"OpenResty, Zuul, cee"},
		{"flag source matching nothing", Request{Overrides: experiment.Overrides{Systems: []experiment.SystemRule{
			{Name: "x", Sources: []string{"nosuch.txt"}, Flag: "--system x=nosuch.txt"}}}}, `system "x": nosuch.txt matched no input (--system x=nosuch.txt)`,
			"OpenResty, Zuul"},
		{"experiment without runs", Request{From: []string{"names", "other"}, Overrides: experiment.Overrides{Systems: []experiment.SystemRule{
			{Name: "o", Experiments: []string{"other"}}}}}, `system "o": other matched no input`, "OpenResty, Zuul"},
		{"two systems claim a source", Request{Overrides: experiment.Overrides{Systems: []experiment.SystemRule{
			{Name: "p", Sources: []string{seedSrc}}, {Name: "q", Sources: []string{seedSrc}}}}}, `matched by two systems, "p" and "q"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Experiment = "names"
			_, err := p.Report(context.Background(), tc.req)
			var ne *experiment.NameError
			if !errors.As(err, &ne) {
				t.Fatalf("err = %v, want a *NameError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q lacks %q", err, tc.want)
			}
			if tc.known != "" && !strings.HasSuffix(err.Error(), "; the systems are: "+tc.known) {
				t.Errorf("%q does not list the systems %s", err, tc.known)
			}
		})
	}
}

// A bucket's manifest whose names match nothing is rejected (the report
// lists it, the analysis does not fail or loop); fixed, its record goes.
func TestAnalyzeRejectsManifestNames(t *testing.T) {
	ctx := context.Background()
	p := namesStore(t)
	mkey := store.ManifestKey("names")
	mrej := store.RejectedKey("names", mkey)
	if err := p.Store.Put(ctx, mkey, strings.NewReader("baseline: nosuch\nlabels: {localhost:80: openresty}\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Analyze(ctx, "names"); err != nil {
		t.Fatalf("analyze with a bad manifest: %v", err)
	}
	rec, _, err := store.ReadAll(ctx, p.Store, mrej)
	if err != nil || !strings.Contains(string(rec), `baseline \"nosuch\" is not a system`) || !strings.Contains(string(rec), "the systems are: Zuul, openresty") {
		t.Fatalf("manifest's rejection record: %s %v", rec, err)
	}
	md, _, _ := store.ReadAll(ctx, p.Store, store.ReportKey("names", "report.md"))
	if !strings.Contains(string(md), "rejected: `raw/names/loadverdict.yaml`") {
		t.Error("report.md does not list the rejected manifest")
	}
	if sum, _, _ := store.ReadAll(ctx, p.Store, store.ReportKey("names", "summary.json")); strings.Contains(string(sum), `"label": "openresty"`) {
		t.Error("the rejected manifest's labels were applied")
	}
	if stale, err := p.Stale(ctx, "names"); err != nil || stale {
		t.Errorf("stale after the analysis: %v %v", stale, err)
	}
	first := snapshot(t, p.Store)
	if _, err := p.Analyze(ctx, "names"); err != nil {
		t.Fatal(err)
	}
	if again := snapshot(t, p.Store); !maps.Equal(first, again) {
		t.Error("a second analysis of the same inputs changed the store")
	}
	// Fixed: the record goes, the manifest applies.
	if err := p.Store.Put(ctx, mkey, strings.NewReader("baseline: openresty\nlabels: {localhost:80: openresty}\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Analyze(ctx, "names"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Store.Head(ctx, mrej); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the manifest's rejection record stayed: %v", err)
	}
	md, _, _ = store.ReadAll(ctx, p.Store, store.ReportKey("names", "report.md"))
	if strings.Contains(string(md), "loadverdict.yaml") || !strings.Contains(string(md), "openresty") {
		t.Error("the fixed manifest is still listed as rejected, or not applied")
	}
	if stale, err := p.Stale(ctx, "names"); err != nil || stale {
		t.Errorf("stale after the fix: %v %v", stale, err)
	}
}

// Prune removes only the experiment's files of sources not kept; the same
// source name in two experiments has files of its own in each.
func TestPruneAndIdentity(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	ingestFile := func(exp, name, file string) {
		t.Helper()
		upload(t, s, "in/"+file, "../../ingest/wrk/testdata/wrk/"+file)
		rc, _, err := s.Get(ctx, "in/"+file)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		if _, err := p.IngestSource(ctx, Source{Name: name, Experiment: exp, Body: rc}); err != nil {
			t.Fatal(err)
		}
	}
	ingestFile("a", "run.txt", "wrk_02.txt")
	ingestFile("b", "run.txt", "wrk_03.txt")
	ingestFile("a", "other.txt", "wrk_10.txt")
	if err := p.Reject(ctx, "a", "bad.txt", time.Time{}, errors.New("bad.txt: unreadable")); !errors.Is(err, ErrRejected) {
		t.Fatal(err)
	}
	ka, kb := committedTable(t, p, "a", "run.txt", columnar.TableRuns), committedTable(t, p, "b", "run.txt", columnar.TableRuns)
	before := snapshot(t, s)
	if ka == kb || before[ka] == "" || before[kb] == "" || before[ka] == before[kb] {
		t.Fatalf("the same name in two experiments: %s and %s", ka, kb)
	}
	want := []string{store.RejectedKey("a", "bad.txt"), store.CommitKey("a", "bad.txt"), store.CommitKey("a", "other.txt"),
		committedTable(t, p, "a", "other.txt", columnar.TableRuns), committedTable(t, p, "a", "other.txt", columnar.TablePercentiles)}
	removed, err := p.Prune(ctx, "a", []string{"run.txt"})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	slices.Sort(removed)
	if !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	after := snapshot(t, s)
	for k, v := range before {
		if slices.Contains(want, k) {
			if _, ok := after[k]; ok {
				t.Errorf("%s was not removed", k)
			}
		} else if after[k] != v {
			t.Errorf("%s changed", k)
		}
	}
}

// The gate's settings must name something: a threshold's system, a
// threshold's settings, a baseline for fail on regression, thresholds
// for fail on threshold. Otherwise Report gives a *NameError listing the
// systems, and a bucket's manifest is rejected like one with a bad name.
func TestGateSettingsNameSomething(t *testing.T) {
	ctx := context.Background()
	p := namesStore(t)
	for _, tc := range []struct{ manifest, want string }{
		{"slo: ['rps{system=nosuch}>=1']\n", `threshold rps{system=nosuch}>=1: "nosuch" is not a system of experiment names`},
		{"slo: ['rps{rate=5}>=1']\n", "threshold rps{rate=5}>=1 applies to no system at its settings"},
		{"gate: {fail_on: [regression]}\n", "failing on regression needs a baseline"},
		{"gate: {fail_on: [threshold]}\n", "failing on threshold needs thresholds"},
	} {
		_, err := p.Report(ctx, Request{Experiment: "names", Manifest: namesManifest(t, tc.manifest)})
		var ne *experiment.NameError
		if !errors.As(err, &ne) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "the systems are: OpenResty, Zuul") {
			t.Errorf("%q: %v, want a NameError with %q", tc.manifest, err, tc.want)
		}
	}
	// Valid settings: checked, and the gate recorded.
	m := namesManifest(t, "baseline: OpenResty\nslo: ['lat_mean_ms{system=OpenResty}<30']\ngate: {fail_on: [threshold, regression]}\n")
	r, err := p.Report(ctx, Request{Experiment: "names", Manifest: m})
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Verdict.Gate; !g.Failed || len(r.Verdict.Thresholds) == 0 {
		t.Errorf("gate %+v, checks %+v", g, r.Verdict.Thresholds)
	}
	// The command line's thresholds and fail-on add to the manifest's;
	// its max-regression replaces the manifest's. A crossed threshold
	// fails the gate whatever fail-on says (issue 20).
	r, err = p.Report(ctx, Request{Experiment: "names", Manifest: m, Overrides: experiment.Overrides{
		SLO: namesManifest(t, "slo: ['lat_mean_ms<1000']\n").SLO, FailOn: []gate.Condition{gate.Regression}, MaxRegressionPct: ptr(7.0)}})
	if err != nil {
		t.Fatal(err)
	}
	if o := r.Verdict.Options; len(o.SLO) != 2 || o.SLO[1].Expr != "lat_mean_ms<1000" || len(o.FailOn) != 2 || o.MaxRegressionPct != 7 || !r.Verdict.Gate.Failed ||
		!slices.ContainsFunc(r.Verdict.Gate.Reasons, func(g analyze.GateReason) bool { return g.Condition == gate.ThresholdFailed && g.Fails }) {
		t.Errorf("options %+v, gate %+v", o, r.Verdict.Gate)
	}
	// In a bucket: rejected, with the reason, and analysed without it.
	mkey := store.ManifestKey("names")
	if err := p.Store.Put(ctx, mkey, strings.NewReader("slo: ['rps{system=nosuch}>=1']\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Analyze(ctx, "names"); err != nil {
		t.Fatalf("analyze with a bad manifest: %v", err)
	}
	if rec, _, err := store.ReadAll(ctx, p.Store, store.RejectedKey("names", mkey)); err != nil || !strings.Contains(string(rec), `\"nosuch\" is not a system`) {
		t.Errorf("manifest's rejection record: %s %v", rec, err)
	}
}

func ptr[T any](v T) *T { return &v }
