package jmeter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestJMeterLongLabelsStayApart: two samplers whose labels share their
// first bytes, however long, stay two runs (a 5 ms and a 50 ms sampler
// were averaged to 27.5 ms when the labels shared 512 bytes), in CSV and
// XML, with the cut at an ASCII byte or inside a multi-byte rune; a
// capped label ends in a hash and the run says so.
func TestJMeterLongLabelsStayApart(t *testing.T) {
	for _, n := range []int{core.MaxText - 30, core.MaxText - 1, core.MaxText, core.MaxText + 1, 600, 5000, 200_000} {
		for _, fill := range []string{"x", "é", "語"} {
			prefix := strings.Repeat(fill, n/len(fill))
			labels := []string{prefix + "A", prefix + "B"}
			var csv, xml strings.Builder
			csv.WriteString("timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,failureMessage,bytes,URL\n")
			xml.WriteString("<?xml version=\"1.0\"?>\n<testResults version=\"1.2\">\n")
			for i := range 4 {
				l, ms := labels[i%2], []int{5, 50}[i%2]
				fmt.Fprintf(&csv, "%d,%d,%s,200,OK,T 1-1,true,,10,http://h/x\n", 1400000000000+i*10, ms, l)
				fmt.Fprintf(&xml, "<httpSample t=\"%d\" ts=\"%d\" s=\"true\" lb=\"%s\" rc=\"200\" rm=\"OK\" by=\"10\"><java.net.URL>http://h/x</java.net.URL></httpSample>\n", ms, 1400000000000+i*10, l)
			}
			xml.WriteString("</testResults>\n")
			for format, in := range map[string]string{"csv": csv.String(), "xml": xml.String()} {
				name := fmt.Sprintf("%s, %d bytes of %q", format, n, fill)
				got, err := parseJTL(t, in)
				if err != nil || len(got.Runs) != 2 {
					t.Fatalf("%s: %d runs, err %v", name, len(got.Runs), err)
				}
				for i, r := range got.Runs {
					ep := ingesttest.PtrString(r.Endpoint)
					if r.LatMeanMs == nil || *r.LatMeanMs != []float64{5, 50}[i] || len(ep) > core.MaxText {
						t.Errorf("%s: run %d: mean %v, endpoint of %d bytes", name, i, r.LatMeanMs, len(ep))
					}
					long := len(labels[i]) > core.MaxText
					if noted := r.Notes != nil && strings.Contains(*r.Notes, core.CappedNote+"endpoint"); long != noted || long != strings.Contains(ep, core.CapMark) {
						t.Errorf("%s: run %d: endpoint %q, notes %v", name, i, ep, ingesttest.PtrString(r.Notes))
					}
					if !long && ep != labels[i] {
						t.Errorf("%s: run %d: endpoint %q, want the label", name, i, ep)
					}
				}
			}
		}
	}
}
