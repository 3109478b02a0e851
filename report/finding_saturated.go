package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordSaturated words a saturated finding.
func wordSaturated(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.SaturatedFacts)
	label := system(s, 0)
	at := ""
	if x.At != nil {
		at = fmt.Sprintf(" at %d connections or fewer", *x.At)
	}
	return findingWords{label,
		fmt.Sprintf("%s is saturated%s: %s. More load only adds queueing, so its latency at the higher load measures the queue, not the system.", label, at, saturationText(&x.Saturation)),
		"Compare systems below saturation (at a fixed rate both can sustain, with an open-model generator), and find what saturates (server CPU, upstream, the generator) before blaming the system."}
}
