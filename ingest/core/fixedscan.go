package core

import "bytes"

// FixedScan reads a JSON line of a fixed layout.
type FixedScan struct {
	B []byte
	I int
}

// Lit consumes s if the input continues with it.
func (p *FixedScan) Lit(s string) bool {
	if len(p.B)-p.I < len(s) || string(p.B[p.I:p.I+len(s)]) != s {
		return false
	}
	p.I += len(s)
	return true
}

// Str consumes a string without escapes and returns its bytes.
func (p *FixedScan) Str() ([]byte, bool) {
	if p.I >= len(p.B) || p.B[p.I] != '"' {
		return nil, false
	}
	rest := p.B[p.I+1:]
	n := bytes.IndexByte(rest, '"')
	if n < 0 || bytes.IndexByte(rest[:n], '\\') >= 0 {
		return nil, false
	}
	p.I += n + 2
	return rest[:n:n], true
}

// Num consumes a run of 1 to 18 decimal digits.
func (p *FixedScan) Num() (uint64, bool) {
	var v uint64
	j := p.I
	for j < len(p.B) && p.B[j] >= '0' && p.B[j] <= '9' {
		v = v*10 + uint64(p.B[j]-'0')
		j++
	}
	if j == p.I || j-p.I > 18 {
		return 0, false
	}
	p.I = j
	return v, true
}
