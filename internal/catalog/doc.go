// Package catalog registers the partitions of loadverdict's tables in the
// AWS Glue Data Catalog as the ingest writes them, so that Athena queries
// every experiment without naming it in WHERE (docs/ARCHITECTURE.md,
// "Athena"). The Glue client is an interface, GlueAPI, so tests use an
// in-process fake.
package catalog
