package pipeline

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestLambdaMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, c := range []struct {
		env        string
		gomemlimit bool
		want       int64
	}{
		{"512", false, 384 << 20},
		{"10240", false, 7680 << 20},
		{"", false, 0},
		{"lots", false, 0},
		{"512", true, 0},
	} {
		t.Setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", c.env)
		if c.gomemlimit {
			t.Setenv("GOMEMLIMIT", "1GiB")
		}
		debug.SetMemoryLimit(math.MaxInt64)
		got := LambdaMemoryLimit()
		if got != c.want {
			t.Errorf("%q (GOMEMLIMIT set: %v): limit %d, want %d", c.env, c.gomemlimit, got, c.want)
		}
		if now := debug.SetMemoryLimit(-1); c.want != 0 && now != c.want || c.want == 0 && now != math.MaxInt64 {
			t.Errorf("%q: runtime limit %d", c.env, now)
		}
	}
}
