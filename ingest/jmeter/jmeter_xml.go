package jmeter

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/loadverdict/loadverdict/ingest/core"
)

// XMLParser reads JMeter's XML results
// (jmeter.save.saveservice.output_format=xml): a <testResults> root whose
// <httpSample> and <sample> elements carry the sample in attributes (t
// elapsed, ts time stamp, s success, lb label, rc response code, rm
// message, by bytes, ng/na thread counts) and in child elements
// (<java.net.URL>, <assertionResult> with a <failureMessage>). Samples
// nest: the children of an ordinary sample are its sub-results (redirects,
// embedded resources), part of its request and not counted; the children of
// a transaction controller's parent sample are the requests. Tokens stream
// through encoding/xml's Decoder. A file cut short (JMeter stopped before
// writing </testResults>) is read up to its last complete sample, with a
// note.
type XMLParser struct{}

// Name returns "jmeter-xml".
func (XMLParser) Name() string { return "jmeter-xml" }

// Detect reports whether the root element of head is <testResults>.
func (XMLParser) Detect(head []byte) bool {
	b := bytes.TrimPrefix(head, core.UTF8BOM)
	for range 64 {
		b = bytes.TrimLeft(b, " \t\r\n")
		switch {
		case bytes.HasPrefix(b, []byte("<?")):
			i := bytes.Index(b, []byte("?>"))
			if i < 0 {
				return false
			}
			b = b[i+2:]
		case bytes.HasPrefix(b, []byte("<!--")):
			i := bytes.Index(b[4:], []byte("-->"))
			if i < 0 {
				return false
			}
			b = b[4+i+3:]
		case bytes.HasPrefix(b, []byte("<!")):
			i := bytes.IndexByte(b, '>')
			if i < 0 {
				return false
			}
			b = b[i+1:]
		default:
			rest, ok := bytes.CutPrefix(b, []byte("<testResults"))
			return ok && len(rest) > 0 && strings.IndexByte(" \t\r\n>/", rest[0]) >= 0
		}
	}
	return false
}

// jtlFrame is a sample element being read.
type jtlFrame struct {
	start     int64 // offset of its start tag
	s         jtlSample
	bad       string // what is wrong with its attributes
	request   bool   // counted as a request
	container bool   // a transaction whose children are requests
	inner     int    // depth of non-sample elements open inside it
	assertion int    // depth at which an <assertionResult> is open, 0 when none
}

// jtlMaxDepth bounds the nesting of samples.
const jtlMaxDepth = 64

// Parse streams the samples of a JMeter XML file as requests.
func (XMLParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	src := &core.TrackReader{R: r}
	guard := core.NewXMLGuard(src, opts.Source)
	x := &jtlXML{g: newJTLAgg(opts, sink), d: xml.NewDecoder(guard), source: opts.Source}
	x.d.CharsetReader = func(label string, input io.Reader) (io.Reader, error) {
		out, err := jtlCharset(label, input)
		x.charsetErr = err
		return out, err
	}
	truncated := false
	for n := 0; ; n++ {
		if err := core.CheckCtx(ctx, n); err != nil {
			return err
		}
		start := x.d.InputOffset()
		guard.Mark()
		tok, err := x.d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			cut, err := jtlXMLError(x.d, src, opts.Source, err, x.charsetErr, x.root)
			if err != nil {
				return err
			}
			truncated = cut
			break
		}
		if err := x.token(tok, start); err != nil {
			return err
		}
	}
	if !x.root {
		return &core.SyntaxError{File: opts.Source, Msg: "no <testResults> element"}
	}
	if truncated {
		x.g.note("the file ends before </testResults> (JMeter stopped or still writing): samples after the last complete one are missing")
	}
	x.g.a.InputSize(x.d.InputOffset())
	return x.g.close(ctx)
}

// jtlXML is a JMeter XML file being read: the open samples, and the text
// of the element being captured ("url" or "failure": what text is for).
type jtlXML struct {
	g          *jtlAgg
	d          *xml.Decoder
	source     string
	charsetErr error
	tp         jtlTime
	stack      []*jtlFrame
	text       []byte
	capture    string
	root       bool
}

