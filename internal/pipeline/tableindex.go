package pipeline

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/loadverdict/loadverdict/internal/store"
)

// tableIndex is what one listing of an experiment's table partitions
// found, by source id, kept up to date by the pipeline's own writes and
// deletes (IndexTables).
type tableIndex struct {
	mu   sync.Mutex
	exp  string
	ids  map[string][]string // source id -> its table files' keys
	runs map[string]int      // source id -> its committed runs
}

// IndexTables lists the table partitions and the commit records of
// experiment exp once; from then on IngestSource into exp finds a
// source's other generations (to remove them after its commit) and the
// runs of the other sources (for MaxRuns) in that listing, kept up to
// date by the pipeline's own writes, instead of listing the partition
// and reading every commit record again for every source. A store's listing costs time in proportion to the whole
// partition (a local folder is read whole to list a prefix of it), so
// ingesting n sources with a listing each costs n² (10,000 files in one
// folder took 834 s); with the index, ingest costs time in proportion to
// the sources (scripts/perf/manyfiles.sh).
//
// Only for a pipeline that is the experiment's only writer while it
// runs: the command line over its output folder. The bucket's ingests run
// concurrently and list (S3 lists a prefix at the cost of what it holds).
func (p *Pipeline) IndexTables(ctx context.Context, exp string) error {
	ix := &tableIndex{exp: exp, ids: map[string][]string{}, runs: map[string]int{}}
	commits, err := p.Store.List(ctx, store.CommitPrefixOf(exp))
	if err != nil {
		return err
	}
	for _, o := range commits {
		c, _, err := p.readCommit(ctx, o.Key)
		if errors.Is(err, store.ErrNotFound) || errors.Is(err, errBadCommit) {
			continue // removed meanwhile; replaced when its source is ingested
		}
		if err != nil {
			return err
		}
		if c.Rejected == nil && !c.Removed {
			ix.runs[store.SourceID(c.Key)] = c.Runs
		}
	}
	for _, t := range tables {
		objs, err := p.Store.List(ctx, store.TablePrefix(string(t), exp))
		if err != nil {
			return err
		}
		for _, o := range objs {
			id, _ := store.SourceIDOfKey(o.Key)
			ix.ids[id] = append(ix.ids[id], o.Key)
		}
	}
	p.index = ix
	return nil
}

// listGenerations returns the keys of the table files of source id of
// experiment exp, of every generation: from the index when there is one
// for exp, else by listing.
func (p *Pipeline) listGenerations(ctx context.Context, exp, id string) ([]string, error) {
	if ix := p.index; ix != nil && ix.exp == exp {
		ix.mu.Lock()
		defer ix.mu.Unlock()
		return slices.Clone(ix.ids[id]), nil
	}
	var keys []string
	for _, t := range tables {
		objs, err := p.Store.List(ctx, store.TablePrefix(string(t), exp)+id+"-")
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			keys = append(keys, o.Key)
		}
	}
	return keys, nil
}

// indexed records in the index, when there is one for exp, that the
// table files added of source id were written and those removed deleted.
func (p *Pipeline) indexed(exp, id string, added, removed []string) {
	ix := p.index
	if ix == nil || ix.exp != exp {
		return
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	keys := slices.DeleteFunc(ix.ids[id], func(k string) bool { return slices.Contains(removed, k) || slices.Contains(added, k) })
	ix.ids[id] = append(keys, added...)
}

// indexRuns records in the index, when there is one for exp, the runs
// the source of commit record c now has committed.
func (p *Pipeline) indexRuns(exp string, c Commit) {
	ix := p.index
	if ix == nil || ix.exp != exp {
		return
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if c.Rejected != nil || c.Removed {
		delete(ix.runs, store.SourceID(c.Key))
		return
	}
	ix.runs[store.SourceID(c.Key)] = c.Runs
}

// otherRuns returns how many runs the committed sources of experiment exp
// other than name hold: from the index when there is one for exp, else
// from their commit records.
func (p *Pipeline) otherRuns(ctx context.Context, exp, name string) (int, error) {
	id := store.SourceID(name)
	if ix := p.index; ix != nil && ix.exp == exp {
		ix.mu.Lock()
		defer ix.mu.Unlock()
		n := 0
		for k, r := range ix.runs {
			if k != id {
				n += r
			}
		}
		return n, nil
	}
	objs, err := p.Store.List(ctx, store.CommitPrefixOf(exp))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, o := range objs {
		if k, _ := store.SourceIDOfKey(o.Key); k == id {
			continue
		}
		c, _, err := p.readCommit(ctx, o.Key)
		if errors.Is(err, store.ErrNotFound) || errors.Is(err, errBadCommit) {
			continue
		}
		if err != nil {
			return 0, err
		}
		if c.Rejected == nil && !c.Removed {
			n += c.Runs
		}
	}
	return n, nil
}
