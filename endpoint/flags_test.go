package endpoint

import (
	"slices"
	"testing"
	"time"
)

// An endpoint's flags take its name with dashes, and the interval flag's
// default reads back as the default interval without a trailing zero unit.
func TestFlagNamesAndDefaults(t *testing.T) {
	ep := Endpoint{Name: "token_history", DefaultInterval: 5 * time.Minute}
	if got := []string{ep.CollectorName(), ep.FlagName(), ep.RateLimitFlagName(), ep.DefaultIntervalFlag()}; !slices.Equal(got,
		[]string{"token-history", "token-history.interval", "token-history.rate-limit", "5m"}) {
		t.Errorf("flags of token_history every 5m: %q", got)
	}
	for _, ep := range All {
		d, err := time.ParseDuration(ep.DefaultIntervalFlag())
		if err != nil || d != ep.DefaultInterval {
			t.Errorf("%s: default %q reads as %s, %v; want %s", ep.Name, ep.DefaultIntervalFlag(), d, err, ep.DefaultInterval)
		}
	}
}

// A switch overrides OffByDefault either way, and Names parts the enabled
// endpoints into the public and the per-account ones.
func TestEnabledAndNames(t *testing.T) {
	if (Endpoint{OffByDefault: true}).Enabled(nil) || !(Endpoint{Name: "x", OffByDefault: true}).Enabled(map[string]bool{"x": true}) ||
		(Endpoint{Name: "x"}).Enabled(map[string]bool{"x": false}) || !(Endpoint{Name: "x"}).Enabled(map[string]bool{"y": false}) {
		t.Error("a switch does not override OffByDefault")
	}
	off := map[string]bool{Positions: false}
	public, private := Names(false, off), Names(true, off)
	for _, ep := range All {
		want := ep.Enabled(off)
		if got := slices.Contains(public, ep.Name) || slices.Contains(private, ep.Name); got != want {
			t.Errorf("%s named %v, enabled %v", ep.Name, got, want)
		}
		if slices.Contains(public, ep.Name) == ep.PerAccount && want {
			t.Errorf("%s: named with the wrong kind of client", ep.Name)
		}
	}
	if slices.Contains(private, Positions) || !slices.Contains(private, Balances) || !slices.Contains(public, TokenNetwork) {
		t.Errorf("public %v, per account %v", public, private)
	}
}