// token reads one token that starts at the offset start.
func (x *jtlXML) token(tok xml.Token, start int64) error {
	switch t := tok.(type) {
	case xml.StartElement:
		return x.startElement(t, start)
	case xml.CharData:
		x.charData(t)
	case xml.EndElement:
		return x.endElement()
	}
	return nil
}

// top is the innermost open sample, or nil.
func (x *jtlXML) top() *jtlFrame {
	if len(x.stack) == 0 {
		return nil
	}
	return x.stack[len(x.stack)-1]
}

// startElement opens the root, a sample, or an element inside a sample
// (capturing a request's URL and first assertion failure).
func (x *jtlXML) startElement(t xml.StartElement, start int64) error {
	name := t.Name.Local
	if !x.root {
		if name != "testResults" {
			line, _ := x.d.InputPos()
			return &core.SyntaxError{File: x.source, Line: line, Msg: fmt.Sprintf("XML root <%s>, not <testResults>", jtlClip(name))}
		}
		x.root = true
		return nil
	}
	top := x.top()
	if name == "httpSample" || name == "sample" {
		return x.openSample(t, start, top)
	}
	if top == nil {
		return nil
	}
	top.inner++
	switch {
	case !top.request:
	case name == "java.net.URL" && top.inner == 1:
		x.capture, x.text = "url", x.text[:0]
	case name == "assertionResult" && top.inner == 1:
		top.assertion = top.inner
	case name == "failureMessage" && top.assertion > 0 && top.inner == top.assertion+1 && top.s.failure == "":
		x.capture, x.text = "failure", x.text[:0]
	}
	return nil
}

// openSample opens a sample inside top (nil at the top level): a request
// unless it is a transaction or inside a sample that is not one.
func (x *jtlXML) openSample(t xml.StartElement, start int64, top *jtlFrame) error {
	line, _ := x.d.InputPos()
	if len(x.stack) >= jtlMaxDepth {
		return &core.SyntaxError{File: x.source, Line: line, Msg: fmt.Sprintf("samples nested more than %d deep", jtlMaxDepth)}
	}
	f := &jtlFrame{start: start}
	f.s.line = line
	f.bad = jtlAttrs(&f.s, t.Attr, &x.tp, x.g)
	tx := isJMeterTransaction(f.s.message)
	outer := top == nil || top.container
	f.request = !tx && outer
	f.container = tx && outer
	x.stack = append(x.stack, f)
	x.capture = ""
	return nil
}

// charData captures text; text between samples is no part of a JTL.
func (x *jtlXML) charData(t xml.CharData) {
	if len(x.stack) == 0 && len(bytes.TrimSpace(t)) > 0 {
		line, _ := x.d.InputPos()
		x.g.a.Record(int64(len(t)))
		x.g.bad(line, "text outside a sample")
		return
	}
	// Whole (a token is at most core.MaxToken), so that a capped
	// failure message hashes all of it.
	if x.capture != "" && len(x.text) < core.MaxToken {
		x.text = append(x.text, t[:min(len(t), core.MaxToken-len(x.text))]...)
	}
}

// endElement closes an element inside a sample (keeping captured text) or
// the sample itself, which is emitted.
func (x *jtlXML) endElement() error {
	top := x.top()
	if top == nil {
		return nil
	}
	if top.inner > 0 {
		switch x.capture {
		case "url":
			top.s.url = strings.TrimSpace(string(x.text))
		case "failure":
			top.s.failure = strings.TrimSpace(string(x.text))
		}
		x.capture = ""
		if top.assertion == top.inner {
			top.assertion = 0
		}
		top.inner--
		return nil
	}
	x.stack = x.stack[:len(x.stack)-1]
	x.g.a.Record(x.d.InputOffset() - top.start)
	return jtlEmit(x.g, top)
}

