package analyze

import (
	"cmp"
	"fmt"
	"math"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/results"
)

// Finding codes: stable, kebab-case, documented in the README.
const (
	CodeCoordinatedOmission = "coordinated-omission"
	CodeShortRun            = "short-run"
	CodeNoReplication       = "no-replication"
	CodeNotInterleaved      = "not-interleaved"
	CodeStillWarming        = "still-warming"
	CodeErrors              = "errors"
	CodeTargetsDiffer       = "targets-differ"
	CodeSameHost            = "same-host"
	CodeLittlesLaw          = "littles-law"
	CodeSaturated           = "saturated"
	CodeLongTail            = "long-tail"
	CodeGeneratorBound      = "generator-bound"
)

func (v *Verdict) add(sev, code, subject, msg, fix string) {
	v.Findings = append(v.Findings, Finding{Severity: sev, Code: code, Subject: subject, Message: msg, Fix: fix})
}

// findings runs the methodology checks of STATISTICS.md; every finding
// carries a concrete fix.
func (v *Verdict) findings() {
	o := v.Options
	runs := v.Runs

	// coordinated-omission: per closed-model tool.
	closed := map[string]int{}
	for _, r := range runs {
		if r.LoadModel == results.LoadClosed {
			closed[r.Tool]++
		}
	}
	for _, tool := range sortedKeys(closed) {
		v.add(SeverityWarning, CodeCoordinatedOmission, fmt.Sprintf("%s (%s)", tool, plural(closed[tool], "run")),
			fmt.Sprintf("%s is a closed-model load generator: each connection waits for a response before it sends the next request, so a stalled server also stalls the requests that would have measured the stall. Its latency percentiles and maximum are lower bounds, optimistic by up to orders of magnitude in the tail.", tool),
			"Measure latency with an open-model generator at a fixed rate below capacity (wrk2 -R, vegeta attack -rate, k6 constant-arrival-rate) and compare the systems at equal throughput; use closed-model runs only for peak throughput.")
	}

	// short-run
	var short []results.Run
	for _, r := range runs {
		d := r.DurationS
		if d <= 0 && r.PlannedDurationS != nil {
			d = *r.PlannedDurationS
		}
		if d > 0 && d < o.ShortRunS {
			short = append(short, r)
		}
	}
	if len(short) > 0 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range short {
			lo, hi = math.Min(lo, r.DurationS), math.Max(hi, r.DurationS)
		}
		v.add(SeverityWarning, CodeShortRun, fmt.Sprintf("%d of %s", len(short), plural(len(runs), "run")),
			fmt.Sprintf("%d of %s lasted %s (under %s s): too short for a JIT-compiled server to settle, and too few requests in the tail for p99 or max to mean much.",
				len(short), plural(len(runs), "run"), durRange(lo, hi), fmtNum(o.ShortRunS)),
			"Run each measurement for at least 60 s after a separate, discarded warm-up phase, and record per-request or per-second data (vegeta, hey -o csv, k6 --out json) so warm-up inside a run can be seen.")
	}

	// no-replication and still-warming, per system and settings.
	var thin []string
	minRuns, maxRuns := math.MaxInt, 0
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			if len(g.Runs) < o.MinRuns {
				thin = append(thin, fmt.Sprintf("%s at %s: %s", s.Label, g.Settings, plural(len(g.Runs), "run")))
				minRuns, maxRuns = min(minRuns, len(g.Runs)), max(maxRuns, len(g.Runs))
			}
			if g.Warmup.Class == ClassNoSteadyState {
				msg := fmt.Sprintf("%s at %s has not reached a steady state across runs", s.Label, g.Settings)
				if g.Warmup.ChangePct != nil {
					msg += fmt.Sprintf(": throughput changed %+.1f %% between its last two runs (seq %d -> %d), outside the noise band",
						*g.Warmup.ChangePct, g.Seqs[len(g.Seqs)-2], g.Seqs[len(g.Seqs)-1])
				}
				v.add(SeverityWarning, CodeStillWarming, fmt.Sprintf("%s at %s", s.Label, g.Settings), msg+".",
					"Keep running rounds (discard them as warm-up) until consecutive runs agree within the noise band (3 %), then take at least 4 measured runs; or run one long run with per-second data and let loadverdict find the warm-up end.")
			}
			if g.WithinRun != nil && g.WithinRun.Class == ClassNoSteadyState {
				v.add(SeverityWarning, CodeStillWarming, fmt.Sprintf("%s at %s (within runs)", s.Label, g.Settings),
					fmt.Sprintf("%s at %s: mean latency was still changing near the end of its runs (%s).", s.Label, g.Settings, g.WithinRun.Detail),
					"Run longer: the steady state must cover most of the run; discard the warm-up part explicitly.")
			}
		}
	}
	if len(thin) > 0 {
		rng := fmt.Sprint(minRuns)
		if maxRuns != minRuns {
			rng = fmt.Sprintf("%d-%d", minRuns, maxRuns)
		}
		v.add(SeverityWarning, CodeNoReplication, fmt.Sprintf("%s", plural(len(thin), "group")),
			fmt.Sprintf("%s of runs at equal settings had fewer than %d runs (%s): run-to-run variance is unknown, so no difference can be shown significant. %s.",
				plural(len(thin), "group"), o.MinRuns, rng, strings.Join(thin, "; ")),
			fmt.Sprintf("Repeat each configuration at least %d times per system (5-10 is better), alternating the systems (A B A B ...), and compare the distributions of run results.", o.MinRuns))
	}

	v.interleaving()

	// errors
	for _, r := range runs {
		if r.Errors <= 0 {
			continue
		}
		sev := SeverityWarning
		rate := 0.0
		if total := r.Requests + r.Errors; total > 0 {
			rate = float64(r.Errors) / float64(r.Requests)
		}
		if r.Requests == 0 || rate >= o.ErrorRateSevere {
			sev = SeverityError
		}
		v.add(sev, CodeErrors, runSubject(r),
			fmt.Sprintf("%s had %d errors against %d requests (%s): %s.", runSubject(r), r.Errors, r.Requests, pct(rate), errorBreakdown(r)),
			"Find the cause (server logs, connection limits, ulimit -n, timeouts) and re-run: a run with errors measures error handling, and failed requests are often faster than good ones.")
	}

	v.targetsDiffer()

	// same-host
	var local []string
	for _, s := range v.Systems {
		for _, r := range runs {
			if r.Label == s.Label && isLoopback(r.Target) {
				local = append(local, s.Label)
				break
			}
		}
	}
	if len(local) > 0 {
		v.add(SeverityWarning, CodeSameHost, strings.Join(local, ", "),
			fmt.Sprintf("The load generator targeted a loopback address (%s), so it ran on the same machine as the server: the two compete for CPU and memory, and the generator's own limits become part of the result.", strings.Join(local, ", ")),
			"Run the load generator on a separate machine on the same network (or at least pin generator and server to disjoint CPU sets with taskset, and report it).")
	}

	// littles-law, saturated, generator-bound
	for _, s := range v.Systems {
		c := s.Capacity
		var off []string
		var low bool
		for i, ratio := range c.LittlesLawRatio {
			if ratio < LittleLow || ratio > LittleHigh {
				off = append(off, fmt.Sprintf("%.2f (seq %d)", ratio, seqOf(runs, c.LittlesLawRuns[i])))
				low = low || ratio < LittleLow
			}
		}
		if len(off) > 0 {
			v.add(SeverityInfo, CodeLittlesLaw, s.Label,
				fmt.Sprintf("%s: throughput x mean latency / connections is %s, not about 1. Below %.1f the generator kept connections idle (generator-bound, think time, or reconnects outside the latency figure); above %.1f the latency figure hides queueing (e.g. time spent connecting).",
					s.Label, strings.Join(off, ", "), LittleLow, LittleHigh),
				"Check that every connection is kept busy (keep-alive on, enough generator threads, no rate cap) and that the generator's latency covers the whole request; monitor the generator's CPU.")
		}
		if c.Saturated {
			at := ""
			if c.SaturatedAt != nil {
				at = fmt.Sprintf(" at %d connections or fewer", *c.SaturatedAt)
			}
			v.add(SeverityWarning, CodeSaturated, s.Label,
				fmt.Sprintf("%s is saturated%s: %s. More load only adds queueing, so its latency at the higher load measures the queue, not the system.", s.Label, at, c.SaturationDetail),
				"Compare systems below saturation (at a fixed rate both can sustain, with an open-model generator), and find what saturates (server CPU, upstream, the generator) before blaming the system.")
			if low && slices.Contains(local, s.Label) {
				v.add(SeverityWarning, CodeGeneratorBound, s.Label,
					fmt.Sprintf("%s's throughput stopped growing while connections stood idle (Little's law ratio below %.1f) and the generator shared its machine: the limit may be the load generator or something in front of the server, not the system under test.", s.Label, LittleLow),
					"Watch the generator's CPU during a run; use more generator threads or a second generator machine, and check the throughput of the backend alone.")
			}
		}
	}

	// long-tail
	for _, r := range runs {
		if r.LatMaxMs != nil && r.LatMeanMs != nil && *r.LatMeanMs > 0 && *r.LatMaxMs > o.LongTailFactor**r.LatMeanMs {
			v.add(SeverityInfo, CodeLongTail, runSubject(r),
				fmt.Sprintf("%s: max latency %s ms is %.1fx its mean %s ms: rare stalls (GC pauses, JIT compilation, connection setup) dominate the tail.",
					runSubject(r), fmtNum(*r.LatMaxMs), *r.LatMaxMs / *r.LatMeanMs, fmtNum(*r.LatMeanMs)),
				"Record the full latency distribution (wrk --latency, or better wrk2 or vegeta with HdrHistogram output) and report p99/p99.9 with the max; correlate stalls with GC logs.")
		}
	}

	sevRank := map[string]int{SeverityError: 0, SeverityWarning: 1, SeverityInfo: 2}
	slices.SortStableFunc(v.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(sevRank[a.Severity], sevRank[b.Severity]), cmp.Compare(a.Code, b.Code))
	})
}

