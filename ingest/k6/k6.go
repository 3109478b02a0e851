package k6

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// The k6 parser reads the end-of-test summary that `k6 run` prints
// (grafana/k6), wherever it sits in a file, in its classic (k6 < v1.0) and
// v1 layouts. A run is a block of metric lines; the executors listed
// before it decide the load model. Where a block starts and ends, the
// units and how the figures are derived: docs/FORMATS.md, section
// ingest/k6/k6.go.
type Parser struct{}

// Name returns "k6".
func (Parser) Name() string { return "k6" }

// k6 marks: check mark and ballot x, and the block glyph of v1 headings.
var (
	k6Tick  = []byte("✓")
	k6Cross = []byte("✗")
	k6Block = []byte("█")
	k6Arrow = []byte("↳")
)

// metricLine splits a summary metric line "✓ name.....: values" into its
// threshold mark ('+' passed, '-' crossed, 0 none), name and values. Dot
// leaders are at least two dots long; sub-metric lines ("{ tag:value }")
// have a name starting with '{'.
func metricLine(s []byte) (mark byte, name, rest []byte, ok bool) {
	switch {
	case bytes.HasPrefix(s, k6Tick):
		mark, s = '+', core.TrimLeft(s[len(k6Tick):])
	case bytes.HasPrefix(s, k6Cross):
		mark, s = '-', core.TrimLeft(s[len(k6Cross):])
	}
	i := bytes.Index(s, []byte(".."))
	if i <= 0 {
		return 0, nil, nil, false
	}
	j := i
	for j < len(s) && s[j] == '.' {
		j++
	}
	if j >= len(s) || s[j] != ':' {
		return 0, nil, nil, false
	}
	name = s[:i]
	if name[0] != '{' && bytes.ContainsAny(name, " \t") {
		return 0, nil, nil, false
	}
	return mark, name, core.TrimLeft(s[j+1:]), true
}

// durationMs parses a k6 duration ("654µs", "17.22ms", "1m2s", "160ns",
// "0s") into milliseconds; a number without unit is taken as milliseconds
// (the unit of k6 time metrics).
func durationMs(tok []byte) (float64, bool) {
	if len(tok) == 0 {
		return 0, false
	}
	if v, ok := core.ParseDec(tok, 0); ok {
		return v, true
	}
	if tok[0] < '0' || tok[0] > '9' {
		return 0, false
	}
	d, err := time.ParseDuration(string(tok))
	if err != nil || d < 0 {
		return 0, false
	}
	return float64(d) / 1e6, true
}

// durationS parses a Go duration ("10s", "1m30s", "00m00.2s") into seconds.
func durationS(tok []byte) (float64, bool) {
	if len(tok) == 0 || tok[0] < '0' || tok[0] > '9' {
		return 0, false
	}
	d, err := time.ParseDuration(string(tok))
	if err != nil || d < 0 {
		return 0, false
	}
	return d.Seconds(), true
}

// parseBytes converts a k6 data size or rate ("1.2 MB", "40 kB/s") to bytes
// (per second).
func parseBytes(num, unit []byte) (float64, bool) {
	return core.DecimalBytes.Parse(num, bytes.TrimSuffix(unit, []byte("/s")))
}

// quantile parses a trend stat name "p(99.9)" into its quantile 0.999;
// "med" is 0.5.
func quantile(stat string) (float64, bool) {
	if stat == "med" {
		return 0.5, true
	}
	if !strings.HasPrefix(stat, "p(") || !strings.HasSuffix(stat, ")") {
		return 0, false
	}
	q, ok := core.ParseDec([]byte(stat[2:len(stat)-1]), -2)
	if !ok || q > 1 {
		return 0, false
	}
	return q, true
}

// trend holds the statistics of a trend metric, in milliseconds.
type trend struct {
	avg, min, max   float64
	hasAvg, hasMin  bool
	hasMax          bool
	count           int64
	hasCount        bool
	hasAny          bool
	unparsedStats   int
	quantileLatency map[float64]float64
}

// set records one statistic of a trend.
func (t *trend) set(stat string, ms float64) {
	t.hasAny = true
	switch stat {
	case "avg":
		t.avg, t.hasAvg = ms, true
	case "min":
		t.min, t.hasMin = ms, true
	case "max":
		t.max, t.hasMax = ms, true
	default:
		q, ok := quantile(stat)
		if !ok {
			t.unparsedStats++
			return
		}
		if t.quantileLatency == nil {
			t.quantileLatency = map[float64]float64{}
		}
		t.quantileLatency[q] = ms
	}
}

