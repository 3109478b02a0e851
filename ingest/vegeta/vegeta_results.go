package vegeta

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mailru/easyjson/jlexer"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// The per-request results of vegeta, one vegeta.Result per request: gob
// (`vegeta attack`), JSON and CSV (`vegeta encode`). CSV is read with
// vegeta's own decoder; JSON and gob with decoders that read the same
// fields but skip the body and headers (faster, and safe on corrupt gob),
// checked against vegeta's by the tests. Every (attack name, method, URL)
// is a run. How records become requests, and malformed records:
// docs/FORMATS.md, section ingest/vegeta/vegeta_results.go.

// Encoding is an encoding of vegeta results.
type Encoding uint8

// The encodings of vegeta attack's results: JSON lines, CSV rows and its
// own gob stream.
const (
	JSON Encoding = iota
	CSV
	Gob
)

// ResultsParser reads vegeta results in one encoding (Enc).
type ResultsParser struct{ Enc Encoding }

// Name returns "vegeta-json", "vegeta-csv" or "vegeta-gob".
func (p ResultsParser) Name() string {
	switch p.Enc {
	case CSV:
		return "vegeta-csv"
	case Gob:
		return "vegeta-gob"
	}
	return "vegeta-json"
}

// Time range of plausible timestamps: Request.Start is in int64 ns.
var (
	vegetaMinTime = time.Unix(0, 0)
	vegetaMaxTime = time.Unix(maxUnixSeconds, 0)
)

// Detect reports whether head starts with vegeta results in the parser's
// encoding: the first record decodes and has a plausible timestamp. JSON: the first non-blank line is an object with "code",
// "timestamp" and "latency" keys; CSV: the first line has vegeta's twelve
// columns (Unix ns timestamp, code, latency ns, bytes out, bytes in, error,
// base64 body, attack, seq, method, URL, base64 headers); gob: the stream
// starts with the type of vegeta.Result (its field names).
func (p ResultsParser) Detect(head []byte) bool {
	switch p.Enc {
	case JSON:
		line := core.FirstNonBlank(head)
		if !jsonShape(line) {
			return false
		}
		var r vegeta.Result
		err := vegeta.NewJSONDecoder(bytes.NewReader(append(line[:len(line):len(line)], '\n'))).Decode(&r)
		return err == nil && timeOK(r.Timestamp)
	case CSV:
		line := core.FirstNonBlank(head)
		if !csvLooksRight(line) {
			return false
		}
		var r vegeta.Result
		err := vegeta.NewCSVDecoder(bytes.NewReader(append(line[:len(line):len(line)], '\n'))).Decode(&r)
		return err == nil && timeOK(r.Timestamp)
	case Gob:
		desc := head[:min(len(head), 512)]
		for _, name := range []string{"Result", "Code", "Timestamp", "Latency", "BytesIn"} {
			if !bytes.Contains(desc, []byte(name)) {
				return false
			}
		}
		var r gobResult
		dec, _ := newVegetaGobDecoder(bytes.NewReader(head))
		err := decodeVegetaGob(dec, &r)
		if err == nil {
			return timeOK(r.Timestamp)
		}
		// A first record larger than head (a big body): the type matched.
		return errors.Is(err, io.ErrUnexpectedEOF) && len(head) >= core.HeadSize
	}
	return false
}

