package core

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"
)

// MaxText bounds every free-text value a row stores (a run's label,
// target and endpoint, a sample's error), in bytes. A longer value is
// kept as its first bytes (cut on a rune boundary) and CapSuffix's mark
// with a hash of the whole value, MaxText bytes in all: the truncation
// shows, and two values that differ only past the cap stay two values.
const MaxText = 512

// capHashLen is how many hex digits of the SHA-256 of the whole value a
// capped value ends with.
const capHashLen = 16

// CapMark starts the suffix of a capped value, capHashLen hex digits
// follow ("#" would be read as a URL's fragment and cut).
const CapMark = "…"

// CapText returns s when it is at most MaxText bytes long, else its
// capped form (see MaxText), and whether it capped it.
func CapText(s string) (string, bool) {
	if len(s) <= MaxText {
		return s, false
	}
	sum := sha256.Sum256([]byte(s))
	i := MaxText - len(CapMark) - capHashLen
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + CapMark + hex.EncodeToString(sum[:capHashLen/2]), true
}

// Capped reports whether s has the form CapText gives a value it cut:
// a parser that capped a value early (to bound what it holds) leaves it
// so, and the clean sink still notes the truncation.
func Capped(s string) bool {
	n := len(s) - capHashLen - len(CapMark)
	if n < 0 || len(s) > MaxText || len(s) <= MaxText-utf8.UTFMax || s[n:n+len(CapMark)] != CapMark {
		return false
	}
	for _, c := range []byte(s[n+len(CapMark):]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
