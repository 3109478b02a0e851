package pipeline

import (
	"context"

	"github.com/loadverdict/loadverdict/analyze"
)

// Verdict analyses req's experiments as Report does (the same inputs,
// naming, order, merging and options) but renders nothing: the typed
// verdict only, nil when every input was rejected or removed. The
// conformance grid (scripts/conformance) analyses its experiments through
// it, so that what it measures is what report gives.
func (p *Pipeline) Verdict(ctx context.Context, req Request) (*analyze.Verdict, error) {
	from := req.From
	if len(from) == 0 {
		from = []string{req.Experiment}
	}
	in := map[string]string{}
	for _, exp := range from {
		if err := p.listInputs(ctx, exp, false, in); err != nil {
			return nil, err
		}
	}
	v, _, _, err := p.verdict(ctx, req, in)
	return v, err
}
