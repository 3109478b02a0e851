package core

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DocName is a system's name that a document gives beside the port it
// used, as a blog post does: "Zuul uses port 5555, OpenResty port 80"
// ("Zuulは5555ポートを使用し、OpenRestyは80ポートを使用する" in the
// founding example).
type DocName struct {
	Name string
	Port string
	Line int // the line of the input that says so (1-based)
}

// portWords are the words for "port" that make a number a port: the
// number must stand right before or after one (or after "host:"), so that
// a version (Zuul 1.1.0) or a count is never taken for a port.
var portWords = []string{"port", "ports", "ポート", "番ポート", "端口", "포트", "puerto", "porta"}

// knownServers are servers written in lower case ("nginx serves ... on
// port 8080"), which no capital tells from a common word (isName).
var knownServers = strings.Fields("nginx openresty apache httpd haproxy envoy caddy traefik tomcat jetty undertow " +
	"netty node nodejs express gunicorn uvicorn puma unicorn kestrel lighttpd zuul kong tyk varnish squid pingora " +
	"actix axum fasthttp fastapi flask django deno bun h2o litespeed istio linkerd gin fiber vertx quarkus")

// nameStopWords are capitalized words that are not names of systems.
var nameStopWords = map[string]bool{
	"port": true, "ports": true, "the": true, "a": true, "an": true, "we": true, "i": true, "it": true,
	"on": true, "at": true, "and": true, "or": true, "for": true, "with": true, "to": true, "of": true,
	"uses": true, "using": true, "listens": true, "listening": true, "runs": true, "running": true,
	"http": true, "https": true, "tcp": true, "udp": true, "localhost": true, "server": true,
	"proxy": true, "gateway": true, "then": true, "both": true, "each": true, "this": true,
	"that": true, "requests": true, "request": true, "test": true, "tests": true, "host": true,
	"while": true, "whereas": true, "but": true, "which": true, "is": true, "was": true,
}

// maxNameGap is how many Latin words may stand between a name and its
// port ("nginx serves the same page on port 8080": 6).
const maxNameGap = 6

// DocumentNames finds, by port, the systems the prose of head names beside
// their ports (lines with a URL, a command or a tool's output skipped): a
// capitalised (or CamelCase) Latin word at most maxNameGap words before a
// port number in the same clause, the number touched by a port word ("port
// 5555", "5555ポート") or after "host:". Ambiguous names or ports are dropped.
func DocumentNames(head []byte) map[string]DocName {
	found := map[string]DocName{}
	bad := map[string]bool{}
	ln := 0
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		ln++
		if !proseLine(line) {
			continue
		}
		for _, m := range namesInLine(string(line)) {
			if old, ok := found[m.port]; ok && old.Name != m.name {
				bad[m.port] = true
			}
			if _, ok := found[m.port]; !ok {
				found[m.port] = DocName{Name: m.name, Port: m.port, Line: ln}
			}
		}
	}
	names := map[string]int{}
	for _, d := range found {
		names[strings.ToLower(d.Name)]++
	}
	for p, d := range found {
		if bad[p] || names[strings.ToLower(d.Name)] > 1 {
			delete(found, p)
		}
	}
	if len(found) == 0 {
		return nil
	}
	return found
}

// proseLine reports whether line may be prose: not a URL's line, not a
// command line (a flag such as " -c"), not JSON ("key": value), valid
// UTF-8 and of reasonable length.
func proseLine(line []byte) bool {
	if len(line) > 2000 || !utf8.Valid(line) || bytes.Contains(line, []byte("://")) || bytes.Contains(line, []byte(`":`)) {
		return false
	}
	for i := 0; i+2 < len(line); i++ {
		if (line[i] == ' ' || line[i] == '\t') && line[i+1] == '-' && (line[i+2] == '-' || unicode.IsLetter(rune(line[i+2]))) {
			return false
		}
	}
	t := bytes.TrimLeft(line, " \t")
	return !bytes.HasPrefix(t, []byte("$ ")) && !bytes.HasPrefix(t, []byte("> ")) && !bytes.HasPrefix(t, []byte("➜"))
}

type namePort struct{ name, port string }

// docToken is a word of a line: a run of letters or digits of one script.
type docToken struct {
	s     string
	start int
}

