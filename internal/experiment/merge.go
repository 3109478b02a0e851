package experiment

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// MergeRule names sources that are parts of one test: several load
// generators driving one target at the same time, each writing its own
// output. Their runs become one run at analysis (see Pipeline.Report);
// the tables keep the parts. A rule whose entries match no source is an
// error (*NameError).
type MergeRule struct {
	// Sources are source names, matched exactly (--merge PATH, PATH
	// expanded to its files).
	Sources []string
	// Patterns are manifest patterns (see Patterns).
	Patterns []string
	// Flag is how the rule was given, for messages (e.g. "--merge
	// parts/"); empty for the manifest's.
	Flag string
}

// mergeRules returns the command line's merge rules, then the manifest's.
func (n *namer) mergeRules() []MergeRule {
	rules := slices.Clone(n.req.Overrides.Merge)
	if m := n.req.Manifest; m != nil {
		for _, ps := range m.Merge {
			rules = append(rules, MergeRule{Patterns: ps})
		}
	}
	return rules
}

// mergeParts replaces, in set, the runs of the sources each merge rule
// matches by merged runs (a view: the tables keep the parts), after the
// systems are named: the k-th run of an endpoint in each source is a part
// of the k-th merged run. Counts and rates add up; percentiles, standard
// deviation and series come from the parts' samples together, through
// requests.Requests, never averaged (null when a part has none). The
// rules are docs/EXPERIMENTS.md "One test from several load generators".
func (a *assembler) mergeParts(ctx context.Context, set *analyze.Set, n *namer, samples map[string]string, rejs []Rejected) ([]mergedRun, error) {
	rules := n.mergeRules()
	if len(rules) == 0 {
		return nil, nil
	}
	claimed := map[string]int{} // source -> rule
	var sources [][]string
	rejected := make([][]Rejected, len(rules)) // the rejected parts of each rule
	for ri, r := range rules {
		rule := SystemRule{Sources: r.Sources, Patterns: r.Patterns}
		entries := slices.Concat(r.Sources, r.Patterns)
		for e, what := range entries {
			if slices.Index(entries, what) < e {
				return nil, &NameError{Msg: fmt.Sprintf("merge group %s: %s is named twice (a merge is of different inputs)", ruleName(r), shownName(what))}
			}
		}
		used := make([]bool, len(entries))
		var srcs []string
		for _, run := range set.Runs {
			if slices.Contains(srcs, run.Source) || !n.matchesAny(rule, run.Source, run.Experiment, used) {
				continue
			}
			if prev, dup := claimed[run.Source]; dup && prev != ri {
				return nil, &NameError{Msg: fmt.Sprintf("source %s is in two merge groups (%s and %s)", shownName(run.Source), ruleName(rules[prev]), ruleName(r))}
			}
			claimed[run.Source] = ri
			srcs = append(srcs, run.Source)
		}
		// A rejected part matched too: it is rejected (its record says
		// why, and the report lists it), the group is merged from the
		// parts read; the manifest stays.
		for _, rej := range rejs {
			if n.matchesAny(rule, rej.Key, rej.Experiment, used) {
				rejected[ri] = append(rejected[ri], rej)
			}
		}
		for e, u := range used {
			if u {
				continue
			}
			return nil, &NameError{Msg: fmt.Sprintf("merge group %s: %s matched no input", ruleName(r), shownName(entries[e]))}
		}
		sources = append(sources, srcs)
	}
	var merged []mergedRun
	for ri, srcs := range sources {
		units := mergeUnits(set.Runs, srcs)
		for _, parts := range units {
			if err := n.checkParts(rules[ri], parts); err != nil {
				return nil, err
			}
			m, err := a.mergeRun(ctx, set, parts, samples, rejected[ri])
			if err != nil {
				return nil, err
			}
			merged = append(merged, m)
		}
	}
	if len(merged) == 0 {
		return nil, nil
	}
	replace(set, merged)
	return merged, nil
}

// matchesAny tells whether rule r claims a source of experiment exp,
// marking in used every entry of r that does (an entry that matches
// only what an earlier entry matched is still used).
func (n *namer) matchesAny(r SystemRule, source, exp string, used []bool) bool {
	rel := n.rel(source)
	ok := false
	for i, s := range r.Sources {
		if s == source {
			used[i], ok = true, true
		}
	}
	for i, pat := range r.Patterns {
		if matchPattern(pat, source) || rel != "" && matchPattern(pat, rel) {
			used[len(r.Sources)+i], ok = true, true
		}
	}
	return ok
}

