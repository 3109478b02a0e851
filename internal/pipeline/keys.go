package pipeline

import "context"

// IngestKeys is the one call of the ingest function and of `ingest
// --store`: it ingests each raw key in order (Ingest), then analyses each
// experiment touched once (Analyze), in the order first touched. An
// input fault of a key (IsInputFault: a rejected upload, an invalid key)
// still has its experiment analysed, so that its report lists it; a key
// that failed otherwise does not. ingested is called with each key's
// outcome and analysed with each experiment's; IngestKeys returns
// nothing of its own: the callers tell what each error means to them.
func (p *Pipeline) IngestKeys(ctx context.Context, keys []string,
	ingested func(key, experiment string, err error), analysed func(experiment, headline string, err error)) {
	var exps []string
	seen := map[string]bool{}
	for _, key := range keys {
		exp, err := p.Ingest(ctx, key)
		ingested(key, exp, err)
		if err != nil && !IsInputFault(err) {
			continue
		}
		if exp != "" && !seen[exp] {
			seen[exp] = true
			exps = append(exps, exp)
		}
	}
	for _, exp := range exps {
		headline, err := p.Analyze(ctx, exp)
		analysed(exp, headline, err)
	}
}