// Misfit: a first result that would be detected but for its timestamp,
// outside the range read, is a *core.SyntaxError naming its line, the
// timestamp and the range (not "not output of a known load generator").
func (p ResultsParser) Misfit(head []byte) error {
	line := core.FirstNonBlank(head)
	var r vegeta.Result
	switch p.Enc {
	case JSON:
		if !jsonShape(line) {
			return nil
		}
		if vegeta.NewJSONDecoder(bytes.NewReader(append(line[:len(line):len(line)], '\n'))).Decode(&r) != nil {
			return timeMisfit(head, line)
		}
	case CSV:
		if !csvShape(line, true) {
			return nil
		}
		if vegeta.NewCSVDecoder(bytes.NewReader(append(line[:len(line):len(line)], '\n'))).Decode(&r) != nil {
			return timeMisfit(head, line)
		}
	default:
		return nil
	}
	if timeOK(r.Timestamp) {
		return nil
	}
	return &core.SyntaxError{Line: core.LineOf(head, line), Msg: fmt.Sprintf("%s result with timestamp %s: not %s", p.Name(), r.Timestamp.UTC().Format(time.RFC3339Nano), vegetaTimeRange)}
}

// vegetaTimeRange says which timestamps are read.
var vegetaTimeRange = fmt.Sprintf("in the range read (%s to %s)", vegetaMinTime.UTC().Format(time.RFC3339), vegetaMaxTime.UTC().Format(time.RFC3339))

// timeMisfit is the misfit of a first result that vegeta's decoder
// refuses: one for its timestamp (not a time, out of any range: a year of
// five digits, a CSV time before 1970) is named, anything else is none.
func timeMisfit(head, line []byte) error {
	var ts string
	if line[0] == '{' {
		var v struct{ Timestamp string }
		if json.Unmarshal(line, &v) != nil {
			return nil
		}
		if _, err := time.Parse(time.RFC3339Nano, v.Timestamp); err == nil {
			return nil
		}
		ts = v.Timestamp
	} else {
		ts, _, _ = strings.Cut(string(line), ",")
		if n, err := strconv.ParseInt(ts, 10, 64); err == nil && n >= 0 {
			return nil
		}
	}
	return &core.SyntaxError{Line: core.LineOf(head, line), Msg: fmt.Sprintf("vegeta result with timestamp %q: not a time %s", ts, vegetaTimeRange)}
}

// jsonShape reports whether line is an object with vegeta's
// "code", "timestamp" and "latency" keys.
func jsonShape(line []byte) bool {
	return len(line) > 0 && line[0] == '{' && bytes.Contains(line, []byte(`"timestamp"`)) &&
		bytes.Contains(line, []byte(`"latency"`)) && bytes.Contains(line, []byte(`"code"`))
}

// csvLooksRight checks the columns of a vegeta CSV record by their
// content before the decoder is tried.
func csvLooksRight(line []byte) bool { return csvShape(line, false) }

