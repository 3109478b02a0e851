package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// findingWords is a finding in words.
type findingWords struct {
	Subject, Message, Fix string
}

// wordFinding words a methodology finding: whom it concerns, what is
// wrong, and the fix.
func wordFinding(f analyze.Finding) findingWords {
	s := f.Subject
	switch f.Code {
	case analyze.CodeCoordinatedOmission:
		return findingWords{fmt.Sprintf("%s (%s)", s.Tool, plural(len(s.Runs), "run")),
			fmt.Sprintf("%s is a closed-model load generator: each connection waits for a response before it sends the next request, so a stalled server also stalls the requests that would have measured the stall. Its latency percentiles and maximum are lower bounds, optimistic by up to orders of magnitude in the tail.", s.Tool),
			"Measure latency with an open-model generator at a fixed rate below capacity (wrk2 -R, vegeta attack -rate, k6 constant-arrival-rate) and compare the systems at equal throughput; use closed-model runs only for peak throughput."}

	case analyze.CodeShortRun:
		x, _ := f.Facts.(analyze.ShortRunFacts)
		of := fmt.Sprintf("%d of %s", len(s.Runs), plural(x.Runs, "run"))
		return findingWords{of,
			fmt.Sprintf("%s lasted %s (under %s s): too short for a JIT-compiled server to settle, and too few requests in the tail for p99 or max to mean much.",
				of, durRange(x.MinS, x.MaxS), num(x.ThresholdS)),
			"Run each measurement for at least 60 s after a separate, discarded warm-up phase, and record per-request or per-second data (vegeta, hey -o csv, k6 --out json) so warm-up inside a run can be seen."}

	case analyze.CodeNoReplication:
		x, _ := f.Facts.(analyze.NoReplicationFacts)
		var thin []string
		lo, hi := 0, 0
		for i, g := range s.Groups {
			thin = append(thin, fmt.Sprintf("%s at %s: %s", g.Label, settingsText(g.Settings), plural(g.Runs, "run")))
			if i == 0 || g.Runs < lo {
				lo = g.Runs
			}
			hi = max(hi, g.Runs)
		}
		rng := fmt.Sprint(lo)
		if hi != lo {
			rng = fmt.Sprintf("%d-%d", lo, hi)
		}
		groups := plural(len(s.Groups), "group")
		return findingWords{groups,
			fmt.Sprintf("%s of runs at equal settings had fewer than %d runs (%s): run-to-run variance is unknown, so no difference can be shown significant. %s.",
				groups, x.MinRuns, rng, strings.Join(thin, "; ")),
			fmt.Sprintf("Repeat each configuration at least %d times per system (5-10 is better), alternating the systems (A B A B ...), and compare the distributions of run results.", x.MinRuns)}

	case analyze.CodeNotInterleaved:
		x, _ := f.Facts.(analyze.NotInterleavedFacts)
		at := settingsOf(s)
		return findingWords{fmt.Sprintf("%s vs %s at %s", system(s, 0), system(s, 1), at),
			fmt.Sprintf("Every run of %s at %s came before every run of %s (%s): any drift of the machine (thermal throttling, caches, background jobs, the JIT of a shared process) is confounded with the difference between the systems.", x.First, at, x.Second, orderFromText(x.OrderFrom)),
			"Alternate the systems run by run (A B A B ... or a randomized order) so that drift affects both equally."}

	case analyze.CodeStillWarming:
		x, _ := f.Facts.(analyze.StillWarmingFacts)
		label, at := system(s, 0), settingsOf(s)
		if s.WithinRuns {
			return findingWords{fmt.Sprintf("%s at %s (within runs)", label, at),
				fmt.Sprintf("%s at %s: mean latency was still changing near the end of its runs (%s).", label, at, classCounts(x.Counts)),
				"Run longer: the steady state must cover most of the run; discard the warm-up part explicitly."}
		}
		msg := fmt.Sprintf("%s at %s has not reached a steady state across runs", label, at)
		if x.ChangePct != nil {
			msg += fmt.Sprintf(": throughput changed %s %% between its last two runs (seq %d -> %d), outside the noise band",
				signed(*x.ChangePct), x.FromSeq, x.ToSeq)
		}
		return findingWords{fmt.Sprintf("%s at %s", label, at), msg + ".",
			"Keep running rounds (discard them as warm-up) until consecutive runs agree within the noise band (3 %), then take at least 4 measured runs; or run one long run with per-second data and let loadverdict find the warm-up end."}

	case analyze.CodeErrors:
		x, _ := f.Facts.(analyze.ErrorsFacts)
		run := runSubject(s)
		return findingWords{run,
			fmt.Sprintf("%s had %d errors in %d requests attempted (%s): %s.", run, x.Errors, x.Attempted, pct(x.Rate), errorBreakdown(x)),
			"Find the cause (server logs, connection limits, ulimit -n, timeouts) and re-run: a run with errors measures error handling, and failed requests are often faster than good ones."}

	case analyze.CodeErrorBurst:
		x, _ := f.Facts.(analyze.ErrorBurstFacts)
		run := runSubject(s)
		var spans []string
		for _, b := range x.Bursts {
			// "0-2 s, 75 of 151 requests failed": no ": " inside a span,
			// which the findings' list would cut at (dedupeSentences).
			sp := fmt.Sprintf("%s-%s s, %d of %d requests failed", num(b.FromS), num(b.ToS), b.Errors, b.Requests)
			if len(b.Statuses) > 0 {
				var st []string
				for _, c := range b.Statuses {
					code := strconv.Itoa(int(c.Status))
					switch c.Status {
					case 0:
						code = "no response"
					case -1:
						code = "other statuses"
					}
					st = append(st, fmt.Sprintf("%s x%d", code, c.N))
				}
				sp += " (" + strings.Join(st, ", ") + ")"
			}
			spans = append(spans, sp)
		}
		return findingWords{run,
			fmt.Sprintf("%s: %s of its %d failed requests fell within %s of its %s s (%s of the time): %s. A window counts when its errors are too many for the run's error rate outside its bursts (%s) by a one-sided exact binomial test at %s/%d windows.",
				run, pct(x.Share), x.Errors, plural(len(x.Bursts), "burst"), num(x.DurationS), pct(x.TimeShare), strings.Join(spans, "; "),
				pct(x.BaseRate), rel(x.Alpha), x.Windows),
			"Look at what happened at those times (server and proxy logs, deploys, restarts, connection or rate limits, GC): a burst is an event, not a steady error rate; re-run once it is understood, and compare runs without it."}

	case analyze.CodeTargetsDiffer:
		x, _ := f.Facts.(analyze.TargetsDifferFacts)
		a, b := system(s, 0), system(s, 1)
		return findingWords{fmt.Sprintf("%s vs %s", a, b),
			fmt.Sprintf("%s was measured at %s and %s at %s: different requests may do different work (routing rules, filters, rewrites), so the comparison may not be like for like.",
				a, strings.Join(x.PathsA, ", "), b, strings.Join(x.PathsB, ", ")),
			"Send the same request (method, path, headers, body) to both systems, or show that the different paths reach the same handler with the same response size."}

	case analyze.CodeSameHost:
		local := strings.Join(s.Systems, ", ")
		return findingWords{local,
			fmt.Sprintf("The load generator targeted a loopback address (%s), so it ran on the same machine as the server: the two compete for CPU and memory, and the generator's own limits become part of the result.", local),
			"Run the load generator on a separate machine on the same network (or at least pin generator and server to disjoint CPU sets with taskset, and report it)."}

	case analyze.CodeLittlesLaw:
		x, _ := f.Facts.(analyze.LittlesLawFacts)
		label := system(s, 0)
		var off []string
		for i, r := range s.Runs {
			if i < len(x.Ratios) {
				off = append(off, fmt.Sprintf("%s (seq %d)", rel(x.Ratios[i]), r.Seq))
			}
		}
		return findingWords{label,
			fmt.Sprintf("%s: throughput x mean latency / connections is %s, not about 1. Below %s the generator kept connections idle (generator-bound, think time, or reconnects outside the latency figure); above %s the latency figure hides queueing (e.g. time spent connecting).",
				label, strings.Join(off, ", "), rel(stats.LittleLow), rel(stats.LittleHigh)),
			"Check that every connection is kept busy (keep-alive on, enough generator threads, no rate cap) and that the generator's latency covers the whole request; monitor the generator's CPU."}

	case analyze.CodeSaturated:
		x, _ := f.Facts.(analyze.SaturatedFacts)
		label := system(s, 0)
		at := ""
		if x.At != nil {
			at = fmt.Sprintf(" at %d connections or fewer", *x.At)
		}
		return findingWords{label,
			fmt.Sprintf("%s is saturated%s: %s. More load only adds queueing, so its latency at the higher load measures the queue, not the system.", label, at, saturationText(&x.Saturation)),
			"Compare systems below saturation (at a fixed rate both can sustain, with an open-model generator), and find what saturates (server CPU, upstream, the generator) before blaming the system."}

	case analyze.CodeGeneratorBound:
		label := system(s, 0)
		return findingWords{label,
			fmt.Sprintf("%s's throughput stopped growing while connections stood idle (Little's law ratio below %s) and the generator shared its machine: the limit may be the load generator or something in front of the server, not the system under test.", label, rel(stats.LittleLow)),
			"Watch the generator's CPU during a run; use more generator threads or a second generator machine, and check the throughput of the backend alone."}

	case analyze.CodeSplitRun:
		x, _ := f.Facts.(analyze.SplitRunFacts)
		label, at := system(s, 0), settingsOf(s)
		var seqs []string
		for _, r := range s.Runs {
			seqs = append(seqs, strconv.Itoa(int(r.Seq)))
		}
		return findingWords{fmt.Sprintf("%s at %s", label, at),
			fmt.Sprintf("%s at %s: runs %s come from %d inputs (%s) and overlap in time (by at least %s %% of the shorter): they look like the outputs of several load generators driving one test, and are counted here as repetitions of it.",
				label, at, strings.Join(seqs, ", "), len(x.Sources), strings.Join(x.Sources, ", "), rel(x.OverlapPct)),
			"If they are parts of one test, merge them into one run: the manifest's merge: [[pattern, ...]] or --merge PATH,PATH... (counts and throughput add up, percentiles come from their samples together)."}

	case analyze.CodeOverload:
		x, _ := f.Facts.(analyze.OverloadFacts)
		label := system(s, 0)
		at := ""
		if s.Settings != nil {
			at = " at " + settingsOf(s)
		}
		msg := fmt.Sprintf("%s was overloaded%s: requested %s req/s, it answered %s successfully per second (%s %% of the requested rate)",
			label, at, num(x.TargetRPS), num(x.RPS), rel(100*x.RPS/x.TargetRPS))
		if x.ErrorRate != nil && *x.ErrorRate > 0 {
			msg += fmt.Sprintf(", and %s of the requests failed", pct(*x.ErrorRate))
		}
		if x.SentRPS != nil && *x.SentRPS < 0.9*x.TargetRPS {
			msg += fmt.Sprintf("; the generator itself sent only %s req/s", num(*x.SentRPS))
		}
		return findingWords{label, msg + ". Its latencies are those of an overloaded system (queues, timeouts), not of its normal work.",
			"Find the rate the system sustains (step the requested rate up until successful throughput stops following it) and measure latency below it; compare systems at a rate both sustain."}

	case analyze.CodeLevelShift:
		x, _ := f.Facts.(analyze.LevelShiftFacts)
		label, at := system(s, 0), settingsOf(s)
		dir, what := "dropped", "it got slower"
		if x.Direction == stats.Improving || (x.Direction == "" && x.After > x.Before) {
			dir, what = "jumped", "it got faster"
		}
		return findingWords{fmt.Sprintf("%s at %s", label, at),
			fmt.Sprintf("%s at %s: throughput %s from %s to %s req/s (%s %%) at run seq %d and stayed there: a change of level (%s). Old and new builds mixed under one name, or a neighbour arriving or leaving, look like this; the runs on either side are not one system.",
				label, at, dir, num(x.Before), num(x.After), signed(x.ChangePct), x.AtSeq, what),
			"Find what changed at that run (build, configuration, other load on the machine); name the runs before and after as two systems (--system NAME=PATH) and compare them, or repeat the measurement under one condition."}

	case analyze.CodePeriodicPauses:
		x, _ := f.Facts.(analyze.PeriodicPausesFacts)
		run := runSubject(s)
		others := ""
		if x.Others > 0 {
			others = fmt.Sprintf(" (and %s off that rhythm)", plural(x.Others, "other pause"))
		}
		return findingWords{run,
			fmt.Sprintf("%s paused periodically: %d pauses every %s s (their starts %s ms RMS off that rhythm)%s, each %s ms long (%s-%s ms), against a median latency of %s ms; %s of its successful requests were held by one. A pause shorter than the %s s interval shows in the requests it held (sent during it, all answered at its end), not in the run's one-second windows, each of which may hold one: its mean and tail include them.",
				run, x.Pauses, num(x.PeriodS), num(x.JitterMs), others, num(x.MedianMs), num(x.MinMs), num(x.MaxMs), num(x.LevelMs), pct(x.ShareRequests), num(x.PeriodS)),
			"Find what stops the process at that rhythm (a garbage collector's stop-the-world pauses, a timer flushing a buffer or rotating a log, CPU throttling of a container quota every period); quote the pauses with the steady latency, not averaged into it."}

	case analyze.CodeOutlierRun:
		x, _ := f.Facts.(analyze.OutlierRunFacts)
		run := runSubject(s)
		dir := "slower"
		if x.DeviationPct > 0 {
			dir = "faster"
		}
		left := fmt.Sprintf("It is left out of the group's steady figures (now over %s) and of its warm-up model, so neither the steady mean nor the noise allowance is taken from it", plural(x.SteadyRuns, "run"))
		if x.SteadyRuns == 0 {
			left = "It is left out of the group's warm-up model and representative figures, so neither is taken from it"
		}
		return findingWords{fmt.Sprintf("%s at %s", run, settingsOf(s)),
			fmt.Sprintf("%s at %s measured %s req/s, %s %% (%s) against the geometric mean %s req/s of the group's %s other runs (SD %s %%): t = %s, beyond the bound %s (the prediction interval of one more run at %s over the series), and its neighbours are not. One round far from all the others is a disturbance of the machine (another process, a noisy neighbour), not the system. %s; it stays in the comparisons, thresholds and error rates, which never pass by leaving a run out.",
				run, settingsOf(s), num(x.RPS), signed(x.DeviationPct), dir, num(x.Mean), strconv.Itoa(x.Reference), rel(x.SDPct), signed(x.T), rel(x.Critical), pct(x.Alpha), left),
			"Find what else ran on the machine then (the load average, a CI neighbour, a backup), and repeat the round on a quiet machine; a round that is slow again is the system's."}

	case analyze.CodeSlowingDown:
		x, _ := f.Facts.(analyze.SlowingDownFacts)
		label, at := system(s, 0), settingsOf(s)
		if s.WithinRuns {
			run := runSubject(s)
			return findingWords{fmt.Sprintf("%s (within the run)", run),
				fmt.Sprintf("%s: %s rose by %s ms (%s %%) over its last %s s and never levelled off: no steady state, so no warm-up end and no steady figures are given.",
					run, windowMetricWords(x.Metric), num(x.Change), signed(x.ChangePct), num(x.Over)),
				"Look for what accumulates (queues, memory, connections, caches that grow); run long enough to see whether it levels off, and do not report a steady-state latency for this run."}
		}
		msg := fmt.Sprintf("%s at %s: throughput kept falling across its %s runs (%s req/s, %s %%) and never levelled off: no steady state.",
			label, at, num(x.Over), signed(x.Change), signed(x.ChangePct))
		if x.LastTwo {
			msg = fmt.Sprintf("%s at %s: throughput fell %s %% (%s req/s) between its last two runs (seq %d -> %d): it is still getting slower, no steady state.",
				label, at, signed(x.ChangePct), signed(x.Change), x.FromSeq, x.ToSeq)
		}
		return findingWords{fmt.Sprintf("%s at %s", label, at), msg,
			"Look for what degrades from run to run (leaks, growing data, thermal throttling); restart the system between runs if each run should start alike, and do not compare it until its runs agree."}

	case analyze.CodeStall:
		x, _ := f.Facts.(analyze.InstabilityFacts)
		run := runSubject(s)
		in := &x.Instability
		when := "once"
		if len(in.Spans) > 0 {
			when = fmt.Sprintf("once, from %s s to %s s", num(in.Spans[0].FromS), num(in.Spans[0].ToS))
		}
		return findingWords{run,
			fmt.Sprintf("%s stalled %s: mean latency %s ms in that time against %s ms otherwise (worst window %s ms); %s of the requests. Its mean and tail include the stall, so quote them with it, not as the run's steady figures.",
				run, when, num(in.StallMeanMs), num(in.LevelMs), num(in.StallPeakMs), pct(in.ShareRequests)),
			"Find what froze the system then (garbage collection, a lock, a disk flush, the host itself: another process, a noisy neighbour) and whether it recurs in a longer run."}

	case analyze.CodeUnstable, analyze.CodePeriodicStalls:
		x, _ := f.Facts.(analyze.InstabilityFacts)
		run := runSubject(s)
		what := "kept leaving its level"
		if f.Code == analyze.CodePeriodicStalls {
			what = "stalled periodically"
		}
		return findingWords{run,
			fmt.Sprintf("%s %s: %s. Its mean and percentiles mix two behaviours, so the run is not steady however flat its level between them.", run, what, instabilityText(&x.Instability)),
			"Find what recurs at that rhythm (garbage collection, a cron job, CPU throttling, log rotation, a connection pool being recycled) and fix or report it; quote the stalls with the steady latency, not averaged into it."}

	case analyze.CodeRatesMerged:
		x, _ := f.Facts.(analyze.RatesMergedFacts)
		runs := plural(len(s.Runs), "run")
		return findingWords{runs,
			fmt.Sprintf("The requested rate of %s is not in their output, so it was inferred from what the tool measured: %s-%s req/s. Within %s %% of each other, these are one requested rate, taken as %s req/s: one setting.",
				runs, num(x.Lo), num(x.Hi), rel(100*x.Tolerance), num(x.Rate)),
			"Keep the command line with the output (vegeta's report after `$ vegeta attack -rate ...`, or the attack's flags in the manifest) so the requested rate is read, not inferred."}

	case analyze.CodeContradictoryRun:
		x, _ := f.Facts.(analyze.ContradictoryFacts)
		run := runSubject(s)
		why := fmt.Sprintf("its mean latency %s ms lies outside the %s-%s ms its own percentiles, minimum and maximum allow", num(x.MeanMs), num(x.LoMs), num(x.HiMs))
		if x.Disordered {
			why = fmt.Sprintf("its percentiles are out of order or outside its minimum and maximum (mean %s ms)", num(x.MeanMs))
		}
		if x.LittlesLawRatio != nil {
			why += fmt.Sprintf("; throughput x mean latency / connections is %s", rel(*x.LittlesLawRatio))
		}
		excl := "It is its group's only run, so it is kept, flagged."
		if x.Excluded {
			excl = "It is left out of its group's statistics (steady state, comparisons)."
		}
		return findingWords{run,
			fmt.Sprintf("%s reports figures that contradict each other: %s. %s", run, why, excl),
			"Check how the run was made (a script that pipelines or batches requests, a generator that records one latency per batch, a truncated or edited output) and re-run it plainly."}

	case analyze.CodeLongTail:
		x, _ := f.Facts.(analyze.LongTailFacts)
		run := runSubject(s)
		return findingWords{run,
			fmt.Sprintf("%s: max latency %s ms is %sx its mean %s ms: rare stalls (GC pauses, JIT compilation, connection setup) dominate the tail.",
				run, num(x.MaxMs), rel(x.MaxMs/x.MeanMs), num(x.MeanMs)),
			"Record the full latency distribution (wrk --latency, or better wrk2 or vegeta with HdrHistogram output) and report p99/p99.9 with the max; correlate stalls with GC logs."}
	}
	return findingWords{strings.Join(s.Systems, ", "), string(f.Code), ""}
}

