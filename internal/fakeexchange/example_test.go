package fakeexchange_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// A test serves the default scenario on loopback and calls a private
// endpoint with a signed request.
func Example() {
	ex, err := fakeexchange.New(fakeexchange.DefaultScenario())
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(ex)
	defer srv.Close()

	path, query := endpoint.PathOf(endpoint.TokenHistory), "type=WITHDRAW&page=1&size=1"
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path+"?"+query, nil)
	req.Header.Set("x-api-key", fakeexchange.DefaultMainKey)
	req.Header.Set("x-api-timestamp", ts)
	req.Header.Set("x-api-signature", fakeexchange.Sign(fakeexchange.DefaultMainSecret, ts, "GET", path, query))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body[:104]))
	// Output: 200 {"success":true,"data":{"rows":[{"id":1008,"type":"WITHDRAW","token":"BTC","amount":"-0.01","timestamp":
}
