package client

import (
	"encoding/json"
	"strings"

	"github.com/valyala/fastjson"
)

// A token history page is read as json.Unmarshal reads it into historyData
// and each row into historyFields: names matched in any case, the last of
// a name twice counting. A value of a wrong type goes through
// json.Unmarshal, which words the error.

// readHistoryData is decodeData of data into historyData.
func readHistoryData(data *fastjson.Value) (rows []*fastjson.Value, meta *PageMeta, err error) {
	ok := data.GetObject() != nil
	var pm *pageMeta
	data.GetObject().Visit(func(name []byte, v *fastjson.Value) {
		switch {
		case !ok:
		case strings.EqualFold(string(name), "rows"):
			rows, ok = array(v)
			ok = ok || v == jsonNull
		case strings.EqualFold(string(name), "meta") && v == jsonNull:
			pm = nil
		case strings.EqualFold(string(name), "meta"):
			// A second meta is read into the first, as encoding/json does.
			if pm == nil {
				pm = new(pageMeta)
			}
			ok = json.Unmarshal(v.MarshalTo(nil), pm) == nil
		}
	})
	if !ok {
		return nil, nil, decodeData(data.MarshalTo(nil), new(historyData))
	}
	if pm != nil {
		m := pm.toMeta()
		meta = &m
	}
	return rows, meta, nil
}

// readHistoryFields reads a row as json.Unmarshal reads it into
// historyFields, each field's text appended to buf; ok is false when the
// row is not an object.
func readHistoryFields(row *fastjson.Value, buf []byte) (f historyFields, _ []byte, ok bool) {
	if row.GetObject() == nil {
		return f, buf, false
	}
	row.GetObject().Visit(func(name []byte, v *fastjson.Value) {
		var dst *json.RawMessage
		switch n := string(name); {
		case strings.EqualFold(n, "id"):
			dst = &f.ID
		case strings.EqualFold(n, "type"):
			dst = &f.Type
		case strings.EqualFold(n, "token"):
			dst = &f.Token
		case strings.EqualFold(n, "amount"):
			dst = &f.Amount
		case strings.EqualFold(n, "timestamp"):
			dst = &f.Timestamp
		default:
			return
		}
		start := len(buf)
		buf = v.MarshalTo(buf)
		*dst = buf[start:len(buf):len(buf)]
	})
	return f, buf, true
}