// jtlXMLError classifies an error of the XML decoder: truncated when the
// file ends inside <testResults> (JMeter stopped or still writing),
// otherwise the error to return: about the input (a *SyntaxError) unless
// the reader under the decoder failed.
func jtlXMLError(d *xml.Decoder, src *core.TrackReader, source string, err, charsetErr error, root bool) (truncated bool, _ error) {
	var se *xml.SyntaxError
	if charsetErr != nil {
		line, _ := d.InputPos()
		return false, &core.SyntaxError{File: source, Line: line, Msg: charsetErr.Error()}
	}
	if errors.As(err, &se) {
		if se.Msg == "unexpected EOF" && root {
			return true, nil
		}
		return false, &core.SyntaxError{File: source, Line: se.Line, Msg: "XML: " + se.Msg}
	}
	line, _ := d.InputPos()
	return false, core.DecodeError(src, source, line, "XML: ", err)
}

// jtlEmit passes on a sample element that ended.
func jtlEmit(g *jtlAgg, f *jtlFrame) error {
	switch {
	case f.request && f.bad != "":
		g.bad(f.s.line, f.bad)
	case f.request:
		return g.add(&f.s)
	case f.container:
		g.transactions++
		g.a.Good()
	default: // a sub-result
		g.a.Good()
	}
	return nil
}

// jtlAttrs reads a sample's attributes; it returns what is wrong with
// them, or "".
func jtlAttrs(s *jtlSample, attrs []xml.Attr, tp *jtlTime, g *jtlAgg) string {
	var ts, t, succ string
	var haveTS, haveT bool
	var all, grp int64
	for _, a := range attrs {
		v := a.Value
		switch a.Name.Local {
		case "t":
			t, haveT = v, true
		case "ts":
			ts, haveTS = v, true
		case "s":
			succ = v
		case "lb":
			s.label = v
		case "rc":
			s.code = v
		case "rm":
			s.message = v
		case "by":
			s.bytes, _ = jtlInt(v)
		case "na":
			all, _ = jtlInt(v)
		case "ng":
			grp, _ = jtlInt(v)
		}
	}
	s.threads = all
	if all == 0 {
		s.threads = grp
	}
	var ok bool
	if !haveTS || !haveT {
		return "sample without t or ts attribute"
	}
	if s.start, ok = tp.parse(ts, g); !ok {
		return fmt.Sprintf("time stamp %q %s", jtlClip(ts), jtlTimeRange)
	}
	if s.elapsedMs, ok = jtlElapsed(t); !ok {
		return fmt.Sprintf("elapsed %q", jtlClip(t))
	}
	if succ == "" {
		st, isHTTP := jtlHTTPStatus(s.code)
		s.success = isHTTP && st < 400
	} else if s.success, ok = jtlBool(succ); !ok {
		return fmt.Sprintf("success %q", jtlClip(succ))
	}
	return ""
}

// jtlCharset decodes the encodings JMeter results are written in besides
// UTF-8 (the file.encoding of the JVM that ran JMeter): ISO-8859-1 and
// windows-1252 (read as ISO-8859-1), US-ASCII.
func jtlCharset(label string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return input, nil
	case "utf-16", "utf-16le", "utf-16be":
		// Parse already converted UTF-16 with a byte order mark to UTF-8.
		return input, nil
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "windows-1252", "cp1252":
		return &jtlLatin1Reader{r: input}, nil
	}
	return nil, fmt.Errorf("XML in encoding %q: not read (UTF-8 and ISO-8859-1 are)", label)
}

// jtlLatin1Reader converts ISO-8859-1 to UTF-8.
type jtlLatin1Reader struct {
	r   io.Reader
	in  []byte
	out []byte // converted, not yet read
	off int
}

func (l *jtlLatin1Reader) Read(p []byte) (int, error) {
	for l.off == len(l.out) {
		if l.in == nil {
			l.in = make([]byte, 4096)
		}
		n, err := l.r.Read(l.in)
		l.out, l.off = l.out[:0], 0
		for _, c := range l.in[:n] {
			l.out = utf8.AppendRune(l.out, rune(c))
		}
		if n == 0 && err != nil {
			return 0, err
		}
	}
	n := copy(p, l.out[l.off:])
	l.off += n
	return n, nil
}
