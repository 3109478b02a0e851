package ingest

import "bytes"

// fixedScan reads a JSON line of a fixed layout.
type fixedScan struct {
	b []byte
	i int
}

// lit consumes s if the input continues with it.
func (p *fixedScan) lit(s string) bool {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// str consumes a string without escapes and returns its bytes.
func (p *fixedScan) str() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	rest := p.b[p.i+1:]
	n := bytes.IndexByte(rest, '"')
	if n < 0 || bytes.IndexByte(rest[:n], '\\') >= 0 {
		return nil, false
	}
	p.i += n + 2
	return rest[:n:n], true
}

// num consumes a run of 1 to 18 decimal digits.
func (p *fixedScan) num() (uint64, bool) {
	var v uint64
	j := p.i
	for j < len(p.b) && p.b[j] >= '0' && p.b[j] <= '9' {
		v = v*10 + uint64(p.b[j]-'0')
		j++
	}
	if j == p.i || j-p.i > 18 {
		return 0, false
	}
	p.i = j
	return v, true
}
