package k6

import (
	"bytes"

	"github.com/loadverdict/loadverdict/ingest/requests"
)

// JSONLineDecoder returns the per-line decoder of k6's --out json points
// into a (see requests.LineFunc): each line as Parse reads it
// (jsonLine), http_req_duration points being the requests, one run per
// scenario, method and name. A blank line is skipped.
func JSONLineDecoder(a *requests.Requests) requests.LineFunc {
	extra := &completer{}
	return func(line []byte, n int) error {
		b := bytes.TrimSpace(line)
		if n == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		if len(b) == 0 {
			return nil
		}
		return jsonLine(a, extra, b, n)
	}
}
