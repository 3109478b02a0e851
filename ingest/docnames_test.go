package ingest

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
)

func docNamesString(m map[string]core.DocName) string {
	var l []string
	for p, d := range m {
		l = append(l, fmt.Sprintf("%s=%s@%d", p, d.Name, d.Line))
	}
	slices.Sort(l)
	return strings.Join(l, " ")
}

// TestDocumentNames: the names a document gives its systems beside their
// ports, in the phrasings blog posts use, and nothing where the text is
// ambiguous or the number is not a port.
func TestDocumentNames(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"seed", "", "5555=Zuul@17 80=OpenResty@17"},
		{"english on port", "We put Zuul on port 5555 and OpenResty on port 80.\n", "5555=Zuul@1 80=OpenResty@1"},
		{"parenthesis", "Zuul (port 5555) against OpenResty (port 80)\n", "5555=Zuul@1 80=OpenResty@1"},
		{"uses port", "Envoy uses port 10000; HAProxy listens on port 8404.\n", "10000=Envoy@1 8404=HAProxy@1"},
		{"host colon", "Caddy runs at localhost:2015, Traefik at 127.0.0.1:8081\n", "2015=Caddy@1 8081=Traefik@1"},
		{"lines apart", "# Setup\n\nKong listens on port 8000.\n\nTyk listens on port 8080.\n", "8000=Kong@3 8080=Tyk@5"},
		{"chinese", "Zuul 使用 5555 端口，OpenResty 使用 80 端口。\n", "5555=Zuul@1 80=OpenResty@1"},
		{"version is no port", "Zuul 1.1.0 and OpenResty 1.11.2.2 were tested.\n", ""},
		{"a count is no port", "Zuul served 5555 requests.\n", ""},
		{"lower-case word", "the gateway on port 8080 was slow\n", ""},
		{"stop words only", "The server uses port 8080.\n", ""},
		{"clause break", "Zuul was slow. Port 8080 was used by the other one.\n", ""},
		{"url line skipped", "Zuul: http://localhost:5555/api\n", ""},
		{"ambiguous port", "Zuul on port 80. Later OpenResty on port 80.\n", ""},
		{"one name two ports", "Zuul on port 80 and Zuul on port 81\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := []byte(c.doc)
			if c.name == "seed" {
				var err error
				if doc, err = os.ReadFile("../examples/zuul-vs-openresty.txt"); err != nil {
					t.Fatal(err)
				}
			}
			if got := docNamesString(core.DocumentNames(doc)); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestDocumentNamesPhrasings: issue 32's family: the sentence that
// mentions a port and a product names it, before or after the number, in
// the order the language puts its subject, and with the product in lower
// case; a lower-case common word never becomes a name.
func TestDocumentNamesPhrasings(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"issue 32", "Jetty (our app) listens on port 5555, and nginx serves the same page on port 8080.\n", "5555=Jetty@1 8080=nginx@1"},
		{"lower-case", "nginx serves static files on port 8080\n", "8080=nginx@1"},
		{"port first", "On port 8080 runs nginx; on port 9090 runs Envoy.\n", "8080=nginx@1 9090=Envoy@1"},
		{"port then name", "Port 8080 is haproxy, port 8081 is Traefik.\n", "8080=haproxy@1 8081=Traefik@1"},
		{"host colon", "caddy at localhost:8080 against Kong at localhost:9000\n", "8080=caddy@1 9000=Kong@1"},
		// The nearest name before a port wins: a name after the first port
		// is the second's, so neither is taken twice.
		{"ambiguous", "localhost:8080 (caddy) against localhost:9000 (Kong)\n", ""},
		{"japanese name first", "nginxは8080番ポートで同じページを返し、Jettyはポート5555で待ち受ける。\n", "5555=Jetty@1 8080=nginx@1"},
		{"japanese port first", "8080番ポートでnginxを起動し、5555番ポートでZuulを起動した。\n", "5555=Zuul@1 8080=nginx@1"},
		{"chinese", "nginx 监听 8080 端口，Zuul 监听 5555 端口。\n", "5555=Zuul@1 8080=nginx@1"},
		{"korean", "nginx는 8080 포트, Envoy는 10000 포트를 사용한다.\n", "10000=Envoy@1 8080=nginx@1"},
		{"spanish", "nginx escucha en el puerto 8080 y Envoy en el puerto 10000.\n", "10000=Envoy@1 8080=nginx@1"},
		{"german", "nginx lauscht auf Port 8080, Envoy auf Port 10000.\n", "10000=Envoy@1 8080=nginx@1"},
		{"french", "nginx écoute sur le port 8080.\n", "8080=nginx@1"},
		{"lower-case common words", "the gateway on port 8080 serves the page\n", ""},
		{"a common word after", "Port 8080 was slow and busy.\n", ""},
		{"names on lines apart", "## Servers\n\nnginx: port 8080.\n\nThen Jetty on port 5555.\n", "5555=Jetty@5 8080=nginx@3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := docNamesString(core.DocumentNames([]byte(c.doc))); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// Command lines and JSON are not prose: no name comes from them.
func TestDocumentNamesNotProse(t *testing.T) {
	for _, doc := range []string{
		"$ ghz --insecure --call grpc.health.v1.Health/Check -c 4 -n 400 127.0.0.1:19360\n",
		"ghz --call Health/Check -c 4 127.0.0.1:19360\n",
		`  "Labels": "127.0.0.1:19350 Port 19350",` + "\n",
		"➜  ~ wrk -t 10 -c 50 -d 10s localhost:5555/api\n",
	} {
		if got := core.DocumentNames([]byte(doc)); got != nil {
			t.Errorf("%q: %v, want none", doc, got)
		}
	}
}
