package vegeta

import (
	"bytes"
	"fmt"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/loadverdict/loadverdict/ingest/requests"
)

// LineDecoder returns the per-line decoder of vegeta results in
// encoding enc (JSON or CSV; the gob stream has no lines) into a (see
// requests.LineFunc): each line is one result, decoded as Parse decodes
// it (JSON: decodeVegetaJSONFast, else decodeVegetaJSON; CSV: vegeta's
// decoder), one run per attack, method and URL. A blank line is skipped.
func LineDecoder(enc Encoding, a *requests.Requests) requests.LineFunc {
	g := &agg{a: a, handles: make(map[key]int)}
	return func(line []byte, n int) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		if enc == CSV {
			var res vegeta.Result
			if err := decodeVegeta(vegeta.NewCSVDecoder(bytes.NewReader(append(line[:len(line):len(line)], '\n'))), &res); err != nil {
				a.Bad(n, err.Error())
				return nil
			}
			return add(g, n, res.Attack, res.Method, res.URL, res.Timestamp, int64(res.Latency), res.Code, res.BytesIn, res.Error)
		}
		rec, err := decodeVegetaLine(line)
		if err != nil {
			a.Bad(n, err.Error())
			return nil
		}
		return add(g, n, rec.attack, rec.method, rec.url, rec.ts, rec.latency, rec.code, rec.bytesIn, string(rec.err))
	}
}

// decodeVegetaLine decodes one JSON line as batch.decode does,
// a decoder's panic (an input it cannot take) being an error.
func decodeVegetaLine(line []byte) (rec record, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("vegeta JSON decoder failed: %v", p)
		}
	}()
	if decodeVegetaJSONFast(line, &rec) {
		return rec, nil
	}
	rec = record{}
	return rec, decodeVegetaJSON(line, &rec)
}
