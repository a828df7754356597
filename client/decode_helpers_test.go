package client

import (
	"encoding/json"
	"fmt"

	"github.com/valyala/fastjson"
)

// The decoders read the data of an answer the client has parsed; the tests
// hand them data as sent, through parseJSON and readData as the client does.

// viaJSON reads data, an answer's data as sent, with read.
func viaJSON[T any](data json.RawMessage, read func(*fastjson.Value) (T, error)) (out T, err error) {
	parsed := false
	err = parseJSON(data, func(v *fastjson.Value) error {
		parsed = true
		return readData(v, func(v *fastjson.Value) (err error) {
			out, err = read(v)
			return err
		})
	})
	if err != nil && !parsed {
		err = fmt.Errorf("decode data: %w", err)
	}
	return out, err
}

func decodeAccountInfo(data json.RawMessage) (AccountInfo, error) {
	return viaJSON(data, readAccountInfo)
}
func decodeBalances(data json.RawMessage) (list[Balance], error) { return viaJSON(data, readBalances) }
func decodePositions(data json.RawMessage) (list[Position], error) {
	return viaJSON(data, readPositions)
}
func decodeSystemInfo(data json.RawMessage) (SystemInfo, error) { return viaJSON(data, readSystemInfo) }
func decodeHistory(data json.RawMessage) (HistoryPage, error)   { return viaJSON(data, readHistory) }
func decodeTokenNetworks(data json.RawMessage) (list[TokenNetwork], error) {
	return viaJSON(data, readTokenNetworks)
}
func decodeTransferHistory(data json.RawMessage) (list[AccountTransfer], error) {
	return viaJSON(data, readTransferHistory)
}
func decodeWalletHistory(data json.RawMessage) (list[Transfer], error) {
	return viaJSON(data, readWalletHistory)
}
func decodeSubAccountsPage(data json.RawMessage) (subAccountsPage, error) {
	return viaJSON(data, readSubAccountsPage)
}
func decodeSubAccounts(data json.RawMessage) (list[SubAccount], error) {
	p, err := decodeSubAccountsPage(data)
	return p.list, err
}
func decodeTokenConfigPage(data json.RawMessage) (tokenConfigPage, error) {
	return viaJSON(data, readTokenConfigPage)
}
func decodeTokenConfigs(data json.RawMessage) (list[TokenConfig], error) {
	p, err := decodeTokenConfigPage(data)
	return p.list, err
}

type credentialsPage struct {
	list list[Credential]
	meta *PageMeta
}

func decodeCredentials(data json.RawMessage) (list[Credential], *PageMeta, error) {
	p, err := viaJSON(data, func(v *fastjson.Value) (p credentialsPage, err error) {
		p.list, p.meta, err = readCredentials(v)
		return p, err
	})
	return p.list, p.meta, err
}

// decodeFields reads raw, a JSON object as sent, as the decoders read a
// row. Its parser is its own: the fields live as long as they are used.
func decodeFields(raw json.RawMessage) (fields, error) {
	var p fastjson.Parser
	v, err := p.ParseBytes(raw)
	if err != nil {
		return fields{}, err
	}
	var f fields
	err = readFields(&f, v)
	return f, err
}

// rawEnvelope is the envelope as encoding/json reads it: data and
// timestamp as sent.
type rawEnvelope struct {
	Success   *bool           `json:"success"`
	Code      flexInt         `json:"code"`
	Message   string          `json:"message"`
	Timestamp json.RawMessage `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// serverTimeOf is the server time the client reads in body's envelope.
func serverTimeOf(body []byte) (ms int64, err error) {
	err = decodeEnvelope(body, func(env envelope, err error) error {
		ms = env.serverTimeMs()
		return err
	})
	return ms, err
}