// csvShape is csvLooksRight, with a timestamp of any int64
// value when anyTime is set.
func csvShape(line []byte, anyTime bool) bool {
	if len(line) == 0 || (line[0] < '0' || line[0] > '9') && !(anyTime && line[0] == '-') {
		return false
	}
	cr := csv.NewReader(bytes.NewReader(line))
	cr.FieldsPerRecord = 12
	rec, err := cr.Read()
	if err != nil {
		return false
	}
	ts, err := strconv.ParseInt(rec[0], 10, 64)
	if anyTime && errors.Is(err, strconv.ErrRange) {
		err = nil
	}
	if err != nil || ts < 1e17 && !anyTime { // Unix ns since 1973
		return false
	}
	for _, i := range []int{1, 2, 3, 4, 8} {
		if _, err := strconv.ParseUint(rec[i], 10, 64); err != nil {
			return false
		}
	}
	if rec[9] == "" {
		return false
	}
	for _, c := range []byte(rec[9]) {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return bytes.Contains([]byte(rec[10]), []byte("://"))
}

func timeOK(t time.Time) bool {
	return !t.Before(vegetaMinTime) && t.Before(vegetaMaxTime)
}

// lineFeeder is an io.Reader over the lines of a bufio.Reader that hands
// out at most one line per Read call, so that a decoder on top of it never
// reads past the record it decodes: line then is that record's last line.
// Lines longer than the buffer are replaced by a line that decodes as
// nothing (memory stays bounded); blank lines are skipped; a last line
// without a line end gets one.
type lineFeeder struct {
	br    *bufio.Reader
	cur   []byte
	line  int   // lines handed out so far
	size  int64 // bytes of the line last handed out, as read
	total int64 // bytes read, blank lines included
	err   error // read error of br other than io.EOF
	tmp   []byte
}

func newVegetaLineFeeder(r io.Reader) *lineFeeder {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < core.MaxLine {
		br = bufio.NewReaderSize(r, core.MaxLine)
	}
	return &lineFeeder{br: br}
}

// Read implements io.Reader.
func (f *lineFeeder) Read(p []byte) (int, error) {
	for len(f.cur) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		b, err := f.br.ReadSlice('\n')
		f.size = int64(len(b))
		f.total += int64(len(b))
		if err == bufio.ErrBufferFull {
			for err == bufio.ErrBufferFull {
				b, err = f.br.ReadSlice('\n')
				f.size += int64(len(b))
				f.total += int64(len(b))
			}
			if err != nil && err != io.EOF {
				f.err = err
				return 0, err
			}
			f.line++
			f.cur = []byte("\x00\n") // decodes as a malformed record
			break
		}
		if err != nil {
			if err != io.EOF {
				f.err = err
				return 0, err
			}
			if len(b) == 0 {
				return 0, io.EOF
			}
			f.tmp = append(append(f.tmp[:0], b...), '\n')
			b = f.tmp
		}
		f.line++
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		f.cur = b
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	return n, nil
}

// key tells the runs of a results stream apart.
type key struct{ attack, method, url string }

// agg passes results to the aggregator, one run per key.
type agg struct {
	a       *requests.Requests
	handles map[key]int
	last    key // the key of the previous result, mostly the same
	lastH   int
	hasLast bool
}

// handle returns the run of a result's attack, method and URL; the
// arguments may point into a reused buffer.
func handle[S string | []byte](g *agg, attack, method, url S) int {
	if g.hasLast && string(attack) == g.last.attack && string(method) == g.last.method && string(url) == g.last.url {
		return g.lastH
	}
	k := key{string(attack), string(method), string(url)}
	h, ok := g.handles[k]
	if !ok {
		h = run(g.a, g.handles, k)
	}
	g.last, g.lastH, g.hasLast = k, h, true
	return h
}

// add records one result read at line, in the run of its attack, method
// and URL (which may point into a reused buffer). A result with an
// implausible timestamp or a negative latency is a malformed line, and
// creates no run.
func add[S string | []byte](g *agg, line int, attack, method, url S, ts time.Time, latency int64, code uint16, bytesIn uint64, errMsg string) error {
	if !timeOK(ts) {
		g.a.Bad(line, "timestamp "+ts.UTC().Format(time.RFC3339Nano)+" not "+vegetaTimeRange)
		return nil
	}
	if latency < 0 {
		g.a.Bad(line, "latency "+time.Duration(latency).String())
		return nil
	}
	h := handle(g, attack, method, url)
	return g.a.Add(h, line, requests.Request{Start: ts.UnixNano(), LatencyMs: float64(latency) / 1e6, Status: int32(code),
		BytesIn: int64(min(bytesIn, math.MaxInt64)), Error: errMsg})
}

// Parse streams the results in r to sink, one run per attack and target.
func (p ResultsParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	g := &agg{a: requests.NewRequests(opts, sink), handles: make(map[key]int)}
	if p.Enc == JSON {
		return g.parseJSON(ctx, r, opts)
	}
	if p.Enc == Gob {
		return g.parseGob(ctx, r, opts)
	}
	// CSV, with vegeta's decoder over one line at a time.
	feed := newVegetaLineFeeder(r)
	dec := vegeta.NewCSVDecoder(feed)
	var res vegeta.Result
	for n := 1; ; n++ {
		if err := core.CheckCtx(ctx, n); err != nil {
			return err
		}
		res = vegeta.Result{}
		err := decodeVegeta(dec, &res)
		line := feed.line
		if feed.err != nil {
			return core.ReadError(opts.Source, feed.err)
		}
		if err == io.EOF {
			break
		}
		g.a.Record(feed.size)
		if err != nil {
			g.a.Bad(line, err.Error())
			continue
		}
		if err := add(g, line, res.Attack, res.Method, res.URL, res.Timestamp, int64(res.Latency), res.Code, res.BytesIn, res.Error); err != nil {
			return err
		}
	}
	g.a.InputSize(feed.total)
	return g.a.Close()
}

// parseJSON reads JSON lines with decodeVegetaJSON: the fields vegeta's
// JSON decoder reads, without decoding the body or building the headers
// (which loadverdict does not keep). A reader goroutine cuts the input into
// batches of lines, decoder goroutines decode the batches in parallel, and
// the caller's goroutine aggregates them in input order (while the sink
// works on the samples). A few batches of at most vegetaBatchLen lines and
// about vegetaBatchBytes bytes are in flight, so memory stays bounded.
func (g *agg) parseJSON(ctx context.Context, r io.Reader, opts core.Options) error {
	var total int64 // bytes read, set by the reader before it ends
	err := core.InOrder(core.BatchWorkers(), func() *batch { return &batch{} },
		func(get func() (*batch, bool), put func() bool) {
			total = readVegetaLines(ctx, r, opts, get, put)
		},
		(*batch).decode,
		func(b *batch) error {
			for i := range b.recs {
				e := &b.recs[i]
				g.a.Record(e.size)
				if e.bad != "" {
					g.a.Bad(e.line, e.bad)
					continue
				}
				var errMsg string
				if len(e.rec.err) > 0 {
					errMsg = string(e.rec.err)
				}
				if err := add(g, e.line, e.rec.attack, e.rec.method, e.rec.url, e.rec.ts, e.rec.latency, e.rec.code, e.rec.bytesIn, errMsg); err != nil {
					return err
				}
			}
			if se, ok := b.err.(*core.SyntaxError); ok && se.File == "" {
				se.File = opts.Source
			}
			return b.err
		})
	if err != nil {
		return err
	}
	g.a.InputSize(total)
	return g.a.Close()
}

// Bounds of a batch of lines.
const (
	vegetaBatchLen   = 1024
	vegetaBatchBytes = 256 << 10
)

// batch is a batch of input lines, copied into raw, and once
// decoded, their results.
type batch struct {
	raw  []byte
	recs []entry
	err  error // the error that ended the input, after recs
}

// entry is one line: its place in raw, then its decoded result or
// why it is malformed (bad).
type entry struct {
	line       int
	start, end int
	size       int64 // bytes of the line as read
	bad        string
	rec        record
}

// decode decodes the lines of the batch: in vegeta's own layout with
// decodeVegetaJSONFast, any other with decodeVegetaJSON.
func (b *batch) decode() {
	defer func() {
		if p := recover(); p != nil {
			// An input the decoder cannot take; Parse names the file.
			b.err = &core.SyntaxError{Msg: fmt.Sprintf("vegeta JSON decoder failed: %v", p)}
		}
	}()
	for i := range b.recs {
		e := &b.recs[i]
		if e.bad != "" {
			continue
		}
		line := b.raw[e.start:e.end]
		if decodeVegetaJSONFast(line, &e.rec) {
			continue
		}
		if err := decodeVegetaJSON(line, &e.rec); err != nil {
			msg := err.Error()
			if len(msg) > 200 {
				msg = msg[:200] + "..."
			}
			e.bad = msg
		}
	}
}

// readVegetaLines cuts r into batches of non-blank lines (see inOrder's
// get and put) until the input ends or an error, and returns the bytes
// read.
func readVegetaLines(ctx context.Context, r io.Reader, opts core.Options, get func() (*batch, bool), put func() bool) (total int64) {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < core.MaxLine {
		br = bufio.NewReaderSize(r, core.MaxLine)
	}
	line := 0
	var b *batch
	send := func() bool {
		b = nil
		return put()
	}
	for {
		if b == nil {
			if b, ok = get(); !ok {
				return
			}
			b.raw, b.recs, b.err = b.raw[:0], b.recs[:0], nil
		}
		data, err := br.ReadSlice('\n')
		total += int64(len(data))
		if err == bufio.ErrBufferFull {
			size := int64(len(data))
			for err == bufio.ErrBufferFull {
				data, err = br.ReadSlice('\n')
				size += int64(len(data))
				total += int64(len(data))
			}
			line++
			b.recs = append(b.recs, entry{line: line, size: size, bad: fmt.Sprintf("line longer than %d bytes", core.MaxLine)})
		} else if len(data) > 0 {
			line++
			if len(bytes.TrimSpace(data)) > 0 {
				start := len(b.raw)
				b.raw = append(b.raw, data...)
				b.recs = append(b.recs, entry{line: line, start: start, end: len(b.raw), size: int64(len(data))})
			}
		}
		if err == nil && line%core.CtxEvery == 0 {
			err = ctx.Err()
		}
		switch {
		case err == io.EOF:
			send()
			return
		case err != nil:
			if err != ctx.Err() {
				err = core.ReadError(opts.Source, err)
			}
			b.err = err
			send()
			return
		case len(b.recs) >= vegetaBatchLen || len(b.raw) >= vegetaBatchBytes:
			if !send() {
				return
			}
		}
	}
}

// record is what the parser keeps of one JSON result; the byte
// slices point into the line.
type record struct {
	attack, method, url, err []byte
	code                     uint16
	ts                       time.Time
	latency                  int64
	bytesIn                  uint64
}

// Bits of the fields decodeVegetaJSON reads, in the order vegeta writes them.
const (
	vegetaFieldAttack = 1 << iota
	vegetaFieldCode
	vegetaFieldTimestamp
	vegetaFieldLatency
	vegetaFieldBytesIn
	vegetaFieldError
	vegetaFieldMethod
	vegetaFieldURL
	vegetaFieldAll = 1<<iota - 1
)

// keyBit maps a key to its bit, 0 for keys not read.
func keyBit(key string) int {
	switch key {
	case "attack":
		return vegetaFieldAttack
	case "code":
		return vegetaFieldCode
	case "timestamp":
		return vegetaFieldTimestamp
	case "latency":
		return vegetaFieldLatency
	case "bytes_in":
		return vegetaFieldBytesIn
	case "error":
		return vegetaFieldError
	case "method":
		return vegetaFieldMethod
	case "url":
		return vegetaFieldURL
	}
	return 0
}

// decodeVegetaJSON decodes one line of `vegeta encode --to json` the way
// vegeta's generated decoder does (same lexer, same rules per field, same
// errors), but without copying strings, decoding the body's base64 or
// building the headers: it is 3 to 4 times faster and allocates nothing.
// vegeta writes "headers" last: when every field read has been seen by
// then, the rest of the line is not read (nor checked), which saves a
// quarter of the time. Keys after "headers" (vegeta writes none; a file
// edited to repeat a key there would differ) are then not read.
func decodeVegetaJSON(line []byte, r *record) error {
	return decodeVegetaJSONMode(line, r, true)
}

// decodeVegetaJSONMode is decodeVegetaJSON, reading the whole line unless
// stopAtHeaders.
func decodeVegetaJSONMode(line []byte, r *record, stopAtHeaders bool) error {
	*r = record{}
	in := jlexer.Lexer{Data: line}
	if in.IsNull() {
		in.Consumed()
		in.Skip()
		return in.Error()
	}
	seen := 0
	in.Delim('{')
	for !in.IsDelim('}') {
		key := in.UnsafeFieldName(false)
		in.WantColon()
		seen |= keyBit(key)
		if in.IsNull() {
			in.Skip()
			in.WantComma()
			continue
		}
		switch key {
		case "attack":
			r.attack = in.UnsafeBytes()
		case "seq", "bytes_out":
			in.Uint64()
		case "code":
			r.code = in.Uint16()
		case "timestamp":
			if data := in.Raw(); in.Ok() {
				in.AddError(r.ts.UnmarshalJSON(data))
			}
		case "latency":
			r.latency = in.Int64()
		case "bytes_in":
			r.bytesIn = in.Uint64()
		case "error":
			r.err = in.UnsafeBytes()
		case "method":
			r.method = in.UnsafeBytes()
		case "url":
			r.url = in.UnsafeBytes()
		case "body":
			// A string: its base64 is not decoded (nor checked).
			in.UnsafeFieldName(true)
		case "headers":
			if stopAtHeaders && seen == vegetaFieldAll {
				return in.Error()
			}
			skipVegetaHeaders(&in)
		default:
			in.SkipRecursive()
		}
		in.WantComma()
	}
	in.Delim('}')
	in.Consumed()
	return in.Error()
}

// skipVegetaHeaders reads the headers, an object of arrays of strings,
// without building it.
func skipVegetaHeaders(in *jlexer.Lexer) {
	in.Delim('{')
	for !in.IsDelim('}') {
		in.UnsafeFieldName(true)
		in.WantColon()
		if in.IsNull() {
			in.Skip()
		} else {
			in.Delim('[')
			for !in.IsDelim(']') {
				in.UnsafeFieldName(true)
				in.WantComma()
			}
			in.Delim(']')
		}
		in.WantComma()
	}
	in.Delim('}')
}

// maxVegetaTargets bounds the runs of a results stream: each run holds
// histograms, and attacks with a targets file may hit thousands of URLs.
const maxVegetaTargets = 32

// run returns the handle of the run of k, creating it. Beyond
// maxVegetaTargets targets, the requests of further targets go to one run
// per attack, method and host (scheme://host/).
func run(a *requests.Requests, handles map[key]int, k key) int {
	meta := requests.RequestRun{Tool: "vegeta", LoadModel: results.LoadOpen, Target: k.url, UnixTime: true, Endpoint: core.EndpointOf(k.method, k.url)}
	if k.attack != "" {
		meta.Notes = append(meta.Notes, "vegeta attack "+strconv.Quote(k.attack))
	}
	if len(handles) >= maxVegetaTargets {
		host := k.url
		if i := strings.Index(host, "://"); i >= 0 {
			if j := strings.IndexAny(host[i+3:], "/?#"); j >= 0 {
				host = host[:i+3+j]
			}
			host += "/"
		}
		meta.Target, meta.Endpoint = host, ""
		meta.Notes = append(meta.Notes, fmt.Sprintf("more than %d targets: the requests to the others are merged per host", maxVegetaTargets))
		return a.Run(k.attack+"\x00"+k.method+" "+host+"\x00merged", meta)
	}
	h := a.Run(k.attack+"\x00"+k.method+" "+k.url, meta)
	handles[k] = h
	return h
}

// gobResult is vegeta.Result without the fields loadverdict does not
// keep. gob matches struct fields by name and skips the others in the
// stream without building them: the body is not copied, and a corrupt
// count of header entries cannot make the decoder allocate a huge map (as
// it does when decoding into vegeta.Result).
type gobResult struct {
	Attack    string
	Seq       uint64
	Code      uint16
	Timestamp time.Time
	Latency   time.Duration
	BytesIn   uint64
	Error     string
	Method    string
	URL       string
}

// maxVegetaGobMessage bounds a gob message (one result, or a type): a
// corrupt length cannot make the decoder read gigabytes into memory.
// vegeta keeps whole response bodies by default, so results can be large.
const maxVegetaGobMessage = 64 << 20

// newVegetaGobDecoder returns a gob decoder of r whose messages are at
// most maxVegetaGobMessage bytes, and its guard.
func newVegetaGobDecoder(r io.Reader) (*gob.Decoder, *gobGuard) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	g := &gobGuard{br: br}
	return gob.NewDecoder(g), g
}

