package core

import "strings"

// Label returns the label of a target URL: labels[host:port] when the
// mapping has it, else host:port with the scheme's default port made explicit
// ("http://localhost/x" -> "localhost:80", https -> 443, "[::1]:8080" keeps
// its brackets, "localhost:8080" without scheme is accepted). An empty target
// gives "", an unparseable one is its own label (or labels[target]).
func Label(target string, labels map[string]string) string {
	hp, ok := HostPort(target)
	if !ok {
		if l, ok := labels[target]; ok {
			return l
		}
		return target
	}
	if l, ok := labels[hp]; ok {
		return l
	}
	return hp
}

// HostPort returns the lower-cased "host:port" of a target URL.
func HostPort(target string) (string, bool) {
	scheme, t := authority(target)
	if t == "" || strings.ContainsAny(t, " \t\"'<>\\") {
		return "", false
	}
	host, port, ok := splitHostPort(t)
	if !ok || host == "" || host == "[]" || !hostChars(host) {
		return "", false
	}
	if port == "" {
		if port = defaultPorts[scheme]; port == "" {
			return "", false
		}
	}
	if !validPort(port) {
		return "", false
	}
	return strings.ToLower(host) + ":" + port, true
}

// authority returns a target's lower-cased scheme and its host[:port].
func authority(target string) (scheme, t string) {
	t = strings.TrimSpace(target)
	if i := strings.Index(t, "://"); i >= 0 {
		scheme = strings.ToLower(t[:i])
		t = t[i+3:]
	} else {
		t = strings.TrimPrefix(t, "//")
	}
	if i := strings.IndexAny(t, "/?#"); i >= 0 {
		t = t[:i]
	}
	if i := strings.LastIndexByte(t, '@'); i >= 0 {
		t = t[i+1:]
	}
	return scheme, t
}

// splitHostPort splits host[:port]; a bare IPv6 host is ambiguous (false).
func splitHostPort(t string) (host, port string, ok bool) {
	if t[0] != '[' {
		switch strings.Count(t, ":") {
		case 0:
			return t, "", true
		case 1:
			i := strings.IndexByte(t, ':')
			return t[:i], t[i+1:], true
		}
		return "", "", false
	}
	j := strings.IndexByte(t, ']')
	if j < 2 {
		return "", "", false
	}
	host, port = t[:j+1], t[j+1:]
	if port == "" {
		return host, "", true
	}
	if port[0] != ':' {
		return "", "", false
	}
	return host, port[1:], true
}

// hostChars reports whether host holds only a host name's characters.
func hostChars(host string) bool {
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~%[]:", c) >= 0 || c >= 0x80) {
			return false
		}
	}
	return true
}

// defaultPorts are the schemes' ports ("": http).
var defaultPorts = map[string]string{"": "80", "http": "80", "ws": "80", "https": "443", "wss": "443"}

// validPort reports whether port is 1 to 65535, in at most 5 digits.
func validPort(port string) bool {
	if len(port) > 5 {
		return false
	}
	n := 0
	for _, c := range port {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n != 0 && n <= 65535
}

// EndpointOf names a request for the endpoint column: name with its
// scheme and host left out when it is a URL (the run's label says the
// host), so that the same request to two systems has one name, after the
// method when there is one: "GET /api/items?page=2", "Login".
func EndpointOf(method, name string) string {
	if i := strings.Index(name, "://"); i >= 0 {
		rest := name[i+3:]
		if j := strings.IndexAny(rest, "/?#"); j >= 0 {
			name = rest[j:]
			if name[0] != '/' {
				name = "/" + name
			}
		} else {
			name = "/"
		}
	}
	if i := strings.IndexByte(name, '#'); i >= 0 {
		name = name[:i]
	}
	if method == "" {
		return name
	}
	return method + " " + name
}
