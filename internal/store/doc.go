// Package store is loadverdict's object store: a small Store interface
// (streaming get, put, list, head, delete), a local-folder implementation
// and an S3 one on aws-sdk-go-v2 that works with AWS and any S3-compatible
// server, and the key layout of the bucket (ARCHITECTURE.md):
//
//	raw/<experiment>/<any file>            uploads; never modified or deleted
//	raw/<experiment>/loadverdict.yaml      optional manifest
//	tables/<table>/experiment=<experiment>/<source-id>-<generation>.parquet
//	tables/_sources/experiment=<experiment>/<source-id>.json   commit record
//	reports/<experiment>/report.md, *.png, summary.json
//	rejected/<experiment>/<source-id>.json why an upload could not be ingested
package store
