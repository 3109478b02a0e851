package core

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCapText: a value up to MaxText is kept; a longer one is MaxText
// bytes at most, valid UTF-8 when the value is, recognized by Capped, and
// two values that differ anywhere, even in their last byte, stay apart.
func TestCapText(t *testing.T) {
	for _, n := range []int{0, 1, MaxText - 1, MaxText, MaxText + 1, MaxText + 2, 1000, 1 << 20} {
		for _, fill := range []string{"a", "é", "語", "😀"} {
			s := strings.Repeat(fill, n/len(fill)+1)[:n]
			s = strings.ToValidUTF8(s, "")
			a, cutA := CapText(s + "1")
			b, _ := CapText(s + "2")
			long := len(s)+1 > MaxText
			if cutA != long || len(a) > MaxText || a == b || !utf8.ValidString(a) || Capped(a) != long {
				t.Errorf("%d bytes of %q: cut %v, %d bytes, distinct %v, valid %v, Capped %v", n, fill, cutA, len(a), a != b, utf8.ValidString(a), Capped(a))
			}
			if !long && a != s+"1" {
				t.Errorf("%d bytes of %q: changed", n, fill)
			}
		}
	}
}
