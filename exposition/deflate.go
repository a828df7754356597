package exposition

import (
	"encoding/binary"
	"hash/crc32"
	"math/bits"
)

// A fixedEncoder compresses a small body as a gzip member of one deflate
// block with the fixed Huffman codes of RFC 1951 (3.2.6) and greedy LZ77
// matches within the body. A part's body of one family is a few hundred
// bytes to a few kilobytes; compress/flate spends most of its time on such
// a body building the dynamic Huffman tables, which save little at that
// size. The table of positions is kept between bodies, marked stale by an
// offset instead of cleared.
type fixedEncoder struct {
	table [1 << fixedHashBits]int32
	// base is where the next body starts in the positions the table holds.
	base int32
	// scratch is compress's buffer, reused from member to member.
	scratch []byte
}

const (
	fixedHashBits = 14
	minMatch      = 4
	maxMatch      = 258
	windowSize    = 1 << 15
)

// member appends b to dst as a gzip member and returns it.
func (e *fixedEncoder) member(dst, b []byte) []byte {
	if int64(e.base)+int64(len(b))+windowSize >= 1<<31-1 {
		e.table, e.base = [1 << fixedHashBits]int32{}, 0
	}
	// Every position the table holds is below base: stale for this body.
	base := e.base + windowSize
	e.base = base + int32(len(b))

	dst = append(dst, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff)
	w := bitWriter{out: dst}
	w.write(0b011, 3) // BFINAL, BTYPE 01: fixed Huffman codes
	for i := 0; i < len(b); {
		if i+minMatch <= len(b) {
			h := hash4(b[i:])
			cand := e.table[h] - base
			e.table[h] = base + int32(i)
			if cand >= 0 && int(cand) < i && i-int(cand) <= windowSize {
				if n := matchLen(b[cand:], b[i:]); n >= minMatch {
					w.writeLength(n)
					w.writeDistance(i - int(cand))
					// Index the matched positions too, cheaply: every other one.
					for j := i + 2; j+minMatch <= len(b) && j < i+n; j += 2 {
						e.table[hash4(b[j:])] = base + int32(j)
					}
					i += n
					continue
				}
			}
		}
		w.writeLiteral(b[i])
		i++
	}
	w.writeLiteralCode(256) // end of block
	dst = w.flush()
	dst = binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(b))
	return binary.LittleEndian.AppendUint32(dst, uint32(len(b)))
}

func hash4(b []byte) uint32 {
	return (binary.LittleEndian.Uint32(b) * 0x1e35a7bd) >> (32 - fixedHashBits)
}

// matchLen is how many leading bytes a and b share, at most maxMatch.
func matchLen(a, b []byte) int {
	n := min(len(a), len(b), maxMatch)
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// bitWriter writes deflate's bit stream: least significant bit first.
type bitWriter struct {
	out   []byte
	acc   uint64
	nbits uint
}

// write writes the n (at most 32) low bits of v.
func (w *bitWriter) write(v uint64, n uint) {
	w.acc |= v << w.nbits
	w.nbits += n
	if w.nbits >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.nbits -= 32
	}
}

func (w *bitWriter) flush() []byte {
	for w.nbits > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nbits -= min(w.nbits, 8)
	}
	w.acc = 0
	return w.out
}

// fixedCode is a literal/length symbol's fixed code, reversed (the codes
// are defined most significant bit first, the stream is written least
// first), and its length in bits.
type fixedCode struct {
	code uint16
	n    uint8
}

var fixedCodes = func() (codes [288]fixedCode) {
	for s := range codes {
		var code, n int
		switch {
		case s < 144:
			code, n = 0x30+s, 8
		case s < 256:
			code, n = 0x190+s-144, 9
		case s < 280:
			code, n = s-256, 7
		default:
			code, n = 0xc0+s-280, 8
		}
		codes[s] = fixedCode{code: bits.Reverse16(uint16(code)) >> (16 - n), n: uint8(n)}
	}
	return codes
}()

func (w *bitWriter) writeLiteralCode(s int) {
	c := fixedCodes[s]
	w.write(uint64(c.code), uint(c.n))
}

func (w *bitWriter) writeLiteral(c byte) { w.writeLiteralCode(int(c)) }

// lengthBase and distanceBase are the first length and distance of each
// code (RFC 1951 3.2.5); the extra bits count from there.
var (
	lengthBase   = [...]int{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra  = [...]uint{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distanceBase = [...]int{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
		1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
)

// writeLength writes match length n (3 to 258).
func (w *bitWriter) writeLength(n int) {
	c := lastAtMost(lengthBase[:], n)
	w.writeLiteralCode(257 + c)
	if e := lengthExtra[c]; e > 0 {
		w.write(uint64(n-lengthBase[c]), e)
	}
}

// writeDistance writes match distance d (1 to 32768): a 5-bit fixed code,
// then its extra bits.
func (w *bitWriter) writeDistance(d int) {
	c := lastAtMost(distanceBase[:], d)
	w.write(uint64(bits.Reverse8(uint8(c))>>3), 5)
	if c >= 4 {
		w.write(uint64(d-distanceBase[c]), uint(c/2-1))
	}
}

// lastAtMost is the index of the last of the ascending bases at most v.
func lastAtMost(bases []int, v int) int {
	lo, hi := 0, len(bases)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if bases[mid] <= v {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
