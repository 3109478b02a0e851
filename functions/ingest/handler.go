package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/aws/aws-lambda-go/events"

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

func newHandler(ctx context.Context, bucket, endpoint string, log *slog.Logger) (*handler, error) {
	h := &handler{bucket: bucket, log: log}
	h.p, h.err = pipeline.ForBucket(ctx, bucket, endpoint, version.GeneratedBy())
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
	var errs []error
	var exps []string
	seen := map[string]bool{}
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
		exp, err := h.p.Ingest(ctx, key)
		switch {
		case pipeline.IsInputFault(err):
			h.log.Warn("upload rejected", "key", key, "error", err.Error())
		case err != nil:
			h.log.Error("ingest failed", "key", key, "error", err.Error())
			errs = append(errs, err)
			continue
		default:
			h.log.Info("ingested", "key", key, "experiment", exp)
		}
		if exp != "" && !seen[exp] {
			seen[exp] = true
			exps = append(exps, exp)
		}
	}
	for _, exp := range exps {
		headline, err := h.p.Analyze(ctx, exp)
		if err != nil {
			h.log.Error("analysis failed", "experiment", exp, "error", err.Error())
			errs = append(errs, fmt.Errorf("%s: %w", exp, err))
			continue
		}
		h.log.Info("analysed", "experiment", exp, "headline", headline)
	}
	return errors.Join(errs...)
}