// merge adds the statistics of o that t lacks.
func (t *trend) merge(o *trend) {
	if !t.hasAvg && o.hasAvg {
		t.set("avg", o.avg)
	}
	if !t.hasMin && o.hasMin {
		t.set("min", o.min)
	}
	if !t.hasMax && o.hasMax {
		t.set("max", o.max)
	}
	qs := make([]float64, 0, len(o.quantileLatency))
	for q := range o.quantileLatency {
		qs = append(qs, q)
	}
	slices.Sort(qs)
	for _, q := range qs {
		if _, ok := t.quantileLatency[q]; !ok {
			if t.quantileLatency == nil {
				t.quantileLatency = map[float64]float64{}
			}
			t.quantileLatency[q] = o.quantileLatency[q]
			t.hasAny = true
		}
	}
}

// fill copies the trend into a run: mean, min, max, the percentile
// columns and the distribution (min and max are its 0 and 1 quantiles).
func (t *trend) fill(run *results.RunWithPercentiles) {
	if t.hasAvg {
		run.LatMeanMs = results.Ptr(t.avg)
	}
	pts := map[float64]float64{}
	if t.hasMin {
		run.LatMinMs = results.Ptr(t.min)
		pts[0] = t.min
	}
	if t.hasMax {
		run.LatMaxMs = results.Ptr(t.max)
		pts[1] = t.max
	}
	for q, v := range t.quantileLatency {
		pts[q] = v
	}
	qs := make([]float64, 0, len(pts))
	for q := range pts {
		qs = append(qs, q)
	}
	slices.Sort(qs)
	for _, q := range qs {
		run.Percentiles = append(run.Percentiles, results.Percentile{Quantile: q, LatencyMs: pts[q]})
	}
	for _, c := range []struct {
		q   float64
		dst **float64
	}{{0.5, &run.LatP50Ms}, {0.9, &run.LatP90Ms}, {0.99, &run.LatP99Ms}, {0.999, &run.LatP999Ms}} {
		if v, ok := t.quantileLatency[c.q]; ok {
			*c.dst = results.Ptr(v)
		}
	}
}

// scenario is what a "* name: description" line of the execution header
// tells.
type scenario struct {
	name      string
	executor  string
	open      bool
	rate      float64 // iterations/s (peak for ramping-arrival-rate)
	hasRate   bool
	durationS float64 // scheduled duration incl. startTime
	hasDur    bool
	vus       int64
}

// scenarioForm is the description k6 prints for one executor: the words
// at the start of the fields (empty: any), the least number of fields,
// the field of the VUs (closed) or rate (open), and that of the
// duration (-1: none; durKey: the field before that word).
type scenarioForm struct {
	executor string
	open     bool
	minLen   int
	words    []string
	count    int
	dur      int
	durKey   string
}

// k6ScenarioForms are the executors' descriptions (lib/executor/*.go
// GetDescription), tried in order.
var k6ScenarioForms = []scenarioForm{
	{executor: "constant-vus", minLen: 5, words: []string{"", "looping", "VUs", "for"}, count: 0, dur: 4},
	{executor: "ramping-vus", minLen: 7, words: []string{"Up", "to", "", "looping", "", "for"}, count: 2, dur: 6},
	{executor: "per-vu-iterations", minLen: 6, words: []string{"", "iterations", "for", "each", "of"}, count: 5, dur: -1},
	{executor: "shared-iterations", minLen: 5, words: []string{"", "iterations", "shared", "among"}, count: 4, dur: -1},
	{executor: "constant-arrival-rate", open: true, minLen: 4, words: []string{"", "iterations/s", "for"}, count: 0, dur: 3},
	{executor: "ramping-arrival-rate", open: true, minLen: 6, words: []string{"Up", "to", "", "iterations/s", "for"}, count: 2, dur: 5},
	{executor: "externally-controlled", minLen: 8, words: []string{"Externally", "controlled"}, count: -1, dur: -1, durKey: "duration"},
}

// matches reports whether the fields f have the form's words.
func (sf *scenarioForm) matches(f [][]byte) bool {
	if len(f) < sf.minLen {
		return false
	}
	for i, w := range sf.words {
		if w != "" && string(f[i]) != w {
			return false
		}
	}
	return true
}

