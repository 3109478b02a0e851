package core

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Error classification, done once, in Parse: an error of the reader (r),
// of the sink or of the context is returned as it is; every other error is
// about the input and matches ErrInput. The parsers keep the same rule
// where they can tell (see decodeError), so they also return typed errors
// when called directly.

// TrackReader passes reads through and remembers the first error other
// than io.EOF, so that an error of the reader can be told from an error
// that a decoder reading through it (gzip, zstd, XML, JSON, gob) found in
// the content.
type TrackReader struct {
	R   io.Reader
	Err error
}

// Read implements io.Reader.
func (t *TrackReader) Read(p []byte) (int, error) {
	n, err := t.R.Read(p)
	if err != nil && err != io.EOF && t.Err == nil {
		t.Err = err
	}
	return n, err
}

// ReadError names the source in an error of the reader; an error already
// about the input (a *SyntaxError of a decompressor under the parser)
// comes back unchanged.
func ReadError(source string, err error) error {
	if errors.Is(err, ErrInput) {
		return err
	}
	return fmt.Errorf("%s: %w", source, err)
}

// DecodeError classifies err, returned by a decoder reading through src:
// an error already about the input unchanged, an error of the reader under
// src as a read error, anything else as a *SyntaxError at line with what
// (e.g. "XML: ") before the decoder's message.
func DecodeError(src *TrackReader, source string, line int, what string, err error) error {
	switch {
	case errors.Is(err, ErrInput):
		return err
	case src != nil && src.Err != nil:
		return ReadError(source, err)
	}
	return &SyntaxError{File: source, Line: line, Msg: what + err.Error(), Err: err}
}

// Input is what Parse knows of its input: the reader under everything,
// and the decompressors over it.
type Input struct {
	Source string
	Raw    *TrackReader
	decs   []*decodeReader
}

// decodeReader reads a decompressor and turns its errors into
// *SyntaxError, unless the reader under it failed.
type decodeReader struct {
	in     *Input
	r      io.Reader
	format string // "gzip" or "zstd"
	err    error  // the first error turned into a *SyntaxError
}

// Read implements io.Reader.
func (d *decodeReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		err = d.in.decoderError(d, d.format, err)
	}
	return n, err
}

// decoderError is decodeError for the decompressor d (nil while it is
// being created).
func (in *Input) decoderError(d *decodeReader, format string, err error) error {
	if errors.Is(err, ErrInput) || in.Raw.Err != nil {
		return err
	}
	msg := err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		msg = "the compressed data end too early (the file is cut off)"
	}
	se := &SyntaxError{File: in.Source, Msg: format + ": " + strings.TrimPrefix(msg, format+": "), Err: err}
	if d != nil && d.err == nil {
		d.err = se
	}
	return se
}

// drainLimit bounds how much of an input Parse still reads after an error
// about its content, to find out whether the reader fails at its end.
const drainLimit = 64 << 20

// outcome classifies the error of a parse (err, nil on success) of in.
// When the reader failed, the parse failed because of it, whatever the
// parser made of the bytes it got. On success, a decompressor error the
// parser did not report still fails it. Errors of the sink and the
// context are returned as they are; any other error is about the input.
func (in *Input) outcome(ctx context.Context, err error, sink *CleanSink) error {
	if err != nil && errors.Is(err, ErrInput) && in.Raw.Err == nil {
		// A file that changed while it was read shows at its end.
		io.Copy(io.Discard, io.LimitReader(in.Raw, drainLimit))
	}
	if in.Raw.Err != nil {
		if err == nil || !errors.Is(err, in.Raw.Err) || errors.Is(err, ErrInput) {
			err = in.Raw.Err
		}
		if strings.HasPrefix(err.Error(), in.Source+": ") {
			return err
		}
		return fmt.Errorf("%s: %w", in.Source, err)
	}
	if err == nil {
		for _, d := range in.decs {
			if d.err != nil {
				return d.err
			}
		}
		return nil
	}
	switch {
	case errors.Is(err, ErrInput):
		return err
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return err
	case sink != nil && sink.err != nil && errors.Is(err, sink.err):
		return err
	}
	return &SyntaxError{File: in.Source, Msg: strings.TrimPrefix(err.Error(), in.Source+": "), Err: err}
}

// Decompress returns a reader of br's content, decompressed when its magic
// bytes say gzip, zstd or bzip2 (several layers too), and a function that
// releases the decoders. Errors of the decoders are *SyntaxError; so is
// an input compressed in a format it does not read (xz, lz4, zip: see
// unreadCompressed), with the command that decompresses it.
func (in *Input) Decompress(br *bufio.Reader) (*bufio.Reader, func(), error) {
	var closers []func()
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	for range 4 {
		magic, _ := br.Peek(10)
		for _, c := range unreadCompressed {
			if bytes.HasPrefix(magic, c.magic) {
				closeAll()
				return nil, nil, &SyntaxError{File: in.Source, Msg: fmt.Sprintf("compressed with %s, which loadverdict does not read (it reads gzip, zstd and bzip2); decompress it first (%s %s)", c.format, c.cmd, in.Source)}
			}
		}
		var d *decodeReader
		switch {
		case isBzip2(magic):
			d = &decodeReader{in: in, r: bzip2.NewReader(br), format: "bzip2"}
		case bytes.HasPrefix(magic, magicGzip):
			gz, err := gzip.NewReader(br)
			if err != nil {
				closeAll()
				return nil, nil, in.decoderError(nil, "gzip", err)
			}
			gz.Multistream(true)
			closers = append(closers, func() { gz.Close() })
			d = &decodeReader{in: in, r: gz, format: "gzip"}
		case bytes.HasPrefix(magic, magicZstd):
			dec, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
			if err != nil {
				closeAll()
				return nil, nil, in.decoderError(nil, "zstd", err)
			}
			closers = append(closers, dec.Close)
			d = &decodeReader{in: in, r: dec, format: "zstd"}
		default:
			return br, closeAll, nil
		}
		in.decs = append(in.decs, d)
		br = bufio.NewReaderSize(d, HeadSize)
	}
	return br, closeAll, nil
}
