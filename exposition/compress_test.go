package exposition

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
)

// accountMembers are one account's data members as the exporter compresses
// them: each family's metrics of one of the account's parts. The account is
// the load test's realistic one (20 balances, 300 token history records over
// 10 tokens and 8 types, 6 keys, 3 positions, 4 transfers, request
// counters), its members caught at compress in a first scrape of the
// exporter polling the fake exchange; testdata/account_members.txt holds
// them a paragraph each.
func accountMembers(tb testing.TB) [][]byte {
	tb.Helper()
	b, err := os.ReadFile("testdata/account_members.txt")
	if err != nil {
		tb.Fatal(err)
	}
	var members [][]byte
	for m := range bytes.SplitSeq(b, []byte("\n\n")) {
		if !bytes.HasSuffix(m, []byte("\n")) {
			m = append(m, '\n')
		}
		members = append(members, m)
	}
	return members
}

// gunzip reads every member of z.
func gunzip(tb testing.TB, z []byte) []byte {
	tb.Helper()
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		tb.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// Every member reads back as itself, alone and as one of several.
func TestCompressedMembersReadBack(t *testing.T) {
	members := append(accountMembers(t), nil, []byte("x"), bytes.Repeat([]byte("0123456789"), 20_000))
	var all, want []byte
	for _, m := range members {
		z := compress(m)
		if got := gunzip(t, z); !bytes.Equal(got, m) {
			t.Errorf("%d bytes read back as %d bytes, different", len(m), len(got))
		}
		all, want = append(all, z...), append(want, m...)
	}
	if got := gunzip(t, all); !bytes.Equal(got, want) {
		t.Errorf("the members together read back as %d bytes, want %d", len(got), len(want))
	}
}

// gzipWriter is compress/gzip's writer or klauspost/compress's.
type gzipWriter interface {
	io.WriteCloser
	Reset(io.Writer)
}

// withWriter compresses a member with w, reused, as compress does.
func withWriter(w gzipWriter) func([]byte) []byte {
	var buf bytes.Buffer
	return func(b []byte) []byte {
		buf.Reset()
		w.Reset(&buf)
		_, _ = w.Write(b)
		_ = w.Close()
		return bytes.Clone(buf.Bytes())
	}
}

func flateAt(level int) func([]byte) []byte {
	w, _ := gzip.NewWriterLevel(nil, level)
	return withWriter(w)
}

func klauspostAt(level int) func([]byte) []byte {
	w, _ := kgzip.NewWriterLevel(nil, level)
	return withWriter(w)
}

// BenchmarkCompressAccount compresses one account's members (accountMembers)
// as a scrape does when all its parts changed, with the exporter's compress
// (klauspost/compress at its fastest level) and with compress/flate and
// klauspost/compress at other levels: "small" are the members under 4 KB,
// "large" the others.
func BenchmarkCompressAccount(b *testing.B) {
	members := accountMembers(b)
	compressors := []struct {
		name     string
		compress func([]byte) []byte
	}{
		{"exporter", compress},
		{"flate-BestSpeed", flateAt(gzip.BestSpeed)},
		{"flate-DefaultCompression", flateAt(gzip.DefaultCompression)},
		{"klauspost-DefaultCompression", klauspostAt(kgzip.DefaultCompression)},
	}
	for _, class := range []struct {
		name     string
		from, to int
	}{{"small", 0, 4096}, {"large", 4096, 1 << 30}, {"all", 0, 1 << 30}} {
		var bodies [][]byte
		in := 0
		for _, m := range members {
			if len(m) >= class.from && len(m) < class.to {
				bodies, in = append(bodies, m), in+len(m)
			}
		}
		for _, c := range compressors {
			b.Run(class.name+"/"+c.name, func(b *testing.B) {
				out := 0
				b.ReportAllocs()
				for b.Loop() {
					out = 0
					for _, m := range bodies {
						out += len(c.compress(m))
					}
				}
				b.ReportMetric(float64(len(bodies)), "members")
				b.ReportMetric(float64(in), "bytes-in")
				b.ReportMetric(float64(out), "bytes-out")
			})
		}
	}
}
