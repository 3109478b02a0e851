package pipeline

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/loadverdict/loadverdict/internal/store"
)

// Bounds of Analyze under concurrency (see docs/ARCHITECTURE.md,
// "Concurrent uploads"). They are variables only so that tests can
// shorten them.
var (
	// leaseTTL is how long an analysis lease holds without being
	// renewed; the holder renews it before every listing and before
	// every write of the report, so it only has to outlast one analysis
	// (50,000 runs take 13 s). A holder killed without letting go (out
	// of memory, the function's time-out) blocks nobody for longer.
	leaseTTL = 2 * time.Minute
	// maxAnalyzeTime bounds how long Analyze keeps analysing an
	// experiment whose inputs keep changing (well within the ingest
	// function's 300 s time-out, after its ingest).
	maxAnalyzeTime = 2 * time.Minute
	// maxAnalyzeRounds bounds the analyses one Analyze makes; each one
	// after the first covers at least one commit made during the one
	// before.
	maxAnalyzeRounds = 50
)

// YieldedHeadline is the headline Analyze returns, without an error,
// when another invocation holds the experiment's analysis lease: that
// invocation lists the inputs again after it lets go of the lease, which
// is after this invocation committed its tables, and analyses again when
// they changed, so the report it leaves covers them.
const YieldedHeadline = "(report left to the analysis under way, which covers these inputs)"

// ErrBusy is matched (errors.Is) by the error of Analyze when the
// experiment's inputs kept changing for longer than it may analyse; it is
// about the infrastructure (the load of uploads): a retry, or the
// schedule, makes the report once they settle.
var ErrBusy = errors.New("inputs kept changing")

// leaseRecord is the content of an analysis lease,
// tables/_leases/experiment=<experiment>/analysis.json.
type leaseRecord struct {
	// Owner is the holder's random token.
	Owner string `json:"owner"`
	// Expires is when the lease lapses unless renewed; zero (and no
	// owner) once let go.
	Expires time.Time `json:"expires"`
}

// lease is an analysis lease this invocation holds.
type lease struct {
	p     *Pipeline
	key   string
	owner string
	etag  string // of the lease object as last written by this holder
}

// acquireLease takes the analysis lease of experiment exp for owner: it
// creates the lease object (If-None-Match: *), or replaces one that was
// let go or lapsed (If-Match its ETag). It returns nil, and no error,
// when another invocation holds the lease, or got it first.
func (p *Pipeline) acquireLease(ctx context.Context, exp, owner string) (*lease, error) {
	l := &lease{p: p, key: store.LeaseKey(exp), owner: owner}
	b, obj, err := store.ReadAll(ctx, p.Store, l.key)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, err
	default:
		var r leaseRecord
		if json.Unmarshal(b, &r) == nil {
			if r.Owner == owner {
				l.etag = obj.ETag
				return l, nil
			}
			if time.Now().Before(r.Expires) {
				return nil, nil
			}
		}
		// Let go, lapsed or unreadable: taken over.
		l.etag = obj.ETag
	}
	ok, err := l.renew(ctx)
	if err != nil || !ok {
		return nil, err
	}
	return l, nil
}

// put writes rec as the lease if it is still as this holder last wrote
// it (If-Match; If-None-Match: * before the first write), and tells
// whether the write happened. A failed write whose answer was lost may
// have happened: the lease is read back, and when it holds rec, it did;
// when it holds an earlier record of this owner (an earlier write whose
// answer was lost), rec is written over it.
func (l *lease) put(ctx context.Context, rec leaseRecord) (bool, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return false, err
	}
	etag, err := l.p.Store.PutIf(ctx, l.key, b, l.etag)
	if err == nil {
		l.etag = etag
		return true, nil
	}
	rb, obj, rerr := store.ReadAll(ctx, l.p.Store, l.key)
	if rerr != nil {
		if errors.Is(err, store.ErrPrecondition) {
			return false, rerr
		}
		return false, err
	}
	var r leaseRecord
	switch {
	case bytes.Equal(rb, b):
		l.etag = obj.ETag
		return true, nil
	case json.Unmarshal(rb, &r) == nil && r.Owner == l.owner:
		l.etag = obj.ETag
		etag, err := l.p.Store.PutIf(ctx, l.key, b, l.etag)
		if err != nil {
			return false, err
		}
		l.etag = etag
		return true, nil
	case errors.Is(err, store.ErrPrecondition):
		return false, nil // another invocation's
	default:
		return false, err
	}
}

