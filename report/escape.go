package report

import (
	"strings"
)

// text escapes a string taken from input (a label, a message that quotes
// one, a file name) so that GitHub-flavoured markdown renders it as the
// same plain text: no emphasis, link, image, raw HTML, math, autolink or
// table-cell boundary can come out of it. Line breaks become spaces. The
// result is meant for the inside of a line, never its start (where '>',
// '#', '-' or "1." would start a block).
func text(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch r {
		case '\r', '\n', '\t':
			b.WriteByte(' ')
		case '<':
			b.WriteString("&lt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '[', ']', '|', '~', '!', '$', '@':
			// Any ASCII punctuation may be backslash-escaped (CommonMark);
			// '@' stops e-mail autolinks, '$' GitHub's math.
			b.WriteByte('\\')
			b.WriteRune(r)
		case ':':
			// "scheme://" would become an autolink.
			if strings.HasPrefix(s[i+1:], "//") {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		case '.':
			// "www." would become an autolink.
			if i >= 3 && strings.EqualFold(s[i-3:i], "www") {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteByte(' ')
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// code renders s as an inline code span: shown literally, never as HTML
// or a link. Inside a GFM table a '|' would still end the cell, so it is
// written as `\|`, which the table parser turns back into '|'.
func code(s string, inTable bool) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if s == "" {
		return ""
	}
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	// A fence longer than any run of backticks inside.
	longest, cur := 0, 0
	for _, r := range s {
		if r == '`' {
			cur++
			longest = max(longest, cur)
		} else {
			cur = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ")) {
		pad = " "
	}
	return fence + pad + s + pad + fence
}
