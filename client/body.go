package client

import (
	"bytes"
	"io"
	"sync"
)

// bodyBuffers are the buffers answers are read into, reused once decoded.
var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBody is the largest buffer reused: a rare large answer is not kept.
const maxPooledBody = 256 << 10

// readBody reads at most limit bytes of a body, and one more to tell a
// longer one; releaseBody gives the buffer back.
func readBody(body io.Reader, limit int64) (*bytes.Buffer, error) {
	buf := bodyBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	_, err := buf.ReadFrom(io.LimitReader(body, limit+1))
	return buf, err
}

// releaseBody gives back a buffer of readBody.
func releaseBody(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledBody {
		bodyBuffers.Put(buf)
	}
}