// interleaving flags pairs of systems whose runs at equal settings were
// not interleaved: all of one system's runs before all of the other's.
func (v *Verdict) interleaving() {
	for i := range v.Systems {
		for j := i + 1; j < len(v.Systems); j++ {
			a, b := &v.Systems[i], &v.Systems[j]
			for _, ga := range a.Groups {
				for _, gb := range b.Groups {
					if ga.key() != gb.key() || len(ga.Seqs) < 2 || len(gb.Seqs) < 2 {
						continue
					}
					amax, bmin := slices.Max(ga.Seqs), slices.Min(gb.Seqs)
					bmax, amin := slices.Max(gb.Seqs), slices.Min(ga.Seqs)
					if amax < bmin || bmax < amin {
						first, second := a.Label, b.Label
						if bmax < amin {
							first, second = second, first
						}
						v.add(SeverityWarning, CodeNotInterleaved, fmt.Sprintf("%s vs %s at %s", a.Label, b.Label, ga.Settings),
							fmt.Sprintf("Every run of %s at %s came before every run of %s: any drift of the machine (thermal throttling, caches, background jobs, the JIT of a shared process) is confounded with the difference between the systems.", first, ga.Settings, second),
							"Alternate the systems run by run (A B A B ... or a randomized order) so that drift affects both equally.")
					}
				}
			}
		}
	}
}

