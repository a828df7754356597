package collector

import "reflect"

// same reports whether a and b hold the same value, as reflect.DeepEqual
// does for the trees of structs, slices, pointers and maps the answers are
// (decimals included), but without DeepEqual's map of visited pointers,
// which it allocates and grows for every pointer compared: answers hold no
// cycles. A kind an answer never holds (func, chan) counts as changed.
func same[T any](a, b *T) bool {
	return sameValue(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem())
}

func sameValue(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Pointer && a.Pointer() == b.Pointer() {
			return true
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Len() == 0 || a.Pointer() == b.Pointer() {
			return true
		}
		return sameElements(a, b)
	case reflect.Array:
		return sameElements(a, b)
	case reflect.Map:
		return sameMap(a, b)
	}
	return false
}

func sameElements(a, b reflect.Value) bool {
	for i := range a.Len() {
		if !sameValue(a.Index(i), b.Index(i)) {
			return false
		}
	}
	return true
}

func sameMap(a, b reflect.Value) bool {
	if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
		return false
	}
	if a.Len() == 0 || a.UnsafePointer() == b.UnsafePointer() {
		return true
	}
	for it := a.MapRange(); it.Next(); {
		v := b.MapIndex(it.Key())
		if !v.IsValid() || !sameValue(it.Value(), v) {
			return false
		}
	}
	return true
}
