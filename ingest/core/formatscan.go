package core

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/results"
)

// HeadLines yields the lines of head (the beginning of an input, as
// Detect gets it), without their '\n', with their 1-based numbers. The
// last one may be cut off by the end of the head.
func HeadLines(head []byte) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		for ln := 1; len(head) > 0; ln++ {
			var b []byte
			if i := bytes.IndexByte(head, '\n'); i >= 0 {
				b, head = head[:i], head[i+1:]
			} else {
				b, head = head, nil
			}
			if !yield(ln, b) {
				return
			}
		}
	}
}

// HeadNonBlank returns up to n non-blank lines at the start of head,
// without line ends, surrounding blanks and a UTF-8 byte order mark.
func HeadNonBlank(head []byte, n int) [][]byte {
	var out [][]byte
	for _, line := range HeadLines(bytes.TrimPrefix(head, UTF8BOM)) {
		if len(out) == n {
			break
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			out = append(out, line)
		}
	}
	return out
}

// FirstLine returns b up to its first '\n' (all of b when it has none).
func FirstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// UTF8BOM is the UTF-8 encoding of a byte order mark.
var UTF8BOM = []byte{0xEF, 0xBB, 0xBF}

// ScanHead calls line with each line of head and its 1-based number,
// until done reports true: the Detect of a line-based parser runs its
// parsing state over the head.
func ScanHead(head []byte, line func(b []byte, ln int) error, done func() bool) {
	for ln, b := range HeadLines(head) {
		if done() {
			return
		}
		_ = line(b, ln)
	}
}

// ParseLines streams the lines of r to line, then calls close; when no
// run was emitted (runs reports 0) the input holds no output of format.
func ParseLines(ctx context.Context, r io.Reader, opts Options, format string, line func(b []byte, ln int) error,
	close func() error, runs func() int) error {
	if err := EachLine(ctx, r, opts.Source, line); err != nil {
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

// ExeNamed reports whether tok, a command line's token, names one of the
// programs: after quotes and parentheses, a directory, a docker image tag
// (":latest") and ".exe" are set aside.
func ExeNamed(tok []byte, names ...string) bool {
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

// OptionSyntax is how a program reads the options of its command line,
// for Scan: getopt's short options ("-Lt2", a value glued or the next
// argument) and long ones ("--threads=2"), Go's flag package ("-rate 5",
// "-rate=5", one dash or two), kingpin's and clap's ("-c10", "--rate 5").
type OptionSyntax struct {
	// TakesValue tells whether an option (by Scan's name) takes a value.
	TakesValue func(name string) bool
	// Short: a single dash starts one-letter options, getopt's way:
	// "-Lt2" is -L, then -t with 2 (the first letter that takes a value
	// takes the rest of the word, or else the next argument). Without
	// Short, dashes start a whole name: "-rate 5", "--rate=5".
	Short bool
	// Long (with Short): two dashes start a long option ("--threads=2");
	// without Long, "--threads" is a cluster of letters too.
	Long bool
	// Glued (without Short): a single-dash option whose first letter
	// takes a value carries it glued ("-c10": c, 10).
	Glued bool
	// EndOfOptions: "--" makes every later argument positional.
	EndOfOptions bool
	// EmptyAtEnd: an option lacking its value at the end of a cut line
	// is still given, with ""; else the walk stops before it.
	EmptyAtEnd bool
}

// Scan walks args, the arguments after the program: option gets each
// option with its value ("" for a flag; with "name=value", that value),
// positional every other argument (an empty one and "-" too); a false
// from either stops the walk. Scan reports whether it read every
// argument: false when stopped, or when an option lacked its value.
func (s OptionSyntax) Scan(args []string, option func(name, val string) bool, positional func(arg string) bool) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			if !positional(a) {
				return false
			}
			continue
		}
		if a == "--" && s.EndOfOptions {
			for _, p := range args[i+1:] {
				if !positional(p) {
					return false
				}
			}
			return true
		}
		name, val, hasVal, skip, ok := s.split(a, option)
		if !ok {
			return false
		}
		if skip {
			continue
		}
		if s.TakesValue(name) && !hasVal {
			if i+1 < len(args) {
				i++
				val = args[i]
			} else if !s.EmptyAtEnd {
				return false
			}
		}
		if !option(name, val) {
			return false
		}
	}
	return true
}

