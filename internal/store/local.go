package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Local is a Store in a folder of the local file system: key a/b/c is the
// file DIR/a/b/c. Writes go through a temporary file and a rename, so a
// reader never sees half an object.
type Local struct {
	dir string
}

// NewLocal returns a Store rooted at dir, which must exist.
func NewLocal(dir string) (*Local, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a folder", dir)
	}
	return &Local{dir: dir}, nil
}

// String returns the folder.
func (l *Local) String() string { return l.dir }

// path maps a key to a file, refusing keys that would leave the folder.
func (l *Local) path(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return filepath.Join(l.dir, filepath.FromSlash(key)), nil
}

// hashLimit is the largest file whose ETag is a hash of its content;
// larger ones get a hash of size and modification time.
const hashLimit = 64 << 20

// localObject describes a file. Like S3's ETag for a single-part upload,
// the ETag follows the content, so rewriting the same bytes keeps it.
func localObject(key, p string, st fs.FileInfo) Object {
	h := sha256.New()
	hashed := false
	if st.Size() <= hashLimit {
		if f, err := os.Open(p); err == nil {
			_, err = io.Copy(h, f)
			f.Close()
			hashed = err == nil
		}
	}
	if !hashed {
		h.Reset()
		h.Write([]byte(strconv.FormatInt(st.Size(), 10) + "/" + strconv.FormatInt(st.ModTime().UnixNano(), 10)))
	}
	return Object{Key: key, Size: st.Size(), ModTime: st.ModTime().UTC(), ETag: hex.EncodeToString(h.Sum(nil)[:8])}
}

func notFound(key string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	return err
}

// Get opens the file of key.
func (l *Local) Get(_ context.Context, key string) (io.ReadCloser, Object, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, Object{}, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, Object{}, notFound(key, err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, Object{}, fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	return f, localObject(key, p, st), nil
}

// Put writes body to the file of key.
func (l *Local) Put(ctx context.Context, key string, body io.Reader) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, body); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", key, err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// Head describes the file of key.
func (l *Local) Head(_ context.Context, key string) (Object, error) {
	p, err := l.path(key)
	if err != nil {
		return Object{}, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return Object{}, notFound(key, err)
	}
	if !st.Mode().IsRegular() {
		return Object{}, fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	return localObject(key, p, st), nil
}

// List walks the folder for files whose keys start with prefix; temporary
// files of unfinished writes are left out.
func (l *Local) List(ctx context.Context, prefix string) ([]Object, error) {
	var out []Object
	err := filepath.WalkDir(l.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(l.dir, p)
		key := filepath.ToSlash(rel)
		if d.IsDir() {
			if p != l.dir && !strings.HasPrefix(key+"/", prefix) && !strings.HasPrefix(prefix, key+"/") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".tmp-") || !strings.HasPrefix(key, prefix) {
			return nil
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, localObject(key, p, st))
		return nil
	})
	slices.SortFunc(out, func(a, b Object) int { return strings.Compare(a.Key, b.Key) })
	return out, err
}

// Delete removes the file of key.
func (l *Local) Delete(_ context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
