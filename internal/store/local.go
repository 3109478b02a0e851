package store

import (
	"context"
	"crypto/rand"
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
	"syscall"
)

// Local is a Store in a folder of the local file system: key a/b/c is the
// file DIR/a/b/c. Every access goes through an os.Root, so no key and no
// symbolic link can make it read, write, list or delete outside the
// folder: symbolic links are followed only while they stay inside it (and
// are relative), others are refused with an error. Writes go through a
// temporary file and a rename, so a reader never sees half an object; a
// reader of a file that changes while it is read fails at its end (see
// OpenFile).
type Local struct {
	dir  string
	root *os.Root
}

// NewLocal returns a Store rooted at dir, which must exist. It holds the
// folder open until Close.
func NewLocal(dir string) (*Local, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a folder", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Local{dir: dir, root: root}, nil
}

// Close releases the folder.
func (l *Local) Close() error { return l.root.Close() }

// String returns the folder.
func (l *Local) String() string { return l.dir }

// name maps a key to a file name relative to the root, refusing keys that
// are not safe as paths (CheckKey).
func (l *Local) name(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return filepath.FromSlash(key), nil
}

// hashLimit is the largest file whose ETag is a hash of its content;
// larger ones get a hash of size and modification time.
const hashLimit = 64 << 20

// localObject describes a file, whose content r gives. Like S3's ETag for
// a single-part upload, the ETag follows the content, so rewriting the
// same bytes keeps it.
func localObject(key string, r io.ReaderAt, st fs.FileInfo) Object {
	h := sha256.New()
	hashed := false
	if st.Size() <= hashLimit {
		_, err := io.Copy(h, io.NewSectionReader(r, 0, st.Size()))
		hashed = err == nil
	}
	if !hashed {
		h.Reset()
		h.Write([]byte(strconv.FormatInt(st.Size(), 10) + "/" + strconv.FormatInt(st.ModTime().UnixNano(), 10)))
	}
	return Object{Key: key, Size: st.Size(), ModTime: st.ModTime().UTC(), ETag: hex.EncodeToString(h.Sum(nil)[:8])}
}

// notFound maps a missing file, or a path through a file ("a.txt/b"), to
// ErrNotFound; other errors (a symbolic link out of the folder among
// them) stay as they are.
func notFound(key string, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	return err
}

// open opens the regular file of key and describes it.
func (l *Local) open(key string) (*os.File, fs.FileInfo, error) {
	name, err := l.name(key)
	if err != nil {
		return nil, nil, err
	}
	f, err := l.root.Open(name)
	if err != nil {
		return nil, nil, notFound(key, err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	return f, st, nil
}

// Get opens the file of key. Its reader fails at the end of the file,
// with an error matching ErrChanged, when the file changed meanwhile.
func (l *Local) Get(_ context.Context, key string) (io.ReadCloser, Object, error) {
	f, st, err := l.open(key)
	if err != nil {
		return nil, Object{}, err
	}
	obj := localObject(key, f, st)
	obj.ContentType = ContentType(key)
	return newFile(f, key, st), obj, nil
}

// Put writes body to the file of key.
func (l *Local) Put(ctx context.Context, key string, body io.Reader) error {
	name, err := l.name(key)
	if err != nil {
		return err
	}
	dir := filepath.Dir(name)
	if err := l.root.MkdirAll(dir, 0o777); err != nil { // the umask decides
		return err
	}
	tmpName := filepath.Join(dir, ".tmp-"+rand.Text())
	tmp, err := l.root.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666) // the umask decides, as for any file a command writes
	if err != nil {
		return err
	}
	defer l.root.Remove(tmpName)
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
	return l.root.Rename(tmpName, name)
}

// Head describes the file of key.
func (l *Local) Head(_ context.Context, key string) (Object, error) {
	f, st, err := l.open(key)
	if err != nil {
		return Object{}, err
	}
	defer f.Close()
	obj := localObject(key, f, st)
	obj.ContentType = ContentType(key)
	return obj, nil
}

// List walks the folder for files whose keys start with prefix; temporary
// files of unfinished writes and symbolic links are left out.
func (l *Local) List(ctx context.Context, prefix string) ([]Object, error) {
	var out []Object
	fsys := l.root.FS()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && !strings.HasPrefix(p+"/", prefix) && !strings.HasPrefix(prefix, p+"/") {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".tmp-") || !strings.HasPrefix(p, prefix) || CheckKey(p) != nil {
			return nil
		}
		f, st, err := l.open(p)
		if errors.Is(err, ErrNotFound) {
			return nil // removed meanwhile
		}
		if err != nil {
			return err
		}
		out = append(out, localObject(p, f, st))
		return f.Close()
	})
	slices.SortFunc(out, func(a, b Object) int { return strings.Compare(a.Key, b.Key) })
	return out, err
}

