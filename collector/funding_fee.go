package collector

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/ledger"
)

var (
	fundingFeeLabels = []string{"account", "symbol", "direction"}
	fundingFeesDesc  = prometheus.NewDesc(prometheus.BuildFQName(namespace, "funding_fee", "payments_total"),
		"Funding fee payments of the account's perpetual positions, each counted exactly once by id; direction paid or received."+refreshed,
		fundingFeeLabels, nil)
	fundingFeeAmountDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "funding_fee", "amount_total"),
		"Sum of the funding fees in woox_funding_fee_payments_total, in the symbol's settlement token (USDT for PERP_BTC_USDT)."+refreshed,
		fundingFeeLabels, nil)
)

// fundingFees are each account's funding payments, counted by symbol and
// direction, the symbol folded into Other beyond the series cap.
var fundingFees = newTallyHistory("funding_fees", "funding fees", 0, tallyStateAsIs, tallyStateChecked)

func init() {
	register(endpoint.FundingFee, func(b *builder) (prometheus.Collector, error) {
		return fundingFees.collector(b, readFundingFees, emitFundingFees, fundingFeesDesc, fundingFeeAmountDesc)
	})
}

// readFundingFees reads the completed payments of a query window.
func readFundingFees(ctx context.Context, api *client.Client, startMs, endMs int64) ([]ledger.Counted, []client.RejectedRow, error) {
	rows, rejected, err := api.FundingFees(ctx, startMs, endMs)
	var completed []ledger.Counted
	for _, f := range rows {
		if f.Completed() {
			direction := "received"
			if f.Paid {
				direction = "paid"
			}
			completed = append(completed, ledger.Counted{ID: f.ID, Labels: []string{f.Symbol, direction}, Amount: f.Amount, LatestMs: f.LatestMs()})
		}
	}
	return completed, rejected, err
}

func emitFundingFees(ch chan<- prometheus.Metric, account string, totals *[]ledger.TallyTotal) {
	for _, t := range *totals {
		ch <- prometheus.MustNewConstMetric(fundingFeesDesc, prometheus.CounterValue, float64(t.Records), account, t.Labels[0], t.Labels[1])
		ch <- prometheus.MustNewConstMetric(fundingFeeAmountDesc, prometheus.CounterValue, t.Amount.InexactFloat64(), account, t.Labels[0], t.Labels[1])
	}
}
