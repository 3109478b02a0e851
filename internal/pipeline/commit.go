package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// Commit is a source's commit record,
// tables/_sources/experiment=<experiment>/<source-id>.json: which
// generation of the source's tables is current, and the version of the
// input it was made from. A source's tables are written first, each
// generation under its own file names, and the commit record last, in
// one PUT, so that readers, which read only the files a commit record
// names, never see a mix of two versions, nor a half-written generation.
// The record also says when the source was rejected (Rejected) or when its
// upload was deleted (Removed), so the one PUT switches the source from
// any state to any other.
type Commit struct {
	// Key is the source's name (the raw object's key).
	Key string `json:"key"`
	// ETag and VersionID are the version of the input the generation was
	// made from (VersionID only where the bucket keeps versions).
	ETag      string `json:"etag"`
	VersionID string `json:"version_id,omitempty"`
	// Generation names the table files (store.Generation of the ETag).
	Generation string `json:"generation,omitempty"`
	// Tables are the keys of the generation's table files.
	Tables []string `json:"tables,omitempty"`
	// Runs is the number of runs in the tables.
	Runs int `json:"runs"`
	// Rejected is set when the version could not be read as load-test
	// output; there are no tables.
	Rejected *Rejection `json:"rejected,omitempty"`
	// Removed is set when the raw object was deleted; there are no tables.
	Removed bool `json:"removed,omitempty"`
}

// isCurrent returns ErrSuperseded when current says the version read is
// no longer the input's current one (nil current: always current).
func (p *Pipeline) isCurrent(ctx context.Context, current func(context.Context) (bool, error)) error {
	if current == nil {
		return nil
	}
	ok, err := current(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return ErrSuperseded
	}
	return nil
}

// commit makes c the source's current state, if the input is still at the
// version c was made from (current, asked before and after the commit
// record is written), then removes the source's other generations and, for
// a committed generation, its rejection record.
//
// S3 has no transactions and no compare-and-swap across two keys, so the
// guarantee comes from the order of the requests: when the raw object is
// still at c's version after the commit record was written, any newer
// version was uploaded after that write, and its own ingest (triggered by
// its upload, reading the object after it) writes its commit record later
// still, replacing this one. When the check after the write fails, the
// caller reads the object again (ErrSuperseded), so a commit of an older
// version never stays last. See docs/ARCHITECTURE.md, "Generations".
func (p *Pipeline) commit(ctx context.Context, exp string, c Commit, current func(context.Context) (bool, error)) error {
	if err := p.isCurrent(ctx, current); err != nil {
		return err
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	key := store.CommitKey(exp, c.Key)
	if err := p.Store.Put(ctx, key, bytes.NewReader(append(b, '\n'))); err != nil {
		return err
	}
	if err := p.isCurrent(ctx, current); err != nil {
		return err
	}
	if err := p.removeGenerations(ctx, exp, c.Key, c.Generation, current); err != nil {
		return err
	}
	if c.Rejected == nil {
		return p.Store.Delete(ctx, store.RejectedKey(exp, c.Key))
	}
	return nil
}

// removeGenerations deletes the table files of source name other than
// generation keep ("" for all), once the input is still at the version
// just committed (current, asked after listing them; nil: always). A
// concurrent ingest of a newer version writes its files only after that
// version's upload, so when the input is still at ours after the listing,
// every other generation listed is an older one; when it is not, the
// newer version's commit removes them instead.
func (p *Pipeline) removeGenerations(ctx context.Context, exp, name, keep string, current func(context.Context) (bool, error)) error {
	id := store.SourceID(name)
	keys, err := p.listGenerations(ctx, exp, id)
	if err != nil {
		return err
	}
	var old []string
	for _, k := range keys {
		if _, gen := store.SourceIDOfKey(k); gen != keep {
			old = append(old, k)
		}
	}
	if len(old) == 0 {
		return nil
	}
	if err := p.isCurrent(ctx, current); errors.Is(err, ErrSuperseded) {
		return nil
	} else if err != nil {
		return err
	}
	for _, k := range old {
		if err := p.Store.Delete(ctx, k); err != nil {
			return err
		}
		p.indexed(exp, id, nil, []string{k})
	}
	return nil
}

// RemoveSource records that source name of experiment exp is gone (its
// raw object was deleted): a commit record with Removed set, which the
// report lists, then its table files and rejection record are deleted.
// current guards the commit as in IngestSource (nil: no check).
func (p *Pipeline) RemoveSource(ctx context.Context, exp, name string, current func(context.Context) (bool, error)) error {
	return p.commit(ctx, exp, Commit{Key: name, Removed: true}, current)
}

// Committed returns the commit record of source name of experiment exp,
// or an error matching store.ErrNotFound when it has none.
func (p *Pipeline) Committed(ctx context.Context, exp, name string) (*Commit, error) {
	c, _, err := p.readCommit(ctx, store.CommitKey(exp, name))
	return c, err
}

// readCommit reads a commit record.
func (p *Pipeline) readCommit(ctx context.Context, key string) (*Commit, store.Object, error) {
	b, obj, err := store.ReadAll(ctx, p.Store, key)
	if err != nil {
		return nil, obj, err
	}
	var c Commit
	if err := json.Unmarshal(b, &c); err != nil {
		// Only loadverdict writes there; a record it cannot read is
		// replaced by ingesting its source again (repair).
		return nil, obj, fmt.Errorf("%s: %w: %v", key, errBadCommit, err)
	}
	return &c, obj, nil
}

// errBadCommit is matched by the error of a commit record that cannot be
// decoded.
var errBadCommit = errors.New("unreadable commit record")

// MissingTablesError is returned by Report when a commit record names
// table files that are not in the store (deleted behind the pipeline's
// back, or removed by a concurrent ingest): those sources cannot be
// analysed as committed. Analyze ingests them again; elsewhere it is an
// error worth a retry after a repair (Reanalyze).
type MissingTablesError struct {
	// Sources are the sources' names.
	Sources []string
}

func (e *MissingTablesError) Error() string {
	return fmt.Sprintf("the committed tables of %d source(s) are missing (%s); ingest them again", len(e.Sources), firstFew(e.Sources))
}

func firstFew(s []string) string {
	if len(s) > 3 {
		return strings.Join(s[:3], ", ") + ", ..."
	}
	return strings.Join(s, ", ")
}

// Table returns the key of the committed file of table t, "" for none.
func (c *Commit) Table(t columnar.Table) string {
	for _, k := range c.Tables {
		if tt, ok := tableOf(k); ok && tt == t {
			return k
		}
	}
	return ""
}

// NamesSource tells assembly that the error names its inputs already.
func (e *MissingTablesError) NamesSource() bool { return true }
