package pipeline

import (
	"errors"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/experiment"
)

// IsInputFault is the one place that tells an input fault from an
// infrastructure fault. An input fault is one a retry cannot help: an
// upload's content (ingest.ErrInput), a manifest that cannot be parsed
// or whose names match nothing, an input already rejected, a key that
// cannot name an upload. It gets a rejection record and is reported,
// never retried; every other failure is returned so that Lambda retries.
// docs/ARCHITECTURE.md "Failures: input or infrastructure".
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
