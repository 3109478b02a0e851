package pipeline

import (
	"context"

	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
)

// ReadManifest reads the manifest at key in a store, at most
// experiment.MaxManifestBytes of it: a larger one is a *experiment.ManifestError (an input
// fault of its experiment), found without reading it whole.
func ReadManifest(ctx context.Context, s store.Store, key string) ([]byte, store.Object, error) {
	rc, obj, err := s.Get(ctx, key)
	if err != nil {
		return nil, obj, err
	}
	defer rc.Close()
	b, err := experiment.ReadManifestFrom(key, rc)
	return b, obj, err
}
