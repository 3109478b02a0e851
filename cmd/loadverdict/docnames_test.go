package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamesFromProse is issue 32's item 9 through the whole command: a
// post whose prose names its two servers beside their ports, in several
// phrasings and languages, then wrk's output against each; report names
// the systems after the prose (never 127.0.0.1:8080), and a post whose
// prose names nothing keeps the addresses.
func TestNamesFromProse(t *testing.T) {
	const wrk = `$ wrk -t 2 -c 10 -d 10s http://127.0.0.1:5555/hello
Running 10s test @ http://127.0.0.1:5555/hello
  2 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    33.95ms   43.06ms 599.09ms   89.81%
    Req/Sec   210.68     73.11   460.00     68.00%
  21045 requests in 10.04s, 4.12MB read
Requests/sec:   2095.30
Transfer/sec:    419.61KB
$ wrk -t 2 -c 10 -d 10s http://127.0.0.1:8080/hello
Running 10s test @ http://127.0.0.1:8080/hello
  2 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    24.52ms    5.87ms  89.64ms   87.58%
    Req/Sec   202.87     35.50   297.00     75.25%
  16222 requests in 10.11s, 2.66MB read
Requests/sec:   1604.71
Transfer/sec:    269.47KB
`
	for _, c := range []struct{ name, prose, a, b string }{
		{"issue 32", "Jetty (our app) listens on port 5555, and nginx serves the same page on port 8080.", "Jetty", "nginx"},
		{"port first", "On port 5555 runs Jetty; on port 8080 runs nginx.", "Jetty", "nginx"},
		{"japanese", "Jettyは5555番ポートで待ち受け、nginxは8080番ポートで同じページを返す。", "Jetty", "nginx"},
		{"german", "Jetty lauscht auf Port 5555, nginx auf Port 8080.", "Jetty", "nginx"},
		{"hosts", "We ran Undertow at localhost:5555 and then Caddy at localhost:8080 on one laptop.", "Undertow", "Caddy"},
		{"nothing named", "The two servers ran on one laptop.", "127.0.0.1:5555", "127.0.0.1:8080"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			post := filepath.Join(dir, "post.txt")
			if err := os.WriteFile(post, []byte("# Two servers\n\n"+c.prose+"\n\n"+wrk), 0o644); err != nil {
				t.Fatal(err)
			}
			out, errOut, err := runCLI(t, "", "report", "-o", filepath.Join(dir, "out"), post)
			if err != nil {
				t.Fatalf("report: %v\n%s", err, errOut)
			}
			head := strings.SplitN(out, "\n", 2)[0]
			if !strings.Contains(head, c.a) || !strings.Contains(head, c.b) {
				t.Errorf("headline %q: want the systems %s and %s", head, c.a, c.b)
			}
			if c.a != "127.0.0.1:5555" && strings.Contains(head, "127.0.0.1") {
				t.Errorf("headline %q names an address the prose named", head)
			}
		})
	}
}
