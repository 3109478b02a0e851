package jmeter

import (
	"context"
	"io"

	"github.com/loadverdict/loadverdict/ingest/core"
)

// BareCSVParser reads JMeter's CSV results without a header line
// (the default of JMeter 2.13 and older). Columns are assumed in JMeter's
// fixed order: the first eight, timeStamp, elapsed, label, responseCode,
// responseMessage, threadName, dataType, success, are those every default
// saves; the rest is known from the number of fields for the defaults of
// JMeter 2.13 (12 fields: bytes, grpThreads, allThreads, Latency) and of
// JMeter 3.2 to 5.x (17 fields: failureMessage, bytes, sentBytes,
// grpThreads, allThreads, URL, Latency, IdleTime, Connect); other layouts
// are read from their first eight columns, with a note. Detection wants
// records whose first field is a time stamp in milliseconds (11 to 13
// digits), second an integer, and eighth true or false.
type BareCSVParser struct{}

// Name returns "jmeter-csv-noheader".
func (BareCSVParser) Name() string { return "jmeter-csv-noheader" }

// Detect reports whether the first records of head look like JMeter CSV
// results without a header.
func (BareCSVParser) Detect(head []byte) bool {
	_, ok := jtlBareComma(head)
	return ok
}

// Parse streams the samples of a JMeter CSV file as requests.
func (BareCSVParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return parseJTLCSV(ctx, r, opts, sink)
}