// parseK6Scenario parses the description k6 prints for an executor
// (k6ScenarioForms).
func parseK6Scenario(name string, desc []byte) (scenario, bool) {
	var buf [24][]byte
	f := core.Fields(desc, buf[:0])
	sc := scenario{name: name}
	i := slices.IndexFunc(k6ScenarioForms, func(sf scenarioForm) bool { return sf.matches(f) })
	if i < 0 {
		return sc, false
	}
	sf := &k6ScenarioForms[i]
	sc.executor, sc.open = sf.executor, sf.open
	switch {
	case sf.count >= 0 && sf.open:
		sc.rate, sc.hasRate = core.ParseDec(f[sf.count], 0)
	case sf.count >= 0:
		sc.vus, _ = core.ParseUint(f[sf.count])
	}
	dur := func(i int) {
		if d, ok := durationS(core.TrimPunct(f[i])); ok {
			sc.durationS, sc.hasDur = d, true
		}
	}
	if sf.dur >= 0 {
		dur(sf.dur)
	}
	for i := 2; sf.durKey != "" && i+1 < len(f); i++ {
		if string(core.TrimPunct(f[i+1])) == sf.durKey {
			dur(i)
		}
	}
	if sc.hasDur {
		sc.durationS += startTime(desc)
	}
	return sc, true
}

// startTime is the startTime of a description ("startTime: 10s, ..."),
// which shifts the scenario's end; 0 without one.
func startTime(desc []byte) float64 {
	i := bytes.Index(desc, []byte("startTime: "))
	if i < 0 {
		return 0
	}
	rest := desc[i+len("startTime: "):]
	if j := bytes.IndexAny(rest, ",)"); j > 0 {
		if st, ok := durationS(rest[:j]); ok {
			return st
		}
	}
	return 0
}

// header is the execution description printed before a run.
type header struct {
	line      int
	maxVUs    int64
	hasMaxVUs bool
	scenarios []scenario
	unknown   []string // descriptions not understood
	plannedS  float64  // old k6 (< v0.27) "duration: 10s, iterations: -"
	hasPlan   bool
}

// maxK6Scenarios bounds the scenarios kept per header.
const maxK6Scenarios = 64

// running is a progress line "running (1m02.7s), 000/100 VUs, ...".
type running struct {
	s    float64
	line int
	ok   bool
}

// value is a counter, rate or gauge line.
type value struct {
	num, rate   float64 // counter: count and rate per second; rate: fraction; gauge: value
	passes      int64   // rate: ✓ (non-zero) samples
	total       int64   // rate: all samples
	hasCounts   bool
	max         float64 // gauge max=
	hasMax      bool
	bytes, bps  float64 // data counters
	isData      bool
	mark        byte
	parsed      bool
	rateIsRatio bool
}

// parseK6Value parses the values of a counter ("43404  4334.681688/s",
// "76 MB  7.5 MB/s"), rate ("0.00%  ✓ 0  ✗ 43404", "0.00%  0 out of 2") or
// gauge ("80  min=80  max=80") line.
func parseK6Value(rest []byte) value {
	var buf [12][]byte
	f := core.Fields(rest, buf[:0])
	if len(f) == 0 {
		return value{}
	}
	if a := f[0]; len(a) > 1 && a[len(a)-1] == '%' {
		return ratioValue(f)
	}
	return counterValue(f)
}

// ratioValue parses a rate line: "0.00%  ✓ 0  ✗ 43404" or "0.00%  0 out
// of 2".
func ratioValue(f [][]byte) value {
	var v value
	a := f[0]
	pct, ok := core.ParseDec(a[:len(a)-1], -2)
	if !ok {
		return v
	}
	v.rate, v.rateIsRatio, v.parsed = pct, true, true
	switch {
	case len(f) >= 5 && bytes.Equal(f[1], k6Tick) && bytes.Equal(f[3], k6Cross):
		p, ok1 := core.ParseUint(f[2])
		n, ok2 := core.ParseUint(f[4])
		if ok1 && ok2 {
			v.passes, v.total, v.hasCounts = p, core.AddSat(p, n), true
		}
	case len(f) >= 5 && string(f[2]) == "out" && string(f[3]) == "of":
		p, ok1 := core.ParseUint(f[1])
		n, ok2 := core.ParseUint(f[4])
		if ok1 && ok2 && p <= n {
			v.passes, v.total, v.hasCounts = p, n, true
		}
	}
	return v
}

