// Package endpoint is the one table of the exchange endpoints the exporter
// reads: each endpoint's name, path, published rate limit and the page that
// publishes it, whether it is read per account, paged, how often it is polled
// by default and whether it is off by default; and what follows from them
// alone, such as the names of its flags.
//
// Every layer reads these facts from here rather than spelling them again,
// and loops over All rather than keeping a list of its own: the client's
// budgets and published limits, the collector's pollers and the flags built
// from them, the docs' budget table and the fake exchange's routes. What
// differs by layer stays with the layer, registered against an entry by its
// name: the decoder in the client's file of the endpoint, the build function
// in the collector's, the answer in the fake's.
//
// The package imports nothing from this module, so that all of them may
// import it.
package endpoint
