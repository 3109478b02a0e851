package core

import (
	"bufio"
	"bytes"
	"context"
	"io"
)

// Line handling shared by the parsers: a bounded line reader, whitespace that
// includes the no-break and ideographic spaces of copied web pages, and the
// removal of decorations around pasted output (indentation, code fences,
// comment and quote markers).

const (
	// HeadSize is how much of an input Parse peeks at for detection.
	HeadSize = 1 << 20
	// MaxLine is the longest line a parser looks at; longer lines are
	// skipped as one unrecognized line, so memory stays bounded.
	MaxLine = 1 << 20
	// CtxEvery is how many lines (records, tokens) pass between two
	// context checks.
	CtxEvery = 4096
)

// CheckCtx returns the error of ctx every ctxEvery calls, for n counting
// them (a line, record or token number), and nil otherwise: often enough
// to stop a long parse promptly, rarely enough to cost nothing.
func CheckCtx(ctx context.Context, n int) error {
	if n%CtxEvery != 0 {
		return nil
	}
	return ctx.Err()
}

// LineReader reads lines of at most maxLine bytes from a bufio.Reader without
// copying them; a returned line is valid until the next call.
type LineReader struct {
	br    *bufio.Reader
	Line  int   // 1-based number of the line last returned
	Size  int64 // bytes of the line last returned, its line end included
	Total int64 // bytes of the lines returned so far
	Long  bool  // the line last returned was longer than the buffer
}

func NewLineReader(r io.Reader) *LineReader {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < MaxLine {
		br = bufio.NewReaderSize(r, MaxLine)
	}
	return &LineReader{br: br}
}

// Next returns the next line without its line end, or io.EOF after the last
// one. A line longer than the buffer is returned empty.
func (lr *LineReader) Next() ([]byte, error) {
	b, err := lr.br.ReadSlice('\n')
	lr.Size, lr.Long = int64(len(b)), false
	if err == bufio.ErrBufferFull {
		for err == bufio.ErrBufferFull {
			b, err = lr.br.ReadSlice('\n')
			lr.Size += int64(len(b))
		}
		b, lr.Long = nil, true
		if err == io.EOF {
			err = nil
		}
	}
	if err != nil {
		if err != io.EOF || len(b) == 0 {
			return nil, err
		}
	}
	lr.Line++
	lr.Total += lr.Size
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	return b, nil
}

// TokenAround returns the bounds of the token (SpaceAt) holding b[i:j].
func TokenAround(b []byte, i, j int) (start, end int) {
	start, end = i, j
	for start > 0 && SpaceAt(b, start-1) == 0 {
		start--
	}
	for end < len(b) && SpaceAt(b, end) == 0 {
		end++
	}
	return start, end
}

// SpaceAt returns the width of the whitespace character at b[i], or 0.
// Besides ASCII blanks it knows U+00A0 (no-break space) and U+3000
// (ideographic space), both common in output copied from web pages.
func SpaceAt(b []byte, i int) int {
	switch b[i] {
	case ' ', '\t', '\r', '\v', '\f':
		return 1
	case 0xC2:
		if i+1 < len(b) && b[i+1] == 0xA0 {
			return 2
		}
	case 0xE3:
		if i+2 < len(b) && b[i+1] == 0x80 && b[i+2] == 0x80 {
			return 3
		}
	}
	return 0
}

// TrimLeft removes leading whitespace.
func TrimLeft(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' { // indentation, the common case
		b = b[1:]
	}
	for len(b) > 0 {
		w := SpaceAt(b, 0)
		if w == 0 {
			break
		}
		b = b[w:]
	}
	return b
}

// TrimRight removes trailing whitespace and backticks (a closing code fence
// glued to the last line).
func TrimRight(b []byte) []byte {
	for n := len(b); n > 0; n = len(b) {
		switch c := b[n-1]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '`':
			b = b[:n-1]
		case c == 0xA0 && n >= 2 && b[n-2] == 0xC2:
			b = b[:n-2]
		case c == 0x80 && n >= 3 && b[n-2] == 0x80 && b[n-3] == 0xE3:
			b = b[:n-3]
		default:
			return b
		}
	}
	return b
}

