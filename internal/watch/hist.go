package watch

import (
	"math"
	"slices"
)

// Latencies are counted in logarithmic buckets 0.2 % wide from 1 µs
// (bucket i holds [1.002^i, 1.002^(i+1)) µs), up to about 7 hours: a
// quantile read from them is off by at most 0.2 % (its bucket's width),
// well below the precision a watch asks for, and a window's histogram
// costs 6 bytes per bucket it holds, not per request.
const (
	bucketRatio = 1.002
	maxBucket   = 12000
)

var logRatio = math.Log(bucketRatio)

// bucketOf returns the bucket of a latency in ms.
func bucketOf(ms float64) uint16 {
	us := math.Max(ms*1000, 1)
	return uint16(min(int(math.Log(us)/logRatio), maxBucket))
}

// bucketLo and bucketHi return the edges of bucket i, in ms.
func bucketLo(i uint16) float64 { return math.Exp(float64(i)*logRatio) / 1000 }
func bucketHi(i uint16) float64 { return math.Exp(float64(i+1)*logRatio) / 1000 }

// bucketMid returns the geometric middle of bucket i, in ms.
func bucketMid(i uint16) float64 { return math.Exp((float64(i)+0.5)*logRatio) / 1000 }

// hist is a sparse histogram of latencies: the buckets it holds, in
// order, and their counts.
type hist struct {
	idx []uint16
	cnt []uint32
	n   int64
}

// add counts c latencies in bucket b.
func (h *hist) add(b uint16, c uint32) {
	h.n += int64(c)
	i, found := slices.BinarySearch(h.idx, b)
	if found {
		h.cnt[i] += c
		return
	}
	h.idx = slices.Insert(h.idx, i, b)
	h.cnt = slices.Insert(h.cnt, i, c)
}

// merge adds the counts of o.
func (h *hist) merge(o *hist) {
	for i, b := range o.idx {
		h.add(b, o.cnt[i])
	}
}

// countLE returns how many latencies are in buckets up to b.
func (h *hist) countLE(b uint16) int64 {
	var n int64
	for i, x := range h.idx {
		if x > b {
			break
		}
		n += int64(h.cnt[i])
	}
	return n
}

// quantile returns the bucket of the latency at quantile p (the
// ceil(p·n)-th smallest, at least the first).
func (h *hist) quantile(p float64) uint16 {
	k := max(int64(math.Ceil(p*float64(h.n))), 1)
	var n int64
	for i, x := range h.idx {
		n += int64(h.cnt[i])
		if n >= k {
			return x
		}
	}
	return h.idx[len(h.idx)-1]
}

// pooled is the dense histogram of many blocks, reused between looks.
type pooled struct {
	cnt    []int64
	lo, hi int // buckets touched
	n      int64
}

// reset empties p and adds the blocks.
func (p *pooled) reset(blocks []*hist) {
	if p.cnt == nil {
		p.cnt = make([]int64, maxBucket+1)
	}
	if p.n > 0 {
		clear(p.cnt[p.lo : p.hi+1])
	}
	p.n, p.lo, p.hi = 0, maxBucket, 0
	for _, b := range blocks {
		for i, x := range b.idx {
			p.cnt[x] += int64(b.cnt[i])
			p.lo, p.hi = min(p.lo, int(x)), max(p.hi, int(x))
		}
		p.n += b.n
	}
}

// rank returns the bucket holding the k-th smallest latency (1-based).
func (p *pooled) rank(k int64) uint16 {
	var n int64
	for i := p.lo; i <= p.hi; i++ {
		n += p.cnt[i]
		if n >= k {
			return uint16(i)
		}
	}
	return uint16(p.hi)
}
