// Command truthserver is a small HTTP server on the loopback interface whose
// behaviour is set by flags, so that load tests against it have a truth known
// by construction. The data sets under testdata/truth/ were measured against
// it with wrk, vegeta and hey (scripts/truth/make-<case>.sh start and stop it).
//
//	go run ./scripts/truthserver -addr 127.0.0.1:19100 -work 2000
//
// Every path answers the same way except /healthz, which answers 200 at once
// and is neither counted nor timed (the scripts poll it until the server is
// up). The body is "ok\n" or "error\n"; the header X-Work carries 8 bytes of
// the hash so the work cannot be optimized away.
//
// The clock: "elapsed time" t is measured from the first counted request
// (not from the start of the process), so warm-up, ramp and stalls line up
// with the first request of the load test. Its start is printed on stderr.
//
// Flags (all behaviours combine; each is off at its zero value):
//
//	-addr host:port     listen address; must be a loopback address (default 127.0.0.1:19100)
//	-procs N            GOMAXPROCS for the server (0: Go's default, every CPU)
//	-work N             per-request CPU work: N iterations of SHA-256 over a 32-byte
//	                    state. The cost of one iteration is calibrated at start and
//	                    printed, so "15 % more work" is -work 2300 instead of 2000.
//	-delay D            per-request wait (time.Sleep) after the work, e.g. 3ms
//	-warmup T           warm-up: for the first T of elapsed time the work and the
//	                    delay are multiplied by a factor that falls from -warmup-factor
//	                    at t=0 to 1 at t=T, then stays 1
//	-warmup-factor K    the factor at t=0 (default 3)
//	-warmup-steps N     0: the factor falls linearly; N>0: in N equal steps
//	                    (K for the first T/N, then K-(K-1)/N, ...)
//	-warmup-every P     repeat the warm-up every P (phase = t mod P); 0: once
//	-ramp R             extra wait growing linearly with elapsed time: R per second
//	                    of t (-ramp 1ms: +1 ms at t=1 s, +60 ms at t=60 s), never levels off
//	-grow G             a leak: the work and the delay are multiplied by 1 + G·t (t in
//	                    seconds of elapsed time; -grow 0.01: +1 % of the cost per
//	                    second, +30 % at t=30 s), never levels off; combines with -warmup
//	-stall-every P      periodic stall: every P, ALL handling freezes (a global lock
//	                    that every request must pass before it is handled) for
//	                    -stall-for; the first stall starts at -stall-at
//	-stall-for S        length of each stall (default 1.5s)
//	-stall-at A         elapsed time of the first stall (default: -stall-every)
//	-stall-jitter J     move each stall by a uniform draw in [-J, J): irregular stalls
//	-workers W          capacity limit: W workers; a request waits in an unbounded
//	                    FIFO queue for a free worker, which then does its work and
//	                    delay (its service time). Capacity = W / service time.
//	                    A request whose client has gone (timed out) before it gets
//	                    a worker is dropped without work (counted as abandoned).
//	-fail-every N       every N-th counted request (n % N == 0, n from 1) answers 500
//	-succeed-every N    every N-th counted request answers 200, all others 500
//	-fail-from T        the error window: every request arriving at elapsed time in
//	-fail-for D         [T, T+D) fails (an error burst); -fail-for 0: no window
//	-fail-status S      the status code of a failed request (default 500)
//	-slowdown-at A      slowdown: from elapsed time A the work and the delay are
//	-slowdown-for L     multiplied by a factor rising linearly from 1 at A to
//	-slowdown-factor K  K at A+L (at once when L is 0), then staying K: a step
//	                    down (L 0), a degradation that levels off (L > 0), or a
//	                    trend to the end (A+L past the end of the test); K < 1
//	                    makes it faster instead. It multiplies with the warm-up.
//	-slow-every N       every N-th counted request waits -slow-delay more: a
//	-slow-delay D       second mode (bimodal latency), or a tail-only change
//	-tail-scale D       heavy tail: every request waits an extra Lomax (Pareto II)
//	-tail-alpha A       draw, D*((1-u)^(-1/A)-1) for u uniform in [0,1), capped
//	                    at 100*D (mean D/(A-1) for A > 1; default A 2)
//	-burst-at A         error burst: requests handled in [A, A+L) of elapsed time
//	-burst-for L        answer 500 (all of them, or every N-th with -burst-every N);
//	-burst-every N      the status is -fail-status's, unless -burst-status S
//	-burst-status S     gives the burst a status of its own (a second error window
//	                    with another status beside -fail-from's)
//	-reset-from T       the reset window: every request arriving at elapsed time in
//	-reset-for D        [T, T+D) gets no answer: after its work and delay the server
//	                    takes the connection over and closes it with SO_LINGER 0 (a
//	                    TCP RST; the client reads "connection reset by peer"). It
//	                    takes precedence over the error windows; counted as reset
//
// Error responses and resets cost the same work and delay as successes. On
// SIGINT or SIGTERM the server prints its counts (requests, failed, abandoned,
// reset) and exits.
package main
