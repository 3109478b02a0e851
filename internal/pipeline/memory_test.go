package pipeline

import (
	"math"
	"os"
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

func TestSetCLIGCPercent(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	debug.SetGCPercent(100)
	if got := SetCLIGCPercent(); got != CLIGCPercent {
		t.Errorf("GOGC unset: set %d, want %d", got, CLIGCPercent)
	}
	if now := debug.SetGCPercent(100); now != CLIGCPercent {
		t.Errorf("GOGC unset: runtime GOGC %d, want %d", now, CLIGCPercent)
	}
	t.Setenv("GOGC", "200")
	debug.SetGCPercent(200)
	if got := SetCLIGCPercent(); got != 0 {
		t.Errorf("GOGC=200: set %d, want none", got)
	}
	if now := debug.SetGCPercent(200); now != 200 {
		t.Errorf("GOGC=200: runtime GOGC %d, want 200", now)
	}
}
