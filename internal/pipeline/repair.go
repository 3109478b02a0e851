package pipeline

import (
	"context"
	"errors"
	"maps"
	"path"
	"slices"
	"time"

	"github.com/loadverdict/loadverdict/internal/store"
)

// orphanAge is how old an uncommitted table file must be before repair
// deletes it: older than any ingest can run (a Lambda function runs at
// most 15 minutes), so it is no concurrent ingest's generation.
const orphanAge = time.Hour

// Repair makes experiment exp's committed sources match its uploads under
// raw/ (keys and ETags) and returns what it did, one sorted line per
// source ("ingested KEY", "removed KEY", ...): an upload without a current
// commit record or with missing table files is ingested again; a commit
// or rejection record whose upload is gone is removed; leftovers of other
// generations, and hour-old files of no source, are deleted. Input faults
// are recorded as usual; the error is the infrastructure's.
// docs/ARCHITECTURE.md "Generations and repair" gives the rules.
func (p *Pipeline) Repair(ctx context.Context, exp string) ([]string, error) {
	if err := store.CheckExperiment(exp); err != nil {
		return nil, err
	}
	r := repair{p: p, exp: exp}
	var err error
	if r.raw, r.manifest, err = p.rawObjects(ctx, exp); err != nil {
		return nil, err
	}
	if r.commits, err = p.commitsOf(ctx, exp); err != nil {
		return nil, err
	}
	if r.files, err = p.tableFiles(ctx, exp); err != nil {
		return nil, err
	}
	for _, step := range []func(context.Context) error{r.uploads, r.goneSources, r.staleRejections, r.orphans} {
		if err := step(ctx); err != nil {
			return r.did, err
		}
	}
	slices.Sort(r.did)
	return r.did, nil
}

// repair is one Repair of an experiment: what it found, and what it did.
type repair struct {
	p        *Pipeline
	exp      string
	raw      map[string]store.Object // uploads by key, the manifest apart
	manifest bool                    // the experiment has a manifest
	commits  map[string]*Commit      // commit records by source id
	files    map[string]store.Object // every table file of the experiment
	did      []string
}

// commitsOf reads the commit records of experiment exp by source id; an
// unreadable one is left out (ingested again, or removed as an orphan).
func (p *Pipeline) commitsOf(ctx context.Context, exp string) (map[string]*Commit, error) {
	commits := map[string]*Commit{}
	objs, err := p.Store.List(ctx, store.CommitPrefixOf(exp))
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		c, _, err := p.readCommit(ctx, o.Key)
		if errors.Is(err, errBadCommit) || errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		id, _ := store.SourceIDOfKey(o.Key)
		commits[id] = c
	}
	return commits, nil
}

// tableFiles lists every table file of experiment exp by key.
func (p *Pipeline) tableFiles(ctx context.Context, exp string) (map[string]store.Object, error) {
	files := map[string]store.Object{}
	for _, t := range tables {
		objs, err := p.Store.List(ctx, store.TablePrefix(string(t), exp))
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			files[o.Key] = o
		}
	}
	return files, nil
}

// uploads ingests again every upload whose commit is not current, and
// removes the files of other generations of those that are (left over by
// an interrupted commit, or a newer version's, which removeGenerations
// tells apart by a HEAD after the listing).
func (r *repair) uploads(ctx context.Context) error {
	for _, key := range slices.Sorted(maps.Keys(r.raw)) {
		c := r.commits[store.SourceID(key)]
		if c != nil && c.Key == key && !c.Removed && c.ETag == r.raw[key].ETag && allPresent(c.Tables, r.files) {
			if extra := otherFiles(key, c, r.files); len(extra) > 0 {
				if err := r.p.removeGenerations(ctx, r.exp, key, c.Generation, r.p.currentOf(key, Version{ETag: c.ETag, VersionID: c.VersionID})); err != nil {
					return err
				}
				r.did = append(r.did, "removed old generations of "+key)
			}
			continue
		}
		if _, err := r.p.Ingest(ctx, key); err != nil && !IsInputFault(err) {
			return err
		}
		r.did = append(r.did, "ingested "+key)
	}
	return nil
}

