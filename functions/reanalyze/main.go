// Command reanalyze is the Lambda function of the schedule: it re-makes
// every report that is missing or stale, or, invoked with
// {"experiment": "..."} or {"all": true}, that one or all of them.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/loadverdict/loadverdict/internal/pipeline"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	if limit := pipeline.LambdaMemoryLimit(); limit > 0 {
		log.Info("memory limit", "bytes", limit)
	}
	h, err := newHandler(context.Background(), os.Getenv("LOADVERDICT_BUCKET"), os.Getenv("LOADVERDICT_S3_ENDPOINT"), log)
	if err != nil {
		log.Error("configuration", "error", err.Error())
	}
	lambda.Start(h.handle)
}
