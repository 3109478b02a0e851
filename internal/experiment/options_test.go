package experiment

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestAcceptedFlag(t *testing.T) {
	var a Accepted
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&a, "accept", "")
	if err := fs.Parse([]string{"--accept", "exp03", "--accept=exp05"}); err != nil {
		t.Fatal(err)
	}
	if want := (Accepted{"exp03", "exp05"}); !slices.Equal(a, want) || a.String() != "exp03,exp05" {
		t.Errorf("--accept exp03 --accept exp05: %q (%s), want %q", a, a.String(), want)
	}
	for _, blank := range []string{"", " ", "\t"} {
		if err := a.Set(blank); err == nil {
			t.Errorf("Set(%q): no error", blank)
		}
	}
	if len(a) != 2 {
		t.Errorf("a blank name was added: %q", a)
	}
}