// gobGuard passes a gob stream through message by message (a count, then
// that many bytes) and fails a message longer than maxVegetaGobMessage.
type gobGuard struct {
	br     *bufio.Reader
	left   int64 // bytes of the current message (with its count) still to pass
	passed int64 // bytes passed so far
	err    error
}

// Read implements io.Reader.
func (g *gobGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	if g.left == 0 {
		b, err := g.br.Peek(1)
		if err != nil {
			return 0, err
		}
		hdr, n := 1, uint64(b[0])
		if b[0] > 0x7f {
			// A byte count (negated), then the count big-endian.
			k := -int(int8(b[0]))
			if b, err = g.br.Peek(1 + k); k > 8 || err != nil {
				g.left = int64(max(len(b), 1)) // let gob fail on it
			} else {
				n = 0
				for _, c := range b[1:] {
					n = n<<8 | uint64(c)
				}
				hdr = 1 + k
			}
		}
		if g.left == 0 {
			if n > maxVegetaGobMessage {
				g.err = fmt.Errorf("gob message of %d bytes (more than %d)", n, maxVegetaGobMessage)
				return 0, g.err
			}
			g.left = int64(hdr) + int64(n)
		}
	}
	if int64(len(p)) > g.left {
		p = p[:g.left]
	}
	n, err := g.br.Read(p)
	g.left -= int64(n)
	g.passed += int64(n)
	return n, err
}

