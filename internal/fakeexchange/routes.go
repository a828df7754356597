package fakeexchange

// route is one endpoint the fake serves: ServeHTTP looks requests up here
// and does authentication, rate limits and faults alike for all of them.
// Each endpoint's path, name, wire types and serve function live in its own
// file.
type route struct {
	path, name string
	// public endpoints need no key and share one per-IP budget.
	public bool
	// serve answers a request of account ("" for a public endpoint) with
	// the envelope's data or an error.
	serve func(e *Exchange, account, rawQuery string) (any, *apiError)
}

// routes are every endpoint the fake serves.
var routes = []route{tokenNetworkRoute, credentialsRoute, tokenHistoryRoute, systemInfoRoute,
	accountInfoRoute, balancesRoute, walletHistoryRoute, subAccountsRoute, positionsRoute}

// routeFor finds the endpoint served at path.
func routeFor(path string) (route, bool) {
	for _, r := range routes {
		if r.path == path {
			return r, true
		}
	}
	return route{}, false
}

// knownEndpoint reports whether name is an endpoint the fake serves.
func knownEndpoint(name string) bool {
	_, ok := routeNamed(name)
	return ok
}

// routeNamed finds the endpoint called name.
func routeNamed(name string) (route, bool) {
	for _, r := range routes {
		if r.name == name {
			return r, true
		}
	}
	return route{}, false
}
