package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/store"
)

const truthSeries = "../../testdata/truth/series"

// uploadSeries puts experiments of testdata/truth/series (runs and
// manifest) under raw/.
func uploadSeries(t *testing.T, s store.Store, exps ...string) []string {
	t.Helper()
	var keys []string
	for _, exp := range exps {
		for _, f := range []string{"loadverdict.yaml", "run1.txt", "run2.txt", "run3.txt", "run4.txt"} {
			key := "raw/" + exp + "/" + f
			upload(t, s, key, truthSeries+"/"+exp+"/"+f)
			keys = append(keys, key)
		}
	}
	return keys
}

type fakeCatalog struct {
	added []string
	fail  error
}

func (c *fakeCatalog) AddPartitions(_ context.Context, exp string) error {
	if c.fail != nil {
		return c.fail
	}
	c.added = append(c.added, exp)
	return nil
}

// TestSeriesThroughIngest: each ingest re-makes its experiment's report,
// then its series' report (reports/_series/<series>/), and registers the
// experiment's partitions; the schedule re-makes only a stale series.
func TestSeriesThroughIngest(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	cat := &fakeCatalog{}
	p := &Pipeline{Store: s, GeneratedBy: "loadverdict test", Catalog: cat}
	for _, key := range uploadSeries(t, s, "exp01", "exp02") {
		if _, err := p.Ingest(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	for _, exp := range []string{"exp01", "exp02"} {
		if _, err := p.Analyze(ctx, exp); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Contains(cat.added, "exp01") || !slices.Contains(cat.added, "exp02") {
		t.Errorf("partitions registered for %v", cat.added)
	}
	b, _, err := store.ReadAll(ctx, s, store.SeriesReportKey("truth-series", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Series      string
		Experiments []struct{ Name string }
	}
	if err := json.Unmarshal(b, &sum); err != nil || sum.Series != "truth-series" || len(sum.Experiments) != 2 {
		t.Fatalf("series summary %s (%v)", b, err)
	}
	for _, f := range []string{"report.md", "summary.md", "trend-rps.png", "covers.json"} {
		if _, err := s.Head(ctx, store.SeriesReportKey("truth-series", f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	done, err := p.Reanalyze(ctx, "", false)
	if err != nil || len(done) != 0 {
		t.Errorf("the schedule re-made %v (%v), want nothing: every report is current", done, err)
	}
	// A new build makes everything stale: the experiments' analyses
	// re-make their series.
	p.GeneratedBy = "loadverdict test 2"
	if _, err = p.Reanalyze(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	if b, _, _ := store.ReadAll(ctx, s, store.SeriesReportKey("truth-series", "covers.json")); !strings.Contains(string(b), `"loadverdict test 2"`) {
		t.Errorf("the series was not re-made by the new build: %s", b)
	}
	// A missing series report is made by the schedule.
	if err := s.Delete(ctx, store.SeriesReportKey("truth-series", "covers.json")); err != nil {
		t.Fatal(err)
	}
	done, err = p.Reanalyze(ctx, "", false)
	if err != nil || !slices.Equal(done, []string{store.SeriesDir + "/truth-series"}) {
		t.Errorf("the schedule re-made %v (%v), want the series only", done, err)
	}
	// A catalog that fails makes the ingest fail (a retry), not a rejection.
	cat.fail = errors.New("glue throttled")
	if _, err := p.Ingest(ctx, "raw/exp01/run1.txt"); !errors.Is(err, cat.fail) || errors.Is(err, ErrRejected) {
		t.Errorf("failing catalog: err = %v", err)
	}
}

// TestExperimentNameSeriesReserved: no experiment may be named _series,
// whose folder holds the series' reports.
func TestExperimentNameSeriesReserved(t *testing.T) {
	if err := store.CheckExperiment(store.SeriesDir); err == nil {
		t.Error("experiment _series accepted")
	}
	if _, err := store.ExperimentOf("raw/_series/x.txt"); err == nil {
		t.Error("raw/_series/x.txt accepted")
	}
}

// TestSameFileNameInTwoExperiments: run1.txt of two experiments are two
// sources with their own table files, in their own partitions; a
// re-upload of one key replaces its own tables only.
func TestSameFileNameInTwoExperiments(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "loadverdict test"}
	upload(t, s, "raw/exp01/run1.txt", truthSeries+"/exp01/run1.txt")
	upload(t, s, "raw/exp02/run1.txt", truthSeries+"/exp02/run1.txt")
	for _, k := range []string{"raw/exp01/run1.txt", "raw/exp02/run1.txt"} {
		if _, err := p.Ingest(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	// runs is the content of an experiment's one runs file (its current
	// generation), named after the source.
	runs := func(exp string) string {
		objs, err := s.List(ctx, store.TablePrefix("runs", exp))
		if err != nil || len(objs) != 1 || !strings.Contains(objs[0].Key, store.SourceID("raw/"+exp+"/run1.txt")) {
			t.Fatalf("%s: runs files %v (%v), want one of source raw/%s/run1.txt", exp, objs, err, exp)
		}
		b, _, err := store.ReadAll(ctx, s, objs[0].Key)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	one, two := runs("exp01"), runs("exp02")
	if one == two || store.SourceID("raw/exp01/run1.txt") == store.SourceID("raw/exp02/run1.txt") {
		t.Fatal("the two run1.txt share a table file")
	}
	// Re-upload exp02/run1.txt with exp03's content: exp02's tables change,
	// exp01's stay byte for byte.
	upload(t, s, "raw/exp02/run1.txt", truthSeries+"/exp03/run1.txt")
	if _, err := p.Ingest(ctx, "raw/exp02/run1.txt"); err != nil {
		t.Fatal(err)
	}
	if runs("exp01") != one || runs("exp02") == two {
		t.Error("a re-upload touched another experiment's tables, or not its own")
	}
	objs, _ := s.List(ctx, store.TablePrefix("runs", "exp02"))
	if len(objs) != 1 {
		t.Errorf("exp02 has %d runs files after the re-upload, want 1", len(objs))
	}
}

// TestHistoryNoRuns: a series whose experiments have no runs is ErrNoRuns;
// one experiment without runs among others is left out.
func TestHistoryNoRuns(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "loadverdict test"}
	_, err := p.History(ctx, HistoryRequest{Series: "x", Experiments: []string{"nothing"}})
	if !errors.Is(err, ErrNoRuns) {
		t.Errorf("err = %v, want ErrNoRuns", err)
	}
	uploadSeries(t, s, "exp01")
	if _, err := p.Ingest(ctx, "raw/exp01/run1.txt"); err != nil {
		t.Fatal(err)
	}
	r, err := p.History(ctx, HistoryRequest{Series: "x", Experiments: []string{"nothing", "exp01"}})
	if err != nil || len(r.History.Experiments) != 1 {
		t.Fatalf("%v, %+v", err, r)
	}
	if !strings.Contains(r.Headline, "exp01") {
		t.Errorf("headline %q", r.Headline)
	}
	if _, err := p.History(ctx, HistoryRequest{Series: "a/b", Experiments: []string{"exp01"}}); err == nil {
		t.Error("series a/b accepted")
	}
	checkUnreadLatest(t, p, s)
}

// checkUnreadLatest: an experiment whose every input was rejected, after
// the latest analysed one, fails the series' gate on no-comparison and is
// named (it passed on the night before it); before it, or with no input
// at all, it is left out as before.
func checkUnreadLatest(t *testing.T, p *Pipeline, s store.Store) {
	t.Helper()
	ctx := context.Background()
	if err := s.Put(ctx, "raw/bad/a.txt", strings.NewReader("not a load test\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Ingest(ctx, "raw/bad/a.txt"); !errors.Is(err, ErrRejected) {
		t.Fatalf("raw/bad/a.txt: %v, want rejected", err)
	}
	for _, tc := range []struct {
		exps   []string
		unread string
	}{
		{[]string{"exp01", "bad"}, "bad"},
		{[]string{"bad", "exp01"}, ""},
		{[]string{"exp01", "nothing"}, ""},
	} {
		r, err := p.History(ctx, HistoryRequest{Series: "x", Experiments: tc.exps})
		if err != nil {
			t.Fatalf("%v: %v", tc.exps, err)
		}
		h := r.History
		if h.Unread != tc.unread || h.Failed != (tc.unread != "") {
			t.Errorf("%v: unread %q, gate failed %v; want unread %q", tc.exps, h.Unread, h.Failed, tc.unread)
		}
		if tc.unread != "" && !strings.Contains(r.Headline, "no run of the latest experiment, bad, could be read") {
			t.Errorf("%v: headline %q does not name the unread experiment", tc.exps, r.Headline)
		}
	}
}

// TestSeriesUndated (issue 30 #4): in a bucket, an experiment without
// meta.date among dated ones made the series' order its experiments'
// names. Whichever experiment (by name first, middle or last) lacks its
// date, its ingest stands (its own report is made), the series' former
// report is removed rather than left standing for a verdict no longer
// made, and AnalyzeSeries and the schedule report the experiment; with
// its date back, the series is made again in date order.
func TestSeriesUndated(t *testing.T) {
	for _, undated := range []string{"exp01", "exp04", "exp06"} {
		t.Run(undated, func(t *testing.T) {
			ctx := context.Background()
			s := newStore(t)
			p := &Pipeline{Store: s, GeneratedBy: "loadverdict test"}
			// ingest ingests keys and analyses their experiments, as the
			// ingest function does.
			ingest := func(keys []string) {
				t.Helper()
				exps := map[string]bool{}
				for _, key := range keys {
					if _, err := p.Ingest(ctx, key); err != nil {
						t.Fatalf("%s: %v", key, err)
					}
					exps[strings.Split(key, "/")[1]] = true
				}
				for _, exp := range slices.Sorted(maps.Keys(exps)) {
					if _, err := p.Analyze(ctx, exp); err != nil {
						t.Fatalf("%s: %v", exp, err)
					}
				}
			}
			var dated []string
			for _, exp := range []string{"exp01", "exp04", "exp06"} {
				if exp != undated {
					dated = append(dated, exp)
				}
			}
			ingest(uploadSeries(t, s, dated...))
			if _, err := s.Head(ctx, store.SeriesReportKey("truth-series", "summary.json")); err != nil {
				t.Fatalf("no series report from the dated experiments: %v", err)
			}
			keys := uploadSeries(t, s, undated)
			man := "raw/" + undated + "/loadverdict.yaml"
			b, _, err := store.ReadAll(ctx, s, man)
			if err != nil {
				t.Fatal(err)
			}
			noDate := regexp.MustCompile(`(?m)^  date: .*\n`).ReplaceAll(b, nil)
			if err := s.Put(ctx, man, bytes.NewReader(noDate)); err != nil {
				t.Fatal(err)
			}
			ingest(keys)
			if _, err := s.Head(ctx, store.ReportKey(undated, "summary.json")); err != nil {
				t.Errorf("the undated experiment's own report: %v", err)
			}
			if objs, _ := s.List(ctx, store.SeriesReportKey("truth-series", "")); len(objs) != 0 {
				t.Errorf("the series' former report stands: %v", objs)
			}
			want := "experiment " + undated + " has no meta.date while the 2 others have one"
			var oe *analyze.OrderError
			if _, err := p.AnalyzeSeries(ctx, "truth-series"); !errors.As(err, &oe) || !strings.Contains(err.Error(), want) {
				t.Errorf("AnalyzeSeries: %v; want an OrderError with %q", err, want)
			}
			if _, err := p.ReanalyzeSeries(ctx, false); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("ReanalyzeSeries: %v; want %q", err, want)
			}
			// The date back: the series is made again, in date order.
			if err := s.Put(ctx, man, bytes.NewReader(b)); err != nil {
				t.Fatal(err)
			}
			ingest([]string{man})
			sum, _, err := store.ReadAll(ctx, s, store.SeriesReportKey("truth-series", "summary.json"))
			var got struct {
				OrderBy     string `json:"order_by"`
				Experiments []struct{ Name string }
			}
			if err != nil || json.Unmarshal(sum, &got) != nil || got.OrderBy != "meta.date" || len(got.Experiments) != 3 || got.Experiments[2].Name != "exp06" {
				t.Errorf("the series with every date: %+v, %v", got, err)
			}
		})
	}
}

// TestLatestUnread: an unread experiment is the latest by meta date where
// it and the latest analysed one both have one (the same day counts as
// after), else by its place in the list.
func TestLatestUnread(t *testing.T) {
	last := analyze.SeriesExperiment{Name: "n05", Meta: analyze.Meta{Date: "2026-11-05"}}
	undated := analyze.SeriesExperiment{Name: "n05"}
	u := func(name string, pos int, date string) unreadExperiment {
		return unreadExperiment{name: name, pos: pos, meta: analyze.Meta{Date: date}}
	}
	for _, tc := range []struct {
		name   string
		unread []unreadExperiment
		last   analyze.SeriesExperiment
		want   string
	}{
		{"dated, later", []unreadExperiment{u("n06", 0, "2026-11-06")}, last, "n06"},
		{"dated, same day", []unreadExperiment{u("n06", 0, "2026-11-05")}, last, "n06"},
		{"dated, earlier though listed after", []unreadExperiment{u("n04", 9, "2026-11-04")}, last, ""},
		{"undated, listed after", []unreadExperiment{u("n06", 9, "")}, last, "n06"},
		{"undated, listed before", []unreadExperiment{u("n04", 1, "")}, last, ""},
		{"dated, latest analysed undated: by the list", []unreadExperiment{u("n06", 9, "2026-11-06")}, undated, "n06"},
		{"the latest of two", []unreadExperiment{u("n06", 6, ""), u("n07", 7, "")}, last, "n07"},
		{"none", nil, last, ""},
	} {
		if got := latestUnread(tc.unread, tc.last, 5); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSeriesWithControlThroughIngest: a series whose manifests name a
// control (history.control) through the bucket's path, on the real
// recording testdata/truth/nightly-swings-step (nights 5-10: svc 10 %
// more work from night 8, the machine faster on nights 7-9): the series'
// report checks svc over the control (a regression since night08, found
// over the control as a change point) and draws the figures over it; once
// the manifests name no control, the report is re-made without them and
// the figures over the control are removed, none left stale.
func TestSeriesWithControlThroughIngest(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "loadverdict test"}
	const dir = "../../testdata/truth/nightly-swings-step"
	var nights []string
	for n := 5; n <= 10; n++ {
		nights = append(nights, fmt.Sprintf("night%02d", n))
	}
	putManifest := func(night, history string) {
		b, err := os.ReadFile(dir + "/" + night + "/loadverdict.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, "raw/"+night+"/loadverdict.yaml", bytes.NewReader(append(b, []byte(history)...))); err != nil {
			t.Fatal(err)
		}
	}
	for _, night := range nights {
		putManifest(night, "history:\n  control: control\n")
		for _, f := range []string{"svc/wrk1.txt", "control/wrk1.txt", "svc/wrk2.txt", "control/wrk2.txt"} {
			upload(t, s, "raw/"+night+"/"+f, dir+"/"+night+"/"+f)
		}
	}
	for _, night := range nights {
		for _, f := range []string{"svc/wrk1.txt", "control/wrk1.txt", "svc/wrk2.txt", "control/wrk2.txt"} {
			if _, err := p.Ingest(ctx, "raw/"+night+"/"+f); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := p.Analyze(ctx, night); err != nil {
			t.Fatal(err)
		}
	}
	figure := store.SeriesReportKey("nightly-swings-step", "trend-rps-over-control.png")
	read := func() (headline string, relative json.RawMessage) {
		b, _, err := store.ReadAll(ctx, s, store.SeriesReportKey("nightly-swings-step", "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var sum struct {
			Headline string
			Tracks   []struct {
				System  string
				Metrics []struct {
					Metric          string
					RelativeChanges json.RawMessage `json:"relative_changes"`
				}
			}
		}
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		for _, tr := range sum.Tracks {
			for _, m := range tr.Metrics {
				if tr.System == "svc" && m.Metric == "rps" {
					relative = m.RelativeChanges
				}
			}
		}
		return sum.Headline, relative
	}
	headline, relative := read()
	if !strings.HasPrefix(headline, "Regression: svc") || !strings.Contains(headline, "(night08)") || !strings.Contains(headline, "Checked relative to the control control") {
		t.Errorf("with history.control: headline %q, want a regression of svc since night08 over the control", headline)
	}
	if !strings.Contains(string(relative), `"experiment": "night08"`) && !strings.Contains(string(relative), `"experiment":"night08"`) {
		t.Errorf("with history.control: svc's relative_changes %s, want one at night08", relative)
	}
	if _, err := s.Head(ctx, figure); err != nil {
		t.Errorf("with history.control: %v", err)
	}
	// The manifests name no control any more: the next analysis re-makes
	// the series without it, and the figures over it go.
	for _, night := range nights {
		putManifest(night, "")
	}
	if _, err := p.Analyze(ctx, nights[len(nights)-1]); err != nil {
		t.Fatal(err)
	}
	headline, relative = read()
	if strings.Contains(headline, "relative to the control") || string(relative) != "null" {
		t.Errorf("without history.control: headline %q, relative_changes %s; want neither over a control", headline, relative)
	}
	if _, err := s.Head(ctx, figure); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("without history.control: %s is still there (%v)", figure, err)
	}
}
