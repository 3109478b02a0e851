package ingest

import (
	"github.com/loadverdict/loadverdict/ingest/hey"
	"github.com/loadverdict/loadverdict/ingest/jmeter"
	"github.com/loadverdict/loadverdict/ingest/k6"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/ingest/vegeta"
)

// LineDecoder returns the per-line decoder of the per-request format
// named format (a Parser's Name) into a, and false when the format is
// not read line by line: what loadverdict watch reads as it is written.
// Each decodes a line as the format's parser does.
func LineDecoder(format string, a *requests.Requests) (requests.LineFunc, bool) {
	switch format {
	case "vegeta-json":
		return vegeta.LineDecoder(vegeta.JSON, a), true
	case "vegeta-csv":
		return vegeta.LineDecoder(vegeta.CSV, a), true
	case "k6-json":
		return k6.JSONLineDecoder(a), true
	case "jmeter-csv", "jmeter-csv-noheader":
		return jmeter.CSVLineDecoder(a), true
	case "hey-csv":
		return hey.CSVLineDecoder(a), true
	}
	return nil, false
}

// LineFormats are the formats LineDecoder reads.
var LineFormats = []string{"vegeta-json", "vegeta-csv", "k6-json", "jmeter-csv", "jmeter-csv-noheader", "hey-csv"}
