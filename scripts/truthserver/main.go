package main

import (
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// server answers requests according to its behaviour and counts them.
type server struct {
	b        behaviour
	log      *log.Logger
	start    sync.Once
	t0       atomic.Int64 // clock start, UnixNano; 0 until the first request
	gate     sync.RWMutex // held for writing during a stall
	pool     chan struct{}
	n        atomic.Int64 // counted requests
	errors   atomic.Int64 // 500s sent
	resets   atomic.Int64 // connections reset instead of an answer
	abandons atomic.Int64 // requests dropped because their client had gone
	speed    speedMeter
}

func newServer(b behaviour, logger *log.Logger) *server {
	s := &server{b: b, log: logger}
	if b.workers > 0 {
		s.pool = make(chan struct{}, b.workers)
	}
	return s
}

// elapsed is the time since the clock started.
func (s *server) elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - s.t0.Load())
}

// startClock starts the clock at the first counted request, and the stalls with it.
func (s *server) startClock() {
	s.start.Do(func() {
		now := time.Now()
		s.t0.Store(now.UnixNano())
		s.log.Printf("clock started at %s (first request)", now.UTC().Format(time.RFC3339Nano))
		if s.b.stallEvery > 0 && s.b.stallFor > 0 {
			go s.stalls(now)
		}
	})
}

// stalls freezes all handling for stallFor at every scheduled stall.
func (s *server) stalls(t0 time.Time) {
	for k := 0; ; k++ {
		from := t0.Add(s.b.stall(k))
		if j := s.b.stallJitter; j > 0 {
			// Irregular stalls: each moved by a uniform draw in [-j, j).
			from = from.Add(time.Duration((2*uniform() - 1) * float64(j)))
		}
		time.Sleep(time.Until(from))
		s.gate.Lock()
		got := time.Since(t0)
		time.Sleep(time.Until(from.Add(s.b.stallFor)))
		s.gate.Unlock()
		s.log.Printf("stall %d: from %.3f s to %.3f s", k+1, got.Seconds(), time.Since(t0).Seconds())
	}
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/healthz" {
		io.WriteString(w, "ok\n")
		return
	}
	if r.URL.Path == "/speed" {
		// The machine's speed as the work saw it since the last call
		// (speedMeter): read by the generator, not counted.
		s.speed.serveSpeed(w)
		return
	}
	s.startClock()
	n := s.n.Add(1)
	// The gate: an empty critical section that only waits out a stall.
	s.gate.RLock()
	s.gate.RUnlock()
	if s.pool != nil {
		select {
		case s.pool <- struct{}{}:
			defer func() { <-s.pool }()
		case <-r.Context().Done():
			s.abandons.Add(1)
			return
		}
	}
	t := s.elapsed()
	iters, w0 := s.b.iterations(t), time.Now()
	sum := hashWork(iters)
	s.speed.add(t, iters, time.Since(w0))
	if d := s.b.wait(t) + s.b.extra(n, uniform()); d > 0 {
		preciseSleep(d)
	}
	if s.b.resets(t) {
		s.reset(w)
		return
	}
	w.Header().Set("X-Work", hex.EncodeToString(sum[:8]))
	if s.b.fails(n, t) {
		s.errors.Add(1)
		w.WriteHeader(s.b.failStatusOf(n, t))
		io.WriteString(w, "error\n")
		return
	}
	io.WriteString(w, "ok\n")
}

// preciseSleep waits d with the kernel's high-resolution timer
// (nanosleep(2) on the request's own thread), not time.Sleep: when the
// server is idle between requests, Go's runtime waits for its timers in
// epoll_wait, whose timeout is in whole milliseconds, so time.Sleep(1.7ms)
// takes about 2 ms and a delay that grows smoothly is served as steps of
// 1 ms (golang/go#44343). The conformance grid's first within-run trends
// and ramps were made that way: their truth moved in 1 ms steps.
func preciseSleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		err := syscall.Nanosleep(&ts, &rem)
		if err != syscall.EINTR {
			return
		}
		ts = rem
	}
}

// reset answers nothing: it takes the connection over and closes it with
// SO_LINGER 0, so the kernel sends a TCP RST (the client reads "connection
// reset by peer") instead of the FIN of an orderly close.
func (s *server) reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		s.log.Printf("reset: %v", err)
		return
	}
	s.resets.Add(1)
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

// calibrate measures the median time of one request's work (n iterations)
// over reps repetitions.
func calibrate(n, reps int) time.Duration {
	if n <= 0 {
		return 0
	}
	d := make([]time.Duration, reps)
	for i := range d {
		t := time.Now()
		hashWork(n)
		d[i] = time.Since(t)
	}
	slices.Sort(d)
	return d[reps/2]
}

