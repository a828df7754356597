package exposition

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/encoding/protowire"
)

// segment is one part's share of one family in one format, split so that
// the shares of every part can be written as one family: head is the
// family's header (# HELP, # TYPE, # UNIT lines; protobuf's name, help and
// type fields), body its metrics, tail what protobuf writes after them
// (the unit field). size is the body's length before any compression.
type segment struct {
	name             string
	head, body, tail []byte
	size             int
}

// kept is a segment as a part keeps it: its family (name, header and tail,
// one copy for every part that has the family) and its body, compressed
// when the format is; size is the body's length uncompressed.
type kept struct {
	fam  *family
	body []byte
	size int
}

type family struct {
	name       string
	head, tail []byte
}

// encodeSegments encodes each family of mfs (sorted by name, as a registry
// gathers them) in format with expfmt, and splits each encoding into its
// segment: stitched back, the segments are expfmt's bytes. keep is given
// each segment while its bytes are still in a buffer reused for the next
// family, and returns what is kept of it.
func encodeSegments(mfs []*dto.MetricFamily, format expfmt.Format, keep func(segment) kept) ([]kept, error) {
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, format)
	proto := format.FormatType() == expfmt.TypeProtoDelim
	segs := make([]kept, 0, len(mfs))
	var errs []error
	for _, mf := range mfs {
		if len(segs) > 0 && segs[len(segs)-1].fam.name == mf.GetName() {
			errs = append(errs, fmt.Errorf("metric family %s gathered twice", mf.GetName()))
			continue
		}
		buf.Reset()
		if err := enc.Encode(mf); err != nil {
			errs = append(errs, fmt.Errorf("encode %s: %w", mf.GetName(), err))
			continue
		}
		var seg segment
		var err error
		if proto {
			seg, err = splitProto(buf.Bytes())
		} else {
			seg = splitText(buf.Bytes())
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("split %s: %w", mf.GetName(), err))
			continue
		}
		seg.name, seg.size = mf.GetName(), len(seg.body)
		segs = append(segs, keep(seg))
	}
	return segs, errors.Join(errs...)
}

// keepWhole keeps a segment uncompressed, with a family of its own.
func keepWhole(s segment) kept {
	return kept{fam: &family{name: s.name, head: bytes.Clone(s.head), tail: bytes.Clone(s.tail)}, body: bytes.Clone(s.body), size: s.size}
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

// plan is the order a stitched answer writes the parts' segments in: each
// family once, sorted by name, its segments in part order. It depends only
// on which families each part has, so a part whose metrics change keeps it.
type plan struct {
	families []familyPlan
	// names are the families, to refuse a per-scrape family of the same name (a
	// family served twice breaks the scrape).
	names map[string]bool
}

type familyPlan struct {
	name string
	refs []segRef
}

// segRef is segment seg of part part.
type segRef struct{ part, seg int32 }

// newPlan plans the stitching of parts' segments.
func newPlan(parts []*encodedPart) *plan {
	byName := map[string][]segRef{}
	for i, p := range parts {
		for j, s := range p.segs {
			byName[s.fam.name] = append(byName[s.fam.name], segRef{int32(i), int32(j)})
		}
	}
	pl := &plan{families: make([]familyPlan, 0, len(byName)), names: make(map[string]bool, len(byName))}
	for name, refs := range byName {
		pl.families = append(pl.families, familyPlan{name: name, refs: refs})
		pl.names[name] = true
	}
	slices.SortFunc(pl.families, func(a, b familyPlan) int { return strings.Compare(a.name, b.name) })
	return pl
}

// sameFamilies reports whether a and b hold the same families, in order: a
// part changed from a to b keeps the plan.
func sameFamilies(a, b []kept) bool {
	return slices.EqualFunc(a, b, func(x, y kept) bool { return x.fam.name == y.fam.name })
}

// view is one stitched answer: the parts as encoded when it was taken, and
// their plan. Parts are replaced, never changed, so a view is written
// without holding the entry's lock.
type view struct {
	parts []*encodedPart
	plan  *plan
	proto bool
	// gzip: each body is a gzip member of its own; heads, tails and length
	// prefixes are written as stored members between them.
	gzip bool
}

// write writes v to w: each family once, its header (after its length
// prefix in protobuf) from its first part, then every part's metrics of it,
// then its tail.
func (v view) write(w io.Writer) error {
	var glue, member []byte
	flush := func() error {
		if len(glue) == 0 {
			return nil
		}
		var err error
		if v.gzip {
			member = storedMember(member[:0], glue)
			_, err = w.Write(member)
		} else {
			_, err = w.Write(glue)
		}
		glue = glue[:0]
		return err
	}
	for _, f := range v.plan.families {
		first := v.parts[f.refs[0].part].segs[f.refs[0].seg].fam
		if v.proto {
			n := len(first.head) + len(first.tail)
			for _, r := range f.refs {
				n += v.parts[r.part].segs[r.seg].size
			}
			glue = protowire.AppendVarint(glue, uint64(n))
		}
		glue = append(glue, first.head...)
		for _, r := range f.refs {
			body := v.parts[r.part].segs[r.seg].body
			if len(body) == 0 {
				continue
			}
			if v.gzip {
				if err := flush(); err != nil {
					return err
				}
				if _, err := w.Write(body); err != nil {
					return err
				}
			} else {
				glue = append(glue, body...)
				if len(glue) >= 32<<10 {
					if err := flush(); err != nil {
						return err
					}
				}
			}
		}
		glue = append(glue, first.tail...)
	}
	return flush()
}

// storedMember appends to dst b as a gzip member of stored (uncompressed)
// deflate blocks, and returns it: the glue between compressed bodies is a
// few bytes, not worth a compressor.
func storedMember(dst, b []byte) []byte {
	crc, size := crc32.ChecksumIEEE(b), uint32(len(b))
	dst = append(dst, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff)
	for {
		n := min(len(b), 0xffff)
		final := byte(0)
		if n == len(b) {
			final = 1
		}
		dst = append(dst, final, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
		dst = append(dst, b[:n]...)
		if final == 1 {
			break
		}
		b = b[n:]
	}
	dst = binary.LittleEndian.AppendUint32(dst, crc)
	return binary.LittleEndian.AppendUint32(dst, size)
}
