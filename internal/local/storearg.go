package local

import (
	"errors"
	"net/url"
	"os"
	"strings"

	"github.com/loadverdict/loadverdict/internal/store"
)

// CheckStore checks a --store argument and its --endpoint before the
// store is opened: s3://BUCKET[/prefix] (an S3 URL without a bucket, with
// a bad prefix, or another scheme is refused) or a folder that exists;
// an --endpoint only with s3://, and an http(s) URL. Its errors are
// *ArgErrors: the command line exits 2.
func CheckStore(where, endpoint string) error {
	switch {
	case where == "":
		return argErrorf("--store DIR|s3://BUCKET is required")
	case strings.HasPrefix(where, "s3://"):
		if _, _, err := store.ParseS3URL(where); err != nil {
			return argErrorf("--store: %v", err)
		}
		if endpoint != "" {
			if u, err := url.Parse(endpoint); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
				return argErrorf("--endpoint %q: want http(s)://HOST[:PORT]", endpoint)
			}
		}
		return nil
	case strings.Contains(where, "://"):
		return argErrorf("--store %q: want a folder or s3://BUCKET[/prefix]", where)
	case endpoint != "":
		return argErrorf("--endpoint is for --store s3://BUCKET, not the folder %s", where)
	}
	st, err := os.Stat(where)
	if err != nil {
		return argErrorf("--store %s: %v", where, errors.Unwrap(err))
	}
	if !st.IsDir() {
		return argErrorf("--store %s: not a folder", where)
	}
	return nil
}
