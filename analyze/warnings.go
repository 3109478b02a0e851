package analyze

// WarningCode says what kind of statistical caveat a Warning is.
type WarningCode string

// The warning codes.
const (
	// WarnAcrossRunWarmup: a group's runs could not be classified
	// (System, Settings, Err).
	WarnAcrossRunWarmup WarningCode = "across-run-warmup-failed"
	// WarnWithinRunWarmup: a run's windows could not be classified
	// (System, RunID, Seq, Err).
	WarnWithinRunWarmup WarningCode = "within-run-warmup-failed"
	// WarnUSLFit: a system's USL fit failed (System, Err).
	WarnUSLFit WarningCode = "usl-fit-failed"
)

// Warning is a statistical caveat met while analysing: not an error, and
// not a finding about the method of the experiment. The fields set depend
// on the code.
type Warning struct {
	Code     WarningCode
	System   string    // the system concerned
	Settings *Settings // the group's settings
	RunID    string    // the run concerned
	Seq      int32     // its execution order
	Err      error     // the error of the statistical routine
}