// split reads an option argument a: its name and its value, glued or
// after '='; a cluster's flags before it go to option. skip: a cluster
// of flags only; ok false: option stopped the walk.
func (s OptionSyntax) split(a string, option func(name, val string) bool) (name, val string, hasVal, skip, ok bool) {
	switch {
	case s.Short && (!s.Long || a[1] != '-'):
		for k := 1; k < len(a); k++ {
			if o := a[k : k+1]; s.TakesValue(o) {
				name, val, hasVal = o, a[k+1:], k+1 < len(a)
				break
			} else if !option(o, "") {
				return "", "", false, false, false
			}
		}
		if name == "" {
			return "", "", false, true, true
		}
	case s.Short:
		name = a[2:]
	default:
		name = strings.TrimLeft(a, "-")
	}
	if j := strings.IndexByte(name, '='); j >= 0 && !(s.Short && a[1] != '-') {
		return name[:j], name[j+1:], true, false, true
	}
	if s.Glued && a[1] != '-' && len(name) > 1 && s.TakesValue(name[:1]) {
		return name[:1], name[1:], true, false, true
	}
	return name, val, hasVal, false, true
}

// EachOption walks the arguments of a command line (args[0] is the
// program) the way getopt, kingpin and clap read them: "-c 10", "-c10",
// "--connections 10", "--connections=10". Options named in takesValue
// take the next argument when not glued to it; option gets every option
// with its value ("" for a flag, or when the line ends first), positional
// every other argument.
func EachOption(args []string, takesValue map[string]bool, option func(name, val string), positional func(arg string)) {
	if len(args) == 0 {
		return
	}
	OptionSyntax{TakesValue: func(name string) bool { return takesValue[name] }, Glued: true, EmptyAtEnd: true}.Scan(args[1:],
		func(name, val string) bool { option(name, val); return true },
		func(arg string) bool { positional(arg); return true })
}

// TargetArg reads a command line's argument (not empty) as the URL a
// load generator targets: a URL holds "://"; a shell variable or a
// template ("$URL", "{{url}}", "<url>") is a placeholder; anything else
// is not a target (ok false).
func TargetArg(a string) (url string, placeholder, ok bool) {
	switch {
	case strings.Contains(a, "://"):
		return a, false, true
	case a[0] == '$' || a[0] == '{' || a[0] == '<':
		return "", true, true
	}
	return "", false, false
}

// CommandWords splits a command line into its program (the first word,
// as written: a backslash in it is a Windows path's, not an escape) and
// the shell words of the rest (ShellWords), appended to buf.
func CommandWords(buf []string, s string) (prog string, args []string) {
	prog, tail := s, ""
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		prog, tail = s[:i], s[i+1:]
	}
	return prog, AppendShellWords(buf, tail)
}

// SortPercentiles orders points by quantile (maps give them in any order).
func SortPercentiles(p []results.Percentile) {
	slices.SortFunc(p, func(a, b results.Percentile) int { return cmp.Compare(a.Quantile, b.Quantile) })
}

// AddPercentiles appends the points of a distribution (in quantile order)
// to a run and copies the 0.5, 0.9, 0.99 and 0.999 points into the
// percentile columns.
func AddPercentiles(out *results.RunWithPercentiles, pcts []results.Percentile) {
	for _, p := range pcts {
		out.Percentiles = append(out.Percentiles, p)
		switch p.Quantile {
		case 0.5:
			out.LatP50Ms = results.Ptr(p.LatencyMs)
		case 0.9:
			out.LatP90Ms = results.Ptr(p.LatencyMs)
		case 0.99:
			out.LatP99Ms = results.Ptr(p.LatencyMs)
		case 0.999:
			out.LatP999Ms = results.Ptr(p.LatencyMs)
		}
	}
}

