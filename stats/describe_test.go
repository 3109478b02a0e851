package stats

import (
	"errors"
	"math"
	"testing"
)

func TestMeanMedianCoefVar(t *testing.T) {
	cases := []struct {
		x              []float64
		mean, med, cvr float64
	}{
		{[]float64{4}, 4, 4, 0},
		{[]float64{1, 2, 3, 4}, 2.5, 2.5, math.Sqrt(5.0/3) / 2.5},
		{[]float64{10, 0, 5}, 5, 5, 1},
		{[]float64{-2, 2}, 0, 0, 0}, // zero mean: CV 0
		{[]float64{3, 1, 2, 100}, 26.5, 2.5, math.Sqrt((23.5*23.5+25.5*25.5+24.5*24.5+73.5*73.5)/3) / 26.5},
	}
	for _, c := range cases {
		if got := Mean(c.x); math.Abs(got-c.mean) > 1e-12 {
			t.Errorf("Mean(%v) = %v, want %v", c.x, got, c.mean)
		}
		if got := Median(c.x); math.Abs(got-c.med) > 1e-12 {
			t.Errorf("Median(%v) = %v, want %v", c.x, got, c.med)
		}
		if got := CoefVar(c.x); math.Abs(got-c.cvr) > 1e-12 {
			t.Errorf("CoefVar(%v) = %v, want %v", c.x, got, c.cvr)
		}
	}
	x := []float64{3, 1, 2}
	Median(x)
	if x[0] != 3 || x[1] != 1 {
		t.Error("Median sorted its input")
	}
	if !math.IsNaN(Mean(nil)) || !math.IsNaN(Median(nil)) || CoefVar(nil) != 0 {
		t.Errorf("empty: %v %v %v", Mean(nil), Median(nil), CoefVar(nil))
	}
}

func TestTooFewError(t *testing.T) {
	_, _, err := MSER5(make([]float64, 12))
	var tf *TooFewError
	if !errors.Is(err, ErrTooFew) || !errors.As(err, &tf) {
		t.Fatalf("err = %v, want a *TooFewError matching ErrTooFew", err)
	}
	if tf.Method != "MSER" || tf.Need != 20 || tf.Have != 12 {
		t.Errorf("%+v, want MSER needs 20, has 12", tf)
	}
	if errors.Is(err, ErrParameter) || errors.Is(ErrZeroBase, ErrTooFew) || !errors.Is(ErrZeroBase, ErrParameter) {
		t.Error("sentinels match the wrong errors")
	}
}
