package main

import (
	"context"
	"log/slog"

	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/internal/version"
)

// Request is the function's input: the schedule sends {"all": false}.
type Request struct {
	Experiment string `json:"experiment,omitempty"`
	All        bool   `json:"all,omitempty"`
}

// Response lists the experiments analysed.
type Response struct {
	Analyzed []string `json:"analyzed"`
}

type handler struct {
	p   *pipeline.Pipeline
	log *slog.Logger
	err error
}

func newHandler(ctx context.Context, bucket, endpoint string, log *slog.Logger) (*handler, error) {
	h := &handler{log: log}
	h.p, h.err = pipeline.ForBucket(ctx, bucket, endpoint, version.GeneratedBy())
	return h, h.err
}

func (h *handler) handle(ctx context.Context, req Request) (Response, error) {
	if h.err != nil {
		return Response{}, h.err
	}
	if req.Experiment != "" {
		if err := store.CheckExperiment(req.Experiment); err != nil {
			return Response{}, err
		}
	}
	done, err := h.p.Reanalyze(ctx, req.Experiment, req.All)
	h.log.Info("reanalysed", "experiments", done, "error", errString(err))
	return Response{Analyzed: append([]string{}, done...)}, err
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
