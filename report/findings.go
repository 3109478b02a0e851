package report

import (
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// findingWords is a finding in words.
type findingWords struct {
	Subject, Message, Fix string
}

// findingWordings words each finding code (report/finding_<code>.go).
var findingWordings = map[analyze.Code]func(analyze.Finding) findingWords{
	analyze.CodeCoordinatedOmission: wordCoordinatedOmission,
	analyze.CodeShortRun:            wordShortRun,
	analyze.CodeNoReplication:       wordNoReplication,
	analyze.CodeNotInterleaved:      wordNotInterleaved,
	analyze.CodeStillWarming:        wordStillWarming,
	analyze.CodeErrors:              wordErrors,
	analyze.CodeErrorBurst:          wordErrorBurst,
	analyze.CodeTargetsDiffer:       wordTargetsDiffer,
	analyze.CodeSameHost:            wordSameHost,
	analyze.CodeLittlesLaw:          wordLittlesLaw,
	analyze.CodeSaturated:           wordSaturated,
	analyze.CodeGeneratorBound:      wordGeneratorBound,
	analyze.CodeSplitRun:            wordSplitRun,
	analyze.CodeOverload:            wordOverload,
	analyze.CodeLevelShift:          wordLevelShift,
	analyze.CodePeriodicPauses:      wordPeriodicPauses,
	analyze.CodeOutlierRun:          wordOutlierRun,
	analyze.CodeSlowingDown:         wordSlowingDown,
	analyze.CodeStall:               wordStall,
	analyze.CodeUnstable:            wordUnstable,
	analyze.CodePeriodicStalls:      wordUnstable,
	analyze.CodeRatesMerged:         wordRatesMerged,
	analyze.CodeContradictoryRun:    wordContradictoryRun,
	analyze.CodeLongTail:            wordLongTail,
}

// wordFinding words a methodology finding: whom it concerns, what is
// wrong, and the fix; a code without a wording by its name.
func wordFinding(f analyze.Finding) findingWords {
	if w, ok := findingWordings[f.Code]; ok {
		return w(f)
	}
	return findingWords{strings.Join(f.Subject.Systems, ", "), string(f.Code), ""}
}

// system returns the i-th system of a subject, or "" when it has fewer.
func system(s analyze.Subject, i int) string {
	if i < len(s.Systems) {
		return s.Systems[i]
	}
	return ""
}

// settingsOf words a subject's settings.
func settingsOf(s analyze.Subject) string {
	if s.Settings == nil {
		return ""
	}
	return settingsText(*s.Settings)
}

// runSubject names a subject's first run, e.g. "a:80 run seq 3".
func runSubject(s analyze.Subject) string {
	if len(s.Runs) == 0 {
		return strings.Join(s.Systems, ", ")
	}
	return fmt.Sprintf("%s run seq %d", s.Runs[0].Label, s.Runs[0].Seq)
}

func pct(f float64) string { return rel(100*f) + " %" }

func durRange(lo, hi float64) string { return numRange(lo, hi) + " s" }
