package vegeta

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// fastAgrees checks decodeVegetaJSONFast against decodeVegetaJSON on
// one line: when the fast decoder takes the line, the general one decodes
// it without error into the same record (the same timestamp to the
// nanosecond). It reports whether the fast decoder took the line.
func fastAgrees(t testing.TB, line []byte) bool {
	t.Helper()
	var fast, gen record
	if !decodeVegetaJSONFast(line, &fast) {
		return false
	}
	if err := decodeVegetaJSON(line, &gen); err != nil {
		t.Fatalf("%q: the fast decoder takes it, the general one fails: %v", line, err)
	}
	if string(fast.attack) != string(gen.attack) || string(fast.method) != string(gen.method) || string(fast.url) != string(gen.url) ||
		string(fast.err) != string(gen.err) || fast.code != gen.code || fast.ts.UnixNano() != gen.ts.UnixNano() ||
		fast.latency != gen.latency || fast.bytesIn != gen.bytesIn || timeOK(fast.ts) != timeOK(gen.ts) {
		t.Fatalf("%q:\nfast    %+v\ngeneral %+v", line, fast, gen)
	}
	return true
}

// testdataLines returns the lines of every input under testdata (other
// tools' too, decompressed), and the lines of the vegeta JSON results.
func testdataLines(t testing.TB) (all, vegeta [][]byte) {
	t.Helper()
	dirs := sampleDirs()
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		for _, in := range ingesttest.GoldenInputs(t, dir) {
			data := ingesttest.ReadPlain(t, in)
			for line := range bytes.Lines(data) {
				all = append(all, line)
				if strings.HasPrefix(in, "testdata/vegeta/results-") && strings.Contains(in, ".json") ||
					strings.HasPrefix(in, "testdata/vegeta/coldjvm-") {
					vegeta = append(vegeta, line)
				}
			}
		}
	}
	return all, vegeta
}

