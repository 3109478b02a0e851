package analyze

import (
	"math"
	"strconv"
	"strings"
)

// fmtNum formats a number with as few digits as it needs.
func fmtNum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// fmtP formats a p-value with three significant digits.
func fmtP(p float64) string { return strconv.FormatFloat(p, 'g', 3, 64) }

// round rounds x to d decimals.
func round(x float64, d int) float64 {
	s := math.Pow(10, float64(d))
	return math.Round(x*s) / s
}

func joinComma(parts []string) string { return strings.Join(parts, ", ") }

func optI(p *int32) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(int(*p))
}

func optF(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmtNum(*p)
}

// plural returns "n word" with an s when n != 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
