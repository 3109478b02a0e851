// Command makevegeta writes vegeta results as JSON lines (`vegeta encode
// --to json`) for the performance scripts beside it (memory.sh,
// throughput.sh); the output depends only on the flags.
//
//	go run ./scripts/perf/makevegeta -n 1000000 -o /tmp/vegeta-1m.json
//	go run ./scripts/perf/makevegeta -from ingest/vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz -n 1000000 -o /tmp/real-1m.json
//
// By default a synthetic attack: one target at a constant rate (5000/s)
// with send jitter, lognormal latencies (median 2 ms), a small JSON body,
// three headers, 0.1 % failing (half timeouts, status 0; half 503s);
// lines of about 300 bytes. With -from, a real log's lines repeated to -n,
// byte for byte but for each copy's timestamps (shifted by the log's span,
// rounded up to a second, plus 1 s) and seq; -spread D spreads the copies
// over D, stretching send times, not latencies.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
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
	from := flag.String("from", "", "a real vegeta JSON log to repeat (gzipped or not)")
	spread := flag.Duration("spread", 0, "with -from: the duration the whole log covers (0: the copies follow each other)")
	flag.Parse()
	if *n < 0 || !(*rate > 0) || *spread < 0 {
		log.Fatal("makevegeta: -n must be >= 0, -rate > 0 and -spread >= 0")
	}
	var lines [][]byte
	if *from != "" {
		var err error
		if lines, err = readLines(*from); err != nil {
			log.Fatal(err)
		}
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
	var err error
	if *from != "" {
		err = repeat(bw, lines, *n, *spread)
	} else {
		err = generate(bw, *n, *rate, *seed)
	}
	if err != nil {
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

// readLines returns the non-blank lines of a file, gunzipped when it is.
func readLines(name string) ([][]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		if b, err = io.ReadAll(zr); err != nil {
			return nil, err
		}
	}
	var lines [][]byte
	for l := range bytes.Lines(b) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: no lines", name)
	}
	return lines, nil
}

// field returns the bounds of the value of "key": in line (a string
// value's bounds exclude its quotes).
func field(line []byte, key string) (int, int, error) {
	k := []byte(`"` + key + `":`)
	i := bytes.Index(line, k)
	if i < 0 {
		return 0, 0, fmt.Errorf("no %q in %.80s", key, line)
	}
	i += len(k)
	if i < len(line) && line[i] == '"' {
		j := bytes.IndexByte(line[i+1:], '"')
		if j < 0 {
			return 0, 0, fmt.Errorf("unterminated %q in %.80s", key, line)
		}
		return i + 1, i + 1 + j, nil
	}
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	return i, j, nil
}

// repeat writes n lines: copies of lines with shifted timestamps and seq.
func repeat(w io.Writer, lines [][]byte, n int, spread time.Duration) error {
	type rec struct {
		ts       time.Time
		seq      uint64
		tsA, tsB int
		sqA, sqB int
	}
	recs := make([]rec, len(lines))
	var first, last time.Time
	for i, l := range lines {
		r := &recs[i]
		var err error
		if r.tsA, r.tsB, err = field(l, "timestamp"); err != nil {
			return err
		}
		if r.ts, err = time.Parse(time.RFC3339Nano, string(l[r.tsA:r.tsB])); err != nil {
			return err
		}
		if r.sqA, r.sqB, err = field(l, "seq"); err != nil {
			return err
		}
		if r.seq, err = strconv.ParseUint(string(l[r.sqA:r.sqB]), 10, 64); err != nil {
			return err
		}
		if r.sqB > r.tsA {
			return fmt.Errorf(`"seq" after "timestamp" in %.80s`, l)
		}
		if i == 0 || r.ts.Before(first) {
			first = r.ts
		}
		if i == 0 || r.ts.After(last) {
			last = r.ts
		}
	}
	span := last.Sub(first)
	step := (span+time.Second-1)/time.Second*time.Second + time.Second
	scale := 1.0 // stretch of a copy's send times
	if copies := (n + len(lines) - 1) / len(lines); spread > 0 {
		s := spread / time.Duration(copies)
		scale = float64(s) / float64(step)
		step = s
	}
	var buf []byte
	for i := range n {
		k, l, r := i/len(lines), lines[i%len(lines)], &recs[i%len(lines)]
		ts := first.Add(time.Duration(k)*step + time.Duration(float64(r.ts.Sub(first))*scale))
		buf = append(buf[:0], l[:r.sqA]...)
		buf = strconv.AppendUint(buf, r.seq+uint64(k*len(lines)), 10)
		buf = append(buf, l[r.sqB:r.tsA]...)
		buf = ts.AppendFormat(buf, time.RFC3339Nano)
		buf = append(buf, l[r.tsB:]...)
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}
