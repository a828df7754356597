package exposition

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/encoding/protowire"
)

// segment is one part's share of one family in one format, split so that
// the shares of every part can be written as one family: head is the
// family's header (# HELP, # TYPE, # UNIT lines; protobuf's name, help and
// type fields), body its metrics, tail what protobuf writes after them
// (the unit field).
type segment struct {
	name             string
	head, body, tail []byte
}

// encodeSegments encodes each family of mfs (sorted by name, as a registry
// gathers them) in format with expfmt, and splits each encoding into its
// segment: stitched back, the segments are expfmt's bytes.
func encodeSegments(mfs []*dto.MetricFamily, format expfmt.Format) ([]segment, error) {
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, format)
	proto := format.FormatType() == expfmt.TypeProtoDelim
	segs := make([]segment, 0, len(mfs))
	var errs []error
	for _, mf := range mfs {
		if len(segs) > 0 && segs[len(segs)-1].name == mf.GetName() {
			errs = append(errs, fmt.Errorf("metric family %s gathered twice", mf.GetName()))
			continue
		}
		buf.Reset()
		if err := enc.Encode(mf); err != nil {
			errs = append(errs, fmt.Errorf("encode %s: %w", mf.GetName(), err))
			continue
		}
		b := bytes.Clone(buf.Bytes())
		var seg segment
		var err error
		if proto {
			seg, err = splitProto(b)
		} else {
			seg = splitText(b)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("split %s: %w", mf.GetName(), err))
			continue
		}
		seg.name = mf.GetName()
		segs = append(segs, seg)
	}
	return segs, errors.Join(errs...)
}

// splitText splits a family in a text format after its leading comment
// lines: a metric line never starts with "#".
func splitText(b []byte) segment {
	i := 0
	for i < len(b) && b[i] == '#' {
		nl := bytes.IndexByte(b[i:], '\n')
		if nl < 0 {
			i = len(b)
			break
		}
		i += nl + 1
	}
	return segment{head: b[:i], body: b[i:]}
}

// metricField is the field number of MetricFamily's repeated metric.
const metricField = 4

// splitProto splits a length-delimited MetricFamily message into the
// fields before its metrics, its metric fields and the fields after.
func splitProto(b []byte) (segment, error) {
	n, l := protowire.ConsumeVarint(b)
	if l < 0 || uint64(len(b)-l) != n {
		return segment{}, errors.New("bad length prefix")
	}
	msg := b[l:]
	first, last := -1, -1
	for off := 0; off < len(msg); {
		num, typ, tl := protowire.ConsumeTag(msg[off:])
		if tl < 0 {
			return segment{}, protowire.ParseError(tl)
		}
		vl := protowire.ConsumeFieldValue(num, typ, msg[off+tl:])
		if vl < 0 {
			return segment{}, protowire.ParseError(vl)
		}
		if num == metricField {
			if first < 0 {
				first = off
			} else if last != off {
				return segment{}, errors.New("metric fields not contiguous")
			}
			last = off + tl + vl
		}
		off += tl + vl
	}
	if first < 0 {
		return segment{head: msg}, nil
	}
	return segment{head: msg[:first], body: msg[first:last], tail: msg[last:]}, nil
}

// stitch writes the parts' segments to w as one answer: each family once,
// its header from the first part that has it, then every part's metrics of
// it in part order, families sorted by name. It returns the family names.
func stitch(w io.Writer, parts [][]segment, proto bool) (map[string]bool, error) {
	byName := map[string][]*segment{}
	for _, segs := range parts {
		for i := range segs {
			s := &segs[i]
			byName[s.name] = append(byName[s.name], s)
		}
	}
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	slices.Sort(names)
	var prefix []byte
	var errs []error
	write := func(b []byte) {
		if _, err := w.Write(b); err != nil {
			errs = append(errs, err)
		}
	}
	for _, name := range names {
		segs := byName[name]
		if proto {
			n := len(segs[0].head) + len(segs[0].tail)
			for _, s := range segs {
				n += len(s.body)
			}
			prefix = protowire.AppendVarint(prefix[:0], uint64(n))
			write(prefix)
		}
		write(segs[0].head)
		for _, s := range segs {
			write(s.body)
		}
		write(segs[0].tail)
	}
	set := make(map[string]bool, len(names))
	for _, name := range names {
		set[name] = true
	}
	return set, errors.Join(errs...)
}

// stitchedSize is about the size of the parts stitched, uncompressed.
func stitchedSize(parts [][]segment) int {
	n := 0
	for _, segs := range parts {
		for _, s := range segs {
			n += len(s.body)
		}
	}
	return n
}
