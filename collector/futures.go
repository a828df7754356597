package collector

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

func futuresDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(namespace, "futures", name), help+refreshed, []string{"symbol"}, nil)
}

// futuresGauges are the fields of a perpetual exported; a field the
// exchange sent as null or not at all is left out, the others stand.
var futuresGauges = []gauge[client.Perpetual]{
	{futuresDesc("est_funding_rate", "The funding rate the exchange expects at the perpetual's next settlement: positive, longs pay shorts; "+
		"a position pays about its notional times this rate."),
		func(p *client.Perpetual) *decimal.Decimal { return p.EstFundingRate }},
	{futuresDesc("last_funding_rate", "The funding rate of the perpetual's last settlement."),
		func(p *client.Perpetual) *decimal.Decimal { return p.LastFundingRate }},
	{futuresDesc("next_funding_timestamp_seconds", "Unix time of the perpetual's next funding settlement, as the exchange sends it."),
		func(p *client.Perpetual) *decimal.Decimal {
			if p.NextFundingTimeMs == 0 {
				return nil
			}
			v := decimal.New(p.NextFundingTimeMs, -3)
			return &v
		}},
	{futuresDesc("mark_price", "The perpetual's mark price, in its quote currency."),
		func(p *client.Perpetual) *decimal.Decimal { return p.MarkPrice }},
	{futuresDesc("index_price", "The perpetual's index price, in its quote currency."),
		func(p *client.Perpetual) *decimal.Decimal { return p.IndexPrice }},
}

// FuturesAPI reads the public perpetuals.
type FuturesAPI interface {
	Perpetuals(ctx context.Context) ([]client.Perpetual, []client.RejectedRow, error)
}

func init() { register(endpoint.Futures, buildFutures) }

// buildFutures polls the public perpetuals once per exporter.
func buildFutures(b *builder) (prometheus.Collector, error) {
	var read func(context.Context) ([]client.Perpetual, []client.RejectedRow, error)
	if api, ok := b.cfg.Public.(FuturesAPI); ok {
		read = api.Perpetuals
	}
	return pollPublic(b, descsOf(futuresGauges), func(ch chan<- prometheus.Metric, rows []client.Perpetual) {
		for i := range rows {
			emitGauges(ch, futuresGauges, &rows[i], rows[i].Symbol)
		}
	}, read), nil
}