// Delete removes the file of key.
func (l *Local) Delete(_ context.Context, key string) error {
	name, err := l.name(key)
	if err != nil {
		return err
	}
	if err := l.root.Remove(name); err != nil && !errors.Is(notFound(key, err), ErrNotFound) {
		return err
	}
	return nil
}

// ErrChanged is matched (errors.Is) by the error a reader from OpenFile or
// Local.Get returns at the end of a file that changed while it was read.
var ErrChanged = errors.New("changed while it was read")

// File is a local file opened for reading by OpenFile. At its end it
// checks that the file is as it was when opened (same size, same
// modification time, and as many bytes read as it had); when not — the
// file shrank, grew or was rewritten meanwhile, e.g. by a load generator
// still writing it — Read returns an error matching ErrChanged instead of
// io.EOF, so what was read is never taken for the whole file.
type File struct {
	f       *os.File
	name    string
	st      fs.FileInfo // when opened
	regular bool
	n       int64 // bytes read
}

// OpenFile opens the file at path for reading, checked as File says.
// Files that are not regular (pipes, devices) are read unchecked.
func OpenFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return newFile(f, path, st), nil
}

func newFile(f *os.File, name string, st fs.FileInfo) *File {
	return &File{f: f, name: name, st: st, regular: st.Mode().IsRegular()}
}

// Read reads from the file; at its end it returns io.EOF only when the
// file is unchanged.
func (f *File) Read(p []byte) (int, error) {
	n, err := f.f.Read(p)
	f.n += int64(n)
	if err == io.EOF && f.regular {
		if cerr := f.check(); cerr != nil {
			return n, cerr
		}
	}
	return n, err
}

// ReadAt reads from the file at off (io.ReaderAt), for readers that seek
// as Parquet's does; a file read so is checked by Unchanged, not at its
// end.
func (f *File) ReadAt(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }

// Seek sets the offset of the next Read (io.Seeker).
func (f *File) Seek(off int64, whence int) (int64, error) { return f.f.Seek(off, whence) }

// Unchanged says whether a regular file still has the size and
// modification time it had when opened (a file read through ReadAt).
func (f *File) Unchanged() error {
	if !f.regular {
		return nil
	}
	return f.compare(false)
}

// check compares the file with what it was when opened, the bytes read
// through Read counted.
func (f *File) check() error { return f.compare(true) }

// compare compares the file's size and modification time now with those
// when opened, and with the bytes read through Read when counted.
func (f *File) compare(counted bool) error {
	now, err := f.f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", f.name, err)
	}
	was := f.st
	if (!counted || f.n == was.Size()) && now.Size() == was.Size() && now.ModTime().Equal(was.ModTime()) {
		return nil
	}
	read := ""
	if counted {
		read = fmt.Sprintf(", %d bytes read", f.n)
	}
	return fmt.Errorf("%s: %w: %d bytes and modified at %s when opened%s, now %d bytes modified at %s; read it again once it is complete",
		f.name, ErrChanged, was.Size(), was.ModTime().UTC().Format("15:04:05.000000000"), read, now.Size(), now.ModTime().UTC().Format("15:04:05.000000000"))
}

// Stat describes the file as it was when opened.
func (f *File) Stat() fs.FileInfo { return f.st }

// Name is the path (or key) the file was opened as.
func (f *File) Name() string { return f.name }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }
