// Package blocks keeps a growing sequence of values in blocks that never
// move once full: a million values cost their own size, not, while one
// slice grows, the old and the new array at once.
package blocks

// List holds values in order, in Blocks. The first block starts at First
// values and doubles up to Size; every later block holds Size values.
// First and Size must be set (First <= Size) before the first Add.
type List[T any] struct {
	Blocks      [][]T
	First, Size int
}

// Add appends v.
func (l *List[T]) Add(v T) {
	k := len(l.Blocks) - 1
	switch {
	case k < 0:
		l.Blocks = append(l.Blocks, make([]T, 0, l.First))
		k = 0
	case len(l.Blocks[k]) < cap(l.Blocks[k]):
	case cap(l.Blocks[k]) < l.Size:
		b := make([]T, len(l.Blocks[k]), min(2*cap(l.Blocks[k]), l.Size))
		copy(b, l.Blocks[k])
		l.Blocks[k] = b
	default:
		l.Blocks = append(l.Blocks, make([]T, 0, l.Size))
		k++
	}
	l.Blocks[k] = append(l.Blocks[k], v)
}
