package wrk

import (
	"bytes"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
)

// command is a wrk or wrk2 command line found before a run's output.
type command struct {
	raw  string // from the wrk token to the end (continuations joined)
	line int    // 1-based line where the command starts

	url                      string
	threads, connections     int64
	hasThreads, hasConns     bool
	duration, rate, timeout  float64
	hasDur, hasRate, hasTime bool
	script                   string
	hasScript                bool
	latency, uLatency        bool
	wrk2                     bool // invoked as wrk2, or with a wrk2-only option (-R, -U, -B)
	placeholder              bool // the URL is a shell variable or template ("$URL")
	more                     bool // ends with a backslash or lacks its URL: the next line may continue it
}

// parseBareWrkArgs reads a line that holds only wrk's arguments, without
// the program name, as pasted from a container's entrypoint or a CI job
// ("-t1 -c64 -d60s -R2000 --latency http://host/"): every token an option,
// its value or the URL, with the URL and at least two of the options that
// set the load (-t, -c, -d, -R).
func parseBareWrkArgs(s []byte, line int) (*command, bool) {
	if len(s) < 2 || s[0] != '-' || s[1] == '-' && (len(s) < 3 || s[2] == ' ') || s[1] == ' ' {
		return nil, false
	}
	c, ok := parseWrkCommand("wrk "+string(s), line)
	if !ok || c.url == "" || c.more {
		return nil, false
	}
	n := 0
	for _, set := range []bool{c.hasThreads, c.hasConns, c.hasDur, c.hasRate} {
		if set {
			n++
		}
	}
	if n < 2 {
		return nil, false
	}
	c.raw = string(s)
	return c, true
}

// findWrkCommand returns the offset in s of a wrk or wrk2 command line: a
// token whose base name is wrk or wrk2 (after any prompt, "sudo", "time",
// "docker run image", ...) followed by an option or a URL. It returns -1
// when s holds none.
func findWrkCommand(s []byte) int {
	from := 0
	for {
		i := bytes.Index(s[from:], []byte("wrk"))
		if i < 0 {
			return -1
		}
		i += from
		from = i + 3
		start, end := core.TokenAround(s, i, i+3)
		if !isWrkExe(s[start:end]) {
			continue
		}
		// The next token must be an option or a URL.
		next := core.TrimLeft(s[end:])
		if len(next) == 0 {
			continue
		}
		if next[0] == '-' || next[0] == '"' || next[0] == '\'' || bytes.HasPrefix(next, []byte("http")) {
			for start < len(s) && (s[start] == '`' || s[start] == '(') {
				start++
			}
			return start
		}
	}
}

// isWrkExe reports whether tok names the wrk or wrk2 program
// ("wrk", "./wrk2", "/usr/local/bin/wrk", "williamyeh/wrk", ".\\wrk.exe").
func isWrkExe(tok []byte) bool { return core.ExeNamed(tok, "wrk", "wrk2") }

// wrkSyntax is how wrk reads its options: getopt_long's, short options
// clustered ("-Lt2"), long ones as their short names (longOpt).
var wrkSyntax = core.OptionSyntax{TakesValue: func(o string) bool { return takesArg(longOpt(o)) }, Short: true, Long: true, EndOfOptions: true}

// parseWrkCommand parses the command line s (starting at the wrk token).
// It reports false when s is not a usable wrk invocation: its first
// positional argument is not a URL.
func parseWrkCommand(s string, line int) (*command, bool) {
	s = strings.TrimSpace(s)
	c := &command{raw: s, line: line}
	cont := strings.HasSuffix(s, "\\")
	if cont {
		s = strings.TrimSuffix(s, "\\")
	}
	var argBuf [24]string
	prog, args := core.CommandWords(argBuf[:0], s)
	if !isWrkExe([]byte(prog)) {
		return nil, false
	}
	if strings.TrimSuffix(prog[strings.LastIndexAny(prog, `/\`)+1:], ".exe") == "wrk2" {
		c.wrk2 = true
	}
	usable := true
	wrkSyntax.Scan(args, func(name, val string) bool {
		if name = longOpt(name); takesArg(name) {
			c.option(name, val)
		} else {
			c.flag(name)
		}
		return true
	}, func(a string) bool {
		if a == "" || c.url != "" || c.placeholder {
			return true
		}
		c.url, c.placeholder, usable = core.TargetArg(a)
		return usable
	})
	if !usable {
		return nil, false
	}
	c.more = cont || c.url == "" && !c.placeholder
	return c, true
}

// longOpt maps a long option of wrk or wrk2 to its short name.
func longOpt(name string) string {
	switch name {
	case "threads":
		return "t"
	case "connections":
		return "c"
	case "duration":
		return "d"
	case "script":
		return "s"
	case "header":
		return "H"
	case "timeout":
		return "T"
	case "rate":
		return "R"
	case "latency":
		return "L"
	case "u_latency", "u-latency":
		return "U"
	case "batch_latency", "batch-latency":
		return "B"
	}
	return name
}

// takesArg reports whether the (short) option takes an argument.
func takesArg(o string) bool {
	switch o {
	case "t", "c", "d", "s", "H", "T", "R":
		return true
	}
	return false
}

func (c *command) flag(o string) {
	switch o {
	case "L":
		c.latency = true
	case "U":
		c.uLatency, c.wrk2 = true, true
	case "B":
		c.wrk2 = true
	}
}

func (c *command) option(o, val string) {
	b := []byte(val)
	switch o {
	case "t":
		if v, k := core.Metric(b); k == core.ValOK {
			if n, ok := core.ToInt64(v); ok && n <= 1<<31-1 {
				c.threads, c.hasThreads = n, true
			}
		}
	case "c":
		if v, k := core.Metric(b); k == core.ValOK {
			if n, ok := core.ToInt64(v); ok && n <= 1<<31-1 {
				c.connections, c.hasConns = n, true
			}
		}
	case "d":
		if v, ok := core.DurationS(b, 1); ok && core.Finite(v) {
			c.duration, c.hasDur = v, true
		}
	case "T":
		if v, ok := core.DurationS(b, 1); ok && core.Finite(v) {
			c.timeout, c.hasTime = v, true
		}
	case "R":
		if v, k := core.Metric(b); k == core.ValOK && core.Finite(v) {
			c.rate, c.hasRate = v, true
		}
		c.wrk2 = true
	case "s":
		c.script, c.hasScript = val, true
	}
}
