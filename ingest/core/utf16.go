package core

import (
	"bytes"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// Byte order marks. Windows PowerShell redirects (`wrk ... > out.txt`)
// write UTF-16 with a BOM; editors on Windows often add a UTF-8 BOM.
var (
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// utf16Reader converts a UTF-16 stream (BOM removed) to UTF-8 on the fly.
type utf16Reader struct {
	r   io.Reader
	be  bool
	in  [8192]byte
	n   int // undecoded bytes in in
	buf []byte
	out []byte // decoded, not yet returned
	err error
}

func (u *utf16Reader) unit(i int) uint16 {
	if u.be {
		return uint16(u.in[i])<<8 | uint16(u.in[i+1])
	}
	return uint16(u.in[i+1])<<8 | uint16(u.in[i])
}

// Read implements io.Reader.
func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		m, err := u.r.Read(u.in[u.n:])
		u.n += m
		u.err = err
		u.buf = u.buf[:0]
		i := 0
		for i+1 < u.n {
			c := rune(u.unit(i))
			switch {
			case !utf16.IsSurrogate(c):
				i += 2
			case i+3 < u.n:
				c = utf16.DecodeRune(c, rune(u.unit(i+2)))
				if c == utf8.RuneError {
					i += 2
				} else {
					i += 4
				}
			case u.err != nil:
				c = utf8.RuneError
				i += 2
			default:
				goto done // wait for the low surrogate
			}
			u.buf = utf8.AppendRune(u.buf, c)
		}
	done:
		u.n = copy(u.in[:], u.in[i:u.n])
		if u.err != nil && u.n > 0 { // odd trailing byte
			u.buf = utf8.AppendRune(u.buf, utf8.RuneError)
			u.n = 0
		}
		u.out = u.buf
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// DecodeHead returns head converted to UTF-8 when it starts with a UTF-16
// byte order mark, and head unchanged otherwise.
func DecodeHead(head []byte) []byte {
	if !bytes.HasPrefix(head, bomUTF16LE) && !bytes.HasPrefix(head, bomUTF16BE) {
		return head
	}
	out, _ := io.ReadAll(utf16Input(bytes.NewReader(head)))
	return out
}

// utf16Input returns r decoded to UTF-8 when it starts with a UTF-16 byte
// order mark; r must then be positioned at the mark.
func utf16Input(r io.Reader) io.Reader {
	var bom [2]byte
	if _, err := io.ReadFull(r, bom[:]); err != nil {
		return bytes.NewReader(nil)
	}
	return &utf16Reader{r: r, be: bom == [2]byte{0xFE, 0xFF}}
}
