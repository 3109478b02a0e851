// Command truthserver is a small HTTP server on the loopback interface whose
// behaviour is set by flags, so that load tests against it have a truth known
// by construction. The data sets under testdata/truth/ were measured against
// it with wrk, vegeta and hey (scripts/truth/make-<case>.sh start and stop it).
//
//	go run ./scripts/truthserver -addr 127.0.0.1:19100 -work 2000
//
// Every path but /healthz (200 at once, neither counted nor timed) and
// /speed (how fast the work ran since the last call, as JSON) does
// the work and waits the flags set; elapsed time is measured from the
// first counted request. The behaviours (work, delay, warm-up, ramp,
// leak, stalls, workers, errors, slowdown, tails, bursts, resets) combine,
// each off at its zero value: scripts/truthserver/README.md describes
// every flag. On SIGINT or SIGTERM the server prints its counts and exits.
package main
