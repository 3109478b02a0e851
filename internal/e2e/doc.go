// Package e2e holds the end-to-end test of the bucket pipeline, run by
// scripts/e2e.sh against a real S3 API server and the Lambda runtime
// interface emulator (build tag e2e).
package e2e