// goneSources removes the sources whose upload is gone.
func (r *repair) goneSources(ctx context.Context) error {
	for id, c := range r.commits {
		if _, ok := r.raw[c.Key]; ok || c.Removed || store.SourceID(c.Key) != id {
			continue
		}
		if err := r.p.RemoveSource(ctx, r.exp, c.Key, r.p.currentOf(c.Key, Version{})); err != nil && !errors.Is(err, ErrSuperseded) {
			return err
		}
		r.did = append(r.did, "removed "+c.Key)
	}
	return nil
}

// staleRejections deletes the rejection records of sources gone or
// committed (a crash between the two writes), and the manifest's when it
// is gone.
func (r *repair) staleRejections(ctx context.Context) error {
	rejs, err := r.p.Store.List(ctx, store.RejectedPrefixOf(r.exp))
	if err != nil {
		return err
	}
	rawIDs := map[string]bool{}
	for key := range r.raw {
		rawIDs[store.SourceID(key)] = true
	}
	if r.manifest {
		rawIDs[store.SourceID(store.ManifestKey(r.exp))] = true
	}
	for _, o := range rejs {
		id, _ := store.SourceIDOfKey(o.Key)
		if c := r.commits[id]; rawIDs[id] && (c == nil || c.Rejected != nil) {
			continue
		}
		if err := r.p.Store.Delete(ctx, o.Key); err != nil {
			return err
		}
		r.did = append(r.did, "deleted stale "+o.Key)
	}
	return nil
}

// orphans deletes the table files of sources without an upload and
// without a commit record (an ingest of an upload deleted meanwhile, cut
// short): the source id does not tell the key to check, so age decides.
func (r *repair) orphans(ctx context.Context) error {
	known := map[string]bool{}
	for _, c := range r.commits {
		known[store.SourceID(c.Key)] = true
	}
	for key := range r.raw {
		known[store.SourceID(key)] = true
	}
	for key, o := range r.files {
		if id, _ := store.SourceIDOfKey(key); known[id] || time.Since(o.ModTime) < orphanAge {
			continue
		}
		if err := r.p.Store.Delete(ctx, key); err != nil {
			return err
		}
		r.did = append(r.did, "deleted uncommitted "+key)
	}
	return nil
}

// rawObjects returns the uploads of experiment exp by key, its manifest
// apart (whether it has one).
func (p *Pipeline) rawObjects(ctx context.Context, exp string) (map[string]store.Object, bool, error) {
	// raw/<exp> lists the folder raw/<exp>/ and the file raw/<exp> (and
	// others that start alike, which ExperimentOf leaves out).
	objs, err := p.Store.List(ctx, store.RawPrefix+exp)
	if err != nil {
		return nil, false, err
	}
	out := map[string]store.Object{}
	manifest := false
	for _, o := range objs {
		if e, err := store.ExperimentOf(o.Key); err != nil || e != exp {
			continue
		}
		if o.Key == store.ManifestKey(exp) {
			manifest = true
			continue
		}
		if path.Base(o.Key) == store.ManifestName {
			continue // a manifest deeper down: never ingested
		}
		out[o.Key] = o
	}
	return out, manifest, nil
}

// otherFiles returns the table files of source key that its commit record
// c does not name.
func otherFiles(key string, c *Commit, files map[string]store.Object) []string {
	id := store.SourceID(key)
	var out []string
	for k := range files {
		if kid, _ := store.SourceIDOfKey(k); kid == id && !slices.Contains(c.Tables, k) {
			out = append(out, k)
		}
	}
	return out
}

func allPresent(keys []string, files map[string]store.Object) bool {
	for _, k := range keys {
		if _, ok := files[k]; !ok {
			return false
		}
	}
	return true
}
