package pipeline

import (
	"crypto/sha256"
	"hash"
	"io"
	"sync"
)

// hashReader passes a reader's bytes through and hashes them with SHA-256
// on a goroutine of its own, so that the hash (0.2 s of CPU for a 330 MB
// log) does not hold up the parser's reading goroutine. Each chunk read is
// copied into a buffer of a small pool and handed to the hashing
// goroutine; Sum waits for it.
type hashReader struct {
	r      io.Reader
	chunks chan []byte
	free   chan []byte
	done   chan struct{}
	h      hash.Hash
	mu     sync.Mutex // held while queuing a chunk, and to stop
	closed bool
}

const (
	hashChunk   = 256 << 10 // the largest chunk copied at once
	hashBuffers = 8         // chunks in flight
)

func newHashReader(r io.Reader) *hashReader {
	hr := &hashReader{r: r, chunks: make(chan []byte, hashBuffers), free: make(chan []byte, hashBuffers),
		done: make(chan struct{}), h: sha256.New()}
	for range hashBuffers {
		hr.free <- make([]byte, hashChunk)
	}
	go func() {
		defer close(hr.done)
		for c := range hr.chunks {
			hr.h.Write(c)
			hr.free <- c[:cap(c)]
		}
	}()
	return hr
}

// Read reads from the underlying reader and queues what it read for
// hashing.
func (hr *hashReader) Read(p []byte) (int, error) {
	n, err := hr.r.Read(p)
	hr.mu.Lock()
	defer hr.mu.Unlock()
	if hr.closed {
		// After Sum or Close (a parser's goroutine still reading after
		// an error): the bytes pass, unhashed.
		return n, err
	}
	for b := p[:n]; len(b) > 0; {
		buf := <-hr.free
		k := copy(buf, b)
		hr.chunks <- buf[:k]
		b = b[k:]
	}
	return n, err
}

// Sum returns the SHA-256 of every byte read; no Read may follow it.
func (hr *hashReader) Sum() []byte {
	hr.mu.Lock()
	if !hr.closed {
		hr.closed = true
		close(hr.chunks)
	}
	hr.mu.Unlock()
	<-hr.done
	return hr.h.Sum(nil)
}

// Close stops the hashing goroutine (Sum does too); it is safe to call
// after Sum.
func (hr *hashReader) Close() { hr.Sum() }
