package allowlist

import (
	"slices"
	"strings"
	"testing"
)

func mustNew(t *testing.T, entries ...Entry) *List {
	t.Helper()
	l, err := New(entries)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The matching rules: EVM addresses without regard to case, every other
// address exactly, a tag only with the same tag, no tag only without one,
// the network without regard to case but never another network.
func TestMatchRules(t *testing.T) {
	const (
		evm  = "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa"
		tron = "TTsY9uu2Y3aBH1vSir1md7oRqZe7DscA4v"
		xrp  = "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh"
	)
	l := mustNew(t,
		Entry{Network: "ETH", Address: evm, Name: "cold"},
		Entry{Network: "TRON", Address: tron},
		Entry{Network: "XRP", Address: xrp, Tag: "104"},
		// Not EVM: one hex digit short, so compared exactly.
		Entry{Network: "ETH", Address: "0xAbC0000000000000000000000000000000000DE"},
	)
	for _, tc := range []struct {
		name, network, address, tag string
		want                        bool
	}{
		{"evm as listed", "ETH", evm, "", true},
		{"evm in lower case", "ETH", strings.ToLower(evm), "", true},
		{"evm in upper case but the 0x", "ETH", "0x" + strings.ToUpper(evm[2:]), "", true},
		{"evm on a network in lower case", "eth", evm, "", true},
		{"evm on another network", "ARB", evm, "", false},
		{"evm with a tag the entry lacks", "ETH", evm, "7", false},
		{"evm one digit off", "ETH", evm[:41] + "b", "", false},
		{"tron as listed", "TRON", tron, "", true},
		{"tron in lower case", "TRON", strings.ToLower(tron), "", false},
		{"tron in upper case", "TRON", strings.ToUpper(tron), "", false},
		{"xrp with its tag", "XRP", xrp, "104", true},
		{"xrp with another tag", "XRP", xrp, "105", false},
		{"xrp without a tag", "XRP", xrp, "", false},
		{"short hex exactly", "ETH", "0xAbC0000000000000000000000000000000000DE", "", true},
		{"short hex in another case", "ETH", "0xabc0000000000000000000000000000000000de", "", false},
		{"unknown address", "ETH", "0x0000000000000000000000000000000000000001", "", false},
	} {
		if _, got := l.Match(tc.network, tc.address, tc.tag); got != tc.want {
			t.Errorf("%s: Match(%q, %q, %q) = %t, want %t", tc.name, tc.network, tc.address, tc.tag, got, tc.want)
		}
	}
	if e, _ := l.Match("ETH", strings.ToLower(evm), ""); e.Name != "cold" {
		t.Errorf("matched entry %+v, want the one named cold", e)
	}
}

func TestNilListMatchesNothing(t *testing.T) {
	var l *List
	if _, ok := l.Match("ETH", "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa", ""); ok || l.Len() != 0 {
		t.Error("a nil list matched or has entries")
	}
}

// Two entries for one destination (an EVM address in two cases) are
// refused; the same address with another tag, or on another network, is
// another destination.
func TestNewRefusesTheSameDestinationTwice(t *testing.T) {
	a := Entry{Network: "ETH", Address: "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa", Line: 1}
	b := Entry{Network: "eth", Address: strings.ToLower(a.Address), Line: 4}
	if _, err := New([]Entry{a, b}); err == nil || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("New = %v, want an error naming lines 1 and 4", err)
	}
	mustNew(t, a, Entry{Network: "ETH", Address: a.Address, Tag: "1"}, Entry{Network: "BSC", Address: a.Address})
	if _, err := New([]Entry{{Network: "ETH"}}); err == nil {
		t.Error("an entry without an address was accepted")
	}
}

// An entry on a network the exchange does not list is found, with the
// listed network it most likely means.
func TestUnlistedNamesTheClosestListedNetwork(t *testing.T) {
	l, err := New([]Entry{
		{Network: "ETHEREUM", Address: "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa", Line: 2},
		{Network: "eth", Address: "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDb"},
		{Network: "TRONN", Address: "TXYZ"},
		{Network: "SOLANA", Address: "So1"},
		{Network: "XRP", Address: "rEb8", Tag: "104"},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := l.Unlisted([]string{"ETH", "TRON", "XRP", "BTC", "ARB_NOVA", "ARB"})
	want := []Unlisted{
		{Entry: Entry{Network: "ETHEREUM", Address: "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa", Line: 2}, Closest: "ETH"},
		{Entry: Entry{Network: "TRONN", Address: "TXYZ"}, Closest: "TRON"},
		{Entry: Entry{Network: "SOLANA", Address: "So1"}, Closest: ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Unlisted = %+v\nwant       %+v", got, want)
	}
	if u := (*List)(nil).Unlisted([]string{"ETH"}); u != nil {
		t.Errorf("a nil list's Unlisted = %v, want nil", u)
	}
	if u := l.Unlisted(nil); len(u) != 5 || u[1].Closest != "" {
		t.Errorf("against no networks: %+v, want every entry, none close", u)
	}
}
