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
// An input file is identified by device and inode, not by its path: named
// again (another spelling, a link, inside a folder also named) it is read
// once under its first name, and one stderr line lists the dropped names
// (at most 10, then a count). The output folder owns only what it wrote:
// its store's folders and the report files listed in its
// .loadverdict-files.json, the only ones a later run removes; its own
// files are never inputs. A command holds flock(2) on its
// .loadverdict.lock while it uses the folder; a second one is refused
// (an *ArgError naming the holder's pid), never mixed in, and a killed
// holder blocks nothing (the kernel drops the lock). --junit never
// overwrites an input and is replaced by rename, not written through a
// symlink.
package local
