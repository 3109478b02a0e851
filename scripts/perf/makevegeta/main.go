// Command makevegeta writes synthetic vegeta results as JSON lines, the
// format of `vegeta encode --to json`, for the performance scripts beside
// it (memory.sh, throughput.sh):
//
//	go run ./scripts/perf/makevegeta -n 1000000 -o /tmp/vegeta-1m.json
//
// The attack is realistic: one target hit at a constant rate (default
// 5000/s) with a little send jitter, lognormal latencies (median 2 ms), a
// small JSON body and three response headers, 0.1 % of requests failing
// (half timeouts with status 0, half 503s). Lines are about 300 bytes, so
// a million results make about 300 MB. The output depends only on the flags.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func main() {
	n := flag.Int("n", 1000000, "number of results")
	rate := flag.Float64("rate", 5000, "requests per second")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("o", "-", "output file (- for stdout)")
	flag.Parse()
	if *n < 0 || !(*rate > 0) {
		log.Fatal("makevegeta: -n must be >= 0 and -rate > 0")
	}
	var w io.Writer = os.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := generate(bw, *n, *rate, *seed); err != nil {
		log.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		log.Fatal(err)
	}
}

// generate writes n results of an attack at rate requests per second.
func generate(w io.Writer, n int, rate float64, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	enc := vegeta.NewJSONEncoder(w)
	const url = "http://127.0.0.1:8080/api/items"
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	interval := float64(time.Second) / rate
	for i := range n {
		// Send time: the pacer's schedule plus up to 50 µs of jitter.
		start := t0.Add(time.Duration(float64(i)*interval + rng.Float64()*50e3))
		// Lognormal latency: median 2 ms, sigma 0.6 (p99 ~ 8 ms).
		lat := time.Duration(2e6 * math.Exp(0.6*rng.NormFloat64()))
		r := vegeta.Result{Attack: "perf", Seq: uint64(i), Code: 200, Timestamp: start, Latency: lat,
			Method: "GET", URL: url}
		switch u := rng.Float64(); {
		case u < 0.0005:
			r.Code, r.Latency = 0, 30*time.Second
			r.Error = fmt.Sprintf("Get %q: context deadline exceeded (Client.Timeout exceeded while awaiting headers)", url)
		case u < 0.001:
			r.Code = 503
			r.Error = "503 Service Unavailable"
		}
		if r.Code != 0 {
			body := `{"id":` + strconv.Itoa(i%100000) + `,"ok":true}`
			r.Body = []byte(body)
			r.BytesIn = uint64(len(body))
			end := start.Add(r.Latency)
			r.Headers = http.Header{
				"Content-Type":   {"application/json"},
				"Date":           {end.Format(http.TimeFormat)},
				"Content-Length": {strconv.Itoa(len(body))},
			}
		}
		if err := enc.Encode(&r); err != nil {
			return err
		}
	}
	return nil
}
