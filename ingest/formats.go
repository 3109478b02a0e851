package ingest

// formats is every format loadverdict reads, in the order Detect tries
// them: the first whose Detect accepts an input's head parses it. No
// sample under testdata/ (nor the truth data and examples) is accepted by
// two formats (TestDetectUnique), so the order decides only for inputs
// that hold several tools' output at once, such as a terminal transcript
// with wrk and hey runs: wrk comes first, the most common output and the
// one of the founding example, and the header-less JMeter CSV last, as it
// is recognized by the shape of its columns alone. The others follow the
// README's supported-formats table, a tool's formats together.
//
// Adding a format is adding its entry here; TestFormats checks that every
// entry has its sample inputs with goldens, its fuzz target, its row in
// the README and its line in the package documentation (see "Adding a
// format" in docs/ARCHITECTURE.md).
var formats = []format{
	{wrkParser{}, []string{"wrk", "wrk2"}, []string{"wrk", "wrk2"}, "FuzzWrk"},
	{heyParser{}, []string{"hey"}, []string{"hey"}, "FuzzHey"},
	{heyCSVParser{}, []string{"hey"}, []string{"hey"}, "FuzzHeyCSV"},
	{abParser{}, []string{"ab"}, []string{"ab"}, "FuzzAB"},
	{abGnuplotParser{}, []string{"ab"}, []string{"ab"}, "FuzzABGnuplot"},
	{abCSVParser{}, []string{"ab"}, []string{"ab"}, "FuzzABCSV"},
	{vegetaTextParser{}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaText"},
	{vegetaReportJSONParser{}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaReportJSON"},
	{vegetaHdrplotParser{}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaHdrplot"},
	{vegetaResultsParser{enc: vegetaJSON}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaJSON"},
	{vegetaResultsParser{enc: vegetaCSV}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaCSV"},
	{vegetaResultsParser{enc: vegetaGob}, []string{"vegeta"}, []string{"vegeta"}, "FuzzVegetaGob"},
	{k6Parser{}, []string{"k6"}, []string{"k6"}, "FuzzK6"},
	{k6SummaryParser{}, []string{"k6"}, []string{"k6"}, "FuzzK6Summary"},
	{k6NDJSONParser{}, []string{"k6"}, []string{"k6"}, "FuzzK6JSON"},
	{k6CSVParser{}, []string{"k6"}, []string{"k6"}, "FuzzK6CSV"},
	{jmeterCSVParser{}, []string{"JMeter"}, []string{"jmeter"}, "FuzzJMeterCSV"},
	{jmeterXMLParser{}, []string{"JMeter"}, []string{"jmeter"}, "FuzzJMeterXML"},
	{locustParser{}, []string{"Locust"}, []string{"locust"}, "FuzzLocust"},
	{locustHistoryParser{}, []string{"Locust"}, []string{"locust"}, "FuzzLocustHistory"},
	{locustFailuresParser{}, []string{"Locust"}, []string{"locust"}, "FuzzLocustFailures"},
	{bombardierParser{}, []string{"bombardier"}, []string{"bombardier"}, "FuzzBombardier"},
	{bombardierJSONParser{}, []string{"bombardier"}, []string{"bombardier"}, "FuzzBombardierJSON"},
	{autocannonParser{}, []string{"autocannon"}, []string{"autocannon"}, "FuzzAutocannon"},
	{autocannonJSONParser{}, []string{"autocannon"}, []string{"autocannon"}, "FuzzAutocannonJSON"},
	{artilleryParser{}, []string{"Artillery"}, []string{"artillery"}, "FuzzArtillery"},
	{artilleryJSONParser{}, []string{"Artillery"}, []string{"artillery"}, "FuzzArtilleryJSON"},
	{siegeParser{}, []string{"siege"}, []string{"siege"}, "FuzzSiege"},
	{siegeJSONParser{}, []string{"siege"}, []string{"siege"}, "FuzzSiegeJSON"},
	{h2loadParser{}, []string{"h2load"}, []string{"h2load"}, "FuzzH2load"},
	{fortioParser{}, []string{"Fortio"}, []string{"fortio"}, "FuzzFortio"},
	{fortioJSONParser{}, []string{"Fortio"}, []string{"fortio"}, "FuzzFortioJSON"},
	{ghzParser{}, []string{"ghz"}, []string{"ghz"}, "FuzzGhz"},
	{ghzJSONParser{}, []string{"ghz"}, []string{"ghz"}, "FuzzGhzJSON"},
	{ohaParser{}, []string{"oha"}, []string{"oha"}, "FuzzOha"},
	{ohaJSONParser{}, []string{"oha"}, []string{"oha"}, "FuzzOhaJSON"},
	{gatlingParser{}, []string{"Gatling"}, []string{"gatling"}, "FuzzGatling"},
	{gatlingLogParser{}, []string{"Gatling"}, []string{"gatling"}, "FuzzGatlingLog"},
	{jmeterBareCSVParser{}, []string{"JMeter"}, []string{"jmeter"}, "FuzzJMeterBareCSV"},
}

// A format is an entry of formats: a parser, and where the project keeps
// what every format must have.
type format struct {
	parser Parser
	// tools are the rows of the README's supported-formats table the
	// format is listed in (the wrk parser reads wrk and wrk2).
	tools []string
	// dirs are the folders under testdata/ holding its sample inputs,
	// each beside its golden file.
	dirs []string
	// fuzz is the name of its fuzz target.
	fuzz string
}

// Parsers returns the parsers of every format, in the order Detect tries
// them.
func Parsers() []Parser {
	out := make([]Parser, len(formats))
	for i, f := range formats {
		out[i] = f.parser
	}
	return out
}

// lookedFor lists the names of the formats, in the order Detect tries
// them (the wrk parser reads two: wrk and wrk2).
func lookedFor() []string {
	var names []string
	for _, f := range formats {
		if l, ok := f.parser.(interface{ Formats() []string }); ok {
			names = append(names, l.Formats()...)
		} else {
			names = append(names, f.parser.Name())
		}
	}
	return names
}
