package jmeter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
)

// CSVParser reads JMeter's CSV results with a header line
// (jmeter.save.saveservice.print_field_names=true, the default since
// JMeter 3.0): columns are found by their names, in any order and number
// (timeStamp and elapsed required), separated by a comma, tab, semicolon
// or vertical bar (jmeter.save.saveservice.default_delimiter); time stamps
// in milliseconds or in a timestamp_format such as yyyy/MM/dd HH:mm:ss.SSS.
type CSVParser struct{}

// Name returns "jmeter-csv".
func (CSVParser) Name() string { return "jmeter-csv" }

// Detect reports whether the first line of head is a JMeter CSV header.
func (CSVParser) Detect(head []byte) bool {
	_, ok := jtlParseHeader(jtlFirstLine(head))
	return ok
}

// Parse streams the samples of a JMeter CSV file as requests.
func (CSVParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return parseJTLCSV(ctx, r, opts, sink)
}

// jtlColumns are the indexes of the columns read (-1 when absent).
type jtlColumns struct {
	comma                                                    rune
	n                                                        int // fields of a record, 0 for any
	ts, elapsed, label, code, message, success, failure, url int
	bytes, grp, all                                          int
}

// jtlColumnsOf maps column names (JMeter's, any case) to indexes.
func jtlColumnsOf(names []string, comma rune) jtlColumns {
	c := jtlColumns{comma: comma, n: len(names), ts: -1, elapsed: -1, label: -1, code: -1, message: -1, success: -1,
		failure: -1, url: -1, bytes: -1, grp: -1, all: -1}
	for i, name := range names {
		var dst *int
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "timestamp":
			dst = &c.ts
		case "elapsed":
			dst = &c.elapsed
		case "label":
			dst = &c.label
		case "responsecode":
			dst = &c.code
		case "responsemessage":
			dst = &c.message
		case "success":
			dst = &c.success
		case "failuremessage":
			dst = &c.failure
		case "url":
			dst = &c.url
		case "bytes":
			dst = &c.bytes
		case "grpthreads":
			dst = &c.grp
		case "allthreads":
			dst = &c.all
		}
		if dst != nil && *dst < 0 {
			*dst = i
		}
	}
	return c
}

// isHeader reports whether the columns are those of a JMeter header.
func (c jtlColumns) isHeader() bool {
	return c.ts >= 0 && c.elapsed >= 0 && (c.label >= 0 || c.success >= 0 || c.code >= 0)
}

// jtlFirstLine returns the first non-empty line of head, without a UTF-8
// byte order mark and line end.
func jtlFirstLine(head []byte) []byte {
	head = bytes.TrimPrefix(head, core.UTF8BOM)
	head = bytes.TrimLeft(head, "\r\n")
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	if len(head) > 64<<10 {
		return nil
	}
	return bytes.TrimRight(head, "\r")
}

// jtlParseHeader reads a header line with any of JMeter's usual
// delimiters.
func jtlParseHeader(line []byte) (jtlColumns, bool) {
	if len(line) == 0 {
		return jtlColumns{}, false
	}
	for _, comma := range []rune{',', '\t', ';', '|'} {
		if !bytes.ContainsRune(line, comma) {
			continue
		}
		cr := csv.NewReader(bytes.NewReader(line))
		cr.Comma = comma
		cr.FieldsPerRecord = -1
		rec, err := cr.Read()
		if err != nil {
			continue
		}
		if c := jtlColumnsOf(rec, comma); c.isHeader() {
			return c, true
		}
	}
	return jtlColumns{}, false
}

// Header-less layouts, by number of fields.
var (
	jtlBaseNames = []string{"timeStamp", "elapsed", "label", "responseCode", "responseMessage", "threadName", "dataType", "success"}
	// The first eight columns, with any number of fields after them.
	jtlBareBase = func() jtlColumns {
		c := jtlColumnsOf(jtlBaseNames, ',')
		c.n = 0
		return c
	}()
	jtlBareLayout = map[int]jtlColumns{
		// JMeter 2.13 defaults.
		12: jtlColumnsOf(append(append([]string{}, jtlBaseNames...), "bytes", "grpThreads", "allThreads", "Latency"), ','),
		// JMeter 3.2 to 5.x defaults.
		17: jtlColumnsOf(append(append([]string{}, jtlBaseNames...), "failureMessage", "bytes", "sentBytes", "grpThreads",
			"allThreads", "URL", "Latency", "IdleTime", "Connect"), ','),
	}
)

// jtlBareRecord reports whether rec looks like a header-less JMeter record.
func jtlBareRecord(rec []string) bool {
	if len(rec) < 8 || len(rec[0]) < 11 || len(rec[0]) > 13 || !jtlAllDigits(rec[0]) ||
		len(rec[1]) == 0 || len(rec[1]) > 10 || !jtlAllDigits(rec[1]) {
		return false
	}
	return rec[7] == "true" || rec[7] == "false"
}

func jtlAllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

// jtlBareComma returns the delimiter with which the first (up to five)
// complete records of head are header-less JMeter records.
func jtlBareComma(head []byte) (rune, bool) {
	head = bytes.TrimPrefix(head, core.UTF8BOM)
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i+1]
	} else if len(head) >= core.HeadSize {
		return 0, false
	}
	for _, comma := range []rune{',', '\t'} {
		cr := csv.NewReader(bytes.NewReader(head))
		cr.Comma = comma
		cr.FieldsPerRecord = -1
		n := 0
		for n < 5 {
			rec, err := cr.Read()
			if err == io.EOF {
				break
			}
			if err != nil || !jtlBareRecord(rec) {
				n = -1
				break
			}
			n++
		}
		if n > 0 {
			return comma, true
		}
	}
	return 0, false
}