// counterValue parses a data counter ("76 MB  7.5 MB/s"), a counter
// ("43404  4334.681688/s") or a gauge ("80  min=80  max=80").
func counterValue(f [][]byte) value {
	var v value
	if len(f) >= 4 {
		if b, ok := parseBytes(f[0], f[1]); ok {
			if bps, ok := parseBytes(f[2], f[3]); ok && bytes.HasSuffix(f[3], []byte("/s")) {
				v.bytes, v.bps, v.isData, v.parsed = b, bps, true, true
				return v
			}
		}
	}
	n, ok := core.ParseDec(f[0], 0)
	if !ok {
		return v
	}
	v.num, v.parsed = n, true
	for _, t := range f[1:] {
		switch {
		case bytes.HasSuffix(t, []byte("/s")):
			if r, ok := core.ParseDec(t[:len(t)-2], 0); ok {
				v.rate = r
			}
		case bytes.HasPrefix(t, []byte("max=")):
			if m, ok := core.ParseDec(t[4:], 0); ok {
				v.max, v.hasMax = m, true
			}
		}
	}
	return v
}

// parseK6Trend parses "avg=18.41ms min=654µs med=17.22ms ... count=1501".
func parseK6Trend(rest []byte) (trend, bool) {
	var buf [32][]byte
	var t trend
	for _, tok := range core.Fields(rest, buf[:0]) {
		k, v, ok := bytes.Cut(tok, []byte("="))
		if !ok || len(k) == 0 {
			return t, false
		}
		if string(k) == "count" {
			n, ok := core.ParseUint(v)
			if !ok {
				return t, false
			}
			t.count, t.hasCount, t.hasAny = n, true, true
			continue
		}
		ms, ok := durationMs(v)
		if !ok || !core.Finite(ms) {
			t.unparsedStats++
			continue
		}
		t.set(string(k), ms)
	}
	return t, t.hasAny
}

// summaryBlock accumulates one summary block.
type summaryBlock struct {
	active       bool
	startLine    int
	header       *header
	cmd          string
	seen         map[string]bool
	ignore       bool // inside a full-mode scenario or group section
	inThresholds bool
	thrMetric    string
	thrDuration  trend // http_req_duration statistics printed only in the thresholds
	hasMetrics   bool
	v1           bool
	duration     trend
	hasDuration  bool
	reqs         value
	hasReqs      bool
	failed       value
	hasFailed    bool
	iters        value
	hasIters     bool
	data         value
	hasData      bool
	vusMax       value
	hasVusMax    bool
	vus          value
	hasVus       bool
	checks       value
	hasChecks    bool
	dropped      value
	hasDropped   bool
	running      running
	notes        []string
}

// maxK6Notes bounds the notes kept per run.
const maxK6Notes = 32

func (r *summaryBlock) note(s string) {
	if len(r.notes) < maxK6Notes && !slices.Contains(r.notes, s) {
		r.notes = append(r.notes, s)
	}
}

// state is the parser's state over one input.
type state struct {
	opts     core.Options
	sink     core.Sink
	lab      core.Labeler
	index    int
	run      summaryBlock
	header   *header
	inHeader bool
	cmd      string
	cmdLine  int
	running  running
	skipped  int
}

// Detect reports whether head holds a k6 end-of-test summary: an
// http_req_duration trend line together with an http_reqs, http_req_failed,
// iterations, vus_max or data_received line.
func (Parser) Detect(head []byte) bool {
	var trend, other bool
	for _, line := range core.HeadLines(head) {
		s := core.Normalize(line)
		if len(s) < 12 {
			continue
		}
		_, name, rest, ok := metricLine(s)
		if !ok {
			continue
		}
		switch string(name) {
		case "http_req_duration":
			if _, ok := parseK6Trend(rest); ok {
				trend = true
			}
		case "http_reqs", "http_req_failed", "iterations", "vus_max", "data_received":
			if parseK6Value(rest).parsed {
				other = true
			}
		}
		if trend && other {
			return true
		}
	}
	return false
}

