package report

import (
	"math"
	"strconv"
	"strings"
)

// Every number in a sentence of the report goes through sigFig: measured quantities (latencies, durations, rates, model
// parameters) with 4 significant figures, relative ones (percentages,
// ratios, p-values) with 3. Integer digits are never rounded away and
// trailing zeros are dropped: 116.50997925777772 ms is "116.5 ms",
// 23.000285266 s "23 s", 12345.6 req/s "12346 req/s", p = 0.0079365 "0.00794".
// Tables keep their fixed decimals, and summary.json its documented
// rounding (docs/SCHEMA.md).

// Significant figures of the two kinds of number.
const (
	measuredFigures = 4
	relativeFigures = 3
)

// sigFig formats x with n significant figures, keeping every integer
// digit and dropping trailing zeros; magnitudes below 1e-4 (tiny p-values)
// or from 1e7 (a diverged fit) use an exponent, e.g. "3.1e-11", "8.619e+14".
// Infinities give "∞" and "-∞", NaN "-".
func sigFig(x float64, n int) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "-∞"
	case x == 0:
		return "0"
	case math.Abs(x) < 1e-4 || math.Abs(x) >= 1e7:
		return strconv.FormatFloat(x, 'g', n, 64)
	}
	s := strconv.FormatFloat(x, 'f', decimals(x, n), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		return "0"
	}
	return s
}

// decimals returns how many decimals give x n significant figures (0 for
// numbers with n or more integer digits, and for 0).
func decimals(x float64, n int) int {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return max(n-1-int(math.Floor(math.Log10(math.Abs(x)))), 0)
}

// sigRange formats an interval lo-hi with n significant figures on the
// bound of larger magnitude and as many decimals on the other, so that
// they line up: "2.99-3.00", "0.50-2.47", "10.01-10.05". Equal bounds give
// one number; a non-zero bound below 1e-4 formats each bound alone.
func sigRange(lo, hi float64, n int) string {
	if lo == hi || math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		if lo == hi {
			return sigFig(lo, n)
		}
		return sigFig(lo, n) + "-" + sigFig(hi, n)
	}
	if min(math.Abs(lo), math.Abs(hi)) < 1e-4 && (lo != 0 && hi != 0) || max(math.Abs(lo), math.Abs(hi)) >= 1e7 {
		return sigFig(lo, n) + "-" + sigFig(hi, n)
	}
	d := decimals(max(math.Abs(lo), math.Abs(hi)), n)
	return strconv.FormatFloat(lo, 'f', d, 64) + "-" + strconv.FormatFloat(hi, 'f', d, 64)
}

// num formats a measured quantity: 4 significant figures.
func num(x float64) string { return sigFig(x, measuredFigures) }

// numRange formats an interval of measured quantities, e.g. "10.01-10.05".
func numRange(lo, hi float64) string { return sigRange(lo, hi, measuredFigures) }

// relRange formats an interval of relative quantities, e.g. a CI of a
// ratio "2.99-3.00".
func relRange(lo, hi float64) string { return sigRange(lo, hi, relativeFigures) }

// ratioRange formats the interval of a ratio like relRange, with more
// figures (up to 6) while its bounds would otherwise print alike: a CI of
// 0.996-1.004 is not "1.00-1.00".
func ratioRange(lo, hi float64) string {
	for n := relativeFigures; n <= 6; n++ {
		d := decimals(max(math.Abs(lo), math.Abs(hi)), n)
		if strconv.FormatFloat(lo, 'f', d, 64) != strconv.FormatFloat(hi, 'f', d, 64) {
			return sigRange(lo, hi, n)
		}
	}
	return relRange(lo, hi)
}

// ratioRangeOff1 is ratioRange for an interval that excludes 1, with
// enough figures that neither bound reads as 1 ("1.003-1.04", not
// "1.00-1.04"), so that it shows which side of 1 it lies on.
func ratioRangeOff1(lo, hi float64) string {
	for n := relativeFigures; n <= 6; n++ {
		d := decimals(max(math.Abs(lo), math.Abs(hi)), n)
		a, b := strconv.FormatFloat(lo, 'f', d, 64), strconv.FormatFloat(hi, 'f', d, 64)
		if x, _ := strconv.ParseFloat(a, 64); x == 1 {
			continue
		}
		if x, _ := strconv.ParseFloat(b, 64); x == 1 {
			continue
		}
		return a + "-" + b
	}
	return ratioRange(lo, hi)
}

// rel formats a relative quantity (percentage, ratio, p-value): 3
// significant figures.
func rel(x float64) string { return sigFig(x, relativeFigures) }

// signed formats a relative change with its sign, e.g. "+20.3" or "-0.1".
func signed(x float64) string {
	s := rel(x)
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}
