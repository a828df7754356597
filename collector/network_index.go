package collector

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
)

// tokenNetworkIndex is the token networks the exchange last listed, shared
// by the token network collector (which stores them) and the wallet (which
// splits its network-token ids, TRON_USDT, into a token and a network, so
// that its series join the balances and the token networks).
type tokenNetworkIndex struct {
	v atomic.Pointer[networkSplitter]
	// changes counts the lists stored: a wallet already collected splits
	// differently after one.
	changes atomic.Uint64
	// firstPoll is closed once the first poll of the list has ended, with
	// a list or not (made by makeOnce, closed by closeOnce).
	makeOnce, closeOnce sync.Once
	firstPoll           chan struct{}
	// allowList, when set, is checked against every list stored.
	allowList *allowListCheck
}

// networkSplitter splits network-token ids by one token network list.
type networkSplitter struct {
	// pairs are the ids the list spells exactly, NETWORK_TOKEN.
	pairs map[string]splitID
	// networks are the listed networks, longest first, so that ARB_NOVA
	// wins over ARB.
	networks []string
}

// splitID is a network-token id split into its parts.
type splitID struct{ token, network string }

// store replaces the list the ids are split by.
func (x *tokenNetworkIndex) store(rows []client.TokenNetwork) {
	s := &networkSplitter{pairs: make(map[string]splitID, len(rows))}
	for _, r := range rows {
		s.pairs[r.Network+"_"+r.Token] = splitID{token: r.Token, network: r.Network}
		s.networks = append(s.networks, r.Network)
	}
	slices.SortFunc(s.networks, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	s.networks = slices.Compact(s.networks)
	x.v.Store(s)
	x.allowList.check(s.networks)
	x.changes.Add(1)
	x.polled()
}

// polled notes that a poll of the list ended, with a list or not.
func (x *tokenNetworkIndex) polled() {
	ch := x.firstPollDone()
	x.closeOnce.Do(func() { close(ch) })
}

func (x *tokenNetworkIndex) firstPollDone() chan struct{} {
	x.makeOnce.Do(func() { x.firstPoll = make(chan struct{}) })
	return x.firstPoll
}

// waitFirstPoll waits up to d for the first poll of the list to end, and
// reports whether a list is stored: a wallet's first poll, which starts
// with the token networks', then names its withdrawals' networks at once,
// and waits no longer when the list could not be read.
func (x *tokenNetworkIndex) waitFirstPoll(ctx context.Context, d time.Duration) bool {
	if !x.loaded() && d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-x.firstPollDone():
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return x.loaded()
}

// generation changes with every list stored.
func (x *tokenNetworkIndex) generation() uint64 { return x.changes.Load() }

// split returns the balance token and the network of a network-token id:
// a listed network and token spelt NETWORK_TOKEN, else a listed network
// followed by "_" and the token. An id that is neither (a plain token, or
// one before the list is read) keeps token whole and network "".
func (x *tokenNetworkIndex) split(id string) (token, network string) {
	s := x.v.Load()
	if s == nil {
		return id, ""
	}
	if p, ok := s.pairs[id]; ok {
		return p.token, p.network
	}
	for _, n := range s.networks {
		if rest, ok := strings.CutPrefix(id, n+"_"); ok && rest != "" {
			return rest, n
		}
	}
	return id, ""
}

// loaded reports whether a list has been stored.
func (x *tokenNetworkIndex) loaded() bool { return x.v.Load() != nil }

// splitWithdrawal is split, but a plain id that is itself a listed
// network's name (BTC, ETH) is that network's own token on it: a
// withdrawal is matched against the allow-list by its network, which
// every listed network then has.
func (x *tokenNetworkIndex) splitWithdrawal(id string) (token, network string) {
	token, network = x.split(id)
	if s := x.v.Load(); network == "" && s != nil && slices.Contains(s.networks, id) {
		return id, id
	}
	return token, network
}