// parseGob reads a gob stream of results. A corrupt or truncated record
// ends it (a gob stream cannot be resynchronized) as one malformed record,
// and every byte from its start to the end of the input is malformed: a
// valid stream followed by junk is rejected unless the junk is at most
// 1 % of the input. An error of the reader is returned as such.
func (g *agg) parseGob(ctx context.Context, r io.Reader, opts core.Options) error {
	src := &core.TrackReader{R: r}
	dec, guard := newVegetaGobDecoder(src)
	var res gobResult
	var good int64 // bytes of the records read so far
	for n := 1; ; n++ {
		if err := core.CheckCtx(ctx, n); err != nil {
			return err
		}
		res = gobResult{}
		err := decodeVegetaGob(dec, &res)
		if err == io.EOF {
			break
		}
		if err != nil {
			if src.Err != nil {
				return core.ReadError(opts.Source, src.Err)
			}
			if n == 1 {
				return &core.SyntaxError{File: opts.Source, Msg: "vegeta gob results: first record: " + err.Error(), Err: err}
			}
			rest, derr := io.Copy(io.Discard, guard.br)
			if derr != nil {
				return core.ReadError(opts.Source, derr)
			}
			g.a.Record(guard.passed - good + rest)
			g.a.Bad(n, "record "+strconv.Itoa(n)+": "+err.Error())
			g.a.InputSize(guard.passed + rest)
			return g.a.Close()
		}
		g.a.Record(guard.passed - good)
		good = guard.passed
		if err := add(g, n, res.Attack, res.Method, res.URL, res.Timestamp, int64(res.Latency), res.Code, res.BytesIn, res.Error); err != nil {
			return err
		}
	}
	g.a.InputSize(guard.passed)
	return g.a.Close()
}

// decodeVegetaGob decodes one result, turning a panic into an error.
func decodeVegetaGob(dec *gob.Decoder, r *gobResult) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("gob decoder failed: %v", p)
		}
	}()
	return dec.Decode(r)
}

// decodeVegeta calls dec and turns a panic of a decoder (gob guards
// against malicious input, but a decoder is outside this package) into an
// error.
func decodeVegeta(dec vegeta.Decoder, r *vegeta.Result) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("decoder failed: %v", p)
		}
	}()
	return dec.Decode(r)
}