// TestVegetaFastAgrees runs the fast decoder on every line of every test
// input, and on every prefix and a few edits of vegeta's lines: wherever
// it takes a line, the general decoder gives the same record. It must take
// every line vegeta writes but those with a backslash (an error message
// quoting a URL).
func TestVegetaFastAgrees(t *testing.T) {
	all, vegeta := testdataLines(t)
	for _, line := range all {
		fastAgrees(t, line)
	}
	taken, escaped := 0, 0
	for _, line := range vegeta {
		switch {
		case fastAgrees(t, line):
			taken++
		case bytes.Contains(line, []byte(`\`)):
			escaped++
		default:
			t.Errorf("the fast decoder does not take %q", line)
		}
	}
	if len(vegeta) < 16000 || taken < len(vegeta)*9/10 {
		t.Errorf("the fast decoder takes %d of %d lines of vegeta (%d with a backslash)", taken, len(vegeta), escaped)
	}
	// Every prefix, and every line with one byte changed or removed, of a
	// few lines (an error line with null body and headers among them).
	edits := []byte{' ', '"', '\\', ',', '}', '{', 'n', '0', '9', '-', '.', 'Z', '\n', 0}
	for i, line := range vegeta {
		if i%4001 != 0 && !bytes.Contains(line, []byte(`"headers":null`)) {
			continue
		}
		for j := range len(line) + 1 {
			fastAgrees(t, line[:j])
			if j == len(line) {
				break
			}
			cut := append(append([]byte{}, line[:j]...), line[j+1:]...)
			fastAgrees(t, cut)
			for _, c := range edits {
				ed := append([]byte{}, line...)
				ed[j] = c
				fastAgrees(t, ed)
			}
		}
	}
}

// TestVegetaFastLayouts: lines in vegeta's layout with unusual values, and
// near misses the fast decoder must leave to the general one.
func TestVegetaFastLayouts(t *testing.T) {
	const ok = `{"attack":"a","seq":1,"code":200,"timestamp":"2024-05-01T12:00:00.5+02:00","latency":1500000,"bytes_out":0,"bytes_in":13,"error":"","body":"aGk=","method":"GET","url":"http://h/x","headers":{"A":["b"]}}`
	for _, c := range []struct {
		name, line string
		fast       bool
	}{
		{"vegeta's layout", ok, true},
		{"headers cut after its brace", ok[:strings.Index(ok, `{"A"`)+1], true},
		{"null body and headers", strings.Replace(strings.Replace(ok, `"aGk="`, "null", 1), `{"A":["b"]}}`, "null}\r\n", 1), true},
		{"null headers then junk", strings.Replace(ok, `{"A":["b"]}}`, "null}x", 1), false},
		{"null headers then a comma", strings.Replace(ok, `{"A":["b"]}}`, "null,}", 1), false},
		{"leading zeros", strings.Replace(ok, `"latency":1500000`, `"latency":0001500000`, 1), true},
		{"a blank", strings.Replace(ok, `"seq":1,`, `"seq": 1,`, 1), false},
		{"escaped error", strings.Replace(ok, `"error":""`, `"error":"a\"b"`, 1), false},
		{"negative latency", strings.Replace(ok, `1500000`, `-1500000`, 1), false},
		{"fractional latency", strings.Replace(ok, `1500000`, `1500000.5`, 1), false},
		{"code 65536", strings.Replace(ok, `"code":200`, `"code":65536`, 1), false},
		{"19 digits", strings.Replace(ok, `1500000`, `1000000000000000000`, 1), false},
		{"keys in another order", strings.Replace(ok, `"attack":"a","seq":1`, `"seq":1,"attack":"a"`, 1), false},
		{"null attack", strings.Replace(ok, `"attack":"a"`, `"attack":null`, 1), false},
		{"leap second", strings.Replace(ok, `12:00:00.5`, `12:00:60.5`, 1), false},
		{"ten fraction digits", strings.Replace(ok, `12:00:00.5`, `12:00:00.5000000000`, 1), false},
		{"1969", strings.Replace(ok, `2024-05-01`, `1969-12-31`, 1), false},
		{"headers a string", strings.Replace(ok, `{"A":["b"]}}`, `"x"}`, 1), false},
	} {
		var r record
		if got := decodeVegetaJSONFast([]byte(c.line), &r); got != c.fast {
			t.Errorf("%s: fast decoder takes it: %v, want %v", c.name, got, c.fast)
		}
		fastAgrees(t, []byte(c.line))
	}
}

// FuzzVegetaFast checks that wherever the fast decoder takes a line, the
// general one decodes it to the same record.
func FuzzVegetaFast(f *testing.F) {
	_, vegeta := testdataLines(f)
	for i, line := range vegeta {
		if i%2000 == 0 || bytes.Contains(line, []byte(`"headers":null`)) && i%20 == 0 {
			f.Add(line)
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) { fastAgrees(t, line) })
}

// TestParseRFC3339Fixed compares parseRFC3339Fixed with time.Parse on
// times of the fixed layout and near misses.
func TestParseRFC3339Fixed(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"2026-12-02T14:16:11.748150389Z", true},
		{"2026-12-02T14:16:31.74609751Z", true},
		{"1970-01-01T00:00:00Z", true},
		{"1970-01-01T00:59:59+01:00", false}, // before 1970 in UTC
		{"1970-01-01T01:00:00+01:00", true},
		{"2024-02-29T23:59:59.9-23:59", true},
		{"2023-02-29T00:00:00Z", false},
		{"2000-02-29T00:00:00Z", true},
		{"2100-02-29T00:00:00Z", false},
		{"2115-12-31T23:59:59.999999999Z", true},
		{"2116-01-01T00:00:00Z", false},
		{"2024-04-31T00:00:00Z", false},
		{"2024-01-01T24:00:00Z", false},
		{"2024-01-01T00:00:00.Z", false},
		{"2024-01-01T00:00:00.1234567891Z", false},
		{"2024-01-01T00:00:00,5Z", false},
		{"2024-01-01t00:00:00Z", false},
		{"2024-01-01T00:00:00z", false},
		{"2024-01-01T00:00:00+24:00", false},
		{"2024-01-01T00:00:00+0100", false},
		{"2024-01-01 00:00:00Z", false},
		{"+024-01-01T00:00:00Z", false},
		{"2024-01-01T00:00:00", false},
	} {
		ns, ok := parseRFC3339Fixed([]byte(c.in))
		if ok != c.ok {
			t.Errorf("%s: ok %v, want %v", c.in, ok, c.ok)
		}
		if ok {
			want, err := time.Parse(time.RFC3339Nano, c.in)
			if err != nil || want.UnixNano() != ns {
				t.Errorf("%s: %d, time.Parse %d (%v)", c.in, ns, want.UnixNano(), err)
			}
		}
	}
}

// FuzzRFC3339Fixed checks that what parseRFC3339Fixed reads, Go's time
// parser (as encoding/json and vegeta's decoder call it) reads as the
// same instant.
func FuzzRFC3339Fixed(f *testing.F) {
	for _, s := range []string{"2026-12-02T14:16:11.748150389Z", "2024-02-29T23:59:59.9-23:59", "2115-12-31T23:59:59Z"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ns, ok := parseRFC3339Fixed(b)
		if !ok {
			return
		}
		var want time.Time
		if err := want.UnmarshalJSON([]byte(`"` + string(b) + `"`)); err != nil || want.UnixNano() != ns {
			t.Fatalf("%q: %d, time %d (%v)", b, ns, want.UnixNano(), err)
		}
	})
}

// BenchmarkVegetaDecodeLine decodes the lines of benchInput with the
// fast decoder and with the general one (the CPU of the decoding
// goroutines of a vegeta JSON log).
func BenchmarkVegetaDecodeLine(b *testing.B) {
	lines := bytes.Split(bytes.TrimSpace(benchInput()), []byte("\n"))
	for _, c := range []struct {
		name   string
		decode func([]byte, *record) bool
	}{
		{"fast", decodeVegetaJSONFast},
		{"general", func(l []byte, r *record) bool { return decodeVegetaJSON(l, r) == nil }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var r record
			for b.Loop() {
				for _, l := range lines {
					if !c.decode(l, &r) {
						b.Fatalf("%q not decoded", l)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(lines)), "ns/line")
		})
	}
}
