package rulescheck

import (
	"regexp"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// TestDataStaleWatchesEveryEndpoint: WooxDataStale names the endpoints it
// watches in regular expressions, one per group of poll intervals
// (mixin/config.libsonnet, dataStale*Endpoints); an endpoint in none of them
// could stop polling unnoticed.
func TestDataStaleWatchesEveryEndpoint(t *testing.T) {
	var exprs []string
	for _, r := range alerts(t) {
		if r.Alert == "WooxDataStale" {
			exprs = append(exprs, r.Expr)
		}
	}
	if len(exprs) == 0 {
		t.Fatal("no WooxDataStale rule")
	}
	all := strings.Join(exprs, "\n")
	for _, ep := range endpoint.All {
		watched := regexp.MustCompile(`endpoint=~?"([^"]*\|)?` + regexp.QuoteMeta(ep.Name) + `(\|[^"]*)?"`)
		if !watched.MatchString(all) {
			t.Errorf("WooxDataStale watches no endpoint %s: add it to a dataStale*Endpoints group of mixin/config.libsonnet", ep.Name)
		}
	}
}
