// Package testguard bounds a piece of work in a test against a hang and
// a runaway allocation without depending on the machine's speed: the
// time bound is minutes (a guard, not a speed check: a test must pass
// on a busy machine), and the heap bound catches a loop that allocates
// within seconds, long before it.
package testguard
