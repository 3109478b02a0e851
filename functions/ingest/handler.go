package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/aws/aws-lambda-go/events"

	"github.com/loadverdict/loadverdict/internal/catalog"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/internal/version"
)

type handler struct {
	p      *pipeline.Pipeline
	bucket string
	log    *slog.Logger
	err    error // configuration error, returned by every invocation
}

// newHandler makes the handler of a bucket; with a Glue database, the
// ingest registers each experiment's partitions there (for Athena).
func newHandler(ctx context.Context, bucket, endpoint, database string, log *slog.Logger) (*handler, error) {
	h := &handler{bucket: bucket, log: log}
	h.p, h.err = pipeline.ForBucket(ctx, bucket, endpoint, version.GeneratedBy())
	if h.err == nil && database != "" {
		var c *catalog.Registrar
		if c, h.err = catalog.New(ctx, database, "s3://"+bucket); h.err == nil {
			h.p.Catalog = c
		}
	}
	return h, h.err
}

// handle ingests every object of an S3 event (a created object is
// ingested, a removed one has its tables removed) and then analyses each
// experiment touched once. An input fault (pipeline.IsInputFault: a
// rejected upload, an invalid key) is logged and recorded, not returned:
// a retry would meet it again. Only infrastructure faults are returned,
// so that Lambda retries and, in the end, the failure queue keeps the
// event.
func (h *handler) handle(ctx context.Context, ev events.S3Event) error {
	if h.err != nil {
		return h.err
	}
	var keys []string
	for _, rec := range ev.Records {
		if rec.S3.Bucket.Name != h.bucket {
			h.log.Warn("event of another bucket ignored", "bucket", rec.S3.Bucket.Name)
			continue
		}
		// aws-lambda-go URL-decodes the key ('+' is a space) into URLDecodedKey.
		key := rec.S3.Object.URLDecodedKey
		if err := store.CheckKey(key); err != nil {
			h.log.Error("invalid key", "error", err.Error())
			continue
		}
		keys = append(keys, key)
	}
	var errs []error
	h.p.IngestKeys(ctx, keys, func(key, exp string, err error) {
		switch {
		case pipeline.IsInputFault(err):
			h.log.Warn("upload rejected", "key", key, "error", err.Error())
		case err != nil:
			h.log.Error("ingest failed", "key", key, "error", err.Error())
			errs = append(errs, err)
		default:
			h.log.Info("ingested", "key", key, "experiment", exp)
		}
	}, func(exp, headline string, err error) {
		if err != nil {
			h.log.Error("analysis failed", "experiment", exp, "error", err.Error())
			errs = append(errs, fmt.Errorf("%s: %w", exp, err))
			return
		}
		h.log.Info("analysed", "experiment", exp, "headline", headline)
	})
	return errors.Join(errs...)
}
