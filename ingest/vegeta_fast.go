package ingest

import (
	"bytes"
	"time"
)

// decodeVegetaJSONFast decodes a line of `vegeta encode --to json` in the
// one layout vegeta writes, a byte scan over fixed keys:
//
//	{"attack":"..","seq":N,"code":N,"timestamp":"<RFC 3339>","latency":N,
//	 "bytes_out":N,"bytes_in":N,"error":"..","body":"..","method":"..",
//	 "url":"..","headers":{...}}
//
// (one line, no blanks; body and headers may be null). Strings without a
// backslash, numbers of digits only (at most 18, code at most 65535), the
// timestamp as parseRFC3339Fixed reads it. Like decodeVegetaJSON, it stops
// at the headers' '{'. On anything else it reports false and r holds
// nothing of use: the caller decodes the line with decodeVegetaJSON. When
// it reports true, r is what decodeVegetaJSON makes of the line, which
// decodes without error (TestVegetaFastAgrees on every test file,
// FuzzVegetaFast on anything); it is about 4 times faster.
func decodeVegetaJSONFast(line []byte, r *vegetaRecord) bool {
	p := fixedScan{b: line}
	var ok bool
	if !p.lit(`{"attack":`) {
		return false
	}
	if r.attack, ok = p.str(); !ok || !p.lit(`,"seq":`) {
		return false
	}
	if _, ok = p.num(); !ok || !p.lit(`,"code":`) {
		return false
	}
	code, ok := p.num()
	if !ok || code > 0xffff || !p.lit(`,"timestamp":`) {
		return false
	}
	r.code = uint16(code)
	ts, ok := p.str()
	if !ok {
		return false
	}
	ns, ok := parseRFC3339Fixed(ts)
	if !ok || !p.lit(`,"latency":`) {
		return false
	}
	r.ts = time.Unix(0, ns)
	lat, ok := p.num()
	if !ok || !p.lit(`,"bytes_out":`) {
		return false
	}
	r.latency = int64(lat)
	if _, ok = p.num(); !ok || !p.lit(`,"bytes_in":`) {
		return false
	}
	if r.bytesIn, ok = p.num(); !ok || !p.lit(`,"error":`) {
		return false
	}
	if r.err, ok = p.str(); !ok || !p.lit(`,"body":`) {
		return false
	}
	if !p.lit("null") {
		if _, ok = p.str(); !ok {
			return false
		}
	}
	if !p.lit(`,"method":`) {
		return false
	}
	if r.method, ok = p.str(); !ok || !p.lit(`,"url":`) {
		return false
	}
	if r.url, ok = p.str(); !ok || !p.lit(`,"headers":`) {
		return false
	}
	if p.lit("{") {
		return true
	}
	// "headers":null must end the object and the line.
	if !p.lit("null}") {
		return false
	}
	return len(bytes.TrimLeft(p.b[p.i:], " \t\r\n")) == 0
}
