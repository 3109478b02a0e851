package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// chunk is what a follower hands on: bytes read, or a restart (the file
// was replaced or truncated: its bytes come again from the start), or the
// end of the input, or a read error.
type chunk struct {
	data    []byte
	restart string // why the input starts again, "" when it does not
	eof     bool
	err     error
}

// readSize is the most a follower reads at once.
const readSize = 256 << 10

// followReader sends what r gives as it comes (standard input: a pipe
// from the generator), then the end.
func followReader(ctx context.Context, r io.Reader, out chan<- chunk) {
	buf := make([]byte, readSize)
	for {
		n, err := r.Read(buf)
		if n > 0 && !send(ctx, out, chunk{data: append([]byte(nil), buf[:n]...)}) {
			return
		}
		if err == io.EOF {
			send(ctx, out, chunk{eof: true})
			return
		}
		if err != nil {
			send(ctx, out, chunk{err: err})
			return
		}
	}
}

// followFile sends what the file at path holds and, polling every poll,
// what is appended to it, until ctx ends. A file replaced by another
// (another inode: a log rotated, a test re-run writing a new file) or
// truncated (shorter than what was read) is read again from its start,
// after a restart chunk saying so; while the path names no file, the
// follower waits for one.
func followFile(ctx context.Context, path string, f *os.File, poll time.Duration, out chan<- chunk) {
	defer func() { f.Close() }()
	st, err := f.Stat()
	if err != nil {
		send(ctx, out, chunk{err: err})
		return
	}
	var off int64
	buf := make([]byte, readSize)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			off += int64(n)
			if !send(ctx, out, chunk{data: append([]byte(nil), buf[:n]...)}) {
				return
			}
			continue
		}
		if err != nil && err != io.EOF {
			send(ctx, out, chunk{err: err})
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(poll):
		}
		now, err := os.Stat(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue // being replaced: wait for the new file
		case err != nil:
			send(ctx, out, chunk{err: err})
			return
		case !os.SameFile(st, now):
			nf, err := os.Open(path)
			if err != nil {
				continue
			}
			f.Close()
			f, st, off = nf, now, 0
			if st, err = f.Stat(); err != nil {
				send(ctx, out, chunk{err: err})
				return
			}
			if !send(ctx, out, chunk{restart: fmt.Sprintf("%s was replaced by another file", path)}) {
				return
			}
		case now.Size() < off:
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				send(ctx, out, chunk{err: err})
				return
			}
			off = 0
			if !send(ctx, out, chunk{restart: fmt.Sprintf("%s was truncated", path)}) {
				return
			}
		}
	}
}

// send hands c on unless ctx ends first.
func send(ctx context.Context, out chan<- chunk, c chunk) bool {
	select {
	case out <- c:
		return true
	case <-ctx.Done():
		return false
	}
}
