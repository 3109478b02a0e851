package store_test

import (
	"fmt"

	"github.com/loadverdict/loadverdict/internal/store"
)

// The experiment of an upload is the first segment of its key after raw/;
// derived keys escape it like a Hive partition value.
func ExampleExperimentOf() {
	for _, key := range []string{"raw/zuul-vs-openresty/seed.txt", "raw/zuul-vs-openresty.txt", "raw/tuning a=b/run 1.txt"} {
		exp, _ := store.ExperimentOf(key)
		fmt.Printf("%s -> %q -> %s\n", key, exp, store.TablePrefix("runs", exp))
	}
	// Output:
	// raw/zuul-vs-openresty/seed.txt -> "zuul-vs-openresty" -> tables/runs/experiment=zuul-vs-openresty/
	// raw/zuul-vs-openresty.txt -> "zuul-vs-openresty.txt" -> tables/runs/experiment=zuul-vs-openresty.txt/
	// raw/tuning a=b/run 1.txt -> "tuning a=b" -> tables/runs/experiment=tuning a%3Db/
}
