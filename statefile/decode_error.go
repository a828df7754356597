package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// decodeError describes why the JSON decoder refused the file by the kind
// of fault and its byte offset only. The decoder's own messages quote the
// file (a character, a field name, a value), and the file's content must
// not reach the log.
func decodeError(err error, dec *json.Decoder, b []byte) error {
	var (
		syntax *json.SyntaxError
		typ    *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("decode: not JSON at byte offset %d", syntax.Offset)
	case errors.As(err, &typ):
		return fmt.Errorf("decode: a value of the wrong type at byte offset %d", typ.Offset)
	case errors.Is(err, io.EOF):
		return errors.New("decode: empty file")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("decode: truncated at byte offset %d", len(b))
	case strings.HasPrefix(err.Error(), unknownField):
		return fmt.Errorf("decode: unknown field at byte offset %d", unknownFieldOffset(err, dec, b))
	default:
		return fmt.Errorf("decode: invalid value at byte offset %d", dec.InputOffset())
	}
}

// unknownField starts encoding/json's error for a field Document lacks; it
// has no type of its own.
const unknownField = "json: unknown field "

// unknownFieldOffset is where the name the error quotes first appears in
// b, or else the end of the document the decoder read.
func unknownFieldOffset(err error, dec *json.Decoder, b []byte) int64 {
	if i := bytes.Index(b, []byte(strings.TrimPrefix(err.Error(), unknownField))); i >= 0 {
		return int64(i)
	}
	return dec.InputOffset()
}
