package store

import (
	"context"
	"errors"
	"io"
	"path"
	"strings"
	"time"
)

// ErrNotFound is returned (wrapped) for a key that does not exist.
var ErrNotFound = errors.New("not found")

// ErrPrecondition is returned (wrapped) by PutIf when the object is not
// at the version asked for.
var ErrPrecondition = errors.New("precondition failed")

// Object describes a stored object.
type Object struct {
	Key     string
	Size    int64
	ModTime time.Time
	// ETag changes whenever the content changes (S3's ETag; for local
	// files a hash of the content, or of size and modification time
	// above 64 MiB).
	ETag string
	// ContentType is the media type the object is served with: what S3
	// recorded at upload, or for local files the type of the key's
	// extension (ContentType).
	ContentType string
	// VersionID is the object's version where the bucket keeps versions
	// (S3 versioning); empty otherwise.
	VersionID string
}

// contentTypes are the media types of the files loadverdict writes, by
// extension; a browser opening a report from a bucket (a presigned URL)
// renders it by this type.
var contentTypes = map[string]string{
	".html":    "text/html; charset=utf-8",
	".md":      "text/markdown; charset=utf-8",
	".json":    "application/json",
	".png":     "image/png",
	".svg":     "image/svg+xml",
	".parquet": "application/vnd.apache.parquet",
	".yaml":    "application/yaml",
}

// ContentType returns the media type Put gives key by its extension, ""
// for other extensions (S3's default, binary/octet-stream).
func ContentType(key string) string {
	return contentTypes[strings.ToLower(path.Ext(key))]
}

// Store is an object store. Keys use '/' separators and never start with
// '/'. Implementations stream: Get returns a reader over the object, Put
// reads its body once, without holding a large object in memory.
type Store interface {
	// Get opens the object at key; the caller closes the reader.
	Get(ctx context.Context, key string) (io.ReadCloser, Object, error)
	// Put writes body to key, replacing any object there, with the
	// media type of its extension (ContentType).
	Put(ctx context.Context, key string, body io.Reader) error
	// Head describes the object at key.
	Head(ctx context.Context, key string) (Object, error)
	// List returns the objects whose keys start with prefix, in key order.
	List(ctx context.Context, prefix string) ([]Object, error)
	// Delete removes the object at key; a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// PutIf writes the small body to key only when the object there is
	// at ETag ifMatch, or, with ifMatch "", when there is no object (S3's
	// conditional writes, If-Match and If-None-Match: *): one atomic
	// compare-and-swap. It returns the new object's ETag, or an error
	// matching ErrPrecondition when the object is not as asked (another
	// writer got there first).
	PutIf(ctx context.Context, key string, body []byte, ifMatch string) (string, error)
	// String names the store for messages, e.g. "s3://bucket/prefix".
	String() string
}

// ReadAll reads a whole (small) object.
func ReadAll(ctx context.Context, s Store, key string) ([]byte, Object, error) {
	rc, obj, err := s.Get(ctx, key)
	if err != nil {
		return nil, obj, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	return b, obj, err
}