// ShiftDec returns v × 10^exp correctly rounded from v's shortest decimal
// form, so that 0.000651724 s is 0.651724 ms and not 0.6517240000000001.
func ShiftDec(v float64, exp int) float64 {
	return ShiftDecString(strconv.FormatFloat(v, 'g', -1, 64), exp)
}

// ShiftDecString parses a decimal number, with or without an exponent
// ("0.0446", "3.8388e-05"), times 10^exp, correctly rounded; NaN when s
// is no number.
func ShiftDecString(s string, exp int) float64 {
	mant, e := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		n, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return math.NaN()
		}
		mant, e = s[:i], n
	}
	v, err := strconv.ParseFloat(mant+"e"+strconv.Itoa(e+exp), 64)
	if err != nil && !isRangeErr(err) {
		return math.NaN()
	}
	return v
}

// ShellWords splits a command line into words with shell quoting rules,
// stopping at an unquoted pipe, list or redirection operator.
func ShellWords(s string) []string { return AppendShellWords(make([]string, 0, 16), s) }

// AppendShellWords appends the words of s (see shellWords) to words. A
// word without quotes or escapes is a substring of s; another costs one
// allocation.
func AppendShellWords(words []string, s string) []string {
	var buf [128]byte
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			break
		}
		// Fast path: a word without quotes or escapes is a substring.
		j := i
		for j < len(s) && strings.IndexByte(" \t'\"\\|;&<>`", s[j]) < 0 {
			j++
		}
		if j == len(s) || s[j] == ' ' || s[j] == '\t' {
			words, i = append(words, s[i:j]), j
			continue
		}
		if j == i && strings.IndexByte("|;&<>`", s[j]) >= 0 {
			return words
		}
		var word string
		var stop bool
		word, i, stop = quotedWord(s, j, append(buf[:0], s[i:j]...))
		if words = append(words, word); stop {
			return words
		}
	}
	return words
}

// quotedWord reads the rest of a word with quotes or escapes from s[i:]
// onto cur: the word, where it ends, and whether an operator ended it.
func quotedWord(s string, i int, cur []byte) (word string, next int, stop bool) {
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t':
			return string(cur), i, false
		case '\'':
			k := strings.IndexByte(s[i+1:], '\'')
			if k < 0 {
				return string(append(cur, s[i+1:]...)), len(s), false
			}
			cur = append(cur, s[i+1:i+1+k]...)
			i += k + 1
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur = append(cur, s[i])
			}
		case '\\':
			if i+1 < len(s) {
				i++
				cur = append(cur, s[i])
			}
		case '|', ';', '&', '>', '<', '`':
			return string(cur), i, true
		default:
			cur = append(cur, c)
		}
	}
	return string(cur), i, false
}

// PctRow is a point of a latency distribution.
type PctRow struct {
	Q, Ms    float64
	Count    int64
	HasCount bool
}

// MaxPercentiles bounds the distribution points kept per run.
const MaxPercentiles = 100000

// BracketedCount parses "[123]" into 123.
func BracketedCount(b []byte) (int64, bool) {
	if len(b) < 3 || b[0] != '[' || b[len(b)-1] != ']' {
		return 0, false
	}
	return ParseUint(b[1 : len(b)-1])
}

// FirstNonBlank returns the first non-blank line of head without
// surrounding whitespace (and without a UTF-8 byte order mark).
func FirstNonBlank(head []byte) []byte {
	if l := HeadNonBlank(head, 1); len(l) > 0 {
		return l[0]
	}
	return nil
}