// Parse streams the k6 summaries of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{opts: opts, sink: sink, lab: core.Labeler{Labels: opts.Labels}}
	if err := core.EachLine(ctx, r, opts.Source, st.line); err != nil {
		return err
	}
	if err := st.close(); err != nil {
		return err
	}
	if st.index == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"k6"}}
	}
	return nil
}

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 {
		return nil
	}
	r := &st.run
	if done, err := st.heading(s, ln); done || err != nil {
		return err
	}
	if done, err := st.headerLine(s, ln); done || err != nil {
		return err
	}
	if st.progress(s, ln) {
		return nil
	}
	// Metric lines.
	if mark, name, rest, ok := metricLine(s); ok {
		return st.metric(mark, string(name), rest, ln)
	}
	if r.active && r.inThresholds {
		st.thresholdLine(s)
		return nil
	}
	// A command line for the next run.
	if cmd, ok := command(s); ok {
		st.cmd, st.cmdLine = cmd, ln
	}
	return nil
}

// headerLine reads the execution description before a run; done false
// when s is no part of it.
func (st *state) headerLine(s []byte, ln int) (done bool, err error) {
	r := &st.run
	if bytes.HasPrefix(s, []byte("execution:")) || bytes.HasPrefix(s, []byte("scenarios:")) ||
		(bytes.HasPrefix(s, []byte("duration:")) && bytes.Contains(s, []byte("iterations:"))) {
		if r.active && r.hasMetrics {
			if err := st.close(); err != nil {
				return true, err
			}
		}
		if st.header == nil || bytes.HasPrefix(s, []byte("execution:")) && len(st.header.scenarios) > 0 {
			st.header = &header{line: ln}
		}
		st.inHeader = true
		st.parseHeaderLine(s)
		return true, nil
	}
	if !st.inHeader {
		return false, nil
	}
	if s[0] == '*' || bytes.HasPrefix(s, []byte("vus:")) || bytes.HasPrefix(s, []byte("script:")) || bytes.HasPrefix(s, []byte("output:")) {
		st.parseHeaderLine(s)
		return true, nil
	}
	st.inHeader = false
	return false, nil
}

// heading reads the headings of the v1 layout (THRESHOLDS, TOTAL RESULTS,
// SCENARIO:, GROUP:); done false when s is none.
func (st *state) heading(s []byte, ln int) (done bool, err error) {
	r := &st.run
	// Headings of the v1 layout.
	heading := s
	if bytes.HasPrefix(heading, k6Block) {
		heading = core.TrimLeft(heading[len(k6Block):])
	} else if bytes.HasPrefix(heading, k6Arrow) {
		heading = core.TrimLeft(heading[len(k6Arrow):])
	}
	switch {
	case string(heading) == "THRESHOLDS":
		if err := st.startFresh(ln); err != nil {
			return true, err
		}
		st.run.inThresholds, st.run.v1 = true, true
		return true, nil
	case string(heading) == "TOTAL RESULTS":
		if r.active && (r.hasMetrics || !r.inThresholds) {
			if err := st.startFresh(ln); err != nil {
				return true, err
			}
		} else if !r.active {
			st.begin(ln)
		}
		st.run.inThresholds, st.run.ignore, st.run.v1 = false, false, true
		return true, nil
	case bytes.HasPrefix(heading, []byte("SCENARIO:")) || bytes.HasPrefix(heading, []byte("GROUP:")):
		if r.active {
			r.ignore = true
		}
		return true, nil
	}
	return false, nil
}

// progress reads the progress lines ("running (...)") and the threshold
// error k6 logs at the end of a run; false when s is neither.
func (st *state) progress(s []byte, ln int) bool {
	r := &st.run
	// Progress lines.
	if bytes.HasPrefix(s, []byte("running (")) {
		if i := bytes.IndexByte(s, ')'); i > len("running (") {
			if d, ok := durationS(s[len("running ("):i]); ok {
				run := running{s: d, line: ln, ok: true}
				if r.active {
					r.running = run
				} else {
					st.running = run
				}
			}
		}
		return true
	}
	// The threshold error k6 logs at the end of a run.
	if bytes.Contains(s, []byte("thresholds on metrics")) && bytes.Contains(s, []byte("crossed")) {
		msg := string(s)
		if i := strings.Index(msg, "thresholds on metrics"); i >= 0 {
			msg = msg[i:]
			if j := strings.Index(msg, "crossed"); j >= 0 {
				msg = msg[:j+len("crossed")]
			}
		}
		if r.active {
			r.note("k6: " + msg)
		}
		return true
	}
	return false
}

