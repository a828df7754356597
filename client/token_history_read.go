package client

import (
	"bytes"
	"encoding/json"
	"strings"
)

// A token history page is read as json.Unmarshal reads it into historyData
// and each row into historyFields, but with the rows and their fields left
// as slices of the answer: a page of a thousand rows is not copied twice
// over. A page or row that is not the plain case (a name in another case,
// a name twice, a value of a wrong type) goes through json.Unmarshal as
// before, which words the error.

// readHistoryData is decodeData of data into historyData.
func readHistoryData(data json.RawMessage) (historyData, error) {
	var d historyData
	if checkData(data) == nil {
		if t := bytes.TrimSpace(data); t[0] == '{' && d.readMembers(t) {
			return d, nil
		}
	}
	d = historyData{}
	err := decodeData(data, &d)
	return d, err
}

// readMembers reads the members of the valid JSON object obj; false when
// one needs encoding/json.
func (d *historyData) readMembers(obj []byte) bool {
	ok, rows, meta := true, false, false
	objectMembers(obj, func(name, v []byte) {
		switch {
		case !ok:
		case string(name) == "rows" && !rows:
			rows = true
			switch {
			case v[0] == '[':
				d.Rows = arrayElements(v)
			case string(v) != "null":
				ok = false
			}
		case string(name) == "meta" && !meta:
			meta = true
			if string(v) != "null" {
				d.Meta = new(pageMeta)
				ok = d.Meta.decode(v) == nil
			}
		default:
			ok = !foldsTo(name, "rows", "meta")
		}
	})
	return ok
}

// readHistoryFields reads a row as json.Unmarshal reads it into
// historyFields; ok is false when the row needs json.Unmarshal. raw is a
// row readHistoryData gave, valid JSON.
func readHistoryFields(raw json.RawMessage) (f historyFields, ok bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return f, false
	}
	ok = true
	objectMembers(raw, func(name, v []byte) {
		switch string(name) {
		case "id":
			f.ID = v
		case "type":
			f.Type = v
		case "token":
			f.Token = v
		case "amount":
			f.Amount = v
		case "timestamp":
			f.Timestamp = v
		default:
			ok = ok && !foldsTo(name, "id", "type", "token", "amount", "timestamp")
		}
	})
	return f, ok
}

// foldsTo reports whether name is one of names in another case, as
// encoding/json matches a name to a field.
func foldsTo(name []byte, names ...string) bool {
	for _, n := range names {
		if strings.EqualFold(string(name), n) {
			return true
		}
	}
	return false
}