// system returns the i-th system of a subject, or "" when it has fewer.
func system(s analyze.Subject, i int) string {
	if i < len(s.Systems) {
		return s.Systems[i]
	}
	return ""
}

// settingsOf words a subject's settings.
func settingsOf(s analyze.Subject) string {
	if s.Settings == nil {
		return ""
	}
	return settingsText(*s.Settings)
}

// runSubject names a subject's first run, e.g. "a:80 run seq 3".
func runSubject(s analyze.Subject) string {
	if len(s.Runs) == 0 {
		return strings.Join(s.Systems, ", ")
	}
	return fmt.Sprintf("%s run seq %d", s.Runs[0].Label, s.Runs[0].Seq)
}

func errorBreakdown(x analyze.ErrorsFacts) string {
	var parts []string
	for _, e := range []struct {
		name string
		v    *int64
	}{{"connect", x.Connect}, {"read", x.Read}, {"write", x.Write}, {"timeout", x.Timeouts}, {"non-2xx/3xx", x.Non2xx}} {
		if e.v != nil && *e.v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", e.name, *e.v))
		}
	}
	if len(parts) == 0 {
		return "no breakdown"
	}
	return strings.Join(parts, ", ")
}

func pct(f float64) string { return rel(100*f) + " %" }

func durRange(lo, hi float64) string { return numRange(lo, hi) + " s" }

// orderFromText says what a run order was read from.
func orderFromText(from string) string {
	if from == analyze.OrderStartTime {
		return "by the runs' start times"
	}
	return "in the order the inputs were given: some runs have no start time, so the order they ran in is assumed to be that"
}

// windowMetricWords names the metric of a run's windows that a within-run
// finding was measured on.
func windowMetricWords(m string) string {
	if m == analyze.MetricLatP50Ms {
		return "the median latency of its windows"
	}
	return "mean latency"
}