// parseJTLCSV reads JMeter CSV results, with or without a header line (a
// header may also come later, as in concatenated files: it applies to the
// records after it).
func parseJTLCSV(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	if b, _ := br.Peek(3); bytes.Equal(b, core.UTF8BOM) {
		_, _ = br.Discard(3)
	}
	head, err := br.Peek(min(br.Size(), 64<<10))
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return core.ReadError(opts.Source, err)
	}
	c := jtlCSV{g: newJTLAgg(opts, sink), comma: ','}
	if h, ok := jtlParseHeader(jtlFirstLine(head)); ok {
		c.cols, c.header, c.comma = h, true, h.comma
	} else if comma, ok := jtlBareComma(head); ok {
		c.comma = comma
	}
	recs := core.NewCSVRecords(ctx, br, opts.Source, c.comma, jtlMaxRecord)
	for {
		rec, err := recs.Next()
		if err == io.EOF {
			break
		}
		c.g.a.Record(recs.Size)
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			c.g.bad(pe.StartLine, pe.Err.Error())
			continue
		}
		if err != nil {
			return err
		}
		if err := c.record(rec, recs.Line); err != nil {
			return err
		}
	}
	if c.unknown > 0 {
		c.g.note(fmt.Sprintf("%d records without a header in an unknown column layout (e.g. %d fields): bytes, threads and URL not read", c.unknown, c.unknownFields))
	}
	c.g.a.InputSize(recs.Offset())
	return c.g.close(ctx)
}

// jtlCSV is a JMeter CSV file being read: the columns of the last header
// (when there was one), and the records read in an unknown bare layout.
type jtlCSV struct {
	g             *jtlAgg
	cols          jtlColumns
	header        bool
	comma         rune
	tp            jtlTime
	unknown       int64
	unknownFields int
}

// record reads one record at line: a header, or a sample.
func (c *jtlCSV) record(rec []string, line int) error {
	if len(rec) > 0 && rec[0] != "" && (rec[0][0] < '0' || rec[0][0] > '9') {
		if h := jtlColumnsOf(rec, c.comma); h.isHeader() {
			c.cols, c.header = h, true
			c.g.a.Good()
			return nil
		}
	}
	s, msg := c.sample(rec)
	if msg != "" {
		c.g.bad(line, msg)
		return nil
	}
	s.line = line
	return c.g.add(&s)
}

// sample converts a record by the header's columns or, without one, by
// the bare layout of its number of fields, else (or when that fails) by
// the columns every bare layout starts with.
func (c *jtlCSV) sample(rec []string) (jtlSample, string) {
	if c.header {
		return jtlRecord(rec, c.cols, &c.tp, c.g)
	}
	var s jtlSample
	var msg string
	layout, known := jtlBareLayout[len(rec)]
	if known {
		s, msg = jtlRecord(rec, layout, &c.tp, c.g)
	}
	if !known || msg != "" {
		if s, msg = jtlRecord(rec, jtlBareBase, &c.tp, c.g); msg == "" {
			c.unknown++
			c.unknownFields = len(rec)
		}
	}
	return s, msg
}

// jtlRecord converts a CSV record; msg says what is wrong with a
// malformed one.
func jtlRecord(rec []string, c jtlColumns, tp *jtlTime, g *jtlAgg) (s jtlSample, msg string) {
	if c.n > 0 && len(rec) != c.n {
		return s, fmt.Sprintf("%d fields, the header has %d", len(rec), c.n)
	}
	get := func(i int) string {
		if i < 0 || i >= len(rec) {
			return ""
		}
		return rec[i]
	}
	if len(rec) <= max(c.ts, c.elapsed) {
		return s, fmt.Sprintf("%d fields", len(rec))
	}
	var ok bool
	if s.start, ok = tp.parse(get(c.ts), g); !ok {
		return s, fmt.Sprintf("time stamp %q %s", jtlClip(get(c.ts)), jtlTimeRange)
	}
	if s.elapsedMs, ok = jtlElapsed(get(c.elapsed)); !ok {
		return s, fmt.Sprintf("elapsed %q", jtlClip(get(c.elapsed)))
	}
	s.label, s.code, s.message, s.failure, s.url = get(c.label), get(c.code), get(c.message), get(c.failure), get(c.url)
	if c.success >= 0 {
		if s.success, ok = jtlBool(get(c.success)); !ok {
			return s, fmt.Sprintf("success %q", jtlClip(get(c.success)))
		}
	} else {
		st, isHTTP := jtlHTTPStatus(s.code)
		s.success = isHTTP && st < 400
	}
	if s.bytes, ok = jtlInt(get(c.bytes)); !ok {
		return s, fmt.Sprintf("bytes %q", jtlClip(get(c.bytes)))
	}
	all, okAll := jtlInt(get(c.all))
	grp, okGrp := jtlInt(get(c.grp))
	if !okAll || !okGrp {
		return s, "thread counts not integers"
	}
	s.threads = all
	if all == 0 {
		s.threads = grp
	}
	return s, ""
}