// renew extends the lease by leaseTTL; false when it was lost (it lapsed
// and another invocation took it).
func (l *lease) renew(ctx context.Context) (bool, error) {
	return l.put(ctx, leaseRecord{Owner: l.owner, Expires: time.Now().Add(leaseTTL).UTC()})
}

// release lets go of the lease, if still held: the record of no owner,
// the same bytes whoever lets go, so that analysing the same inputs again
// leaves the store as it was.
func (l *lease) release(ctx context.Context) error {
	_, err := l.put(ctx, leaseRecord{})
	return err
}

// Analyze makes the report of an experiment from its committed tables and
// writes it under reports/<experiment>/, one invocation at a time: it
// takes the experiment's analysis lease (a conditional write), analyses
// until a listing of the inputs equals what the report covers, lets go,
// and lists once more; another invocation holding the lease makes it
// yield (YieldedHeadline, no error). A bad manifest gets a rejection
// record and the experiment is analysed without it; missing table files
// are ingested again first. Only infrastructure errors are returned (at
// most 50 analyses or 2 minutes, then ErrBusy). docs/ARCHITECTURE.md
// "Concurrent uploads" gives the argument.
func (p *Pipeline) Analyze(ctx context.Context, exp string) (string, error) {
	if err := store.CheckExperiment(exp); err != nil {
		return "", err
	}
	start := time.Now()
	owner := rand.Text()
	rounds := 0
	for {
		l, err := p.acquireLease(ctx, exp, owner)
		if err != nil {
			return "", err
		}
		if l == nil {
			return YieldedHeadline, nil
		}
		headline, covered, err := p.analyzeHeld(ctx, exp, l, start, &rounds)
		if err != nil {
			// Let go, so that a retry or another upload's ingest need
			// not wait for the lease to lapse.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			l.release(rctx)
			cancel()
			return "", err
		}
		if covered == nil {
			return YieldedHeadline, nil // lost: the new holder lists after us
		}
		if err := l.release(ctx); err != nil {
			return "", err
		}
		now := map[string]string{}
		if err := p.listInputs(ctx, exp, true, now); err != nil {
			return "", err
		}
		if maps.Equal(now, covered) {
			return headline, p.updateSeries(ctx, exp)
		}
	}
}

// analyzeHeld analyses experiment exp while holding lease l, until a
// listing of its inputs equals what the last report written covers, and
// returns its headline and what it covers (nil when the lease was lost).
func (p *Pipeline) analyzeHeld(ctx context.Context, exp string, l *lease, start time.Time, rounds *int) (string, map[string]string, error) {
	var headline string
	var covered map[string]string
	renew := func(ctx context.Context) error {
		ok, err := l.renew(ctx)
		if err == nil && !ok {
			return errLeaseLost
		}
		return err
	}
	for {
		if err := renew(ctx); err != nil {
			if errors.Is(err, errLeaseLost) {
				return "", nil, nil
			}
			return "", nil, err
		}
		in := map[string]string{}
		if err := p.listInputs(ctx, exp, true, in); err != nil {
			return "", nil, err
		}
		if covered != nil && maps.Equal(in, covered) {
			return headline, covered, nil
		}
		if *rounds >= maxAnalyzeRounds || time.Since(start) > maxAnalyzeTime {
			return "", nil, fmt.Errorf("experiment %s: %w for %s (%d analyses); a retry makes its report once they settle",
				exp, ErrBusy, time.Since(start).Round(time.Second), *rounds)
		}
		*rounds++
		h, err := p.analyzeOnce(ctx, exp, in, renew)
		var mt *MissingTablesError
		switch {
		case errors.As(err, &mt):
			if err := p.reingest(ctx, exp, mt.Sources); err != nil {
				return "", nil, err
			}
			covered = nil
			continue
		case errors.Is(err, errLeaseLost):
			return "", nil, nil
		case err != nil:
			return "", nil, err
		}
		headline, covered = h, in
	}
}

// errLeaseLost stops an analysis whose lease lapsed and was taken.
var errLeaseLost = errors.New("analysis lease lost")
