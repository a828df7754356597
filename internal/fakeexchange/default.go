package fakeexchange

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

// DefaultScenario is the built-in scenario used when none is given, a demo
// of every endpoint: accounts "main" (Main, user 12523; keys DefaultMainKey,
// DefaultMainReadKey and DefaultMainTradeKey) and "sub" (Sub-1, user 12524;
// key DefaultSubKey), filled in by each endpoint's demo in its file. Each
// call returns a fresh copy.
func DefaultScenario() *Scenario {
	s := &Scenario{
		Accounts: []Account{
			{
				Name: "main", AccountName: "Main", UserID: 12523,
				Keys: []Key{
					{APIKey: DefaultMainKey, APISecret: DefaultMainSecret, Permissions: []string{"READ", "TRADE", "WITHDRAWAL"}},
					{APIKey: DefaultMainReadKey, APISecret: DefaultMainReadSecret, Permissions: []string{"READ"}, AllowedIPs: []string{"127.0.0.1", "::1"}},
					{APIKey: DefaultMainTradeKey, APISecret: DefaultMainTradeSecret, Permissions: []string{"TRADE"}},
				},
			},
			{
				Name: "sub", AccountName: "Sub-1", UserID: 12524,
				Keys: []Key{
					{APIKey: DefaultSubKey, APISecret: DefaultSubSecret, Permissions: []string{"READ"}},
				},
			},
		},
	}
	for _, ep := range routes {
		if ep.demo != nil {
			ep.demo(s)
		}
	}
	return s
}

// account is the scenario's account called name, for the endpoints' demos
// to fill in; it panics when there is none, as only DefaultScenario's
// accounts are asked for.
func (s *Scenario) account(name string) *Account {
	for i := range s.Accounts {
		if s.Accounts[i].Name == name {
			return &s.Accounts[i]
		}
	}
	panic("fakeexchange: no account " + name)
}