// namesInLine finds (name, port) pairs in one line of prose.
func namesInLine(line string) []namePort {
	toks := tokenize(line)
	var out []namePort
	for i, t := range toks {
		port, ok := portNumber(t.s)
		if !ok || !nearPortWord(line, toks, i) {
			continue
		}
		// The nearest name before the number, within the clause; else the
		// nearest after it ("8080番ポートでnginxを起動", "port 8080 runs
		// nginx"), as the language puts the subject.
		if name, ok := nearestName(line, toks, i, -1); ok {
			out = append(out, namePort{name, port})
		} else if name, ok := nearestName(line, toks, i, +1); ok {
			out = append(out, namePort{name, port})
		}
	}
	return out
}

// nearestName finds the name nearest to toks[i] in direction dir (-1
// before, +1 after) within its clause and maxNameGap Latin words.
func nearestName(line string, toks []docToken, i, dir int) (string, bool) {
	for j, gap := i+dir, 0; j >= 0 && j < len(toks) && gap <= maxNameGap; j += dir {
		a, b := min(j, j-dir), max(j, j-dir)
		if clauseBreak(line[toks[a].start+len(toks[a].s) : toks[b].start]) {
			return "", false
		}
		if isName(toks[j].s) {
			return toks[j].s, true
		}
		if isLatinWord(toks[j].s) {
			gap++
		}
	}
	return "", false
}

// tokenize splits line into runs of ASCII letters and digits (with an
// inner '-' or '_' kept, as in "Open-Resty" or "nginx_1"; "nginx1" stays
// one word) and runs of other letters (a CJK run such as ポートを使用し,
// split from ASCII by script: "Zuulは5555" is Zuul, は, 5555).
func tokenize(line string) []docToken {
	var toks []docToken
	class := func(r rune) int {
		switch {
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			return 1
		case unicode.IsLetter(r):
			return 2
		}
		return 0
	}
	start, cur := -1, 0
	for i, r := range line {
		c := class(r)
		if c == 1 && cur == 1 || c == 2 && cur == 2 {
			continue
		}
		if (r == '-' || r == '_') && cur == 1 && i+1 < len(line) && class(rune(line[i+1])) == 1 {
			continue
		}
		if cur != 0 {
			toks = append(toks, docToken{line[start:i], start})
		}
		start, cur = i, c
	}
	if cur != 0 {
		toks = append(toks, docToken{line[start:], start})
	}
	return toks
}

// portNumber reports whether s is a port: 1 to 65535, no leading zero.
func portNumber(s string) (string, bool) {
	if len(s) == 0 || len(s) > 5 || s[0] == '0' {
		return "", false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 {
		return "", false
	}
	return s, true
}

// nearPortWord reports whether the number toks[i] touches a port word
// ("port 5555", "5555 port", "5555ポート", "port: 5555") or follows ":"
// (localhost:5555).
func nearPortWord(line string, toks []docToken, i int) bool {
	t := toks[i]
	before := strings.ToLower(strings.TrimRight(line[:t.start], " \t:#"))
	after := strings.ToLower(strings.TrimLeft(line[t.start+len(t.s):], " \t"))
	for _, w := range portWords {
		if strings.HasSuffix(before, w) || strings.HasPrefix(after, w) {
			return true
		}
	}
	if t.start == 0 || line[t.start-1] != ':' {
		return false
	}
	host := line[:t.start-1]
	if i := strings.LastIndexAny(host, " \t(\"'`"); i >= 0 {
		host = host[i+1:]
	}
	return strings.EqualFold(host, "localhost") || strings.Contains(host, ".") || strings.HasPrefix(host, "[")
}

// clauseBreak reports whether the text between two tokens ends a clause:
// a comma, semicolon or the like, or a full stop followed by a blank (the
// dots of 127.0.0.1 or 1.1.0 do not).
func clauseBreak(between string) bool {
	if strings.HasSuffix(strings.TrimSpace(between), ":") {
		return false
	}
	if strings.ContainsAny(between, ";!?。、，,；\n") {
		return true
	}
	i := strings.IndexByte(between, '.')
	return i >= 0 && strings.TrimSpace(between[i+1:]) != between[i+1:]
}

// isLatinWord reports whether s is a word of Latin letters.
func isLatinWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r < utf8.RuneSelf && unicode.IsLetter(r)
}

// isName reports whether s looks like the name of a system: Latin
// letters (digits and '-' after the first), at least 3 long, starting
// with a capital or with a capital inside, or a known lower-case server
// (knownServers), and not a common word.
func isName(s string) bool {
	if len(s) < 3 || len(s) > 40 || !isLatinWord(s) || nameStopWords[strings.ToLower(s)] {
		return false
	} else if slices.Contains(knownServers, s) {
		return true
	}
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}
