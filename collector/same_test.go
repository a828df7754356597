package collector

import (
	"reflect"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
)

// sameSample is one kind of answer in every shape same must tell apart.
type sameSample struct {
	Balances []client.Balance
	Position *client.Position
	ByToken  map[string]int64
	Any      any
	Flags    [2]bool
	Ratio    float64
}

func decPtr(s string) *decimal.Decimal {
	d := dec(s)
	return &d
}

func sameSamples() []sameSample {
	pos := func(mark string) *client.Position {
		return &client.Position{Symbol: "PERP_BTC_USDT", Side: "BOTH", Holding: dec("0.5"), MarkPrice: decPtr(mark)}
	}
	base := func() sameSample {
		return sameSample{
			Balances: []client.Balance{{Token: "USDT", Holding: decPtr("10.5"), Frozen: decPtr("0")}, {Token: "BTC", Holding: decPtr("1")}},
			Position: pos("95000.1"), ByToken: map[string]int64{"USDT": 1, "BTC": 2}, Any: "x", Flags: [2]bool{true, false}, Ratio: 0.5,
		}
	}
	var out []sameSample
	for _, change := range []func(*sameSample){
		func(*sameSample) {},
		func(s *sameSample) { s.Balances[1].Holding = decPtr("1.0") }, // same number, other exponent: DeepEqual tells them apart
		func(s *sameSample) { s.Balances[0].Frozen = nil },
		func(s *sameSample) { s.Balances = s.Balances[:1] },
		func(s *sameSample) { s.Balances = []client.Balance{} },
		func(s *sameSample) { s.Balances = nil },
		func(s *sameSample) { s.Position = pos("95000.2") },
		func(s *sameSample) { s.Position = nil },
		func(s *sameSample) { s.ByToken["BTC"] = 3 },
		func(s *sameSample) { s.ByToken = map[string]int64{"USDT": 1, "ETH": 2} },
		func(s *sameSample) { s.ByToken = nil },
		func(s *sameSample) { s.Any = 1 },
		func(s *sameSample) { s.Any = "y" },
		func(s *sameSample) { s.Balances[0].Token = "USDC" },
		func(s *sameSample) { s.Flags[1] = true },
		func(s *sameSample) { s.Ratio = 0.25 },
	} {
		s := base()
		change(&s)
		out = append(out, s)
	}
	return out
}

func TestSameAgreesWithDeepEqual(t *testing.T) {
	as, bs := sameSamples(), sameSamples() // built apart: no pointer shared
	for i := range as {
		for j := range bs {
			if got, want := same(&as[i], &bs[j]), reflect.DeepEqual(as[i], bs[j]); got != want {
				t.Errorf("samples %d and %d: same %v, reflect.DeepEqual %v", i, j, got, want)
			}
		}
	}
}

func TestSameAllocatesNothingOnAnAnswer(t *testing.T) {
	a, b := sameSamples()[0], sameSamples()[0]
	a.ByToken, b.ByToken = nil, nil // iterating a map allocates its iterator
	if n := testing.AllocsPerRun(100, func() {
		if !same(&a, &b) {
			t.Fatal("equal samples differ")
		}
	}); n != 0 {
		t.Errorf("same allocated %v times comparing an answer", n)
	}
}
