// Command grpcserver is a small gRPC server on the loopback interface used to
// produce real ghz output for the ingest test data (see
// ingest/ghz/testdata/ghz/README.md). It serves grpc.health.v1.Health with
// server reflection, so ghz needs no .proto file:
//
//	ghz --insecure --call grpc.health.v1.Health/Check 127.0.0.1:PORT
//
// Each Check waits -delay, and every -fail-every-th call (0: none) fails
// with codes.Unavailable. It is a module of its own so that grpc stays out
// of loadverdict's go.mod.
package main

import (
	"context"
	"flag"
	"log"
	"net"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

type health struct {
	healthpb.UnimplementedHealthServer
	delay     time.Duration
	failEvery int64
	n         atomic.Int64
}

func (h *health) Check(ctx context.Context, _ *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	n := h.n.Add(1)
	if h.delay > 0 {
		select {
		case <-time.After(h.delay):
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		}
	}
	if h.failEvery > 0 && n%h.failEvery == 0 {
		return nil, status.Error(codes.Unavailable, "every n-th call fails")
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:19400", "listen address (loopback only)")
	delay := flag.Duration("delay", 0, "time each call waits")
	failEvery := flag.Int64("fail-every", 0, "every n-th call fails with Unavailable (0: none)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		log.Fatal("grpcserver listens on loopback only")
	}
	s := grpc.NewServer()
	healthpb.RegisterHealthServer(s, &health{delay: *delay, failEvery: *failEvery})
	reflection.Register(s)
	log.Fatal(s.Serve(ln))
}
