package pipeline

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/plots"
	"github.com/loadverdict/loadverdict/report"
)

// memoRender makes Analyze reuse, for the rest of t (its subtests
// included), the files Render made of the same verdict, tables, meta and
// format before: Render is a pure function of them, and the fault and
// concurrency matrices analyse the same few inputs in every case, where
// drawing the figures again took most of their time. Every file is
// still written to the store, request by request; only the drawing is
// not repeated. Inputs it cannot key (valueKey) are rendered anew.
func memoRender(t *testing.T) {
	var mu sync.Mutex
	memo := map[[sha256.Size]byte][]File{}
	render = func(v *analyze.Verdict, set analyze.Set, meta report.Meta, format plots.Format) ([]File, error) {
		h := sha256.New()
		if err := valueKey(h, reflect.ValueOf([]any{v, set, meta, format})); err != nil {
			return Render(v, set, meta, format)
		}
		key := [sha256.Size]byte(h.Sum(nil))
		mu.Lock()
		files, ok := memo[key]
		mu.Unlock()
		if ok {
			return slices.Clone(files), nil
		}
		files, err := Render(v, set, meta, format)
		if err == nil {
			mu.Lock()
			memo[key] = slices.Clone(files)
			mu.Unlock()
		}
		return files, err
	}
	t.Cleanup(func() { render = Render })
}

// valueKey writes to h an encoding of v that two values share only when
// they are equal in every field, exported or not: a nil pointer differs
// from a pointer to a zero value, map entries are taken in the order of
// their keys' encodings, floats by their bits. A function or channel
// anywhere in v is an error (no key).
func valueKey(h hash.Hash, v reflect.Value) error {
	var num [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(num[:], x)
		h.Write(num[:])
	}
	str := func(s string) {
		put(uint64(len(s)))
		h.Write([]byte(s))
	}
	if !v.IsValid() {
		str("invalid")
		return nil
	}
	str(v.Type().String())
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			put(1)
		} else {
			put(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		put(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		put(v.Uint())
	case reflect.Float32, reflect.Float64:
		put(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		put(math.Float64bits(real(v.Complex())))
		put(math.Float64bits(imag(v.Complex())))
	case reflect.String:
		str(v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			put(0)
			return nil
		}
		put(1)
		return valueKey(h, v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			put(0)
			return nil
		}
		put(uint64(v.Len()) + 1)
		for i := range v.Len() {
			if err := valueKey(h, v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			str(v.Type().Field(i).Name)
			if err := valueKey(h, v.Field(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.IsNil() {
			put(0)
			return nil
		}
		put(uint64(v.Len()) + 1)
		type entry struct{ k, v [sha256.Size]byte }
		var entries []entry
		for it := v.MapRange(); it.Next(); {
			kh, vh := sha256.New(), sha256.New()
			if err := valueKey(kh, it.Key()); err != nil {
				return err
			}
			if err := valueKey(vh, it.Value()); err != nil {
				return err
			}
			entries = append(entries, entry{[sha256.Size]byte(kh.Sum(nil)), [sha256.Size]byte(vh.Sum(nil))})
		}
		slices.SortFunc(entries, func(a, b entry) int { return slices.Compare(a.k[:], b.k[:]) })
		for _, e := range entries {
			h.Write(e.k[:])
			h.Write(e.v[:])
		}
	default:
		return fmt.Errorf("no key for a %s", v.Kind())
	}
	return nil
}

// TestValueKey: the memo's key tells apart what gob or JSON would not (a
// nil pointer and a pointer to zero, unexported fields, NaN payloads)
// and does not depend on a map's order.
func TestValueKey(t *testing.T) {
	type inner struct {
		P *float64
		q int
	}
	zero, nan := 0.0, math.NaN()
	key := func(v any) [sha256.Size]byte {
		t.Helper()
		h := sha256.New()
		if err := valueKey(h, reflect.ValueOf(v)); err != nil {
			t.Fatal(err)
		}
		return [sha256.Size]byte(h.Sum(nil))
	}
	distinct := []any{inner{}, inner{P: &zero}, inner{q: 1}, inner{P: &nan}, []inner{}, []inner(nil), map[string]int{}, "", 0, int64(0)}
	seen := map[[sha256.Size]byte]int{}
	for i, v := range distinct {
		k := key(v)
		if j, ok := seen[k]; ok {
			t.Errorf("%#v and %#v share a key", distinct[j], v)
		}
		seen[k] = i
	}
	m1, m2 := map[string]int{}, map[string]int{}
	for i := range 100 {
		m1[fmt.Sprint(i)] = i
		m2[fmt.Sprint(99-i)] = 99 - i
	}
	if key(m1) != key(m2) {
		t.Error("equal maps have different keys")
	}
	if key(inner{P: &zero}) != key(inner{P: new(float64)}) {
		t.Error("equal values behind different pointers have different keys")
	}
	if err := valueKey(sha256.New(), reflect.ValueOf(struct{ F func() }{})); err == nil {
		t.Error("a function has a key")
	}
}
