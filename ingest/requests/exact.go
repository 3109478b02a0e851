package requests

import (
	"math"
	"slices"
	"sort"

	"github.com/loadverdict/loadverdict/internal/blocks"
)

// exactBlock is the size of the blocks exactLats keeps latencies in.
const exactBlock = 1 << 16

// exactLats keeps a run's latencies (non-negative, finite) for exact
// percentiles, in blocks of at most exactBlock values that never move once
// stored (blocks.List); the first starts at 1024, for runs of a few
// requests.
type exactLats struct {
	l      blocks.List[float64]
	n      int
	sorted bool
}

// add stores v.
func (e *exactLats) add(v float64) {
	if e.l.Size == 0 {
		e.l.First, e.l.Size = 1024, exactBlock
	}
	e.l.Add(v)
	e.n++
	e.sorted = false
}

// len returns the number of latencies stored.
func (e *exactLats) len() int { return e.n }

// each calls fn with every latency stored.
func (e *exactLats) each(fn func(float64)) {
	for _, b := range e.l.Blocks {
		for _, v := range b {
			fn(v)
		}
	}
}

// latKey orders non-negative latencies as their values do: the bits of a
// positive float64 grow with it, and both zeros are 0.
func latKey(v float64) uint64 {
	if v == 0 {
		return 0
	}
	return math.Float64bits(v)
}

// at returns the latency of rank i (0-based) in ascending order, i.e.
// what a sorted copy of all of them holds at index i; e must hold more
// than i latencies. It sorts each block once, then bisects on the value.
func (e *exactLats) at(i int) float64 {
	if !e.sorted {
		var keys, tmp []uint64
		for _, b := range e.l.Blocks {
			keys, tmp = sortLats(b, keys, tmp)
		}
		e.sorted = true
	}
	// The smallest key with more than i latencies at or below it.
	lo, hi := uint64(0), uint64(0)
	for _, b := range e.l.Blocks {
		hi = max(hi, latKey(b[len(b)-1]))
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		n := 0
		for _, b := range e.l.Blocks {
			n += sort.Search(len(b), func(j int) bool { return latKey(b[j]) > mid })
		}
		if n > i {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	for _, b := range e.l.Blocks {
		j := sort.Search(len(b), func(j int) bool { return latKey(b[j]) >= lo })
		if j < len(b) && latKey(b[j]) == lo {
			return b[j]
		}
	}
	panic("ingest: exactLats.at: rank out of range")
}

// sortLats sorts b as slices.Sort does, by a radix sort of the values'
// bits, which order non-negative floats as their values do (the bits of
// equal values are equal, so the result is the same array), a byte at a
// time, least significant first, skipping the bytes all values share. A
// block holding a value with the sign bit set (a negative, -0) or a NaN
// is sorted by slices.Sort. keys and tmp are scratch space, returned for
// the next call.
func sortLats(b []float64, keys, tmp []uint64) ([]uint64, []uint64) {
	if len(b) < 2 {
		return keys, tmp
	}
	keys, tmp = slices.Grow(keys[:0], len(b))[:len(b)], slices.Grow(tmp[:0], len(b))[:len(b)]
	var counts [8][256]int
	for i, v := range b {
		k := math.Float64bits(v)
		if k>>63 != 0 || v != v {
			slices.Sort(b)
			return keys, tmp
		}
		keys[i] = k
		for d := range 8 {
			counts[d][byte(k>>(8*d))]++
		}
	}
	for d := range 8 {
		c := &counts[d]
		if c[byte(keys[0]>>(8*d))] == len(b) {
			continue // every value has this byte
		}
		pos := 0
		for j := range c {
			c[j], pos = pos, pos+c[j]
		}
		for _, k := range keys {
			j := byte(k >> (8 * d))
			tmp[c[j]] = k
			c[j]++
		}
		keys, tmp = tmp, keys
	}
	for i, k := range keys {
		b[i] = math.Float64frombits(k)
	}
	return keys, tmp
}
