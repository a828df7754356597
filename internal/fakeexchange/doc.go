// Package fakeexchange is an in-process fake of the WOO X v3 REST API, faithful
// enough on the endpoints the exporter uses that a client bug it lets
// through would most likely also pass against the real exchange.
//
// It serves every endpoint of the endpoint table (package endpoint), one
// file each, which adds the endpoint's route (addRoute), all through one
// generic path (rowsEndpoint: rows whose wire tags say how each field is
// sent, served whole or a page at a time, changed by events); with the
// real envelope, field names and types, authentication (HMAC-SHA256
// signature over the raw query as received, a ±300 s timestamp window, key
// permissions and IP allow-lists), per-account sliding-window rate limits,
// strict query validation, newest-first pagination, and injectable faults
// (latency, 5xx, malformed or truncated JSON, maintenance, 429 storms,
// connection resets, oversized and HTML bodies).
//
// By default it answers in the shapes of the answers captured from the live
// exchange (client/testdata/captures), and of the docs' examples where none
// was captured; each endpoint's file says which. The shapes this project
// guessed before the captures, and the readings public sources leave open
// (number spellings, time units, late or restamped records, unstable tie
// order, page caps and wrong totals, undocumented types, unreadable rows,
// bogus error timestamps), are scenario fields, so tests can show the
// exporter copes with all of them; the defaults are the documented or most
// likely reading.
//
// An endpoint's data is set one way: a scenario's section of it (YAML or
// Go, see Scenario; testdata/example.yaml shows every key) at New, then
// events (Event), timed by the scenario or applied at once by Apply. The
// token history also takes records by AppendHistory, the credentials list
// rows that disagree with the keys by ListCredentials, and the keys change
// by AddKey, RemoveKey and UpdateKey.
//
// Choices where the public documentation is silent, documented so tests can
// rely on them:
//
//   - Order of checks: route (404, -1006), authentication (401), rate limit
//     (429, -1003), faults, query validation (400, -1004/-1005), answer.
//   - Authentication checks, in order: x-api-key missing or unknown → -1002;
//     x-api-timestamp missing, not an integer or 300 s or more away from
//     server time → -1001; signature missing or wrong → -1001; remote IP not
//     in the key's allow-list → -1002; key without READ → -1002.
//     The remote IP is the host of the connection's address, compared
//     literally after unmapping IPv4-in-IPv6: a key restricted to an
//     allow-list is usable on loopback only if the list holds 127.0.0.1 (or
//     ::1 for IPv6 clients). Keys that the exporter uses in tests must be
//     unrestricted or list 127.0.0.1.
//   - Rate limits count only requests that pass authentication and the limit
//     itself; a request answered 429 does not consume budget. A request that
//     then meets an injected fault has consumed budget, as a request the
//     exchange accepted and then failed would.
//   - Unknown query parameters are rejected with -1004, malformed ones
//     (non-integer, empty, repeated, unknown type, page or size below 1,
//     size above 1000, startTime or endTime not 13 digits of Unix
//     milliseconds, startTime after endTime) with -1005.
//   - Public endpoints admit 10 requests per second per client IP, shared
//     by all of them; private ones their published limit per account and
//     endpoint.
//   - Errors carry no top-level timestamp (unless the scenario's
//     error_timestamp gives them a bogus one); successful answers do.
//   - Every request, including rejected and faulted ones, is kept in the
//     request log returned by Requests, before the first byte of its answer
//     is sent.
//   - Balances follow the token history: every record added after New
//     (AppendHistory, the history generator, events) moves its token's
//     holding, and available balance when the row has one, by its exact
//     amount in the same step (a token without a row gets one from 0); the
//     scenario's own history, dated before creation, does not move its
//     balances, nor does MoveRecord. A balances answer's envelope timestamp
//     is the server time at which its balances were read, and a record the
//     fake dates itself (generator, a late_record without a timestamp) is
//     dated after every balances answer already stamped: an answer holds
//     the money of exactly the records dated at or before its timestamp,
//     those appended with an explicit earlier timestamp aside.
package fakeexchange
