package core

import (
	"math"
	"strconv"
)

// Number and unit parsing shared by the parsers. Everything works on byte
// slices of one line and does not allocate in the common case.

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// ParseDec parses an unsigned decimal number made of digits and at most one
// dot ("12", "12.34", ".5") and returns it times 10^exp, correctly rounded.
// It reports false for anything else (signs, exponents, "nan", empty).
func ParseDec(b []byte, exp int) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var mant uint64
	digits, frac, dot := 0, 0, false
	exact := true
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
			if dot {
				frac++
			}
			if mant > (1<<53-10)/10 {
				exact = false
			} else {
				mant = mant*10 + uint64(c-'0')
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	if exact {
		e := exp - frac
		switch {
		case e == 0:
			return float64(mant), true
		case e > 0 && e < len(pow10):
			return float64(mant) * pow10[e], true
		case e < 0 && -e < len(pow10):
			return float64(mant) / pow10[-e], true
		}
	}
	return parseDecSlow(b, exp)
}

// parseDecSlow is the strconv path of parseDec for long or extreme numbers.
func parseDecSlow(b []byte, exp int) (float64, bool) {
	var buf [64]byte
	s := buf[:0]
	if len(b) > 40 {
		v, err := strconv.ParseFloat(string(b), 64)
		if err != nil && !isRangeErr(err) {
			return 0, false
		}
		return v * math.Pow(10, float64(exp)), true
	}
	s = append(s, b...)
	s = append(s, 'e')
	s = strconv.AppendInt(s, int64(exp), 10)
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return v, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// ParseUint parses a non-negative decimal integer that fits in an int64.
func ParseUint(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if n < 0 {
		return 0, false
	}
	return n, true
}

// SplitNum splits a token such as "12.34ms" into its numeric prefix and unit.
func SplitNum(tok []byte) (num, unit []byte) {
	i := 0
	for i < len(tok) && (tok[i] >= '0' && tok[i] <= '9' || tok[i] == '.') {
		i++
	}
	return tok[:i], tok[i:]
}

// IsNaN reports whether tok is a printed NaN ("nan", "-nan", "-nan%", "-nanus").
func IsNaN(tok []byte) bool {
	if len(tok) > 0 && (tok[0] == '-' || tok[0] == '+') {
		tok = tok[1:]
	}
	return len(tok) >= 3 && (tok[0]|0x20) == 'n' && (tok[1]|0x20) == 'a' && (tok[2]|0x20) == 'n'
}

// ValueKind says what a parsed token held.
type ValueKind uint8

const (
	ValBad    ValueKind = iota // not a number
	ValOK                      // a number with a known unit
	ValNaN                     // a printed NaN
	ValNoUnit                  // a number without the unit it needs
)

// TimeMs parses a wrk time such as "635.91us", "1.20s" or "1.00m" into
// milliseconds. Units: us, ms, s, m, h (also µs, ns).
func TimeMs(tok []byte) (float64, ValueKind) {
	if IsNaN(tok) {
		return 0, ValNaN
	}
	num, unit := SplitNum(tok)
	if len(unit) == 0 {
		if _, ok := ParseDec(num, 0); ok {
			return 0, ValNoUnit
		}
		return 0, ValBad
	}
	var v float64
	var ok bool
	switch string(unit) {
	case "ns":
		v, ok = ParseDec(num, -6)
	case "us", "µs", "μs":
		v, ok = ParseDec(num, -3)
	case "ms":
		v, ok = ParseDec(num, 0)
	case "s":
		v, ok = ParseDec(num, 3)
	case "m":
		v, ok = ParseDec(num, 4)
		v *= 6
	case "h":
		v, ok = ParseDec(num, 5)
		v *= 36
	default:
		return 0, ValBad
	}
	if !ok {
		return 0, ValBad
	}
	return v, ValOK
}

// DurationS parses a duration such as "10.04s", "999.94ms", "1.00m" or "1h"
// into seconds. A number without unit is taken in defaultUnit (0: invalid).
func DurationS(tok []byte, defaultUnitS float64) (float64, bool) {
	num, unit := SplitNum(tok)
	var v float64
	var ok bool
	switch string(unit) {
	case "":
		if defaultUnitS == 0 {
			return 0, false
		}
		v, ok = ParseDec(num, 0)
		v *= defaultUnitS
	case "ns":
		v, ok = ParseDec(num, -9)
	case "us", "µs", "μs":
		v, ok = ParseDec(num, -6)
	case "ms":
		v, ok = ParseDec(num, -3)
	case "s", "S":
		v, ok = ParseDec(num, 0)
	case "m", "M":
		v, ok = ParseDec(num, 1)
		v *= 6
	case "h", "H":
		v, ok = ParseDec(num, 2)
		v *= 36
	default:
		return 0, false
	}
	return v, ok
}

// Metric parses a number with an optional decimal (x1000) suffix k, M, G, T, P
// ("56.20k", "580.00", "1.2M").
func Metric(tok []byte) (float64, ValueKind) {
	if IsNaN(tok) {
		return 0, ValNaN
	}
	num, unit := SplitNum(tok)
	exp := 0
	switch string(unit) {
	case "":
	case "k", "K":
		exp = 3
	case "M":
		exp = 6
	case "G":
		exp = 9
	case "T":
		exp = 12
	case "P":
		exp = 15
	default:
		return 0, ValBad
	}
	v, ok := ParseDec(num, exp)
	if !ok {
		return 0, ValBad
	}
	return v, ValOK
}

// BinaryBytes parses a wrk byte size such as "4.12MB", "0.00B" or "19.62GB"
// (binary units: 1KB = 1024 B) into bytes.
func BinaryBytes(tok []byte) (float64, bool) {
	num, unit := SplitNum(tok)
	var mult float64
	switch string(unit) {
	case "B", "":
		mult = 1
	case "KB", "kB", "KiB", "K", "k":
		mult = 1 << 10
	case "MB", "MiB", "M":
		mult = 1 << 20
	case "GB", "GiB", "G":
		mult = 1 << 30
	case "TB", "TiB", "T":
		mult = 1 << 40
	case "PB", "PiB", "P":
		mult = 1 << 50
	default:
		return 0, false
	}
	v, ok := ParseDec(num, 0)
	return v * mult, ok
}

// Finite reports whether v is a finite, non-negative number.
func Finite(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0
}

// ToInt64 rounds v to an int64, reporting false when it does not fit.
func ToInt64(v float64) (int64, bool) {
	if !Finite(v) || v >= 9.2e18 {
		return 0, false
	}
	return int64(math.Round(v)), true
}

// AddSat adds non-negative counts, saturating at the int64 maximum.
func AddSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// TrimPunct removes trailing ',', ';', ']' and ')' from a token.
func TrimPunct(b []byte) []byte {
	for len(b) > 0 {
		switch b[len(b)-1] {
		case ',', ';', ']', ')':
			b = b[:len(b)-1]
			continue
		}
		break
	}
	return b
}

// A UnitScale maps a unit's name to how a number in it converts to the
// base unit: multiplied by Mul·10^Exp.
type UnitScale struct {
	Exp int
	Mul float64 // 0 means 1
}

// Units is one vocabulary of units: their names and scales.
type Units map[string]UnitScale

// Parse converts num, a decimal number, in unit to the base unit; false
// when unit is not one of u or num not a number.
func (u Units) Parse(num, unit []byte) (float64, bool) {
	s, ok := u[string(unit)]
	if !ok {
		return 0, false
	}
	v, ok := ParseDec(num, s.Exp)
	if s.Mul != 0 {
		v *= s.Mul
	}
	return v, ok
}

// DecimalBytes are the SI byte units (1 kB = 1000 B), to bytes, as
// autocannon and k6 print them.
var DecimalBytes = Units{
	"B": {}, "kB": {Exp: 3}, "KB": {Exp: 3}, "MB": {Exp: 6}, "GB": {Exp: 9},
	"TB": {Exp: 12}, "PB": {Exp: 15}, "EB": {Exp: 18},
}

// DurationsMs are the units of the durations summaries print (Go's
// time.Duration, Rust's), to milliseconds.
var DurationsMs = Units{
	"ns": {Exp: -6}, "µs": {Exp: -3}, "μs": {Exp: -3}, "us": {Exp: -3}, "ms": {},
	"s": {Exp: 3}, "sec": {Exp: 3}, "secs": {Exp: 3},
	"min": {Exp: 4, Mul: 6}, "mins": {Exp: 4, Mul: 6},
}
