package collector

import (
	"context"
	"sync/atomic"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

// SubAccountsAPI reads the sub-accounts of a main account.
type SubAccountsAPI interface {
	SubAccounts(ctx context.Context) ([]client.SubAccount, []client.RejectedRow, error)
}

var subAccountInfoDesc = prometheus.NewDesc(
	prometheus.BuildFQName(namespace, "sub_account", "info"),
	"A sub-account of the account, by the exchange's application id and name; always 1."+refreshed,
	[]string{"account", "sub_account_id", "sub_account_name"}, nil)

type subAccounts struct {
	*latest[[]client.SubAccount]
	api    SubAccountsAPI
	logger log.Logger
	cap    *seriesCap
	// refused is set once the exchange refused the key: a sub-account's
	// key may not read sub-accounts, and asking again would only spend
	// the budget. It holds until restart.
	refused atomic.Bool
}

func init() { register(endpoint.SubAccounts, buildSubAccounts) }

// buildSubAccounts polls the sub-accounts of each main account and exports
// them as last polled.
func buildSubAccounts(b *builder) (prometheus.Collector, error) {
	c := &perAccount[[]client.SubAccount]{descs: []*prometheus.Desc{subAccountInfoDesc}, emit: emitSubAccounts}
	for _, a := range b.cfg.Accounts {
		s := &subAccounts{latest: c.add(a.Name), api: a.API, logger: b.cfg.Logger, cap: b.seriesCap(a.Name)}
		b.pollList(c, a.Name, s.poll)
	}
	return collectorOrNil(c, len(c.accounts)), nil
}

// poll reads the sub-accounts. A key the exchange refuses is logged once and
// not asked again: the account is a sub-account, which nobody should be
// paged for.
func (s *subAccounts) poll(ctx context.Context, _ func()) (leftOut, error) {
	if s.refused.Load() {
		return leftOut{}, nil
	}
	subs, rejected, err := s.api.SubAccounts(ctx)
	if client.NotPermitted(err) {
		s.refused.Store(true)
		level.Warn(s.logger).Log("msg", "the exchange refused this account's key on the sub-accounts endpoint (a sub-account's key may not read it); not asking again until restart",
			"account", s.account, "err", err)
		return leftOut{}, nil
	}
	return leftOutOf(rejected, s.set(capRows(s.cap, subs), err))
}

func emitSubAccounts(ch chan<- prometheus.Metric, account string, rows *[]client.SubAccount) {
	for _, r := range *rows {
		ch <- prometheus.MustNewConstMetric(subAccountInfoDesc, prometheus.GaugeValue, 1, account, r.ApplicationID, r.Name)
	}
}
