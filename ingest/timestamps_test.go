package ingest

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestTimestampsOutOfRange: an input of a known format whose time stamps
// are out of the range read is an error naming the file, the line, the
// value and the range, not "not output of a known load generator".
func TestTimestampsOutOfRange(t *testing.T) {
	vj := func(ts string) string {
		return `{"attack":"a","seq":0,"code":200,"timestamp":"` + ts + `","latency":5000000,"bytes_out":0,"bytes_in":0,"error":"","body":null,"method":"GET","url":"http://h:8080/x","headers":null}` + "\n"
	}
	const vegetaRange = "in the range read (1970-01-01T00:00:00Z to 2116-02-20T23:53:38Z)"
	const jtlHead = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes\n"
	const jtlRange = "not milliseconds since 1970 up to 9000000000000 (the year 2255), nor a date of the years 1970-2261"
	for _, c := range []struct{ name, in, want string }{
		{"r.json", vj("1960-01-01T00:00:00Z"), "r.json:1: vegeta-json result with timestamp 1960-01-01T00:00:00Z: not " + vegetaRange},
		{"r.json", "\n\n" + vj("2300-01-01T00:00:00Z"), "r.json:3: vegeta-json result with timestamp 2300-01-01T00:00:00Z: not " + vegetaRange},
		{"r.json", vj("99999-01-01T00:00:00Z"), `r.json:1: vegeta result with timestamp "99999-01-01T00:00:00Z": not a time ` + vegetaRange},
		{"r.csv", "-1000000000000000000,200,5000000,0,0,,,a,0,GET,http://h/x,\n", "r.csv:1: vegeta-csv result with timestamp 1938-04-24T22:13:20Z: not " + vegetaRange},
		{"r.csv", "-99999999999999999999,200,5000000,0,0,,,a,0,GET,http://h/x,\n", `r.csv:1: vegeta result with timestamp "-99999999999999999999": not a time ` + vegetaRange},
		{"r.jtl", jtlHead + "-5,5,x,200,OK,T,true,10\n", `r.jtl:2: 1 of 2 lines malformed (more than 1 %): line 2: time stamp "-5" ` + jtlRange},
		{"r.jtl", jtlHead + "99999999999999999,5,x,200,OK,T,true,10\n", `r.jtl:2: 1 of 2 lines malformed (more than 1 %): line 2: time stamp "99999999999999999" ` + jtlRange},
	} {
		_, err := ParseAll(context.Background(), strings.NewReader(c.in), Options{Source: c.name, Experiment: "e"})
		if err == nil || err.Error() != c.want || !errors.Is(err, ErrInput) {
			t.Errorf("%s %.40q:\n got %v\nwant %s", c.name, c.in, err, c.want)
		}
	}
}