// MergeSlackS is the slack, in seconds, of the check that the parts of a
// merged run ran at once, for the resolution of the tools' start times
// (wrk's and ab's are not given; others' to the second or better).
const MergeSlackS = 1

// checkParts refuses (a *NameError: exit 2 on the command line, the
// manifest's rejection record in a bucket) parts that cannot be one test,
// rather than add them up:
//
//   - parts of different systems (named by --system, --label or the
//     manifest, or the host:port of their targets);
//   - parts against different targets (host:port; the paths may differ:
//     several generators may drive several requests of one system);
//   - parts that did not run at once: the time they share (from the
//     latest start to the earliest end) is less than half the shortest
//     part's duration, less MergeSlackS. Parts whose start is not known
//     are not checked (their merged run's notes say so).
func (n *namer) checkParts(r MergeRule, parts []results.Run) error {
	refuse := func(why string) error {
		return &NameError{Msg: fmt.Sprintf("merge group %s: %s; the parts of a merged run are the outputs of load generators run at once against one system, "+
			"and adding up others would make a run that never happened", ruleName(r), why)}
	}
	part := func(x results.Run) string { return shownName(x.Source) + "#" + strconv.Itoa(int(x.Index)) }
	first := parts[0]
	for _, x := range parts[1:] {
		if a, b := targetHost(first.Target), targetHost(x.Target); a != "" && b != "" && a != b {
			return refuse(fmt.Sprintf("%s hit %s and %s hit %s", part(first), shownName(first.Target), part(x), shownName(x.Target)))
		}
		sysA, sysB := n.systemIdentity(first), n.systemIdentity(x)
		if sysA != "" && sysB != "" && sysA != sysB {
			return refuse(fmt.Sprintf("%s is of system %s and %s of system %s", part(first), shownName(sysA), part(x), shownName(sysB)))
		}
	}
	var latest, earliest *results.Run
	shortest := math.Inf(1)
	for i := range parts {
		x := &parts[i]
		if x.StartedAt == nil {
			return nil
		}
		if latest == nil || x.StartedAt.After(*latest.StartedAt) {
			latest = x
		}
		if earliest == nil || end(*x).Before(end(*earliest)) {
			earliest = x
		}
		shortest = min(shortest, x.DurationS)
	}
	shared := end(*earliest).Sub(*latest.StartedAt).Seconds()
	if shared < shortest/2-MergeSlackS {
		span := func(x results.Run) string {
			return x.StartedAt.UTC().Format(time.RFC3339) + " to " + end(x).UTC().Format(time.RFC3339)
		}
		return refuse(fmt.Sprintf("the parts did not run at once: %s ran %s, %s ran %s (%s in common; parts of one test share at least half the shortest part's %s, less %d s)",
			part(*earliest), span(*earliest), part(*latest), span(*latest), secs(max(shared, 0)), secs(shortest), MergeSlackS))
	}
	return nil
}

// end is when a run ended (its start must be known).
func end(r results.Run) time.Time {
	return r.StartedAt.Add(time.Duration(r.DurationS * 1e9))
}

// secs words a duration in seconds, to a tenth.
func secs(s float64) string {
	return strconv.FormatFloat(s, 'f', 1, 64) + " s"
}

// systemIdentity is the system of a part for the merge's checks: its name
// when a rule or a label mapping named it, or the host:port of the tables'
// label when the run has a target; "" when it has neither (the label is a
// file name, which says nothing of the system).
func (n *namer) systemIdentity(r results.Run) string {
	if n.named[r.RunID] || r.Target != "" {
		return r.Label
	}
	return ""
}

// targetHost is the host:port of a target URL (the scheme's default port
// made explicit), the target itself when it is not a URL, "" when empty.
func targetHost(target string) string {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return target
	}
	if u.Port() != "" {
		return strings.ToLower(u.Host)
	}
	switch u.Scheme {
	case "https", "wss", "grpcs":
		return strings.ToLower(u.Host) + ":443"
	}
	return strings.ToLower(u.Host) + ":80"
}

// ruleName names a merge rule in messages.
func ruleName(r MergeRule) string {
	if r.Flag != "" {
		return r.Flag
	}
	return "merge: [" + strings.Join(r.Patterns, ", ") + "]"
}

