package blocks

import (
	"fmt"
	"slices"
	"testing"
)

func TestList(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 16, 17, 64, 65, 200} {
		l := List[int]{First: 4, Size: 16}
		for i := range n {
			l.Add(i)
		}
		var got []int
		for k, b := range l.Blocks {
			if cap(b) > l.Size {
				t.Errorf("n=%d: block %d holds %d values, more than %d", n, k, cap(b), l.Size)
			}
			if k < len(l.Blocks)-1 && len(b) != l.Size {
				t.Errorf("n=%d: block %d of %d holds %d values, not full (%d)", n, k, len(l.Blocks), len(b), l.Size)
			}
			got = append(got, b...)
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: got %v", n, got)
		}
	}
}

func ExampleList() {
	l := List[string]{First: 2, Size: 4}
	for _, s := range []string{"a", "b", "c", "d", "e"} {
		l.Add(s)
	}
	fmt.Println(l.Blocks)
	// Output: [[a b c d] [e]]
}
