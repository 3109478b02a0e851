package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestFactor(t *testing.T) {
	s := time.Second
	linear := behaviour{warmup: 30 * s, warmupFactor: 3}
	steps := behaviour{warmup: 30 * s, warmupFactor: 3, warmupSteps: 4}
	repeated := behaviour{warmup: 5 * s, warmupFactor: 3, warmupEvery: 60 * s}
	tests := []struct {
		name string
		b    behaviour
		t    time.Duration
		want float64
	}{
		{"off", behaviour{}, 0, 1},
		{"factor 1 is off", behaviour{warmup: s, warmupFactor: 1}, 0, 1},
		{"linear start", linear, 0, 3},
		{"linear middle", linear, 15 * s, 2},
		{"linear three quarters", linear, 22500 * time.Millisecond, 1.5},
		{"linear end", linear, 30 * s, 1},
		{"linear after", linear, 300 * s, 1},
		{"steps first", steps, 7 * s, 3},
		{"steps second", steps, 7500 * time.Millisecond, 2.5},
		{"steps last", steps, 29 * s, 1.5},
		{"steps after", steps, 30 * s, 1},
		{"repeated first phase", repeated, 2500 * time.Millisecond, 2},
		{"repeated between", repeated, 30 * s, 1},
		{"repeated second phase", repeated, 62500 * time.Millisecond, 2},
		{"before the clock", linear, -s, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.b.factor(tt.t); got != tt.want {
				t.Errorf("factor(%v) = %v, want %v", tt.t, got, tt.want)
			}
		})
	}
}

func TestIterationsAndWait(t *testing.T) {
	b := behaviour{work: 2000, delay: 3 * time.Millisecond, warmup: 10 * time.Second, warmupFactor: 3, ramp: time.Millisecond}
	tests := []struct {
		t    time.Duration
		iter int
		wait time.Duration
	}{
		{0, 6000, 9 * time.Millisecond},
		{5 * time.Second, 4000, 6*time.Millisecond + 5*time.Millisecond},
		{60 * time.Second, 2000, 3*time.Millisecond + 60*time.Millisecond},
	}
	for _, tt := range tests {
		if got := b.iterations(tt.t); got != tt.iter {
			t.Errorf("iterations(%v) = %d, want %d", tt.t, got, tt.iter)
		}
		if got := b.wait(tt.t); got != tt.wait {
			t.Errorf("wait(%v) = %v, want %v", tt.t, got, tt.wait)
		}
	}
}

func TestStallSchedule(t *testing.T) {
	s := time.Second
	tests := []struct {
		b    behaviour
		k    int
		want time.Duration
	}{
		{behaviour{stallEvery: 10 * s}, 0, 10 * s},
		{behaviour{stallEvery: 10 * s}, 2, 30 * s},
		{behaviour{stallEvery: 10 * s, stallAt: 5 * s}, 0, 5 * s},
		{behaviour{stallEvery: 10 * s, stallAt: 5 * s}, 5, 55 * s},
	}
	for _, tt := range tests {
		if got := tt.b.stall(tt.k); got != tt.want {
			t.Errorf("%+v: stall(%d) = %v, want %v", tt.b, tt.k, got, tt.want)
		}
	}
}