// command returns the k6 command in s ("k6 run ...", "./k6 run", "docker
// run grafana/k6 run ..."), if any.
func command(s []byte) (string, bool) {
	var buf [24][]byte
	f := core.Fields(s, buf[:0])
	for i := 0; i+1 < len(f); i++ {
		t := f[i]
		base := t[bytes.LastIndexAny(t, `/\`)+1:]
		if (string(base) == "k6" || string(base) == "k6.exe") && string(f[i+1]) == "run" {
			cmd := core.Rest(s, t)
			// A command quoted in prose ("Starting up command 'k6 run ...'")
			// ends at the closing quote.
			before := s[:len(s)-len(cmd)]
			if q := bytes.LastIndexAny(before, `'"`); q >= 0 {
				if j := bytes.IndexByte(cmd, before[q]); j >= 0 {
					cmd = cmd[:j]
				}
			}
			return string(core.TrimRight(cmd)), true
		}
	}
	return "", false
}

// parseHeaderLine reads a line of the execution description.
func (st *state) parseHeaderLine(s []byte) {
	h := st.header
	var buf [16][]byte
	f := core.Fields(s, buf[:0])
	switch {
	case bytes.HasPrefix(s, []byte("scenarios:")):
		for i := 1; i+2 < len(f); i++ {
			if string(f[i+1]) == "max" && string(core.TrimPunct(f[i+2])) == "VUs" {
				if n, ok := core.ParseUint(f[i]); ok {
					h.maxVUs, h.hasMaxVUs = n, true
				}
			}
		}
	case s[0] == '*':
		name, desc, ok := bytes.Cut(core.TrimLeft(s[1:]), []byte(": "))
		if !ok || len(h.scenarios) >= maxK6Scenarios {
			return
		}
		if sc, ok := parseK6Scenario(string(name), core.TrimLeft(desc)); ok {
			h.scenarios = append(h.scenarios, sc)
		} else if len(h.unknown) < 4 {
			h.unknown = append(h.unknown, string(name))
		}
	case bytes.HasPrefix(s, []byte("duration:")):
		// k6 < v0.27: "duration: 10s, iterations: -".
		if len(f) >= 2 {
			if d, ok := durationS(core.TrimPunct(f[1])); ok {
				h.plannedS, h.hasPlan = d, true
			}
		}
	case bytes.HasPrefix(s, []byte("vus:")):
		// k6 < v0.27: "vus: 10, max: 10".
		for i := 0; i+1 < len(f); i++ {
			if string(f[i]) == "max:" {
				if n, ok := core.ParseUint(core.TrimPunct(f[i+1])); ok {
					h.maxVUs, h.hasMaxVUs = n, true
				}
			}
		}
	}
}

// thresholdLine reads a line of the v1 "█ THRESHOLDS" section: a metric
// name, then its thresholds "✗ 'p(95)<200' p(95)=385.69ms".
func (st *state) thresholdLine(s []byte) {
	r := &st.run
	switch {
	case bytes.HasPrefix(s, k6Cross):
		r.note(fmt.Sprintf("threshold crossed: %s %s", r.thrMetric, strings.TrimSpace(string(s[len(k6Cross):]))))
		r.thresholdValues(s[len(k6Cross):])
	case bytes.HasPrefix(s, k6Tick):
		r.thresholdValues(s[len(k6Tick):])
	default:
		if !bytes.ContainsAny(s, " \t") && len(s) <= 256 {
			r.thrMetric = string(s)
		}
	}
}

// thresholdValues keeps the statistics a threshold line of the
// http_req_duration trend prints ("'p(99)<800' p(99)=803.33ms"): with the
// default summaryTrendStats the metrics section shows no p(99), the
// threshold line may be the only place it is printed.
func (r *summaryBlock) thresholdValues(s []byte) {
	if r.thrMetric != "http_req_duration" {
		return
	}
	var buf [16][]byte
	for _, tok := range core.Fields(s, buf[:0]) {
		if tok[0] == '\'' {
			continue // the threshold expression itself
		}
		k, v, ok := bytes.Cut(tok, []byte("="))
		if !ok || len(k) == 0 || string(k) == "count" {
			continue
		}
		if ms, ok := durationMs(v); ok && core.Finite(ms) {
			r.thrDuration.set(string(k), ms)
		}
	}
}

// begin opens a run at line ln with the pending header and command.
func (st *state) begin(ln int) {
	st.run = summaryBlock{active: true, startLine: ln, header: st.header, running: st.running}
	if st.header != nil && st.header.line < st.run.startLine {
		st.run.startLine = st.header.line
	}
	if st.cmd != "" {
		st.run.cmd = st.cmd
		if st.cmdLine < st.run.startLine {
			st.run.startLine = st.cmdLine
		}
	}
	st.header, st.cmd, st.running, st.inHeader = nil, "", running{}, false
}

