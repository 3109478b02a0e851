package ingest

import (
	"bytes"
	"context"
	"io"
)

// Helpers shared by the line-based parsers of the formats added with
// bombardier, autocannon, Artillery, siege, h2load, Fortio, ghz, oha and
// Gatling.

// scanHead calls line with each line of head (the beginning of an input,
// as Detect gets it) and its 1-based number, until done reports true.
func scanHead(head []byte, line func(b []byte, ln int) error, done func() bool) {
	for ln := 1; len(head) > 0 && !done(); ln++ {
		var b []byte
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			b, head = head[:i], head[i+1:]
		} else {
			b, head = head, nil
		}
		_ = line(b, ln)
	}
}

// parseLines streams the lines of r to line, then calls close; when no
// run was emitted (runs reports 0) the input holds no output of format.
func parseLines(ctx context.Context, r io.Reader, opts Options, format string, line func(b []byte, ln int) error,
	close func() error, runs func() int) error {
	if err := eachLine(ctx, r, opts.Source, line); err != nil {
		return err
	}
	if err := close(); err != nil {
		return err
	}
	if runs() == 0 {
		return &NoOutputError{File: opts.Source, LookedFor: []string{format}}
	}
	return nil
}

// exeNamed reports whether tok, a command line's token, names one of the
// programs: after quotes and parentheses, a directory, a docker image tag
// (":latest") and ".exe" are set aside.
func exeNamed(tok []byte, names ...string) bool {
	tok = bytes.TrimLeft(tok, "`(\"'")
	if i := bytes.LastIndexAny(tok, `/\`); i >= 0 {
		tok = tok[i+1:]
	}
	if j := bytes.IndexByte(tok, ':'); j >= 0 {
		tok = tok[:j]
	}
	tok = bytes.TrimSuffix(tok, []byte(".exe"))
	for _, n := range names {
		if string(tok) == n {
			return true
		}
	}
	return false
}
