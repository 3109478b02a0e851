package local

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressThreshold is the total input size from which a progress bar is
// shown (when stderr is a terminal).
var progressThreshold int64 = 64 << 20

// isTerminal tells whether w is a terminal; a variable so tests can
// pretend.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ProgressBar is a Runner's Progress for a command line: it returns a
// writer that advances a progress bar on stderr by the bytes written to
// it, or nil when no bar should be shown: stderr is not a terminal, or
// the input is small (under 64 MiB). finish ends the bar.
func ProgressBar(stderr io.Writer) func(total int64) (w io.Writer, finish func()) {
	return func(total int64) (io.Writer, func()) {
		if total < progressThreshold || !isTerminal(stderr) {
			return nil, func() {}
		}
		bar := progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("reading"),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(stderr) }),
		)
		return bar, func() { _ = bar.Finish() }
	}
}