// targetsDiffer flags compared systems measured on different paths.
func (v *Verdict) targetsDiffer() {
	seen := map[string]bool{}
	for _, c := range v.Comparisons {
		k := c.A + "\x00" + c.B
		if seen[k] {
			continue
		}
		seen[k] = true
		pa, pb := paths(v.Runs, c.A), paths(v.Runs, c.B)
		if len(pa) == 0 || len(pb) == 0 || slices.Equal(pa, pb) {
			continue
		}
		v.add(SeverityWarning, CodeTargetsDiffer, fmt.Sprintf("%s vs %s", c.A, c.B),
			fmt.Sprintf("%s was measured at %s and %s at %s: different requests may do different work (routing rules, filters, rewrites), so the comparison may not be like for like.",
				c.A, strings.Join(pa, ", "), c.B, strings.Join(pb, ", ")),
			"Send the same request (method, path, headers, body) to both systems, or show that the different paths reach the same handler with the same response size.")
	}
}

// paths returns the distinct request paths (with query) of a system's runs.
func paths(runs []results.Run, label string) []string {
	var out []string
	for _, r := range runs {
		if r.Label != label || r.Target == "" {
			continue
		}
		p := r.Target
		if u, err := url.Parse(r.Target); err == nil && u.Host != "" {
			p = u.EscapedPath()
			if p == "" {
				p = "/"
			}
			if u.RawQuery != "" {
				p += "?" + u.RawQuery
			}
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// isLoopback tells whether a target URL names this machine.
func isLoopback(target string) bool {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		u, err = url.Parse("http://" + target)
		if err != nil {
			return false
		}
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") || strings.HasSuffix(strings.ToLower(h), ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func runSubject(r results.Run) string {
	return fmt.Sprintf("%s run seq %d", r.Label, r.Seq)
}

func seqOf(runs []results.Run, id string) int32 {
	for _, r := range runs {
		if r.RunID == id {
			return r.Seq
		}
	}
	return -1
}

func errorBreakdown(r results.Run) string {
	var parts []string
	for _, e := range []struct {
		name string
		v    *int64
	}{{"connect", r.ConnectErrors}, {"read", r.ReadErrors}, {"write", r.WriteErrors}, {"timeout", r.Timeouts}, {"non-2xx/3xx", r.Non2xx}} {
		if e.v != nil && *e.v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", e.name, *e.v))
		}
	}
	if len(parts) == 0 {
		return "no breakdown"
	}
	return strings.Join(parts, ", ")
}

func pct(f float64) string { return fmt.Sprintf("%.2g %%", 100*f) }

func durRange(lo, hi float64) string {
	if lo == hi {
		return fmtNum(lo) + " s"
	}
	return fmt.Sprintf("%s-%s s", fmtNum(lo), fmtNum(hi))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
