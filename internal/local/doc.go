// Package local runs the pipeline on local files, as the command line
// does: its inputs named as the command line names them (paths, "-" for
// standard input, folders, systems and merge groups by path, manifests
// found in the folders: Files, in the manner of x/perf's benchfmt.Files),
// the output folder as a local store laid out like the bucket (Open), and
// one call per command that reads files: Parse, Ingest, Report (report
// and compare), CompareStore, History and StoreHistory. Each strings
// together what the command does (check, open, prune, ingest, analyse,
// write) so that cmd/loadverdict keeps only its flags, its printing and
// its exit status.
//
// A mistake in what the command was asked to read (a path that is not
// there, standard input given twice, two manifests) is an *ArgError, the
// command line's usage error; an input that cannot be read or parsed is
// rejected, said on the Stderr of the Runner and counted, the others are
// still read.
//
// Inputs are identified by device and inode (a file named twice is read
// once); the output folder owns only what it wrote, is held by flock(2)
// on .loadverdict.lock while a command uses it, and --junit never
// overwrites an input: docs/ARCHITECTURE.md, "Input identity" and the
// output folder's rules beside it.
package local
