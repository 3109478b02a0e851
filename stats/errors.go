package stats

import (
	"errors"
	"fmt"
)

// ErrEmpty is returned when a function is given no observations.
var ErrEmpty = errors.New("stats: no observations")

// ErrNotFinite is returned when an input contains NaN or ±Inf.
var ErrNotFinite = errors.New("stats: input contains NaN or Inf")

// ErrTooFew is matched (errors.Is) by a *TooFewError: there are fewer
// observations than a method needs.
var ErrTooFew = errors.New("stats: too few observations")

// ErrParameter is returned (wrapped, with details for the programmer) when
// a parameter is outside its documented domain.
var ErrParameter = errors.New("stats: invalid parameter")

// ErrZeroBase is returned when a relative change from 0 to a non-zero
// value is asked for; it wraps ErrParameter.
var ErrZeroBase = fmt.Errorf("%w: relative change from 0 is undefined", ErrParameter)

// ErrNoConvergence is returned (wrapping the optimiser's error) when a
// fit finds no finite solution.
var ErrNoConvergence = errors.New("stats: fit did not converge")

// TooFewError is the error of a method given fewer observations than it
// needs; errors.Is(err, ErrTooFew) reports true for it.
type TooFewError struct {
	Method string // the method, e.g. "MSER"
	Need   int    // the fewest observations it needs
	Have   int    // the observations it was given
}

// Error describes the shortfall for a programmer.
func (e *TooFewError) Error() string {
	return fmt.Sprintf("%v: %s needs at least %d, have %d", ErrTooFew, e.Method, e.Need, e.Have)
}

// Is reports whether target is ErrTooFew.
func (e *TooFewError) Is(target error) bool { return target == ErrTooFew }

// tooFew returns a *TooFewError.
func tooFew(method string, need, have int) error {
	return &TooFewError{Method: method, Need: need, Have: have}
}
