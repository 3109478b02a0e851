//go:build unix

package local

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// fileID is a file's identity: its device and inode.
type fileID struct{ dev, ino uint64 }

// idOf returns the identity of the file info describes.
func idOf(_ string, info fs.FileInfo) (fileID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}

// flockOutput takes the lock of an output folder: flock(2) on its lock
// file, released by the kernel when the process ends, so a killed run
// never leaves it held. Held by another, it fails at once with the pid
// that other recorded.
func flockOutput(dir, lockPath string) (func(), error) {
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, inUse(dir, lockPath)
		}
		return nil, err
	}
	// The pid, for the message of a command refused meanwhile.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(pidString()+"\n"), 0)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// holder is the pid recorded in a lock file, or "unknown".
func holder(lockPath string) string {
	b, err := os.ReadFile(lockPath)
	if s := strings.TrimSpace(string(b)); err == nil && s != "" && len(s) < 20 {
		return s
	}
	return "unknown"
}