// mergeUnits groups the runs of the sources into the sets of parts that
// make one run each: by endpoint, the k-th run of each source together;
// sets of one part are left out.
func mergeUnits(runs []results.Run, sources []string) [][]results.Run {
	type key struct{ endpoint string }
	count := map[string]map[key]int{} // source -> key -> runs seen
	units := map[key][][]results.Run{}
	var order []key
	for _, r := range runs {
		if !slices.Contains(sources, r.Source) {
			continue
		}
		var k key
		if r.Endpoint != nil {
			k.endpoint = *r.Endpoint
		}
		if count[r.Source] == nil {
			count[r.Source] = map[key]int{}
		}
		i := count[r.Source][k]
		count[r.Source][k]++
		if _, ok := units[k]; !ok {
			order = append(order, k)
		}
		for len(units[k]) <= i {
			units[k] = append(units[k], nil)
		}
		units[k][i] = append(units[k][i], r)
	}
	var out [][]results.Run
	for _, k := range order {
		for _, u := range units[k] {
			if len(u) > 1 {
				out = append(out, u)
			}
		}
	}
	return out
}

// mergedRun is a run made at analysis from the runs of several sources,
// with its parts.
type mergedRun struct {
	Run    results.RunWithPercentiles
	Series []results.Series
	Parts  []results.Run
	// Samples is the number of the parts' samples read (0 when a part
	// has none).
	Samples int64
}

// replace puts the merged runs in place of their parts: a merged run takes
// its first part's place.
func replace(set *analyze.Set, merged []mergedRun) {
	gone := map[string]bool{}
	first := map[string]int{}
	for i, m := range merged {
		for _, p := range m.Parts {
			gone[p.RunID] = true
		}
		first[m.Parts[0].RunID] = i
	}
	var runs []results.Run
	for _, r := range set.Runs {
		if i, ok := first[r.RunID]; ok {
			runs = append(runs, merged[i].Run.Run)
			continue
		}
		if !gone[r.RunID] {
			runs = append(runs, r)
		}
	}
	set.Runs = runs
	set.Percentiles = slices.DeleteFunc(set.Percentiles, func(p results.Percentile) bool { return gone[p.RunID] })
	set.Series = slices.DeleteFunc(set.Series, func(s results.Series) bool { return gone[s.RunID] })
	for _, m := range merged {
		set.Percentiles = append(set.Percentiles, m.Run.Percentiles...)
		set.Series = append(set.Series, m.Series...)
	}
}

// mergeRun makes one run of its parts (see mergeParts).
func (a *assembler) mergeRun(ctx context.Context, set *analyze.Set, parts []results.Run, samples map[string]string, rejected []Rejected) (mergedRun, error) {
	first := parts[0]
	var ids, srcs []string
	for _, r := range parts {
		ids = append(ids, r.Source+"#"+strconv.Itoa(int(r.Index))+" ("+r.RunID+")")
		srcs = append(srcs, r.Source)
	}
	out := results.Run{
		RunID: results.RunID(strings.Join(srcs, "+"), int(first.Index)), Experiment: first.Experiment, Source: first.Source,
		Index: first.Index, Seq: first.Seq, LoadModel: first.LoadModel, Label: first.Label, Target: first.Target,
		Endpoint: first.Endpoint, SourceLine: first.SourceLine, HasSamples: true,
	}
	notes := []string{fmt.Sprintf("merged from %d parts run at once: %s", len(parts), strings.Join(ids, ", "))}
	for _, rej := range rejected {
		notes = append(notes, fmt.Sprintf("part %s was rejected (%s): the counts and rates are of the parts read", rej.Key, rej.Error))
	}
	var sum partSum
	for _, r := range parts {
		notes = append(notes, sum.add(&out, r, r == first)...)
	}
	notes = append(notes, sum.finish(&out)...)
	m := mergedRun{Parts: parts}
	if !out.HasSamples {
		m.Run.Percentiles = []results.Percentile{}
		notes = append(notes, "a part has no per-request data: no percentiles, standard deviation nor series (percentiles of the parts are never averaged)")
	} else {
		pcts, series, stdev, n, err := a.mergeSamples(ctx, set, parts, out, samples)
		if err != nil {
			return m, err
		}
		m.Series, m.Samples = series, n
		out.LatStdevMs = stdev
		rp := results.RunWithPercentiles{Run: out}
		core.AddPercentiles(&rp, pcts)
		out, m.Run.Percentiles = rp.Run, rp.Percentiles
		if n > 1<<20 {
			notes = append(notes, "percentiles from an HdrHistogram with 3 significant digits (relative error <= 0.1 %): more than 1048576 requests")
		}
	}
	out.Notes = results.Ptr(strings.Join(notes, "; "))
	m.Run.Run = out
	return m, nil
}

