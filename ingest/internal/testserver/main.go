// Command testserver is a tiny HTTP server on the loopback interface used to
// produce real wrk output for the ingest test data (see ingest/testdata/README.md).
//
// Endpoints:
//
//	/ok              200 with a short body
//	/big?kb=N        200 with an N KiB body (default 64)
//	/status?code=N   status N
//	/mixed?every=N   every N-th request answers 500, the others 200
//	/sleep?ms=N      waits N ms, then 200
//	/close?every=N   every N-th request: the connection is closed without a response
package main

import (
	"flag"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

func intParam(r *http.Request, name string, def int) int {
	if v, err := strconv.Atoi(r.URL.Query().Get(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func main() {
	addr := flag.String("addr", "127.0.0.1:18080", "listen address (loopback only)")
	h2c := flag.Bool("h2c", false, "also serve unencrypted HTTP/2 (prior knowledge, as h2load sends it)")
	flag.Parse()
	var counter atomic.Int64
	body := []byte("hello, world\n")
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 1024*intParam(r, "kb", 64))))
	})
	mux.HandleFunc("/status", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(intParam(r, "code", 500))
		w.Write(body)
	})
	mux.HandleFunc("/mixed", func(w http.ResponseWriter, r *http.Request) {
		if counter.Add(1)%int64(intParam(r, "every", 3)) == 0 {
			w.WriteHeader(http.StatusInternalServerError)
		}
		w.Write(body)
	})
	mux.HandleFunc("/sleep", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(intParam(r, "ms", 100)) * time.Millisecond)
		w.Write(body)
	})
	mux.HandleFunc("/close", func(w http.ResponseWriter, r *http.Request) {
		if counter.Add(1)%int64(intParam(r, "every", 2)) == 0 {
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
		}
		w.Write(body)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		log.Fatal("testserver listens on loopback only")
	}
	srv := &http.Server{Handler: mux}
	if *h2c {
		srv.Protocols = new(http.Protocols)
		srv.Protocols.SetHTTP1(true)
		srv.Protocols.SetUnencryptedHTTP2(true)
	}
	log.Fatal(srv.Serve(ln))
}
