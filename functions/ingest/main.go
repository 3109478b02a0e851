// Command ingest is the Lambda function run for each upload under raw/:
// it ingests the object into tables and analyses its experiment.
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
	h, err := newHandler(context.Background(), os.Getenv("LOADVERDICT_BUCKET"), os.Getenv("LOADVERDICT_S3_ENDPOINT"),
		os.Getenv("LOADVERDICT_GLUE_DATABASE"), log)
	if err != nil {
		log.Error("configuration", "error", err.Error())
	}
	lambda.Start(h.handle)
}
