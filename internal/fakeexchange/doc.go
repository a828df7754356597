// Package fakeexchange is an in-process fake of the WOO X v3 REST API,
// faithful enough that a client bug it lets through would most likely pass
// against the real exchange too.
//
// It serves every endpoint of the endpoint table, one file each, through one
// generic path (rowsEndpoint: rows whose wire tags say how each field is
// sent, served whole or a page at a time), with the real envelope,
// authentication, per-account rate limits, strict query validation,
// newest-first pagination and injectable faults. By default it answers in
// the shapes captured from the real exchange (client/testdata/captures), or
// of the docs' examples; the readings public sources leave open are
// scenario fields, so tests show the exporter copes with each.
//
// An endpoint's data is set one way: by a scenario (YAML or Go;
// testdata/example.yaml shows every key) at New, then by events (Event),
// timed by the scenario or applied at once by Apply.
//
// Choices where the public documentation is silent, which tests rely on:
//
//   - Order of checks: route (404, -1006), authentication (401), rate limit
//     (429, -1003), faults, query validation (400, -1004/-1005), answer.
//   - Authentication, in order: x-api-key missing or unknown → -1002;
//     x-api-timestamp missing, not an integer or 300 s or more off server
//     time → -1001; signature missing or wrong → -1001; remote IP (the
//     connection's, unmapped) not in the key's allow-list → -1002; key
//     without READ → -1002.
//   - Rate limits count requests that pass authentication and the limit; a
//     429 does not consume budget, a faulted request does. Public endpoints
//     share 10 requests per second per client IP.
//   - Unknown query parameters are -1004; malformed ones -1005.
//   - Errors carry no top-level timestamp (unless error_timestamp gives a
//     bogus one); successful answers do.
//   - Balances follow the token history: a record added after New moves its
//     token's holding (and available balance) in the same step; the
//     scenario's own history does not.
package fakeexchange