// partSum adds the parts of a merged run up, part by part.
type partSum struct {
	tools      []string
	start, end time.Time
	someStart  bool // a part's start is not known
	latSum     float64
	someMean   bool // a part's mean latency is not known
}

// add adds part r (first: the first part) to out, and returns its notes.
func (s *partSum) add(out *results.Run, r results.Run, first bool) []string {
	var notes []string
	if !slices.Contains(s.tools, r.Tool) {
		s.tools = append(s.tools, r.Tool)
	}
	if r.Label != out.Label {
		notes = append(notes, fmt.Sprintf("a part of system %s: merged into %s", r.Label, out.Label))
	}
	if r.LoadModel != out.LoadModel {
		notes = append(notes, fmt.Sprintf("parts of load models %s and %s: %s kept", out.LoadModel, r.LoadModel, out.LoadModel))
	}
	out.Requests += r.Requests
	out.Errors += r.Errors
	out.RPS += r.RPS
	addCounts(out, r, first)
	if r.PlannedDurationS != nil && (out.PlannedDurationS == nil || *r.PlannedDurationS > *out.PlannedDurationS) {
		out.PlannedDurationS = results.Ptr(*r.PlannedDurationS)
	}
	if r.LatencyCorrected != nil && (first || out.LatencyCorrected != nil && *out.LatencyCorrected == *r.LatencyCorrected) {
		out.LatencyCorrected = results.Ptr(*r.LatencyCorrected)
	} else {
		out.LatencyCorrected = nil
	}
	out.LatMinMs = extreme(out.LatMinMs, r.LatMinMs, first, math.Min)
	out.LatMaxMs = extreme(out.LatMaxMs, r.LatMaxMs, first, math.Max)
	if r.LatMeanMs == nil {
		s.someMean = true
	} else {
		s.latSum += *r.LatMeanMs * float64(r.Requests)
	}
	s.span(r)
	out.DurationS = max(out.DurationS, r.DurationS)
	out.HasSamples = out.HasSamples && r.HasSamples
	return notes
}

// addCounts adds the nullable counts and rates of part r to out.
func addCounts(out *results.Run, r results.Run, first bool) {
	out.Non2xx = addPtr(out.Non2xx, r.Non2xx, first)
	out.Timeouts = addPtr(out.Timeouts, r.Timeouts, first)
	out.ConnectErrors = addPtr(out.ConnectErrors, r.ConnectErrors, first)
	out.ReadErrors = addPtr(out.ReadErrors, r.ReadErrors, first)
	out.WriteErrors = addPtr(out.WriteErrors, r.WriteErrors, first)
	out.BytesIn = addPtr(out.BytesIn, r.BytesIn, first)
	out.TransferBPS = addPtr(out.TransferBPS, r.TransferBPS, first)
	out.SentRPS = addPtr(out.SentRPS, r.SentRPS, first)
	out.SuccessRPS = addPtr(out.SuccessRPS, r.SuccessRPS, first)
	out.Connections = addPtr(out.Connections, r.Connections, first)
	out.Threads = addPtr(out.Threads, r.Threads, first)
	out.TargetRPS = addPtr(out.TargetRPS, r.TargetRPS, first)
}

// span widens the merged run's span to part r's.
func (s *partSum) span(r results.Run) {
	if r.StartedAt == nil {
		s.someStart = true
		return
	}
	start, end := *r.StartedAt, r.StartedAt.Add(time.Duration(r.DurationS*1e9))
	if s.start.IsZero() || start.Before(s.start) {
		s.start = start
	}
	if end.After(s.end) {
		s.end = end
	}
}

// finish sets out's tool, mean latency and span from the sum, and
// returns its note.
func (s *partSum) finish(out *results.Run) []string {
	slices.Sort(s.tools)
	out.Tool = strings.Join(s.tools, "+")
	if !s.someMean && out.Requests > 0 {
		out.LatMeanMs = results.Ptr(s.latSum / float64(out.Requests))
	}
	if s.someStart {
		return []string{"a part's start is not known: the duration is the longest part's"}
	}
	out.StartedAt = &s.start
	out.DurationS = s.end.Sub(s.start).Seconds()
	return nil
}

