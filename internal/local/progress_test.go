package local

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestProgressBarOnlyOnTerminals(t *testing.T) {
	oldT, oldN := isTerminal, progressThreshold
	t.Cleanup(func() { isTerminal, progressThreshold = oldT, oldN })
	progressThreshold = 100
	for _, term := range []bool{false, true} {
		isTerminal = func(io.Writer) bool { return term }
		for _, total := range []int64{99, 100, 1000} {
			var stderr bytes.Buffer
			w, finish := ProgressBar(&stderr)(total)
			if w != nil {
				if _, err := w.Write(make([]byte, total)); err != nil {
					t.Fatal(err)
				}
			}
			finish()
			want := term && total >= progressThreshold
			if (w != nil) != want {
				t.Errorf("terminal %v, %d bytes: bar %v, want %v", term, total, w != nil, want)
			}
			if shown := strings.Contains(stderr.String(), "reading"); shown != want {
				t.Errorf("terminal %v, %d bytes: progress shown %v (stderr %q)", term, total, shown, stderr.String())
			}
		}
	}
}