// startFresh closes the current run, if it has metrics, and opens a new one.
func (st *state) startFresh(ln int) error {
	if st.run.active && st.run.hasMetrics {
		if err := st.close(); err != nil {
			return err
		}
	}
	if !st.run.active {
		st.begin(ln)
	}
	return nil
}

// metric handles a metric line.
func (st *state) metric(mark byte, name string, rest []byte, ln int) error {
	r := &st.run
	if name[0] == '{' {
		if mark == '-' && r.active && !r.ignore {
			r.note("threshold crossed on sub-metric " + name)
		}
		return nil
	}
	if r.active && r.ignore {
		return nil
	}
	if err := st.enterMetric(name, ln); err != nil {
		return err
	}
	r = &st.run
	if mark == '-' {
		r.note("threshold crossed on " + name)
	}
	r.setMetric(name, rest)
	return nil
}

// enterMetric counts a metric line into the run, starting one (and
// closing the one before when the metric comes again: the next run's
// summary).
func (st *state) enterMetric(name string, ln int) error {
	r := &st.run
	if r.active && r.seen[name] {
		if err := st.close(); err != nil {
			return err
		}
	}
	if !r.active {
		st.begin(ln)
	}
	r = &st.run
	r.inThresholds = false
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if len(r.seen) < 4096 {
		r.seen[name] = true
	}
	r.hasMetrics = true
	return nil
}

// setMetric keeps the values of the metrics a run is made of.
func (r *summaryBlock) setMetric(name string, rest []byte) {
	switch name {
	case "http_req_duration":
		if t, ok := parseK6Trend(rest); ok {
			r.duration, r.hasDuration = t, true
		}
	case "http_reqs":
		r.reqs = parseK6Value(rest)
		r.hasReqs = r.reqs.parsed
	case "http_req_failed":
		r.failed = parseK6Value(rest)
		r.hasFailed = r.failed.parsed && r.failed.rateIsRatio
	case "iterations":
		r.iters = parseK6Value(rest)
		r.hasIters = r.iters.parsed
	case "data_received":
		r.data = parseK6Value(rest)
		r.hasData = r.data.isData
	case "vus_max":
		r.vusMax = parseK6Value(rest)
		r.hasVusMax = r.vusMax.parsed
	case "vus":
		r.vus = parseK6Value(rest)
		r.hasVus = r.vus.parsed
	case "checks", "checks_succeeded":
		r.checks = parseK6Value(rest)
		r.hasChecks = r.checks.parsed && r.checks.rateIsRatio
	case "dropped_iterations":
		r.dropped = parseK6Value(rest)
		r.hasDropped = r.dropped.parsed
	}
}

// close emits the current run, if it is one, and resets the block.
func (st *state) close() error {
	r := &st.run
	if !r.active {
		return nil
	}
	defer func() { st.run = summaryBlock{} }()
	if !r.hasDuration && !r.hasReqs {
		st.skipped++
		return nil
	}
	run := st.build(r)
	core.FillCommon(&run, st.opts, st.index, &st.lab)
	st.index++
	return st.sink.Run(run)
}

// build turns a block into a run.
func (st *state) build(r *summaryBlock) results.RunWithPercentiles {
	run := results.RunWithPercentiles{Run: results.Run{Tool: "k6", LoadModel: results.LoadClosed, SourceLine: int32(r.startLine)}}
	run.Percentiles = []results.Percentile{}
	if r.cmd != "" {
		run.Command = results.Ptr(r.cmd)
	}
	if r.thrDuration.hasAny {
		// Statistics printed only in a threshold line complete the trend;
		// the metrics line wins where both print one.
		r.duration.merge(&r.thrDuration)
		r.hasDuration = true
	}
	if r.hasDuration {
		r.duration.fill(&run)
		if r.duration.unparsedStats > 0 {
			r.note(fmt.Sprintf("%d http_req_duration statistics not understood", r.duration.unparsedStats))
		}
	}
	counts(&run, r)
	duration(&run, r)
	if r.hasData {
		if b, ok := core.ToInt64(r.data.bytes); ok {
			run.BytesIn = results.Ptr(b)
		}
		run.TransferBPS = results.Ptr(r.data.bps)
	}
	connections(&run, r)
	if h := r.header; h != nil {
		st.applyHeader(&run, h, r)
	} else {
		r.note("no execution header: executor unknown, closed model assumed")
	}
	if r.hasChecks && r.checks.hasCounts {
		r.note(fmt.Sprintf("checks: %d of %d passed", r.checks.passes, r.checks.total))
	}
	if r.hasDropped && r.dropped.num > 0 {
		r.note(fmt.Sprintf("dropped_iterations: %.0f", r.dropped.num))
	}
	if len(r.notes) > 0 {
		run.Notes = results.Ptr(strings.Join(r.notes, "; "))
	}
	return run
}

