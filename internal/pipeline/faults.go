package pipeline

import (
	"errors"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/experiment"
)

// IsInputFault is the one place that tells the two classes of failure
// apart. A failure is about the input when retrying cannot help, because
// the bytes or the settings a user gave are wrong:
//
//   - the content of an upload (ingest.ErrInput: a *ingest.SyntaxError, a
//     *ingest.NoOutputError, a corrupt compressed stream, too many bad
//     bytes);
//   - an experiment's manifest that cannot be parsed (*ManifestError) or
//     whose names match nothing (*NameError);
//   - an input already rejected (*RejectedError);
//   - a key that cannot name an upload (ErrInvalidKey: not under raw/,
//     an experiment name that is not printable, ...), which gets no
//     record (it names no experiment) but is logged.
//
// An input fault gets a rejection record (key, error, line), is listed in
// the report and is not retried. Every other failure is about the
// infrastructure (the store, the network, a read cut off, a local file
// that changed while it was read, the context, a full disk): it is
// returned, so that Lambda retries the invocation and, in the end, the
// failure queue keeps its event; nothing of it is recorded as the
// input's fault.
func IsInputFault(err error) bool {
	if err == nil {
		return false
	}
	var me *experiment.ManifestError
	var ne *experiment.NameError
	return errors.Is(err, ingest.ErrInput) || errors.Is(err, ErrRejected) || errors.Is(err, ErrInvalidKey) || errors.As(err, &me) || errors.As(err, &ne)
}

// ErrInvalidKey is matched by the error of Ingest for a key that cannot
// name an upload.
var ErrInvalidKey = errors.New("not a key of an upload")
