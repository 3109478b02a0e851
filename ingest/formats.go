package ingest

import (
	"strings"

	"github.com/loadverdict/loadverdict/ingest/ab"
	"github.com/loadverdict/loadverdict/ingest/artillery"
	"github.com/loadverdict/loadverdict/ingest/autocannon"
	"github.com/loadverdict/loadverdict/ingest/bombardier"
	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/fortio"
	"github.com/loadverdict/loadverdict/ingest/gatling"
	"github.com/loadverdict/loadverdict/ingest/ghz"
	"github.com/loadverdict/loadverdict/ingest/h2load"
	"github.com/loadverdict/loadverdict/ingest/hey"
	"github.com/loadverdict/loadverdict/ingest/jmeter"
	"github.com/loadverdict/loadverdict/ingest/k6"
	"github.com/loadverdict/loadverdict/ingest/locust"
	"github.com/loadverdict/loadverdict/ingest/oha"
	"github.com/loadverdict/loadverdict/ingest/siege"
	"github.com/loadverdict/loadverdict/ingest/vegeta"
	"github.com/loadverdict/loadverdict/ingest/wrk"
)

// formats is every format loadverdict reads, in the order Detect tries
// them: the first whose Detect accepts an input's head parses it; the one
// place that imports every tool's package. No sample is accepted by two
// formats (TestDetectUnique), so the order decides only for inputs holding
// several tools' output: wrk first (the most common), the header-less
// JMeter CSV last (recognized by its columns' shape alone), the others as
// in docs/FORMATS.md's table. Adding a format: its tool's folder plus its
// entry here, which TestFormats checks (docs/ARCHITECTURE.md, "Adding a
// format").
var formats = []format{
	{wrk.Parser{}, []string{"wrk", "wrk2"}, []string{"wrk", "wrk2"}, "FuzzWrk"},
	{hey.Parser{}, []string{"hey"}, []string{"hey"}, "FuzzHey"},
	{hey.CSVParser{}, []string{"hey"}, []string{"hey"}, "FuzzHeyCSV"},
	{ab.Parser{}, []string{"ab"}, []string{"ab"}, "FuzzAB"},
	{ab.GnuplotParser{}, []string{"ab"}, []string{"ab"}, "FuzzABGnuplot"},
	{ab.CSVParser{}, []string{"ab"}, []string{"ab"}, "FuzzABCSV"},
	{vegeta.TextParser{}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaText"},
	{vegeta.ReportJSONParser{}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaReportJSON"},
	{vegeta.HdrplotParser{}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaHdrplot"},
	{vegeta.ResultsParser{Enc: vegeta.JSON}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaJSON"},
	{vegeta.ResultsParser{Enc: vegeta.CSV}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaCSV"},
	{vegeta.ResultsParser{Enc: vegeta.Gob}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaGob"},
	{k6.Parser{}, []string{"k6"}, []string{"k6"}, "FuzzK6"},
	{k6.SummaryParser{}, []string{"k6"}, []string{"k6"}, "FuzzK6Summary"},
	{k6.NDJSONParser{}, []string{"k6"}, []string{"k6"}, "FuzzK6JSON"},
	{k6.CSVParser{}, []string{"k6"}, []string{"k6"}, "FuzzK6CSV"},
	{jmeter.CSVParser{}, []string{"JMeter"}, []string{"jmeter"}, "FuzzJMeterCSV"},
	{jmeter.XMLParser{}, []string{"JMeter"}, []string{"jmeter"}, "FuzzJMeterXML"},
	{locust.Parser{}, []string{"Locust"}, []string{"locust"}, "FuzzLocust"},
	{locust.HistoryParser{}, []string{"Locust"}, []string{"locust"}, "FuzzLocustHistory"},
	{locust.FailuresParser{}, []string{"Locust"}, []string{"locust"}, "FuzzLocustFailures"},
	{bombardier.Parser{}, []string{"bombardier"}, []string{"bombardier"}, "FuzzBombardier"},
	{bombardier.JSONParser{}, []string{"bombardier"}, []string{"bombardier"}, "FuzzBombardierJSON"},
	{autocannon.Parser{}, []string{"autocannon"}, []string{"autocannon"}, "FuzzAutocannon"},
	{autocannon.JSONParser{}, []string{"autocannon"}, []string{"autocannon"}, "FuzzAutocannonJSON"},
	{artillery.Parser{}, []string{"Artillery"}, []string{"artillery"}, "FuzzArtillery"},
	{artillery.JSONParser{}, []string{"Artillery"}, []string{"artillery"}, "FuzzArtilleryJSON"},
	{siege.Parser{}, []string{"siege"}, []string{"siege"}, "FuzzSiege"},
	{siege.JSONParser{}, []string{"siege"}, []string{"siege"}, "FuzzSiegeJSON"},
	{h2load.Parser{}, []string{"h2load"}, []string{"h2load"}, "FuzzH2load"},
	{fortio.Parser{}, []string{"Fortio"}, []string{"fortio"}, "FuzzFortio"},
	{fortio.JSONParser{}, []string{"Fortio"}, []string{"fortio"}, "FuzzFortioJSON"},
	{ghz.Parser{}, []string{"ghz"}, []string{"ghz"}, "FuzzGhz"},
	{ghz.JSONParser{}, []string{"ghz"}, []string{"ghz"}, "FuzzGhzJSON"},
	{oha.Parser{}, []string{"oha"}, []string{"oha"}, "FuzzOha"},
	{oha.JSONParser{}, []string{"oha"}, []string{"oha"}, "FuzzOhaJSON"},
	{gatling.Parser{}, []string{"Gatling"}, []string{"gatling"}, "FuzzGatling"},
	{gatling.LogParser{}, []string{"Gatling"}, []string{"gatling"}, "FuzzGatlingLog"},
	{jmeter.BareCSVParser{}, []string{"JMeter"}, []string{"jmeter"}, "FuzzJMeterBareCSV"},
}

// A format is an entry of formats: a parser, and where the project keeps
// what every format must have.
type format struct {
	parser core.Parser
	// tools are the rows of docs/FORMATS.md's supported-formats table the
	// format is listed in (the wrk parser reads wrk and wrk2).
	tools []string
	// dirs are the folders under testdata/ holding its sample inputs,
	// each beside its golden file.
	dirs []string
	// fuzz is the name of its fuzz target.
	fuzz string
}

// parsers are the parsers of formats, in their order.
var parsers = Parsers()

// Parsers returns the parsers of every format, in the order Detect tries
// them.
func Parsers() []core.Parser {
	out := make([]core.Parser, len(formats))
	for i, f := range formats {
		out[i] = f.parser
	}
	return out
}

// FormatInfo describes a format read, for `loadverdict formats`.
type FormatInfo struct {
	// Name is the format's name (Parser.Name), Tool the load generator.
	Name, Tool string
	// Example is a line typical of the format, as the tool writes it
	// (TestFormatExamples finds each in a sample of its format).
	Example string
}

// examples holds a line typical of each format, by parser name.
var examples = map[string]string{
	"wrk":                 "Requests/sec:   2095.30",
	"hey":                 "Summary:",
	"hey-csv":             "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset",
	"ab":                  "This is ApacheBench, Version 2.3 <$Revision: 1903618 $>",
	"ab-gnuplot":          "starttime\tseconds\tctime\tdtime\tttime\twait",
	"ab-csv":              "Percentage served,Time in ms",
	"vegeta":              "Requests      [total, rate, throughput]",
	"vegeta-report-json":  `{"latencies":{"total":12105596221,"mean":100879968,"50th":100794021,`,
	"vegeta-hdrplot":      "Value(ms)   Percentile  TotalCount  1/(1-Percentile)",
	"vegeta-json":         `{"attack":"errors","seq":0,"code":200,"timestamp":"2026-12-02T13:42:51.7`,
	"vegeta-csv":          "1796218971765332396,200,1369363,0,13,,aGVsbG8sIHdvcmxkCg==,errors,0,GET,",
	"vegeta-gob":          "(binary: vegeta attack's own output, encoding/gob of vegeta.Result)",
	"k6":                  "http_req_duration",
	"k6-summary":          `"metrics": {`,
	"k6-json":             `{"type":"Metric","data":{"name":"http_reqs","type":"counter",`,
	"k6-csv":              "metric_name,timestamp,metric_value,check,error,error_code,group,method,",
	"jmeter-csv":          "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success",
	"jmeter-xml":          `<testResults version="1.2">`,
	"locust":              "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time",
	"locust-history":      "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,66%,75%,80%,90%",
	"locust-failures":     "Method,Name,Error,Occurrences",
	"bombardier":          "Statistics        Avg      Stdev        Max",
	"bombardier-json":     `{"spec":{"numberOfConnections":8,"testType":"number-of-requests",`,
	"autocannon":          "Running 10s test @ http://localhost:3000",
	"autocannon-json":     `{"url":"http://127.0.0.1:19340/mixed?every=3","connections":4,`,
	"artillery":           "Summary report @ 10:56:14(+0530) 2017-09-01",
	"artillery-json":      `"aggregate": {`,
	"siege":               "** SIEGE 4.0.7",
	"siege-json":          `"transactions":`,
	"h2load":              "finished in",
	"fortio":              "Fortio",
	"fortio-json":         `"RunType": "HTTP",`,
	"ghz":                 "Summary:",
	"ghz-json":            `{"date":"2026-12-02T19:14:06Z","endReason":"normal","options":{`,
	"oha":                 "Success rate:",
	"oha-json":            `{"summary":{"successRate":`,
	"gatling":             "---- Global Information --------------------------------------------------------",
	"gatling-log":         "RUN\t",
	"jmeter-csv-noheader": "1796218655413,78,ok,200,OK,load 1-2,text,true,130,2,3,78",
}

// Formats lists every format read, in the order Detect tries them, with
// its tool and a typical line.
func Formats() []FormatInfo {
	var out []FormatInfo
	for _, f := range formats {
		name := f.parser.Name()
		out = append(out, FormatInfo{Name: name, Tool: strings.Join(f.tools, ", "), Example: examples[name]})
	}
	return out
}