// duration sets the duration: count/rate as k6 computed the rate over
// the test run, else the last progress line; and the rate from it when
// there was none.
func duration(run *results.RunWithPercentiles, r *summaryBlock) {
	switch {
	case r.hasReqs && r.reqs.rate > 0 && r.reqs.num > 0:
		run.DurationS = r.reqs.num / r.reqs.rate
	case r.hasIters && r.iters.rate > 0 && r.iters.num > 0:
		run.DurationS = r.iters.num / r.iters.rate
	case r.running.ok:
		run.DurationS = r.running.s
	}
	if run.RPS == 0 && run.DurationS > 0 && run.Requests > 0 {
		run.RPS = float64(run.Requests) / run.DurationS
	}
}

// counts sets the run's requests and errors from the metrics read.
func counts(run *results.RunWithPercentiles, r *summaryBlock) {
	switch {
	case r.hasReqs && core.Finite(r.reqs.num):
		run.Requests, _ = core.ToInt64(r.reqs.num)
		run.RPS = r.reqs.rate
	case r.hasDuration && r.duration.hasCount:
		run.Requests = r.duration.count
	case r.hasFailed && r.failed.hasCounts:
		run.Requests = r.failed.total
	}
	if r.hasFailed && r.failed.hasCounts {
		// http_req_failed is a rate of failed requests: its ✓ (non-zero)
		// samples, or the N of "N out of M", are the failures.
		run.Errors = r.failed.passes
	} else if r.hasFailed && run.Requests > 0 {
		run.Errors, _ = core.ToInt64(r.failed.rate * float64(run.Requests))
		r.note("errors computed from the http_req_failed percentage")
	} else {
		r.note("errors unknown: no http_req_failed line (k6 < v0.31)")
	}
}

// connections sets the run's connections: the most virtual users.
func connections(run *results.RunWithPercentiles, r *summaryBlock) {
	switch {
	case r.hasVusMax && r.vusMax.num >= 1 && r.vusMax.num < math.MaxInt32:
		run.Connections = results.Ptr(int32(r.vusMax.num))
	case r.hasVus && r.vus.hasMax && r.vus.max >= 1 && r.vus.max < math.MaxInt32:
		run.Connections = results.Ptr(int32(r.vus.max))
	case r.header != nil && r.header.hasMaxVUs && r.header.maxVUs < math.MaxInt32:
		run.Connections = results.Ptr(int32(r.header.maxVUs))
	}
}

// applyHeader sets the load model, target rate and planned duration from
// the execution description.
func (st *state) applyHeader(run *results.RunWithPercentiles, h *header, r *summaryBlock) {
	var open, closed int
	var rate, planned float64
	var hasPlanned bool
	var names []string
	for _, sc := range h.scenarios {
		names = append(names, sc.name+" ("+sc.executor+")")
		if sc.open {
			open++
			if sc.hasRate {
				rate += sc.rate
			}
		} else {
			closed++
		}
		if sc.hasDur && sc.durationS > planned {
			planned, hasPlanned = sc.durationS, true
		}
	}
	if h.hasPlan {
		planned, hasPlanned = h.plannedS, true
	}
	if len(names) > 0 {
		r.note("scenarios: " + strings.Join(names, ", "))
	}
	if len(h.unknown) > 0 {
		r.note("scenario descriptions not understood: " + strings.Join(h.unknown, ", "))
	}
	switch {
	case open > 0 && closed == 0:
		run.LoadModel = results.LoadOpen
		if rate > 0 {
			run.TargetRPS = results.Ptr(rate)
			r.note("target_rps is the arrival rate of iterations (an iteration may make several requests)")
		}
	case open > 0:
		r.note("arrival-rate and VU scenarios mixed: closed model assumed")
	}
	if hasPlanned && planned > 0 {
		run.PlannedDurationS = results.Ptr(planned)
	}
}

// formatFloat formats v for notes.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
