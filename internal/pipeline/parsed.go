package pipeline

// Tables held in memory: the command line analyses the runs it has just
// parsed, as they would read back from its tables, instead of reading
// back the tables it wrote (issue 33).

import (
	"context"
	"sync"
	"time"

	"github.com/loadverdict/loadverdict/internal/blocks"
	"github.com/loadverdict/loadverdict/results"
)

// Parsed keeps in memory what IngestSource parsed of each source it
// committed, for the analyses the same Pipeline makes afterwards: a
// commit record whose generation is held is analysed from memory, its
// table files are not read. The command line sets it (one process
// ingests and analyses its inputs); a bucket's functions do not, as the
// runs they analyse were committed by other invocations.
//
// What is held is what the tables would read back: the runs (their
// started_at in UTC, truncated to the microsecond, as the runs table
// keeps it), percentiles and series, and with Samples the samples as the
// error and pause tallies read them (heldSamples), within ParsedSamplesMax
// bytes in all: a source past it, or a merged run's part, has its
// samples read from its table.
type Parsed struct {
	// Samples also keeps each source's samples for the tallies.
	Samples bool

	mu      sync.Mutex
	sources map[heldKey]*heldSource
	samples map[string]*heldSamples // by the samples table's key
	used    int                     // bytes of samples held
}

// ParsedSamplesMax bounds the bytes of samples a Parsed keeps, its sources
// counted together: 8 MiB, about 1M successful requests. A larger log
// has its samples read from its table, as a bucket's analysis does, so
// memory does not grow with the log (scripts/perf/memory.sh: at 24 MiB
// the 4M log's peak was 1.5 times the 1M log's).
const ParsedSamplesMax = 8 << 20

// heldMax is ParsedSamplesMax, which tests lower.
var heldMax = ParsedSamplesMax

type heldKey struct{ exp, source string }

// heldSource is one committed generation of a source.
type heldSource struct {
	gen    string
	runs   []results.Run
	pcts   []results.Percentile
	series []results.Series
}

// hold keeps what sink parsed of source name of experiment exp, committed
// as generation gen, its samples table at samplesKey ("" for none).
func (h *Parsed) hold(exp, name, gen string, runs []results.Run, pcts []results.Percentile, series []results.Series, samplesKey string, s *heldSamples) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sources == nil {
		h.sources, h.samples = map[heldKey]*heldSource{}, map[string]*heldSamples{}
	}
	k := heldKey{exp, name}
	if h.sources[k] != nil {
		h.dropSamples(exp, name)
	}
	stored := make([]results.Run, len(runs))
	for i, r := range runs {
		if r.StartedAt != nil {
			t := time.UnixMicro(r.StartedAt.UnixMicro()).UTC()
			r.StartedAt = &t
		}
		stored[i] = r
	}
	h.sources[k] = &heldSource{gen: gen, runs: stored, pcts: pcts, series: series}
	if samplesKey != "" && s != nil && !s.dropped {
		h.samples[samplesKey] = s
		h.used += s.bytes
	}
}

// dropSamples forgets the samples of an earlier generation of a source.
func (h *Parsed) dropSamples(exp, name string) {
	for key, s := range h.samples {
		if s.exp == exp && s.source == name {
			h.used -= s.bytes
			delete(h.samples, key)
		}
	}
}

// tables returns the held generation gen of a source, or nil.
func (h *Parsed) tables(exp, name, gen string) *heldSource {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.sources[heldKey{exp, name}]; s != nil && s.gen == gen {
		return s
	}
	return nil
}

// newSamples starts holding the samples of a source being parsed, with
// what the Parsed has left of its bound; nil when it holds no samples.
func (h *Parsed) newSamples(exp, name string) *heldSamples {
	if h == nil || !h.Samples {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return &heldSamples{exp: exp, source: name, budget: heldMax - h.used, byID: map[string]*heldRun{}}
}

// samplesAt returns the held samples of the table at key, or nil.
func (h *Parsed) samplesAt(key string) *heldSamples {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.samples[key]
}

// heldSamples are a source's samples as the error and pause tallies read
// them (analyze.ErrorTally, analyze.PauseTally): a successful request (no
// error, status 200-399) is its time and latency as float32, 8 bytes,
// all the tallies keep of it (the pause tally keeps them as float32, the
// error tally counts it); any other is kept whole. Each run's samples
// are in the order they were parsed, as in the table.
type heldSamples struct {
	exp, source string
	runs        []*heldRun
	byID        map[string]*heldRun
	last        *heldRun
	bytes       int
	budget      int
	dropped     bool // past the budget: nothing held
}

// heldRun is one run's samples.
type heldRun struct {
	id    string
	ok    blocks.List[okRequest] // the successful requests, in order
	other []results.Sample
	at    []int // the index among the run's samples of each of other
	n     int   // samples
}

// okRequest is a successful request as held: its time and latency.
type okRequest struct{ ts, lat float32 }

// okBlock is the size of the blocks of successful requests (blocks.List:
// a million requests cost their 8 MB); the first block starts at 16, for
// runs of a few requests. Tests lower it.
var okBlock = 1 << 16

// addOK holds a successful request.
func (r *heldRun) addOK(x okRequest) {
	if r.ok.Size == 0 {
		r.ok.First, r.ok.Size = 16, okBlock
	}
	r.ok.Add(x)
}

// heldSampleBytes is the cost counted of a sample kept whole, besides
// its error's text.
const heldSampleBytes = 64

// add holds one sample, unless the samples are past their budget.
func (s *heldSamples) add(x results.Sample) {
	if s.dropped {
		return
	}
	r := s.last
	if r == nil || r.id != x.RunID {
		if r = s.byID[x.RunID]; r == nil {
			r = &heldRun{id: x.RunID}
			s.byID[x.RunID] = r
			s.runs = append(s.runs, r)
		}
		s.last = r
	}
	if x.Error == nil && x.Status >= 200 && x.Status < 400 {
		r.addOK(okRequest{float32(x.TS), float32(x.LatencyMs)})
		s.bytes += 8
	} else {
		r.other, r.at = append(r.other, x), append(r.at, r.n)
		s.bytes += heldSampleBytes
		if x.Error != nil {
			s.bytes += len(*x.Error)
		}
	}
	r.n++
	if s.bytes > s.budget {
		s.dropped, s.runs, s.byID, s.last = true, nil, nil, nil
	}
}

// scan gives the held samples run after run, each run's in order; a
// successful request comes with status 200, which the tallies count as
// they count its own.
func (s *heldSamples) scan(fn func(results.Sample) error) error {
	for _, r := range s.runs {
		b, j, k := 0, 0, 0 // block and index of the next successful request, of the next other
		for i := range r.n {
			if k < len(r.at) && r.at[k] == i {
				if err := fn(r.other[k]); err != nil {
					return err
				}
				k++
				continue
			}
			if j == len(r.ok.Blocks[b]) {
				b, j = b+1, 0
			}
			x := r.ok.Blocks[b][j]
			if err := fn(results.Sample{RunID: r.id, TS: float64(x.ts), LatencyMs: float64(x.lat), Status: 200}); err != nil {
				return err
			}
			j++
		}
	}
	return nil
}

// tallySamples is assembly's experiment.SampleReader for the tallies: the
// samples held of the table at key, else the table read (readSamples).
func (p *Pipeline) tallySamples(ctx context.Context, key, source string, fn func(results.Sample) error) error {
	if s := p.Parsed.samplesAt(key); s != nil {
		return s.scan(fn)
	}
	return p.readSamples(ctx, key, source, fn)
}
