package fakeexchange

import _ "embed"

// Keys of DefaultScenario, for end-to-end configurations. They are fake and
// grant nothing anywhere else.
const (
	// DefaultMainKey is an unrestricted READ/TRADE/WITHDRAWAL key of account "main".
	DefaultMainKey    = "fake-main-withdraw-key=="
	DefaultMainSecret = "FAKEMAINWITHDRAWSECRET000001"
	// DefaultMainReadKey is a READ-only key of "main" restricted to 127.0.0.1 and ::1.
	DefaultMainReadKey    = "fake-main-read-key=="
	DefaultMainReadSecret = "FAKEMAINREADSECRET0000000002"
	// DefaultMainTradeKey is a TRADE-only key of "main": private calls with it fail (-1002).
	DefaultMainTradeKey    = "fake-main-trade-key=="
	DefaultMainTradeSecret = "FAKEMAINTRADESECRET000000003"
	// DefaultSubKey is an unrestricted READ key of account "sub".
	DefaultSubKey    = "fake-sub-read-key=="
	DefaultSubSecret = "FAKESUBREADSECRET00000000004"
)

// defaultYAML is DefaultScenario's data (default.yaml).
//
//go:embed default.yaml
var defaultYAML []byte

// DefaultScenario is the built-in scenario used when none is given, a demo
// of every endpoint (default.yaml): accounts "main" (Main, user 12523; keys
// DefaultMainKey, DefaultMainReadKey and DefaultMainTradeKey) and "sub"
// (Sub-1, user 12524; key DefaultSubKey). Each call returns a fresh copy.
func DefaultScenario() *Scenario {
	s, err := ParseScenario(defaultYAML)
	if err != nil {
		panic("fakeexchange: default.yaml: " + err.Error())
	}
	return s
}