// addPtr adds b to a, for nullable columns: null as soon as one part's
// is (first starts the sum).
func addPtr[T int32 | int64 | float64](a, b *T, first bool) *T {
	if b == nil || !first && a == nil {
		return nil
	}
	if first {
		return results.Ptr(*b)
	}
	return results.Ptr(*a + *b)
}

// extreme keeps the smaller (or larger) of two nullable values: null as
// soon as one part's is.
func extreme(a, b *float64, first bool, pick func(x, y float64) float64) *float64 {
	if b == nil || !first && a == nil {
		return nil
	}
	if first {
		return results.Ptr(*b)
	}
	return results.Ptr(pick(*a, *b))
}

// mergeSamples passes the samples of the parts, at their times (a part's
// start plus the sample's offset), to one per-request aggregator, and
// returns the merged run's percentiles (with its run_id), series, standard
// deviation and the number of samples read. Each part's samples come from
// the committed samples file of its generation (samples, by run_id); a
// file gone since the runs were read (a newer generation committed
// meanwhile) is the reader's error, as a missing table is.
func (a *assembler) mergeSamples(ctx context.Context, set *analyze.Set, parts []results.Run, run results.Run, samples map[string]string) (
	[]results.Percentile, []results.Series, *float64, int64, error) {
	window := 0.0
	for _, s := range set.Series {
		if s.RunID == parts[0].RunID {
			window = s.WindowS
			break
		}
	}
	col := &mergeSink{}
	agg := requests.NewRequests(ingest.Options{Source: run.Source, Experiment: run.Experiment, WindowS: window}, col)
	meta := requests.RequestRun{Tool: run.Tool, LoadModel: run.LoadModel, Target: run.Target, UnixTime: run.StartedAt != nil,
		NoHTTPStatus: run.Non2xx == nil, NoBytes: run.BytesIn == nil}
	h := agg.Run("merged", meta)
	var n int64
	// The parts by samples file (a source's runs share one), in order.
	byFile := map[string][]results.Run{}
	var files []string
	for _, r := range parts {
		key := samples[r.RunID]
		if key == "" {
			return nil, nil, nil, 0, fmt.Errorf("merging %s: run %s has samples but its committed generation has no samples table", r.Source, r.RunID)
		}
		if _, ok := byFile[key]; !ok {
			files = append(files, key)
		}
		byFile[key] = append(byFile[key], r)
	}
	for _, key := range files {
		src := byFile[key][0].Source
		offset := map[string]int64{}
		for _, r := range byFile[key] {
			if r.StartedAt != nil {
				offset[r.RunID] = r.StartedAt.UnixNano()
			} else {
				offset[r.RunID] = 0
			}
		}
		err := a.read(ctx, key, src, func(s results.Sample) error {
			off, ok := offset[s.RunID]
			if !ok {
				return nil
			}
			n++
			req := requests.Request{Start: off + int64(math.Round(s.TS*1e9)), LatencyMs: s.LatencyMs, Status: s.Status, BytesIn: s.BytesIn}
			if s.Error != nil {
				req.Error = *s.Error
			}
			return agg.Add(h, 0, req)
		})
		if err != nil {
			return nil, nil, nil, 0, wrapRead("merging", src, err)
		}
	}
	if err := agg.Close(); err != nil {
		return nil, nil, nil, 0, err
	}
	if len(col.runs) != 1 {
		return []results.Percentile{}, nil, nil, n, nil
	}
	r := col.runs[0]
	pcts := make([]results.Percentile, len(r.Percentiles))
	for i, q := range r.Percentiles {
		q.RunID = run.RunID
		pcts[i] = q
	}
	series := make([]results.Series, len(col.series))
	for i, s := range col.series {
		s.RunID = run.RunID
		series[i] = s
	}
	slices.SortFunc(series, func(a, b results.Series) int { return cmp.Compare(a.TS, b.TS) })
	return pcts, series, r.LatStdevMs, n, nil
}

// mergeSink keeps what the aggregator of a merge gives but the samples.
type mergeSink struct {
	runs   []results.RunWithPercentiles
	series []results.Series
}

// Run keeps the merged run.
func (s *mergeSink) Run(r results.RunWithPercentiles) error {
	s.runs = append(s.runs, r)
	return nil
}

// Sample drops a sample: the parts' stay in their tables.
func (s *mergeSink) Sample(results.Sample) error { return nil }

// Series keeps a window of the merged run.
func (s *mergeSink) Series(w results.Series) error {
	s.series = append(s.series, w)
	return nil
}
