# Builds for AWS SAM (BuildMethod: makefile in template.yaml) and locally.
#
#   sam build                    runs build-IngestFunction and build-ReanalyzeFunction,
#                                with ARTIFACTS_DIR set by SAM, from the one root go.mod
#   make build [GOARCH=amd64]    both function binaries under out/functions/<name>/bootstrap
#                                (linux; arm64 by default, amd64 for the Lambda emulator on x86)
#   make test                    go test ./...
#   make clean                   removes out/functions and .aws-sam

GOARCH ?= arm64
FUNCTIONS_DIR ?= out/functions
GO_BUILD_FLAGS = -tags lambda.norpc -trimpath -ldflags='-s -w'

.PHONY: build build-IngestFunction build-ReanalyzeFunction test clean

build-IngestFunction:
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build -tags lambda.norpc -trimpath -ldflags='-s -w' -o $(ARTIFACTS_DIR)/bootstrap ./functions/ingest

build-ReanalyzeFunction:
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build -tags lambda.norpc -trimpath -ldflags='-s -w' -o $(ARTIFACTS_DIR)/bootstrap ./functions/reanalyze

build:
	GOOS=linux GOARCH=$(GOARCH) CGO_ENABLED=0 go build $(GO_BUILD_FLAGS) -o $(FUNCTIONS_DIR)/ingest/bootstrap ./functions/ingest
	GOOS=linux GOARCH=$(GOARCH) CGO_ENABLED=0 go build $(GO_BUILD_FLAGS) -o $(FUNCTIONS_DIR)/reanalyze/bootstrap ./functions/reanalyze

test:
	go test ./...

clean:
	rm -rf $(FUNCTIONS_DIR) .aws-sam