func TestFails(t *testing.T) {
	tests := []struct {
		name string
		b    behaviour
		n    int64 // requests
		want int   // of which fail
	}{
		{"none", behaviour{}, 100, 0},
		{"5 %", behaviour{failEvery: 20}, 1000, 50},
		{"95 %", behaviour{succeedEvery: 20}, 1000, 950},
		{"one in three", behaviour{failEvery: 3}, 10, 3},
		{"share 1.5 %", behaviour{failShare: 0.015}, 1000, 15},
		{"share 0.5 %", behaviour{failShare: 0.005}, 1000, 5},
		{"share 2 %", behaviour{failShare: 0.02}, 1000, 20},
		// One request per 10 ms over 10 s: the window [2 s, 3 s) holds 100.
		{"window", behaviour{failFrom: 2 * time.Second, failFor: time.Second}, 1000, 100},
		{"window and every 10th", behaviour{failFrom: 2 * time.Second, failFor: time.Second, failEvery: 10}, 1000, 190},
		{"window at the start", behaviour{failFor: 500 * time.Millisecond}, 1000, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := 0
			for n := int64(1); n <= tt.n; n++ {
				if tt.b.fails(n, time.Duration(n-1)*10*time.Millisecond) {
					got++
				}
			}
			if got != tt.want {
				t.Errorf("%d of %d fail, want %d", got, tt.n, tt.want)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	if got := (behaviour{}).status(); got != 500 {
		t.Errorf("default status %d, want 500", got)
	}
	if got := (behaviour{failStatus: 503}).status(); got != 503 {
		t.Errorf("status %d, want 503", got)
	}
}

func TestSlowdown(t *testing.T) {
	s := time.Second
	step := behaviour{work: 1000, slowdownAt: 4 * s, slowdownK: 1.5}
	gradual := behaviour{work: 1000, delay: 2 * time.Millisecond, slowdownAt: 2 * s, slowdownFor: 4 * s, slowdownK: 2}
	faster := behaviour{work: 1000, slowdownAt: s, slowdownK: 0.5}
	warm := behaviour{work: 1000, warmup: 2 * s, warmupFactor: 3, slowdownAt: 0, slowdownK: 2}
	tests := []struct {
		name string
		b    behaviour
		t    time.Duration
		iter int
	}{
		{"step before", step, 3 * s, 1000},
		{"step at", step, 4 * s, 1500},
		{"step after", step, 60 * s, 1500},
		{"gradual before", gradual, s, 1000},
		{"gradual middle", gradual, 4 * s, 1500},
		{"gradual end", gradual, 6 * s, 2000},
		{"gradual after", gradual, 9 * s, 2000},
		{"faster", faster, 2 * s, 500},
		{"with a warm-up", warm, 0, 6000},
		{"after the warm-up", warm, 3 * s, 2000},
	}
	for _, tt := range tests {
		if got := tt.b.iterations(tt.t); got != tt.iter {
			t.Errorf("%s: iterations(%v) = %d, want %d", tt.name, tt.t, got, tt.iter)
		}
	}
	if got := gradual.wait(4 * s); got != 3*time.Millisecond {
		t.Errorf("gradual: wait(4s) = %v, want 3ms", got)
	}
}

func TestExtra(t *testing.T) {
	ms := time.Millisecond
	bimodal := behaviour{slowEvery: 10, slowDelay: 20 * ms}
	if bimodal.extra(10, 0.5) != 20*ms || bimodal.extra(11, 0.5) != 0 {
		t.Errorf("bimodal: %v, %v; want 20ms, 0s", bimodal.extra(10, 0.5), bimodal.extra(11, 0.5))
	}
	tail := behaviour{tailScale: ms, tailAlpha: 2}
	// Lomax: scale*((1-u)^(-1/alpha)-1); u = 0.75 gives (0.25^-0.5 - 1) = 1.
	if got := tail.extra(1, 0.75); got != ms {
		t.Errorf("tail at u=0.75: %v, want 1ms", got)
	}
	if got := tail.extra(1, 0); got != 0 {
		t.Errorf("tail at u=0: %v, want 0", got)
	}
	if got := tail.extra(1, 1-1e-12); got != 100*ms {
		t.Errorf("tail near u=1: %v, want the cap 100ms", got)
	}
}

func TestErrorBurst(t *testing.T) {
	s := time.Second
	all := behaviour{burstAt: 2 * s, burstFor: 3 * s}
	half := behaviour{burstAt: 2 * s, burstFor: 3 * s, burstEvery: 2}
	tests := []struct {
		b    behaviour
		n    int64
		t    time.Duration
		want bool
	}{
		{all, 1, s, false},
		{all, 1, 2 * s, true},
		{all, 3, 4 * s, true},
		{all, 4, 5 * s, false},
		{half, 3, 3 * s, false},
		{half, 4, 3 * s, true},
		{half, 4, 6 * s, false},
	}
	for _, tt := range tests {
		if got := tt.b.fails(tt.n, tt.t); got != tt.want {
			t.Errorf("%+v: fails(%d, %v) = %v, want %v", tt.b, tt.n, tt.t, got, tt.want)
		}
	}
}

func TestHashWork(t *testing.T) {
	zero := [sha256.Size]byte{}
	if hashWork(0) != zero {
		t.Error("hashWork(0) is not the zero state")
	}
	one := sha256.Sum256(zero[:])
	if hashWork(1) != one {
		t.Error("hashWork(1) is not SHA-256 of the zero state")
	}
	if hashWork(3) != sha256.Sum256(func() []byte { h := sha256.Sum256(one[:]); return h[:] }()) {
		t.Error("hashWork(3) does not chain three hashes")
	}
}

// get sends one request to s and returns the status and body.
func get(ctx context.Context, t *testing.T, s *server, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil).WithContext(ctx))
	return rec.Code, rec.Body.String()
}

func TestServerCountsAndErrors(t *testing.T) {
	s := newServer(behaviour{work: 10, failEvery: 4}, log.New(io.Discard, "", 0))
	ctx := context.Background()
	if code, _ := get(ctx, t, s, "/healthz"); code != http.StatusOK || s.n.Load() != 0 || s.t0.Load() != 0 {
		t.Fatalf("/healthz: status %d, counted %d, clock %d; want 200, not counted, clock not started", code, s.n.Load(), s.t0.Load())
	}
	var codes []int
	for range 8 {
		code, body := get(ctx, t, s, "/any")
		if (code == http.StatusOK) != (body == "ok\n") {
			t.Errorf("status %d with body %q", code, body)
		}
		codes = append(codes, code)
	}
	want := fmt.Sprint([]int{200, 200, 200, 500, 200, 200, 200, 500})
	if fmt.Sprint(codes) != want {
		t.Errorf("statuses %v, want %s", codes, want)
	}
	if s.t0.Load() == 0 || s.errors.Load() != 2 {
		t.Errorf("clock %d, errors %d; want started, 2", s.t0.Load(), s.errors.Load())
	}
}

func TestServerDropsAbandonedRequests(t *testing.T) {
	s := newServer(behaviour{workers: 1}, log.New(io.Discard, "", 0))
	s.pool <- struct{}{} // the only worker is busy
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the client has gone
	get(ctx, t, s, "/")
	if s.abandons.Load() != 1 || s.n.Load() != 1 {
		t.Errorf("abandoned %d of %d requests, want 1 of 1", s.abandons.Load(), s.n.Load())
	}
	<-s.pool
	if code, _ := get(context.Background(), t, s, "/"); code != http.StatusOK || len(s.pool) != 0 {
		t.Errorf("with a free worker: status %d, busy workers after %d; want 200, 0", code, len(s.pool))
	}
}

func Example_warmupFactor() {
	b := behaviour{warmup: 30 * time.Second, warmupFactor: 3}
	for _, t := range []time.Duration{0, 10 * time.Second, 20 * time.Second, 30 * time.Second} {
		fmt.Printf("%v: %.3g\n", t, b.factor(t))
	}
	// Output:
	// 0s: 3
	// 10s: 2.33
	// 20s: 1.67
	// 30s: 1
}

func TestGrow(t *testing.T) {
	b := behaviour{work: 2000, delay: 2 * time.Millisecond, grow: 0.01}
	for _, tt := range []struct {
		t    time.Duration
		iter int
		wait time.Duration
	}{
		{-time.Second, 2000, 2 * time.Millisecond},
		{0, 2000, 2 * time.Millisecond},
		{10 * time.Second, 2200, 2200 * time.Microsecond},
		{30 * time.Second, 2600, 2600 * time.Microsecond},
	} {
		if got := b.iterations(tt.t); got != tt.iter {
			t.Errorf("iterations(%v) = %d, want %d", tt.t, got, tt.iter)
		}
		if got := b.wait(tt.t); got != tt.wait {
			t.Errorf("wait(%v) = %v, want %v", tt.t, got, tt.wait)
		}
	}
	w := behaviour{warmup: 10 * time.Second, warmupFactor: 3, grow: 0.1}
	if got := w.factor(5 * time.Second); math.Abs(got-2*1.5) > 1e-12 {
		t.Errorf("warm-up and growth: factor(5s) = %v, want 3", got)
	}
}

func TestResets(t *testing.T) {
	b := behaviour{resetFrom: time.Second, resetFor: 500 * time.Millisecond}
	for _, tt := range []struct {
		t    time.Duration
		want bool
	}{{0, false}, {999 * time.Millisecond, false}, {time.Second, true}, {1499 * time.Millisecond, true}, {1500 * time.Millisecond, false}} {
		if got := b.resets(tt.t); got != tt.want {
			t.Errorf("resets(%v) = %v, want %v", tt.t, got, tt.want)
		}
	}
	if (behaviour{}).resets(0) {
		t.Error("resets without a window")
	}
}

func TestServerResetsConnection(t *testing.T) {
	s := newServer(behaviour{resetFor: time.Hour}, log.New(io.Discard, "", 0))
	srv := httptest.NewServer(s)
	defer srv.Close()
	_, err := http.Get(srv.URL + "/any")
	if err == nil || !strings.Contains(err.Error(), "reset") && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("GET in the reset window: error %v, want a connection reset", err)
	}
	if s.resets.Load() < 1 || s.errors.Load() != 0 {
		t.Errorf("resets %d, errors %d; want at least 1, 0", s.resets.Load(), s.errors.Load())
	}
}

func TestBurstStatus(t *testing.T) {
	b := behaviour{failFrom: time.Second, failFor: time.Second, failStatus: 503, burstAt: 3 * time.Second, burstFor: time.Second}
	if got := b.failStatusOf(1, 3500*time.Millisecond); got != 503 {
		t.Errorf("burst without -burst-status: %d, want -fail-status 503", got)
	}
	b.burstStatus = 500
	for _, tt := range []struct {
		t    time.Duration
		want int
	}{{1500 * time.Millisecond, 503}, {3500 * time.Millisecond, 500}} {
		if got := b.failStatusOf(1, tt.t); got != tt.want {
			t.Errorf("failStatusOf at %v = %d, want %d", tt.t, got, tt.want)
		}
	}
}
