package fakeexchange

import (
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() { addRoute(endpoint.FundingFee, fundingFees.route()) }

// fundingFees answer as the docs' example: a paged history, newest first, on
// createdTime, a symbol filter, fundingRate a JSON number. The unreadable row
// (id 900000001, ...) has no fundingFee.
var fundingFees = &rowsEndpoint[FundingFee]{name: endpoint.FundingFee, section: "funding_fees", event: "funding_fee",
	sorted: true, change: replace, paged: true, late: true, filters: []string{"symbol"},
	history:  func(f FundingFee) int64 { return f.CreatedTime },
	scenario: func(_ *Scenario, a Account) []FundingFee { return a.FundingFees },
	place: func(_ *FundingFee, f FundingFee, at time.Time) FundingFee {
		if f.CreatedAgo != 0 {
			f.CreatedTime, f.CreatedAgo = at.Add(-f.CreatedAgo).UnixMilli(), 0
		}
		f.UpdatedTime = max(f.UpdatedTime, f.CreatedTime)
		return f
	},
	unreadable: func(e *Exchange, i int) any {
		return e.render(FundingFee{ID: 900_000_001 + int64(i), Symbol: "PERP_BTC_USDT", PaymentType: "Pay", CreatedTime: e.now().UnixMilli()})
	},
}

// FundingFee is a funding payment: an unsigned fee, PaymentType Pay or Receive.
type FundingFee struct {
	ID                   int64  `yaml:"id" wire:"id,integer,key"`
	Symbol               string `yaml:"symbol" wire:"symbol,required"`
	FundingRate          string `yaml:"funding_rate" wire:"fundingRate,number"`
	MarkPrice            string `yaml:"mark_price" wire:"markPrice,decimal"`
	FundingFee           string `yaml:"funding_fee" wire:"fundingFee,decimal"`
	FundingIntervalHours int64  `yaml:"funding_interval_hours" wire:"fundingIntervalHours,integer"`
	PaymentType          string `yaml:"payment_type" wire:"paymentType,required"`
	Status               string `yaml:"status" wire:"status"`
	// CreatedTime is Unix ms; CreatedAgo, set instead, is before New (or the
	// event). UpdatedTime 0 serves CreatedTime.
	CreatedTime int64         `yaml:"created_time" wire:"createdTime,row_time"`
	CreatedAgo  time.Duration `yaml:"created_ago"`
	UpdatedTime int64         `yaml:"updated_time" wire:"updatedTime,row_time"`
}

func (f FundingFee) check() error {
	return fieldErrIf((f.CreatedTime == 0) == (f.CreatedAgo == 0), "created_ago", "set either created_time or created_ago")
}
