package local

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// openers are the programs that open a file in the desktop's default
// application, by operating system, with their arguments before the file.
var openers = map[string][]string{"darwin": {"open"}, "windows": {"cmd", "/c", "start", ""}}

// Open opens path (a written report.html) with the desktop's opener
// (xdg-open where no other is known). Without one it returns an error
// saying so; the report is written either way.
func Open(path string) error {
	argv, ok := openers[runtime.GOOS]
	if !ok {
		argv = []string{"xdg-open"}
	}
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("no %s to open %s with; open it in a browser", argv[0], path)
	}
	cmd := exec.Command(prog, append(argv[1:], path)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v %s", argv[0], path, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// WriteJUnit writes the gate's JUnit XML to path (--junit) with write;
// its errors name the flag. The file is written beside path and renamed
// onto it: a file there is replaced whole, never written into, so a
// symlink at path is replaced, not followed (the input a link points to
// is never overwritten; one that is an input itself is refused before:
// Runner.JUnit).
func WriteJUnit(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".junit-*.tmp")
	if err != nil {
		return fmt.Errorf("--junit: %w", err)
	}
	defer os.Remove(f.Name()) // gone after the rename; the rest after a failure
	err = write(f)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("--junit %s: %w", path, err)
	}
	return nil
}
