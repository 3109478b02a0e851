// Package pipeline is the bucket pipeline shared by the CLI and the Lambda
// functions: Ingest turns one raw upload into tables, Analyze turns an
// experiment's tables into its report, Reanalyze finds the experiments
// whose report is missing or stale. Render makes the report files, the
// same bytes whether they go to a folder or a bucket.
package pipeline
