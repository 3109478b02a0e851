package analyze

// ErrorsFacts are the figures of an errors finding.
type ErrorsFacts struct {
	Errors    int64   // failed requests
	Attempted int64   // requests attempted (Attempted)
	Rate      float64 // the error rate, Errors/Attempted (ErrorRate)
	// The breakdown, where the tool gives it.
	Connect, Read, Write, Timeouts, Non2xx *int64
}

func (ErrorsFacts) facts() {}

// checkErrors adds an errors finding for every run with failed requests:
// an error from Options.ErrorRateSevere, else a warning.
func checkErrors(v *Verdict, _ *findingContext) {
	for _, r := range v.Runs {
		if r.Errors <= 0 {
			continue
		}
		sev := SeverityWarning
		rate, _ := ErrorRate(r) // errors > 0, so the run attempted some
		if rate >= v.Options.ErrorRateSevere {
			sev = SeverityError
		}
		v.add(sev, CodeErrors, Subject{Systems: []string{r.Label}, Runs: []RunRef{runRef(r)}},
			ErrorsFacts{Errors: r.Errors, Attempted: Attempted(r), Rate: rate, Connect: r.ConnectErrors, Read: r.ReadErrors,
				Write: r.WriteErrors, Timeouts: r.Timeouts, Non2xx: r.Non2xx})
	}
}
