// Package allowlist holds the destinations an account's withdrawals are
// expected to go to, and the rules by which a withdrawal's destination
// matches one: an EVM address (0x and 40 hex digits) is compared without
// regard to case, which only carries its checksum; every other address
// (Base58, Bech32, XRP's) exactly, as case changes it; a memo or destination
// tag selects the recipient at a shared address, so a withdrawal with a tag
// matches only an entry with the same tag, and an entry without a tag only
// withdrawals without one. Networks are compared without regard to case.
// Reading the list from a file is package config's.
package allowlist

import (
	"fmt"
	"regexp"
	"strings"
)

// Entry is one allowed destination.
type Entry struct {
	// Network is as the token networks name it: ETH, TRON, ...
	Network string
	Address string
	// Tag is the memo or destination tag; empty for none.
	Tag string
	// Name says whose the address is, for people; optional.
	Name string
	// Line is where the file defines the entry; 0 when built otherwise.
	Line int
}

// Destination is where a withdrawal goes, in the form the rules compare:
// two destinations are the same recipient exactly when they are equal.
type Destination struct {
	Network, Address, Tag string
}

var evmAddress = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// IsEVM reports whether address is an EVM address, whose letter case is
// only a checksum.
func IsEVM(address string) bool { return evmAddress.MatchString(address) }

// DestinationOf is the comparable form of a destination: the network in
// upper case, an EVM address in lower case, every other address and the
// tag as given.
func DestinationOf(network, address, tag string) Destination {
	if IsEVM(address) {
		address = strings.ToLower(address)
	}
	return Destination{Network: strings.ToUpper(network), Address: address, Tag: tag}
}

// List is an allow-list. A nil *List allows nothing and matches nothing.
type List struct {
	entries []Entry
	byDest  map[Destination]Entry
}

// New builds a list; two entries for the same destination are an error
// naming both (package config names their lines before this).
func New(entries []Entry) (*List, error) {
	l := &List{entries: entries, byDest: make(map[Destination]Entry, len(entries))}
	for _, e := range entries {
		if e.Network == "" || e.Address == "" {
			return nil, fmt.Errorf("entry %s: network and address are required", e)
		}
		d := DestinationOf(e.Network, e.Address, e.Tag)
		if first, dup := l.byDest[d]; dup {
			return nil, fmt.Errorf("entry %s: the same destination as entry %s", e, first)
		}
		l.byDest[d] = e
	}
	return l, nil
}

// Match is the entry a withdrawal to address with tag on network goes to,
// if the list has one.
func (l *List) Match(network, address, tag string) (Entry, bool) {
	if l == nil {
		return Entry{}, false
	}
	e, ok := l.byDest[DestinationOf(network, address, tag)]
	return e, ok
}

// Len is the number of entries.
func (l *List) Len() int {
	if l == nil {
		return 0
	}
	return len(l.entries)
}

// String names the entry by its network, address and tag, and its line
// when it has one.
func (e Entry) String() string {
	s := e.Network + " " + e.Address
	if e.Tag != "" {
		s += " tag " + e.Tag
	}
	if e.Line > 0 {
		s += fmt.Sprintf(" (line %d)", e.Line)
	}
	return s
}

// Unlisted is an entry whose network the exchange does not list, with the
// listed network closest to it ("" when none is close).
type Unlisted struct {
	Entry   Entry
	Closest string
}

// Unlisted are the entries whose network is none of networks (compared
// without regard to case), in the list's order. Every withdrawal on such a
// network would be judged unlisted: the network is most likely misspelled
// (ETHEREUM for ETH).
func (l *List) Unlisted(networks []string) []Unlisted {
	if l == nil {
		return nil
	}
	listed := make(map[string]bool, len(networks))
	for _, n := range networks {
		listed[strings.ToUpper(n)] = true
	}
	var out []Unlisted
	for _, e := range l.entries {
		if !listed[strings.ToUpper(e.Network)] {
			out = append(out, Unlisted{Entry: e, Closest: closest(strings.ToUpper(e.Network), networks)})
		}
	}
	return out
}

// closest is the network of networks nearest to name: one that begins the
// other (ETH for ETHEREUM, BSC for BSC20), else the fewest edits, at most
// half of name's length; ties go to the shorter, then the first in order.
func closest(name string, networks []string) string {
	best, bestCost := "", len(name)/2+1
	for _, n := range networks {
		u := strings.ToUpper(n)
		cost := editDistance(name, u)
		if strings.HasPrefix(name, u) || strings.HasPrefix(u, name) {
			cost = 0
		}
		if cost < bestCost || (cost == bestCost && best != "" && len(n) < len(best)) {
			best, bestCost = n, cost
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev = cur
	}
	return prev[len(b)]
}
