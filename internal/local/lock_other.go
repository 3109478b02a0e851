//go:build !unix

package local

import (
	"io/fs"
	"path/filepath"
)

// fileID is a file's identity: here its absolute path, symlinks resolved.
type fileID struct{ path string }

func idOf(path string, _ fs.FileInfo) (fileID, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fileID{}, false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return fileID{abs}, true
}

// flockOutput takes no lock where flock(2) is not available.
func flockOutput(_, _ string) (func(), error) { return func() {}, nil }

func holder(string) string { return "unknown" }
