package vegeta

import (
	"bytes"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
)

// decodeVegetaJSONFast decodes a line of `vegeta encode --to json` in the
// one layout vegeta writes (docs/FORMATS.md, section
// ingest/vegeta/vegeta_results.go) by a byte scan over its fixed keys:
// strings without a backslash, numbers of digits only (at most 18, code at
// most 65535), the timestamp as parseRFC3339Fixed reads it; like
// decodeVegetaJSON, it stops at the headers' '{'. On anything else it
// reports false and the caller decodes the line with decodeVegetaJSON;
// when true, r is what decodeVegetaJSON makes of the line (TestVegetaFastAgrees,
// FuzzVegetaFast).
func decodeVegetaJSONFast(line []byte, r *record) bool {
	p := core.FixedScan{B: line}
	return fastHead(&p, r) && fastTail(&p, r)
}

// fastHead scans the fields from "attack" to "latency".
func fastHead(p *core.FixedScan, r *record) bool {
	var ok bool
	if !p.Lit(`{"attack":`) {
		return false
	}
	if r.attack, ok = p.Str(); !ok || !p.Lit(`,"seq":`) {
		return false
	}
	if _, ok = p.Num(); !ok || !p.Lit(`,"code":`) {
		return false
	}
	code, ok := p.Num()
	if !ok || code > 0xffff || !p.Lit(`,"timestamp":`) {
		return false
	}
	r.code = uint16(code)
	ts, ok := p.Str()
	if !ok {
		return false
	}
	ns, ok := parseRFC3339Fixed(ts)
	if !ok || !p.Lit(`,"latency":`) {
		return false
	}
	r.ts = time.Unix(0, ns)
	lat, ok := p.Num()
	if !ok {
		return false
	}
	r.latency = int64(lat)
	return true
}

// fastTail scans the fields from "bytes_out" to "headers" and the end of
// the line.
func fastTail(p *core.FixedScan, r *record) bool {
	var ok bool
	if !p.Lit(`,"bytes_out":`) {
		return false
	}
	if _, ok = p.Num(); !ok || !p.Lit(`,"bytes_in":`) {
		return false
	}
	if r.bytesIn, ok = p.Num(); !ok || !p.Lit(`,"error":`) {
		return false
	}
	if r.err, ok = p.Str(); !ok || !p.Lit(`,"body":`) {
		return false
	}
	if !p.Lit("null") {
		if _, ok = p.Str(); !ok {
			return false
		}
	}
	if !p.Lit(`,"method":`) {
		return false
	}
	if r.method, ok = p.Str(); !ok || !p.Lit(`,"url":`) {
		return false
	}
	if r.url, ok = p.Str(); !ok || !p.Lit(`,"headers":`) {
		return false
	}
	if p.Lit("{") {
		return true
	}
	// "headers":null must end the object and the line.
	if !p.Lit("null}") {
		return false
	}
	return len(bytes.TrimLeft(p.B[p.I:], " \t\r\n")) == 0
}
