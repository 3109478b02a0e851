package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
)

// condMu serializes the conditional writes (PutIf) of every Local store
// of this process: the compare and the swap happen under it.
var condMu sync.Mutex

// PutIf writes body to the file of key when the file's ETag is ifMatch,
// or, with ifMatch "", when there is no file. The compare and the write
// (Put's temporary file and rename) are atomic among the writers of this
// process; a folder shared by several processes at once gets no such
// guarantee (the command line is one process per folder).
func (l *Local) PutIf(ctx context.Context, key string, body []byte, ifMatch string) (string, error) {
	condMu.Lock()
	defer condMu.Unlock()
	o, err := l.Head(ctx, key)
	switch {
	case errors.Is(err, ErrNotFound):
		if ifMatch != "" {
			return "", fmt.Errorf("%s: %w: no object, If-Match %s", key, ErrPrecondition, ifMatch)
		}
	case err != nil:
		return "", err
	case ifMatch != o.ETag:
		return "", fmt.Errorf("%s: %w: ETag %s, asked for %q", key, ErrPrecondition, o.ETag, ifMatch)
	}
	if err := l.Put(ctx, key, bytes.NewReader(body)); err != nil {
		return "", err
	}
	o, err = l.Head(ctx, key)
	return o.ETag, err
}
