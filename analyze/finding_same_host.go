package analyze

import (
	"net"
	"net/url"
	"strings"
)

// checkSameHost adds one same-host finding naming the systems measured
// on a loopback address.
func checkSameHost(v *Verdict, _ *findingContext) {
	if local := loopbackSystems(v); len(local) > 0 {
		v.add(SeverityWarning, CodeSameHost, Subject{Systems: local}, nil)
	}
}

// loopbackSystems returns the systems with a run whose target is this
// machine, in the systems' order.
func loopbackSystems(v *Verdict) []string {
	var local []string
	for _, s := range v.Systems {
		for _, r := range v.Runs {
			if r.Label == s.Label && isLoopback(r.Target) {
				local = append(local, s.Label)
				break
			}
		}
	}
	return local
}

// isLoopback tells whether a target URL names this machine.
func isLoopback(target string) bool {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		u, err = url.Parse("http://" + target)
		if err != nil {
			return false
		}
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") || strings.HasSuffix(strings.ToLower(h), ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
