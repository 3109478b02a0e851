// Package report renders an analyze.Verdict for people and machines:
// summary.json (the machine-readable contract of docs/SCHEMA.md) and, with
// the report issue, the markdown verdict. It is pure: values in, bytes out.
package report
