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
	raw, manifest, err := p.rawObjects(ctx, exp)
	if err != nil {
		return nil, err
	}
	commits := map[string]*Commit{} // source id -> record
	objs, err := p.Store.List(ctx, store.CommitPrefixOf(exp))
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		c, _, err := p.readCommit(ctx, o.Key)
		if errors.Is(err, errBadCommit) {
			continue // ingested again below, or removed as an orphan
		}
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		id, _ := store.SourceIDOfKey(o.Key)
		commits[id] = c
	}
	files := map[string]store.Object{} // every table file of the experiment
	for _, t := range tables {
		objs, err := p.Store.List(ctx, store.TablePrefix(string(t), exp))
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			files[o.Key] = o
		}
	}
	var did []string
	for _, key := range slices.Sorted(maps.Keys(raw)) {
		c := commits[store.SourceID(key)]
		if c != nil && c.Key == key && !c.Removed && c.ETag == raw[key].ETag && allPresent(c.Tables, files) {
			// Current; files of other generations are left over from
			// an interrupted commit (or a newer version's, which
			// removeGenerations tells apart by a HEAD after the listing).
			if extra := otherFiles(key, c, files); len(extra) > 0 {
				if err := p.removeGenerations(ctx, exp, key, c.Generation, p.currentOf(key, Version{ETag: c.ETag, VersionID: c.VersionID})); err != nil {
					return did, err
				}
				did = append(did, "removed old generations of "+key)
			}
			continue
		}
		if _, err := p.Ingest(ctx, key); err != nil && !IsInputFault(err) {
			return did, err
		}
		did = append(did, "ingested "+key)
	}
	for id, c := range commits {
		if _, ok := raw[c.Key]; ok || c.Removed || store.SourceID(c.Key) != id {
			continue
		}
		if err := p.RemoveSource(ctx, exp, c.Key, p.currentOf(c.Key, Version{})); err != nil && !errors.Is(err, ErrSuperseded) {
			return did, err
		}
		did = append(did, "removed "+c.Key)
	}
	// Rejection records of sources gone or committed (a crash between the
	// two writes), and the manifest's when it is gone.
	rejs, err := p.Store.List(ctx, store.RejectedPrefixOf(exp))
	if err != nil {
		return did, err
	}
	rawIDs := map[string]bool{}
	for key := range raw {
		rawIDs[store.SourceID(key)] = true
	}
	if manifest {
		rawIDs[store.SourceID(store.ManifestKey(exp))] = true
	}
	for _, o := range rejs {
		id, _ := store.SourceIDOfKey(o.Key)
		if c := commits[id]; rawIDs[id] && (c == nil || c.Rejected != nil) {
			continue
		}
		if err := p.Store.Delete(ctx, o.Key); err != nil {
			return did, err
		}
		did = append(did, "deleted stale "+o.Key)
	}
	// Table files of sources without an upload and without a commit
	// record (an ingest of an upload deleted meanwhile, cut short): the
	// source id does not tell the key to check, so age decides.
	known := map[string]bool{}
	for _, c := range commits {
		known[store.SourceID(c.Key)] = true
	}
	for key := range raw {
		known[store.SourceID(key)] = true
	}
	for key, o := range files {
		if id, _ := store.SourceIDOfKey(key); known[id] || time.Since(o.ModTime) < orphanAge {
			continue
		}
		if err := p.Store.Delete(ctx, key); err != nil {
			return did, err
		}
		did = append(did, "deleted uncommitted "+key)
	}
	slices.Sort(did)
	return did, nil
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