func main() {
	var b behaviour
	addr := flag.String("addr", "127.0.0.1:19100", "listen address (loopback only)")
	procs := flag.Int("procs", 0, "GOMAXPROCS (0: every CPU)")
	flag.IntVar(&b.work, "work", 0, "SHA-256 iterations per request")
	flag.DurationVar(&b.delay, "delay", 0, "wait per request after the work")
	flag.DurationVar(&b.warmup, "warmup", 0, "length of the warm-up phase")
	flag.Float64Var(&b.warmupFactor, "warmup-factor", 3, "cost multiplier at the start of the warm-up")
	flag.IntVar(&b.warmupSteps, "warmup-steps", 0, "0: the factor falls linearly; N: in N steps")
	flag.DurationVar(&b.warmupEvery, "warmup-every", 0, "repeat the warm-up with this period (0: once)")
	flag.DurationVar(&b.ramp, "ramp", 0, "extra wait per second of elapsed time")
	flag.Float64Var(&b.grow, "grow", 0, "relative growth of work and delay per second of elapsed time (a leak)")
	flag.DurationVar(&b.stallEvery, "stall-every", 0, "period of the stalls (0: none)")
	flag.DurationVar(&b.stallFor, "stall-for", 1500*time.Millisecond, "length of one stall")
	flag.DurationVar(&b.stallAt, "stall-at", 0, "elapsed time of the first stall (0: -stall-every)")
	flag.DurationVar(&b.stallJitter, "stall-jitter", 0, "move each stall by a uniform draw in [-j, j) (irregular stalls; keep it under half of -stall-every)")
	flag.IntVar(&b.workers, "workers", 0, "worker pool size (0: unlimited)")
	flag.Int64Var(&b.failEvery, "fail-every", 0, "every N-th request answers 500")
	flag.Float64Var(&b.failShare, "fail-share", 0, "a deterministic share in [0, 1] of the requests answers 500 (0.015: 15 in every 1000, evenly spread)")
	flag.Int64Var(&b.succeedEvery, "succeed-every", 0, "only every N-th request answers 200")
	flag.DurationVar(&b.failFrom, "fail-from", 0, "elapsed start of the error window (with -fail-for)")
	flag.DurationVar(&b.failFor, "fail-for", 0, "length of the error window: every request in it fails (0: none)")
	flag.IntVar(&b.failStatus, "fail-status", 500, "status code of a failed request")
	flag.DurationVar(&b.slowdownAt, "slowdown-at", 0, "elapsed time the slowdown starts")
	flag.DurationVar(&b.slowdownFor, "slowdown-for", 0, "length of the slowdown's rise (0: abrupt)")
	flag.Float64Var(&b.slowdownK, "slowdown-factor", 0, "cost multiplier at the end of the slowdown's rise (0: none)")
	flag.Int64Var(&b.slowEvery, "slow-every", 0, "every N-th request waits -slow-delay more")
	flag.DurationVar(&b.slowDelay, "slow-delay", 0, "extra wait of every -slow-every-th request")
	flag.DurationVar(&b.tailScale, "tail-scale", 0, "scale of a heavy-tailed (Lomax) extra wait (0: none)")
	flag.Float64Var(&b.tailAlpha, "tail-alpha", 2, "shape of the heavy-tailed extra wait")
	flag.DurationVar(&b.burstAt, "burst-at", 0, "elapsed time an error burst starts")
	flag.DurationVar(&b.burstFor, "burst-for", 0, "length of the error burst (0: none)")
	flag.Int64Var(&b.burstEvery, "burst-every", 1, "in the burst, every N-th request answers 500 (1: all)")
	flag.IntVar(&b.burstStatus, "burst-status", 0, "status code of the burst's failures (0: -fail-status)")
	flag.DurationVar(&b.resetFrom, "reset-from", 0, "elapsed start of the reset window (with -reset-for)")
	flag.DurationVar(&b.resetFor, "reset-for", 0, "length of the reset window: every request in it has its connection reset (0: none)")
	flag.Parse()
	logger := log.New(os.Stderr, "truthserver: ", 0)
	if flag.NArg() > 0 {
		logger.Fatalf("unexpected arguments %q", flag.Args())
	}
	if b.failShare < 0 || b.failShare > 1 {
		logger.Fatalf("-fail-share %g: want a share in [0, 1]", b.failShare)
	}
	if *procs > 0 {
		runtime.GOMAXPROCS(*procs)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		logger.Fatal(err)
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		logger.Fatal("truthserver listens on loopback only")
	}
	var settings []string
	flag.VisitAll(func(f *flag.Flag) { settings = append(settings, "-"+f.Name+"="+f.Value.String()) })
	logger.Printf("started at %s on %s, GOMAXPROCS=%d", time.Now().UTC().Format(time.RFC3339Nano), ln.Addr(), runtime.GOMAXPROCS(0))
	logger.Printf("settings: %s", strings.Join(settings, " "))
	if b.work > 0 {
		c := calibrate(b.work, 301)
		logger.Printf("calibration: -work %d takes %v per request (median of 301), %.1f ns per iteration",
			b.work, c.Round(100*time.Nanosecond), float64(c)/float64(b.work))
	}
	s := newServer(b, logger)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-sig
		logger.Printf("stopped: %d requests, %d failed, %d abandoned in the queue, %d reset", s.n.Load(), s.errors.Load(), s.abandons.Load(), s.resets.Load())
		os.Exit(0)
	}()
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintln(os.Stderr, "truthserver: ready")
	logger.Fatal(srv.Serve(ln))
}