// Normalize returns the content of a line without line end, surrounding
// whitespace and the decorations of pasted output: markdown indentation and
// block quotes ("> "), code fences ("```", "~~~", also glued to the content as
// in "```Running"), Lua and C++ comment prefixes ("-- ", "// "), shell comment
// or root-prompt markers ("# "), a UTF-8 byte order mark and CI log timestamps.
func Normalize(b []byte) []byte {
	b = TrimLeft(TrimRight(b))
	for len(b) > 0 {
		n := decorationLen(b)
		if n == 0 {
			break
		}
		b = TrimLeft(b[n:])
	}
	return b
}

// decorationLen is the length of the decoration b starts with, or 0.
func decorationLen(b []byte) int {
	switch b[0] {
	case '`', '~':
		return fenceLen(b)
	case '>':
		return 1
	case '-', '/': // "-- ", "// "
		if len(b) >= 3 && b[1] == b[0] && (b[2] == ' ' || b[2] == '\t') {
			return 3
		}
	case '#':
		if len(b) >= 2 && (b[1] == ' ' || b[1] == '\t') {
			return 2
		}
	case 0xEF: // UTF-8 byte order mark
		if len(b) >= 3 && b[1] == 0xBB && b[2] == 0xBF {
			return 3
		}
	case '1', '2':
		return ciTimestampLen(b)
	}
	return 0
}

// fenceLen is the length of a code fence or inline backticks, or 0.
func fenceLen(b []byte) int {
	i := 0
	for i < len(b) && b[i] == b[0] {
		i++
	}
	if i < 3 && b[0] == '~' {
		return 0
	}
	return i
}

// ciTimestampLen is the length of a CI log's leading time stamp, or 0.
func ciTimestampLen(b []byte) int {
	if len(b) <= 20 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' {
		return 0
	}
	if i := bytes.IndexByte(b, ' '); i > 0 && (b[i-1] == 'Z' || b[i-1] >= '0' && b[i-1] <= '9') {
		return i
	}
	return 0
}

// Fields splits b at whitespace into dst (reused) and returns it. At most
// cap(dst) fields are returned; the last one then holds the rest of the line.
func Fields(b []byte, dst [][]byte) [][]byte {
	dst = dst[:0]
	i := 0
	for i < len(b) {
		// Skip whitespace.
		for i < len(b) {
			c := b[i]
			if c == ' ' {
				i++
				continue
			}
			if c > ' ' && c < 0x80 {
				break
			}
			w := SpaceAt(b, i)
			if w == 0 {
				break
			}
			i += w
		}
		if i >= len(b) {
			break
		}
		if len(dst) == cap(dst)-1 {
			dst = append(dst, TrimRight(b[i:]))
			return dst
		}
		start := i
		for i < len(b) {
			if c := b[i]; c > ' ' && c < 0x80 {
				i++
				continue
			}
			if SpaceAt(b, i) != 0 {
				break
			}
			i++
		}
		dst = append(dst, b[start:i])
	}
	return dst
}

// Rest returns the part of line from the start of field f (a subslice of
// line) to the end of the line.
func Rest(line, f []byte) []byte {
	off := cap(line) - cap(f)
	if off < 0 || off > len(line) {
		return f
	}
	return line[off:]
}

// EachLine calls fn with every line of r and its 1-based number, checking
// ctx every ctxEvery lines; a read error is returned naming the source.
func EachLine(ctx context.Context, r io.Reader, source string, fn func(b []byte, n int) error) error {
	lr := NewLineReader(r)
	for {
		if err := CheckCtx(ctx, lr.Line); err != nil {
			return err
		}
		b, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return ReadError(source, err)
		}
		if err := fn(b, lr.Line); err != nil {
			return err
		}
	}
}

// FindCommand returns the offset in s of a command line: a token that
// isExe accepts as the program's name, followed by an option, a quoted
// argument or a URL; -1 when there is none. Backquotes and parentheses
// before the name (`$(hey ...)`) are skipped.
func FindCommand(s []byte, isExe func(tok []byte) bool) int {
	var buf [32][]byte
	f := Fields(s, buf[:0])
	for i := 0; i+1 < len(f); i++ {
		if !isExe(f[i]) {
			continue
		}
		next := f[i+1]
		if next[0] == '-' || next[0] == '"' || next[0] == '\'' || bytes.HasPrefix(next, []byte("http")) {
			start := cap(s) - cap(f[i])
			for start < len(s) && (s[start] == '`' || s[start] == '(') {
				start++
			}
			return start
		}
	}
	return -1
}
